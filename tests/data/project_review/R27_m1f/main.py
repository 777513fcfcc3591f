import torch
from extlib import run


def train(batches, opt):
    for b in batches:
        out = run(b)
        out.backward()
        opt.step()


def summarize(batches):
    for b in batches:
        res = run(b, mode="report")
        res.to_csv("r.csv")
        print(res.data)
