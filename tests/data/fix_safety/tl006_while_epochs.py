import torch
from torch.utils.data import DataLoader, DistributedSampler, TensorDataset

dataset = TensorDataset(torch.arange(8))
sampler = DistributedSampler(dataset, num_replicas=1, rank=0, seed=0)
loader = DataLoader(dataset, batch_size=8, sampler=sampler)
epoch = 0
while epoch < 3:
    for (batch,) in loader:
        print(epoch, batch.tolist())
    epoch += 1
