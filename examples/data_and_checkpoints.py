"""Data loading, parallelism and checkpoints, with the anti-patterns torchlint finds.

Runs on one CPU process: `python examples/data_and_checkpoints.py`.
"""

import os
import tempfile

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset, DistributedSampler


class NoisyPoints(Dataset):
    def __init__(self, size: int = 32):
        self.size = size
        self.generator = torch.Generator().manual_seed(0)  # copied into every worker in the same state

    def __len__(self):
        return self.size

    def __getitem__(self, index):
        return torch.randn(4, generator=self.generator) + index


def main() -> None:
    torch.manual_seed(0)
    dataset = NoisyPoints()
    sampler = DistributedSampler(dataset, num_replicas=1, rank=0)
    loader = DataLoader(dataset, batch_size=8, sampler=sampler, num_workers=2)
    model = nn.Sequential(nn.Linear(4, 4), nn.ReLU(), nn.Linear(4, 1))
    model = nn.DataParallel(model)
    for epoch in range(2):
        for batch in loader:  # same order every epoch: no sampler.set_epoch(epoch)
            model(batch).sum().backward()
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "model.pt")
        torch.save(model, path)
        print(f"saved {os.path.getsize(path)} bytes")


if __name__ == "__main__":
    main()
