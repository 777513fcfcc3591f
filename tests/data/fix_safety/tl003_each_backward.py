import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Linear(4, 1)
criterion = nn.MSELoss()
losses = []
for _ in range(3):
    x, y = torch.randn(8, 4), torch.randn(8, 1)
    losses.append(criterion(model(x), y))
grads = [torch.autograd.grad(item, model.weight, retain_graph=True)[0].sum().item() for item in losses]
print(grads)
