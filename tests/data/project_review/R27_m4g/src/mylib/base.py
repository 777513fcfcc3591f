import torch
import torch.nn as nn


class Base(nn.Module):
    """Subclass and set `self.scale` (a Parameter, or anything with `.data`)."""

    def summary(self):
        return len(self.scale.data)


class Learned(Base):
    def __init__(self):
        super().__init__()
        self.scale = nn.Parameter(torch.ones(4))
