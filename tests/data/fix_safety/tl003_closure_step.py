import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Linear(4, 1)
criterion = nn.MSELoss()
opt = torch.optim.LBFGS(model.parameters(), max_iter=2)
batches = [(torch.randn(8, 4), torch.randn(8, 1)) for _ in range(2)]


def closure():
    opt.zero_grad()
    total = 0
    for x, y in batches:
        total += criterion(model(x), y)
    total.backward()
    return total


opt.step(closure)
print(round(model.weight.sum().item(), 5))
