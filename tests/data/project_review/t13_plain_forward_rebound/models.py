import torch
import torch.nn as nn

def scalar_forward(self, x, y):
    return self.crit(self.fc(x), y).item()

class LossNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 1)
        self.crit = nn.MSELoss()

    def forward(self, x, y):
        return self.crit(self.fc(x), y)

    forward = scalar_forward
