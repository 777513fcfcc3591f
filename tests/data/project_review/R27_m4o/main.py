import collections
import torch
import torch.nn as nn

Table = collections.namedtuple("Table", "data index")


class Base(nn.Module):
    def load_table(self, rows):
        setattr(self, "scale", Table(rows, list(range(len(rows)))))

    def summary(self):
        return len(self.scale.data)


class Learned(Base):
    def __init__(self):
        super().__init__()
        self.scale = nn.Parameter(torch.ones(4))


b = Base()
b.load_table([1.0, 2.0])
print(Learned().summary(), b.summary())
