import torch
def widen(g):
    g.expand(2, 3)
    return g.data
