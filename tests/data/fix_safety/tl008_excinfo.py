import logging
import sys

import torch
import torch.nn as nn

logging.basicConfig(stream=sys.stdout, format="%(message)s")
log = logging.getLogger("train")
torch.manual_seed(0)
model = nn.Linear(2, 2)


def run(batch):
    if batch.shape[0] > 4:
        raise torch.cuda.OutOfMemoryError("CUDA out of memory (simulated)")
    return model(batch)


def predict(batch):
    try:
        out = run(batch)
    except torch.cuda.OutOfMemoryError:
        log.warning("OOM, retrying in halves", exc_info=True)
        out = torch.cat([run(half) for half in batch.split(4)])
    return out


print(predict(torch.ones(8, 2)).shape)
