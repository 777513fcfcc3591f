from dataclasses import dataclass

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader


@dataclass
class Config:
    lr: float = 1e-3
    epochs: int = 10
    device: str = "cpu"


class CNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Sequential(nn.Conv2d(1, 8, 3), nn.BatchNorm2d(8), nn.ReLU(), nn.AdaptiveAvgPool2d(1))
        self.fc = nn.Linear(8, 10)

    def forward(self, x):
        return self.fc(self.conv(x).flatten(1))


class Learner:
    def __init__(self, cfg: Config, train_dl: DataLoader, valid_dl: DataLoader):
        self.cfg = cfg
        self.model = CNN().to(cfg.device)
        self.opt = torch.optim.Adam(self.model.parameters(), lr=cfg.lr)
        self.train_dl, self.valid_dl = train_dl, valid_dl

    def one_batch(self, xb, yb):
        loss = F.cross_entropy(self.model(xb), yb)
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()
        return loss.item()

    @torch.no_grad()
    def evaluate(self):
        total, n = 0.0, 0
        for xb, yb in self.valid_dl:  # expect: TL625
            total += F.cross_entropy(self.model(xb), yb, reduction="sum").item()
            n += len(yb)
        return total / n

    def fit(self):
        for epoch in range(self.cfg.epochs):
            self.model.train()
            losses = [self.one_batch(xb, yb) for xb, yb in self.train_dl]
            print(epoch, sum(losses) / len(losses), self.evaluate())


if __name__ == "__main__":
    from torch.utils.data import TensorDataset

    ds = TensorDataset(torch.randn(64, 1, 12, 12), torch.randint(0, 10, (64,)))
    Learner(Config(epochs=2), DataLoader(ds, batch_size=8), DataLoader(ds, batch_size=16)).fit()
