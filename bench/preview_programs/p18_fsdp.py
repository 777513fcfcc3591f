import torch
import torch.distributed as dist
import torch.nn as nn
from torch.distributed.fsdp import FullyShardedDataParallel as FSDP


class Block(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.ff = nn.Sequential(nn.Linear(d, 4 * d), nn.GELU(), nn.Linear(4 * d, d))

    def forward(self, x):
        return x + self.ff(x)


def build(d=512, n=4):
    return nn.Sequential(*[Block(d) for _ in range(n)])


def train_wrong(rank):
    model = build().to(rank)
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4)  # expect: TL624
    model = FSDP(model)
    return model, optimizer


def train_right(rank):
    model = build().to(rank)
    model = FSDP(model)
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4)
    return model, optimizer


if __name__ == "__main__":
    dist.init_process_group("nccl")
    r = dist.get_rank()
    m, opt = train_right(r)
    w, wopt = train_wrong(r)
