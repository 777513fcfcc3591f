import sys

import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Linear(2, 2)


def run(batch):
    if batch.shape[0] > 2:
        raise torch.cuda.OutOfMemoryError("simulated")
    return model(batch)


def predict(batch):
    try:
        out = run(batch)
    except torch.cuda.OutOfMemoryError:
        out = run(batch[:2])
        context = sys.exc_info()[0]
        print("context:", context.__name__ if context else None)
    return out


print(predict(torch.ones(4, 2)).sum().item())
