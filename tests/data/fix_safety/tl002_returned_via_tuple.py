import torch
import torch.nn as nn


def build():
    torch.manual_seed(0)
    model = nn.Linear(3, 2)
    model = nn.DataParallel(model)
    return model, 3


m, _ = build()
print(type(m).__name__, m.module.weight.shape)
