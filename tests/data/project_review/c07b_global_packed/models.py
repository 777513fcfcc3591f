import torch
import torch.nn as nn

from torch.nn.utils.rnn import pack_padded_sequence

def post(lengths):
    OUT["clip"] = pack_padded_sequence(OUT["clip"], lengths, batch_first=True, enforce_sorted=False)

class Tagger(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 2)

    def forward(self, x, lengths):
        global OUT
        OUT = {"clip": torch.sigmoid(self.fc(x)), "emb": x}
        post(lengths)
        return OUT
