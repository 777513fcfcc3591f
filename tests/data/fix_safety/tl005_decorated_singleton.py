import torch
import torch.nn as nn


def singleton(cls):
    return cls()


class Runner:
    """What the decorator below makes of a class: an object that is not callable."""

    def __init__(self, cls):
        self.cls = cls

    def forward(self, x):
        return self.cls()(x)


@singleton
class Scale(nn.Module):
    def forward(self, x):
        return x * 2


@Runner
class Shift(nn.Module):
    def forward(self, x):
        return x + 1


# `Scale` is the instance the decorator made: calling it runs forward and gives a tensor
doubled = Scale(torch.ones(2))
print(doubled.sum().item())
shifted = Shift.forward(torch.ones(2))
print(shifted.tolist())
