import torch
import torch.nn as nn


def unwrap(wrapped):
    return wrapped.module


torch.manual_seed(0)
model = nn.Linear(2, 2)
model = nn.DataParallel(model)
print(type(unwrap(model)).__name__)
