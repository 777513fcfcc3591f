import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Linear(4, 1)
criterion = nn.MSELoss()


def losses(groups):
    for group in groups:
        total = 0
        for x, y in group:
            total += criterion(model(x), y)
        yield total


groups = [[(torch.randn(8, 4), torch.randn(8, 1)) for _ in range(2)] for _ in range(2)]
for loss in losses(groups):
    loss.backward()
print(model.weight.grad.sum().item())
