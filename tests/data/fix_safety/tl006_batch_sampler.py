import torch
from torch.utils.data import BatchSampler, DataLoader, DistributedSampler, TensorDataset

dataset = TensorDataset(torch.arange(8))
sampler = DistributedSampler(dataset, num_replicas=1, rank=0, seed=0)
loader = DataLoader(dataset, batch_sampler=BatchSampler(sampler, 8, False))
for epoch in range(2):
    loader.batch_sampler.sampler.set_epoch(epoch)
    for (batch,) in loader:
        print(epoch, batch.tolist())
