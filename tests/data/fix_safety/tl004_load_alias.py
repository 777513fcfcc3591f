import torch
import torch.nn as nn
from torch import load as tload


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(3, 2)

    def forward(self, x):
        return self.fc(x)


torch.manual_seed(0)
model = Net()
torch.save(model, "net_a.pt")
restored = tload("net_a.pt", weights_only=False)
print("out:", restored(torch.ones(1, 3)).sum().item())
