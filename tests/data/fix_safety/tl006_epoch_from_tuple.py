import torch
from torch.utils.data import DataLoader, DistributedSampler, TensorDataset

dataset = TensorDataset(torch.arange(8))
sampler = DistributedSampler(dataset, num_replicas=1, rank=0, seed=0)
loader = DataLoader(dataset, batch_size=8, sampler=sampler)
for epoch, phase in [(0, "a"), (0, "b"), (1, "a")]:
    for (batch,) in loader:
        print(epoch, phase, batch.tolist())
