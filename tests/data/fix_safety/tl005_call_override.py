import torch
import torch.nn as nn


class Scaled(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(2, 2)

    def forward(self, x):
        return self.lin(x)

    def __call__(self, x):
        return self.run(x)

    def run(self, x):
        return self.forward(x) * 2


torch.manual_seed(0)
m = Scaled()
print(m(torch.ones(1, 2)).sum().item())
print(m.forward(torch.ones(1, 2)).sum().item())
