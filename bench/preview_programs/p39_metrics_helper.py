import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


def accuracy(model, loader):
    model.eval()
    correct = total = 0
    with torch.no_grad():
        for x, y in loader:
            correct += (model(x).argmax(1) == y).sum().item()
            total += y.numel()
    model.train()
    return correct / total


def collect_logits(model, loader):
    model.eval()
    logits = []
    for x, _ in loader:
        logits.append(model(x).detach())
    return torch.cat(logits)


def get_predictions(model, loader):
    model.eval()
    preds = []
    for x, _ in loader:
        preds.append(model(x))  # expect: TL626
    return torch.cat(preds)


if __name__ == "__main__":
    net = nn.Sequential(nn.Linear(5, 16), nn.BatchNorm1d(16), nn.ReLU(), nn.Linear(16, 3))
    dl = DataLoader(TensorDataset(torch.randn(30, 5), torch.randint(0, 3, (30,))), batch_size=10)
    opt = torch.optim.SGD(net.parameters(), lr=0.1)
    for epoch in range(3):
        for x, y in dl:
            opt.zero_grad()
            nn.functional.cross_entropy(net(x), y).backward()
            opt.step()
        print(accuracy(net, dl))
    print(collect_logits(net, dl).shape, get_predictions(net, dl).shape)
