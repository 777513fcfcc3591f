import torch
import torch.nn as nn

def to_number():
    OUT["mse"] = OUT["mse"].item()

class LossNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 1)
        self.crit = nn.MSELoss()

    def forward(self, x, y):
        global OUT
        out = self.fc(x)
        OUT = {"mse": self.crit(out, y), "out": out}
        to_number()
        return OUT
