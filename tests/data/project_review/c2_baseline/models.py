import torch
import torch.nn as nn
from torch.nn.utils.rnn import pack_sequence


class Tagger(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 2)

    def forward(self, x):
        out = self.fc(x)
        feats = [out, out]
        return {"feats": feats, "emb": out}
