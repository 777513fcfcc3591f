import torch
import torch.nn as nn


def conv_block(cin, cout):
    return nn.Sequential(nn.Conv2d(cin, cout, 3, padding=1), nn.BatchNorm2d(cout), nn.ReLU(inplace=True))


class TinyUNet(nn.Module):
    def __init__(self, channels=(16, 32)):
        super().__init__()
        self.down = nn.ModuleList()
        cin = 3
        for c in channels:
            self.down.append(conv_block(cin, c))
            cin = c
        self.pool = nn.MaxPool2d(2)
        self.up = nn.Upsample(scale_factor=2)
        self.out = nn.Conv2d(cin, 1, 1)

    def forward(self, x):
        for block in self.down:
            x = block(x)
        return self.out(self.up(self.pool(x)))
