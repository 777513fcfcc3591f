import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Linear(2, 2)
limit = [3]


def run(batch):
    if batch.shape[0] > limit[0]:
        raise torch.cuda.OutOfMemoryError("simulated")
    return model(batch)


outs = []
for batch in [torch.ones(2, 2), torch.ones(4, 2), torch.ones(1, 2)]:
    try:
        outs.append(run(batch))
    except torch.cuda.OutOfMemoryError:
        outs.append(torch.cat([run(part) for part in batch.split(2)]))
print([o.shape[0] for o in outs])
