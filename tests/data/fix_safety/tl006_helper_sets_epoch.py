import torch
from torch.utils.data import DataLoader, DistributedSampler, TensorDataset

dataset = TensorDataset(torch.arange(8))
sampler = DistributedSampler(dataset, num_replicas=1, rank=0, seed=0)
loader = DataLoader(dataset, batch_size=8, sampler=sampler)


def begin_epoch(epoch):
    sampler.set_epoch(epoch)


for epoch in range(3):
    begin_epoch(epoch)
    for (batch,) in loader:
        print(epoch, batch.tolist())
