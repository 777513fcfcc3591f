import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Linear(4, 1)
criterion = nn.MSELoss()


def epoch(batches):
    total = 0
    for x, y in batches:
        total = total + criterion(model(x), y)
    return total


loss = epoch([(torch.randn(8, 4), torch.randn(8, 1)) for _ in range(3)])
loss.backward()
print(model.weight.grad.sum().item())
