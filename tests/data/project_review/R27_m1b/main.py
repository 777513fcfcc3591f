import torch
import torch.nn.functional as F
from helpers import compute


def train(model, loader, opt):
    for x, y in loader:
        loss, out = compute(model, x, y)
        loss.backward()
        opt.step()


def evaluate(model, loader):
    total = 0.0
    for x, y in loader:
        loss, out = compute(model, x, y, train=False)
        total += loss
    print("val", total / len(loader))


if __name__ == "__main__":
    model = torch.nn.Linear(2, 1)
    data = [(torch.randn(4, 2), torch.randn(4, 1)) for _ in range(3)]
    train(model, data, torch.optim.SGD(model.parameters(), lr=0.1))
    evaluate(model, data)
