import collections
import torch
import torch.nn as nn

Table = collections.namedtuple("Table", "data index")


class Base(nn.Module):
    def summary(self):
        return len(self.scale.data)      # a Parameter's rows, or a Table's entries


class Learned(Base):
    def __init__(self):
        super().__init__()
        self.scale = nn.Parameter(torch.ones(4))


class Fixed(Base):
    @property
    def scale(self):
        return Table([1.0, 2.0], [0, 1])


print(Learned().summary(), Fixed().summary())
