"""Loads jittered samples with two worker processes (the augmentation RNG lives in the dataset,
as in many detection repos' mosaic/jitter code) and checks that a rerun with the same seed
reproduces the data. The dataset class is defined here, next to its loader."""

import random

import torch
from torch.utils.data import DataLoader, Dataset

from data import NoiseDataset

torch.set_num_threads(1)


class JitterDataset(Dataset):
    def __init__(self, n, seed=0):
        self.base = torch.arange(n, dtype=torch.float32)
        self.rng = random.Random(seed)

    def __len__(self):
        return len(self.base)

    def __getitem__(self, index):
        return self.base[index] + self.rng.uniform(-0.5, 0.5)


def offsets(batches):
    return [round(v - i, 6) for i, v in enumerate(batches)]


def load_jittered():
    torch.manual_seed(0)
    loader = DataLoader(JitterDataset(8), batch_size=2, num_workers=2)
    return [value for batch in loader for value in batch.tolist()]


def load_noise():
    torch.manual_seed(0)
    loader = DataLoader(NoiseDataset(8), batch_size=2, num_workers=2)
    return [value for batch in loader for value in batch.tolist()]


first = offsets(load_jittered())
second = offsets(load_jittered())
print("reproducible:", first == second)
print("noise:", offsets(load_noise()))
# Worker 0 loads batches 0 and 2, worker 1 batches 1 and 3 (two samples each).
worker0, worker1 = first[0:2] + first[4:6], first[2:4] + first[6:8]
# The difference TL007's fix names: the workers no longer draw the same augmentations.
print("workers_draw_the_same:", worker0 == worker1)
