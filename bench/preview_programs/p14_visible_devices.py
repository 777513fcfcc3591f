import os

import torch
import torch.nn as nn

print("GPUs available:", torch.cuda.device_count())
os.environ["CUDA_VISIBLE_DEVICES"] = "1"  # expect: TL725

model = nn.Linear(4, 4)
if torch.cuda.is_available():
    model = model.cuda()
print(model)
