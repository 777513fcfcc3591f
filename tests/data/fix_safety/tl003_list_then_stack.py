import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Linear(4, 1)
criterion = nn.MSELoss()
losses = []
for _ in range(3):
    x, y = torch.randn(8, 4), torch.randn(8, 1)
    losses.append(criterion(model(x), y))
stats = {"n": len(losses)}
mean = torch.stack(losses).mean()
stats["mean"] = mean
stats["mean"].backward()
print(model.weight.grad.sum().item())
