import logging

import torch
import torch.nn as nn
from torch.utils.data import DataLoader

logger = logging.getLogger(__name__)


class MLP(nn.Module):
    def __init__(self, d_in, d_hidden, n_classes):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(d_in, d_hidden), nn.BatchNorm1d(d_hidden), nn.ReLU(), nn.Linear(d_hidden, n_classes))

    def forward(self, x):
        return self.net(x)


class Trainer:
    def __init__(self, model: nn.Module, train_loader: DataLoader, val_loader: DataLoader, lr: float = 1e-3):
        self.device = "cuda" if torch.cuda.is_available() else "cpu"
        self.model = model.to(self.device)
        self.train_loader = train_loader
        self.val_loader = val_loader
        self.criterion = nn.CrossEntropyLoss()
        self.optimizer = torch.optim.SGD(self.model.parameters(), lr=lr, momentum=0.9)

    def train_epoch(self):
        self.model.train()
        total = 0.0
        for step, (x, y) in enumerate(self.train_loader):
            x, y = x.to(self.device), y.to(self.device)
            loss = self.criterion(self.model(x), y)
            loss.backward()
            self.optimizer.step()  # expect: TL621
            total += loss.item()
        return total / max(1, len(self.train_loader))

    def validate(self):
        self.model.eval()
        correct = 0
        with torch.no_grad():
            for x, y in self.val_loader:
                x, y = x.to(self.device), y.to(self.device)
                correct += (self.model(x).argmax(-1) == y).sum().item()
        return correct / len(self.val_loader.dataset)

    def fit(self, epochs):
        for epoch in range(epochs):
            loss = self.train_epoch()
            acc = self.validate()
            logger.info("epoch %d loss %.4f acc %.4f", epoch, loss, acc)


if __name__ == "__main__":
    from torch.utils.data import TensorDataset

    ds = TensorDataset(torch.randn(256, 20), torch.randint(0, 3, (256,)))
    trainer = Trainer(MLP(20, 64, 3), DataLoader(ds, batch_size=32, shuffle=True), DataLoader(ds, batch_size=64))
    trainer.fit(3)
