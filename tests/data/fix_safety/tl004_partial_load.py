import functools

import torch
import torch.nn as nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(3, 2)

    def forward(self, x):
        return self.fc(x)


load_full = functools.partial(torch.load, weights_only=False)
torch.manual_seed(0)
model = Net()
torch.save(model, "net_d.pt")
restored = load_full("net_d.pt")
print("out:", restored(torch.ones(1, 3)).sum().item())
