import torch
from torch.utils.data import DataLoader, DistributedSampler, TensorDataset

dataset = TensorDataset(torch.arange(8))
for epoch in range(3):
    sampler = DistributedSampler(dataset, num_replicas=1, rank=0, seed=0)
    loader = DataLoader(dataset, batch_size=8, sampler=sampler)
    for (batch,) in loader:
        print(epoch, batch.tolist())
