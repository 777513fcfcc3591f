import torch
import torch.nn as nn
from torch.nn.utils.rnn import pack_sequence


class Tagger(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 2)
        self.forward = self.packed

    def forward(self, x):
        out = self.fc(x)
        return {"clip": torch.sigmoid(out), "emb": out}

    def packed(self, x):
        return {k: pack_sequence(list(v)) for k, v in Tagger.forward(self, x).items()}
