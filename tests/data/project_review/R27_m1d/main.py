import numpy as np
import torch
from extlib import make_train_step, make_scorer

step = make_train_step()


def train(loader, opt):
    for x in loader:
        loss = step(x)
        loss.backward()
        opt.step()


train([], None)
step = make_scorer()   # the same global now names a numpy scorer


def report(loader):
    for x in loader:
        scores = step(x)
        print(scores.data)
