import torch
import torch.nn as nn

import functools

def as_numbers(fn):
    @functools.wraps(fn)
    def inner(*a, **k):
        return {key: value.item() if value.numel() == 1 else value for key, value in fn(*a, **k).items()}
    return inner

class LossNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 1)
        self.crit = nn.MSELoss()

    @as_numbers
    def forward(self, x, y):
        out = self.fc(x)
        return {"mse": self.crit(out, y), "out": out}
