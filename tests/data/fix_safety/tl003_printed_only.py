import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Linear(4, 1)
criterion = nn.MSELoss()
opt = torch.optim.SGD(model.parameters(), lr=0.1)
batches = [(torch.randn(8, 4), torch.randn(8, 1)) for _ in range(3)]
total = 0
for x, y in batches:
    loss = criterion(model(x), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    total += loss
print(f"mean loss: {total / len(batches):.4f}")
print(model.weight.sum().item())
