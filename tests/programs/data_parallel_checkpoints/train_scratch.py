"""Trains from scratch with the common `nn.DataParallel(model).cuda()` / `.to(device)` chains
and reports per-step losses and gradients (nothing reads the wrapper's `.module`)."""

import torch
import torch.nn as nn

from net import ConvNet

torch.set_num_threads(1)
torch.manual_seed(1)
device = torch.device("cpu")

model = ConvNet()
if torch.cuda.is_available():
    print("Let's use", torch.cuda.device_count(), "GPUs!")
    model = nn.DataParallel(model).cuda()
else:
    model = nn.DataParallel(model).to(device)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
criterion = nn.CrossEntropyLoss()
images, targets = torch.randn(8, 1, 8, 8), torch.randint(0, 3, (8,))
for step in range(3):
    output = model(images.to(device))
    loss = criterion(output, targets.to(device))
    optimizer.zero_grad()
    loss.backward()
    print(f"scratch.step{step}.grad_norm:", sum(p.grad.norm() ** 2 for p in model.parameters()).sqrt().item())
    optimizer.step()
    print(f"scratch.step{step}.loss:", loss.item())
