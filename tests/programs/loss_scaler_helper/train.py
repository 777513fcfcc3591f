"""Multi-crop training (DINO/SwAV style): the per-crop losses of a batch are summed, then a
helper backpropagates the total (review W2): `loss_scaler(loss, optimizer)` from utils.py, and
a plain function for the warm-up epoch."""

import torch
import torch.nn as nn

from utils import NativeScaler, backward_and_step

torch.set_num_threads(1)
torch.manual_seed(0)

model = nn.Sequential(nn.Linear(12, 24), nn.GELU(), nn.Linear(24, 4))
criterion = nn.CrossEntropyLoss()
optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
loss_scaler = NativeScaler(clip_grad=1.0)
batches = [(torch.randn(3, 6, 12), torch.randint(0, 4, (6,))) for _ in range(4)]


def train_one_epoch(epoch, warmup):
    for crops, target in batches:
        loss = 0
        for crop in crops:
            loss += criterion(model(crop), target)
        loss = loss / len(crops)
        if warmup:
            backward_and_step(loss, optimizer)
        else:
            optimizer.zero_grad()
            loss_scaler(loss, optimizer, parameters=model.parameters())
        print(f"epoch{epoch}.loss:", loss.item())


def train_views(epoch):
    for crops, target in batches:
        total = 0
        for crop in crops:
            total = total + criterion(model(crop), target)
        optimizer.zero_grad()
        loss_scaler(total / len(crops), optimizer, parameters=model.parameters())
        print(f"epoch{epoch}.views_loss:", total.item())


train_one_epoch(0, warmup=True)
train_one_epoch(1, warmup=False)
train_views(2)
print("weight:", model[2].weight.flatten().tolist())
