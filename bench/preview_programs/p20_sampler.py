import torch
from torch.utils.data import DataLoader, RandomSampler, TensorDataset, WeightedRandomSampler

ds = TensorDataset(torch.randn(100, 3), torch.randint(0, 2, (100,)))
labels = ds.tensors[1]
class_count = torch.bincount(labels)
weights = 1.0 / class_count[labels].float()
sampler = WeightedRandomSampler(weights, num_samples=len(weights), replacement=True)
train_loader = DataLoader(ds, batch_size=16, sampler=sampler, shuffle=True)  # expect: TL120
balanced_loader = DataLoader(ds, batch_size=16, sampler=sampler)
plain_loader = DataLoader(ds, batch_size=16, shuffle=True, drop_last=True)
eval_loader = DataLoader(ds, batch_size=16, sampler=RandomSampler(ds), shuffle=False)
for xb, yb in train_loader:
    print(xb.shape, yb.shape)
    break
