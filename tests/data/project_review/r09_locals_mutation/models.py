import torch
import torch.nn as nn

class LossNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 1)
        self.crit = nn.MSELoss()

    def forward(self, x, y):
        out = self.fc(x)
        loss = self.crit(out, y)

        output = {"mse": loss, "out": out}
        locals()["output"]["mse"] = loss.item()
        return output
