import torch
import torch.nn as nn

import functools

def as_number(fn):
    @functools.wraps(fn)
    def inner(*a, **k):
        return fn(*a, **k).item()
    return inner

class LossNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 1)
        self.crit = nn.MSELoss()

    @as_number
    def forward(self, x, y):
        return self.crit(self.fc(x), y)
