import logging
import sys

import torch
import torch.nn as nn

logging.basicConfig(stream=sys.stdout, format="%(message)s", level=logging.INFO)
torch.manual_seed(0)
model = nn.Linear(4, 1)
criterion = nn.MSELoss()
opt = torch.optim.SGD(model.parameters(), lr=0.1)
total = 0
for _ in range(3):
    x, y = torch.randn(8, 4), torch.randn(8, 1)
    loss = criterion(model(x), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    total += loss
logging.info("mean %.6f", float(total / 3))
print(f"{(total / 3).item():.6f}", model.weight.sum().item())
