import torch
import torch.nn as nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 1)

    def forward(self, x):
        loss = self.fc(x).pow(2).mean()
        return {"loss": loss.item(), "n": x.shape[0]}
