import torch
import torch.nn as nn
from torch.nn.utils.rnn import pack_sequence


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(4, 4)

    def forward(self, x, extras):
        h = self.lin(x)
        x = torch.relu(h)
        queue = iter(extras)
        while (h := next(queue, None)) is not None:   # a queued input, if any, replaces x
            x = h.float()
        return self.pool(x)

    def pool(self, fea):
        return fea.data.sum()


if __name__ == "__main__":
    torch.manual_seed(0)
    packed = pack_sequence([torch.ones(3, 4), torch.ones(2, 4)])
    print(Net()(torch.ones(2, 4), [packed]))
