import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

from models import DeepMLP, Ensemble


def train_epoch(model, loader, optimizer, criterion):
    model.train()
    for x, y in loader:
        optimizer.zero_grad()
        loss = criterion(model(x), y)
        loss.backward()
        optimizer.step()


def validate(model, loader):
    correct = 0
    with torch.no_grad():
        for x, y in loader:  # expect: TL625
            correct += (model(x).argmax(1) == y).sum().item()
    return correct / len(loader.dataset)


def main():
    ds = TensorDataset(torch.randn(200, 16), torch.randint(0, 5, (200,)))
    loader = DataLoader(ds, batch_size=20, shuffle=True)
    model = DeepMLP(16, 4, 5)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    criterion = nn.CrossEntropyLoss()
    for _ in range(3):
        train_epoch(model, loader, optimizer, criterion)
        print(validate(model, loader))
    ens = Ensemble([DeepMLP(16, 2, 5), DeepMLP(16, 3, 5)])
    print(sum(p.numel() for p in ens.parameters()))


if __name__ == "__main__":
    main()
