import torch
import torch.nn as nn
from torch.nn.utils.rnn import pack_sequence

def pack_mask(module, args):
    x, mask = args
    return x, pack_sequence(list(mask))

class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 4)
        self.register_forward_pre_hook(pack_mask)

    def forward(self, x, mask=None):
        print(type(mask).__name__, mask.data.shape)
        return self.fc(x)

mel = Block()
mel(torch.ones(2, 4), torch.ones(2, 3))
