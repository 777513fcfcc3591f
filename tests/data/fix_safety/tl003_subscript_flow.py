import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Linear(4, 1)
criterion = nn.MSELoss()


def compute_loss(batches):
    out = {}
    total = 0
    for x, y in batches:
        total += criterion(model(x), y)
    out["loss"] = total
    return out


batches = [(torch.randn(8, 4), torch.randn(8, 1)) for _ in range(3)]
compute_loss(batches)["loss"].backward()
print(model.weight.grad.sum().item())
