"""Trains under nn.DataParallel (as one-machine repos did) with a loss averaged over micro-batches
that reaches backward through a list, freezes a parameter through `.data`, logs parameter names,
and saves the wrapper's state_dict, which evaluate.py loads with the `module.` prefix stripped."""

import os

import torch
import torch.nn as nn

from net import Classifier

torch.set_num_threads(1)
torch.manual_seed(0)

model = Classifier()
model.head.bias.data.requires_grad_(False)
model = nn.DataParallel(model)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
criterion = nn.CrossEntropyLoss()
data = [(torch.randn(8, 4), torch.randint(0, 3, (8,))) for _ in range(4)]

print("param_names:", [name for name, _ in model.named_parameters()])
for step in range(3):
    pending = []
    total = 0
    for x, y in data:
        total += criterion(model(x), y)
    pending.append(total / len(data))
    optimizer.zero_grad()
    torch.stack(pending).sum().backward()
    optimizer.step()
    print(f"step{step}.loss:", pending[0].item())

os.makedirs("out", exist_ok=True)
torch.save(model.state_dict(), os.path.join("out", "dp_weights.pt"))
