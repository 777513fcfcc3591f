import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Linear(2, 2)
attempts = []


def forward_chunk(batch):
    attempts.append(batch.shape[0])
    if batch.shape[0] > 2:
        raise RuntimeError("CUDA out of memory. Tried to allocate 2.00 GiB (simulated)")
    return model(batch)


def run(batch):
    try:
        return forward_chunk(batch)
    except RuntimeError as e:
        if "out of memory" not in str(e):
            raise
        torch.cuda.empty_cache()
        half = batch.shape[0] // 2
        return torch.cat([run(batch[:half]), run(batch[half:])])


def step(batch):
    try:
        return forward_chunk(batch).sum()
    except torch.cuda.OutOfMemoryError:
        return step(batch[: batch.shape[0] // 2])


print("out:", run(torch.ones(8, 2)).sum().item())
print("attempts:", attempts)
try:
    run(torch.ones(1, 3))
except RuntimeError as error:
    print("other errors still raise:", "out of memory" not in str(error))
