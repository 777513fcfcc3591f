import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Linear(3, 2)
for p in model.parameters():
    p.data.detach_()
model(torch.ones(1, 3)).sum().backward()
print(model.weight.grad.sum().item())
