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
        out = self.fc(x)
        loss = self.crit(out, y)

        global OUT
        OUT = {"mse": loss, "out": out}
        to_number()
        return OUT

import torch
torch.manual_seed(0)
net = LossNet()
total_loss = 0
for step in range(3):
    x, y = torch.randn(8, 4), torch.randn(8, 1)
    res = net(x, y)
    loss = res["mse"]
    total_loss += loss
print("total", round(float(total_loss), 4), type(total_loss).__name__)
