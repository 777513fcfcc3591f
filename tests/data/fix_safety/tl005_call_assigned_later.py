import torch
import torch.nn as nn


class Box:
    def __init__(self, value):
        self.value = value


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(3, 1)

    def forward(self, x):
        return self.fc(x)


# the class's `__call__` is replaced after it is defined: calling an instance no longer runs forward
Net.__call__ = lambda self, x: Box(self.forward(x).sum().item())
torch.manual_seed(0)
net = Net()
out = net(torch.ones(2, 3))
print(round(out.value, 4))
print(net.forward(torch.ones(1, 3)).shape)
