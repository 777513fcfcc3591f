import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Linear(2, 2)
sizes = []


def run(batch):
    sizes.append(batch.shape[0])
    if batch.shape[0] > 1:
        raise torch.cuda.OutOfMemoryError("simulated")
    return model(batch)


def predict(batch):
    try:
        out = run(batch)
    except torch.cuda.OutOfMemoryError:
        try:
            out = torch.cat([run(part) for part in batch.split(2)])
        except torch.cuda.OutOfMemoryError:
            out = torch.cat([run(part) for part in batch.split(1)])
    return out


print(predict(torch.ones(4, 2)).sum().item(), sizes)
