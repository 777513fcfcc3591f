import torch
import torch.nn as nn
import torch.nn.functional as F


def train_epoch(model, loader, opt):
    for x, y in loader:  # expect: TL625
        opt.zero_grad()
        loss = F.cross_entropy(model(x), y)
        loss.backward()
        opt.step()


def validate(model, loader):
    model.eval()
    with torch.no_grad():
        return sum((model(x).argmax(1) == y).float().mean().item() for x, y in loader) / len(loader)


def run():
    model = nn.Sequential(nn.Linear(10, 32), nn.BatchNorm1d(32), nn.ReLU(), nn.Linear(32, 3))
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    loader = [(torch.randn(8, 10), torch.randint(0, 3, (8,))) for _ in range(5)]
    for epoch in range(10):
        train_epoch(model, loader, opt)
        print(epoch, validate(model, loader))


run()
