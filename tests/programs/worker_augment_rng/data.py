"""A dataset whose noise comes from torch's global generator, which torch reseeds per worker."""

import torch
from torch.utils.data import Dataset


class NoiseDataset(Dataset):
    def __init__(self, n):
        self.base = torch.arange(n, dtype=torch.float32)

    def __len__(self):
        return len(self.base)

    def __getitem__(self, index):
        return self.base[index] + torch.rand(()) - 0.5
