"""Gradient accumulation where the loss travels through a dict, as detectron2/mmdet-style loss
dicts do: micro-batch losses are summed in a helper, returned as `losses["loss"]` and
backpropagated by the caller. An epoch-loss accumulator for logging sits beside it."""

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.set_num_threads(1)
torch.manual_seed(0)


class Regressor(nn.Module):
    def __init__(self):
        super().__init__()
        self.backbone = nn.Sequential(nn.Linear(6, 16), nn.ReLU(), nn.Linear(16, 8), nn.ReLU())
        self.head = nn.Linear(8, 1)
        self.aux_head = nn.Linear(8, 1)

    def forward(self, x):
        features = self.backbone(x)
        return self.head(features), self.aux_head(features)


model = Regressor()
criterion = nn.SmoothL1Loss()
optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
data = [(torch.randn(4, 6), torch.randn(4, 1)) for _ in range(12)]
ACCUM_STEPS = 3


def compute_losses(micro_batches):
    losses = {}
    total = 0
    for x, y in micro_batches:
        pred, aux = model(x)
        total += criterion(pred, y) + 0.1 * F.mse_loss(aux, y)
    losses["loss"] = total / len(micro_batches)
    return losses


def accumulate_in_dict(micro_batches):
    loss_dict = {"total": 0.0}
    for x, y in micro_batches:
        pred, _ = model(x)
        loss_dict["total"] += criterion(pred, y) / len(micro_batches)
    return loss_dict


for epoch in range(2):
    epoch_loss = 0
    for step in range(0, len(data), ACCUM_STEPS):
        optimizer.zero_grad()
        losses = compute_losses(data[step : step + ACCUM_STEPS])
        losses["loss"].backward()
        optimizer.step()
        print(f"epoch{epoch}.step{step}.loss:", losses["loss"].item())
    for x, y in data:
        optimizer.zero_grad()
        pred, aux = model(x)
        loss = criterion(pred, y)
        loss.backward()
        optimizer.step()
        epoch_loss += loss
    print(f"epoch{epoch}.epoch_loss:", epoch_loss.item())

optimizer.zero_grad()
accumulate_in_dict(data[:4])["total"].backward()
print("head.grad:", model.head.weight.grad.flatten().tolist())
print("head.weight:", model.head.weight.flatten().tolist())
