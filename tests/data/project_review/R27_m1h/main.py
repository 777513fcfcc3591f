import torch
from extlib import step


def train(batches, opt):
    for b in batches:
        loss = step(b)
        if isinstance(loss, torch.Tensor):
            loss.backward()
            opt.step()


def report(batches):
    for b in batches:
        res = step(b)
        print(res.data)
