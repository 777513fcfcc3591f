import torch
import torch.nn as nn


class FeaturePyramid(nn.Module):
    def __init__(self, in_channels=(64, 128, 256), out_channels=64):
        super().__init__()
        self.lateral = []  # expect: TL721
        for c in in_channels:
            self.lateral.append(nn.Conv2d(c, out_channels, 1))
        self.smooth = nn.ModuleList([nn.Conv2d(out_channels, out_channels, 3, padding=1) for _ in in_channels])
        self.strides = [4, 8, 16]
        self.levels = {"p3": 0, "p4": 1, "p5": 2}

    def forward(self, feats):
        outs = [lat(f) for lat, f in zip(self.lateral, feats)]
        return [s(o) for s, o in zip(self.smooth, outs)]


class Heads(nn.Module):
    def __init__(self, d, classes):
        super().__init__()
        self.heads = nn.ModuleDict({name: nn.Linear(d, n) for name, n in classes.items()})
        self.order = sorted(classes)

    def forward(self, x):
        return {name: self.heads[name](x) for name in self.order}


fpn = FeaturePyramid()
print(sum(p.numel() for p in fpn.parameters()))
