import torch
import torch.nn as nn

import functools
from torch.nn.utils.rnn import pack_sequence

def packed(fn):
    @functools.wraps(fn)
    def inner(*a, **k):
        return {key: pack_sequence(list(v)) for key, v in fn(*a, **k).items()}
    return inner

class Tagger(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 2)

    @packed
    def forward(self, x):
        out = self.fc(x)
        return {"clip": torch.sigmoid(out), "emb": out}
