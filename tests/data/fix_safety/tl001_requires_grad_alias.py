import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Linear(3, 2)
model.weight.data.requires_grad_(False)
out = model(torch.ones(1, 3)).sum()
out.backward()
print(model.weight.requires_grad, model.weight.grad is None)
