import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Linear(4, 1)
criterion = nn.MSELoss()
batches = [(torch.randn(8, 4), torch.randn(8, 1)) for _ in range(3)]
total = 0
for x, y in batches:
    total = total + criterion(model(x), y)
step = lambda: total.backward()
step()
print(model.weight.grad.sum().item())
