import torch
import torch.nn as nn

torch.manual_seed(0)
m = nn.Linear(2, 2)
y = m(torch.ones(1, 2)).data.sum()
m.weight.data, m.bias.data = torch.zeros(2, 2), torch.zeros(2)
m.bias.data: torch.Tensor = torch.ones(2)
print(y.item(), m.weight.sum().item(), m.bias.sum().item())
[m.bias.data] = [torch.full((2,), 3.0)]
print(m.bias.sum().item())
