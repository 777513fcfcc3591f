import torch
import torch.nn as nn
from torch.nn.utils.rnn import pack_sequence


def pack_first(items):
    items[0] = pack_sequence(list(torch.sigmoid(items[0])))


class Tagger(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 2)

    def forward(self, x):
        out = self.fc(x)
        feats = [out, out]
        res = {"feats": feats, "emb": out}
        pack_first(feats)
        return res
