import torch
import torch.nn.functional as F
from helpers import compute


def train(model, loader, opt):
    for x, y in loader:
        loss, out = compute(model, x, y)
        loss.backward()
        opt.step()


def evaluate(model, loader):
    total = 0
    for x, y in loader:
        loss, out = compute(model, x, y, train=False)
        total += loss
        print(loss.data)
    return total
