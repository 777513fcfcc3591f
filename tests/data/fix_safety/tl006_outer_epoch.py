import torch
from torch.utils.data import DataLoader, DistributedSampler, TensorDataset

dataset = TensorDataset(torch.arange(8))
sampler = DistributedSampler(dataset, num_replicas=1, rank=0, seed=0)
loader = DataLoader(dataset, batch_size=8, sampler=sampler)

seen = []
for epoch in range(3):
    for phase in ["train", "val"]:
        for (batch,) in loader:
            seen.append(batch.tolist())
print(len(seen), sorted(seen[0]) == list(range(8)))
