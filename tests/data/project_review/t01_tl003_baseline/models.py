import torch
import torch.nn as nn

class LossNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 1)
        self.crit = nn.MSELoss()

    def forward(self, x, y):
        out = self.fc(x)
        return {"mse": self.crit(out, y), "out": out}
