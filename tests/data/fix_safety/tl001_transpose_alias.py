import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Linear(3, 2)
model.weight.data.t_()
print(tuple(model.weight.shape))
print(model(torch.ones(1, 3)).sum().item())
