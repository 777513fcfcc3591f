import torch
from torch.utils.data import DataLoader, DistributedSampler, TensorDataset

dataset = TensorDataset(torch.arange(8))
sampler = DistributedSampler(dataset, num_replicas=1, rank=0, seed=0)
loader = DataLoader(dataset, batch_size=8, sampler=sampler)

for epoch in range(3):
    sampler.set_epoch(epoch)
    for repeat in range(2):
        for (batch,) in loader:
            print(epoch, repeat, batch.tolist())
