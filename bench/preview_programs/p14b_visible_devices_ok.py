import os

os.environ["CUDA_VISIBLE_DEVICES"] = os.environ.get("GPU_ID", "0")
os.environ["TOKENIZERS_PARALLELISM"] = "false"

import torch  # noqa: E402

print("GPUs available:", torch.cuda.device_count())
model = torch.nn.Linear(4, 4)
if torch.cuda.is_available():
    model = model.cuda()
