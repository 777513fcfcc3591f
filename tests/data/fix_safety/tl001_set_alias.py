import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Linear(3, 2)
model.bias.data.set_(torch.zeros(5))
print(tuple(model.bias.shape), model.bias.sum().item())
