import argparse
import os

import torch
import torch.distributed as dist
import torch.multiprocessing as mp
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import DataLoader, TensorDataset
from torch.utils.data.distributed import DistributedSampler


def worker(rank, world_size, epochs):
    os.environ["MASTER_ADDR"] = "localhost"
    os.environ["MASTER_PORT"] = "12355"
    dist.init_process_group("gloo", rank=rank, world_size=world_size)
    model = DDP(nn.Linear(16, 4))
    dataset = TensorDataset(torch.randn(128, 16), torch.randint(0, 4, (128,)))
    sampler = DistributedSampler(dataset, num_replicas=world_size, rank=rank)
    loader = DataLoader(dataset, batch_size=8, sampler=sampler, shuffle=True)  # expect: TL120
    val_loader = DataLoader(dataset, batch_size=32, sampler=DistributedSampler(dataset, shuffle=False))
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
    for epoch in range(epochs):
        sampler.set_epoch(epoch)
        for x, y in loader:
            optimizer.zero_grad()
            nn.functional.cross_entropy(model(x), y).backward()
            optimizer.step()
    print(len(val_loader))
    if rank == 0:
        eval_loader = DataLoader(dataset, batch_size=64)
        model.eval()
        with torch.no_grad():
            acc = sum((model(x).argmax(1) == y).float().sum().item() for x, y in eval_loader) / len(dataset)
        print(f"accuracy {acc:.3f}")
    dist.destroy_process_group()


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--world-size", type=int, default=2)
    args = parser.parse_args()
    mp.spawn(worker, args=(args.world_size, 2), nprocs=args.world_size)
