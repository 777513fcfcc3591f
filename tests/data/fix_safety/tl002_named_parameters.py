import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(3, 2), nn.ReLU())
model = nn.DataParallel(model)
decay = [n for n, p in model.named_parameters() if not n.endswith("bias")]
print(decay)
