import contextlib
import os

import torch
import torch.distributed as dist
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel
from torch.utils.data import DataLoader, TensorDataset
from torch.utils.data.distributed import DistributedSampler


def main():
    dist.init_process_group(backend="nccl")
    rank = int(os.environ["LOCAL_RANK"])
    device = torch.device("cuda", rank)
    net = nn.Sequential(nn.Linear(64, 64), nn.ReLU(), nn.Linear(64, 2)).to(device)
    net = torch.compile(net)
    model = DistributedDataParallel(net, device_ids=[rank])
    dataset = TensorDataset(torch.randn(1024, 64), torch.randint(0, 2, (1024,)))
    sampler = DistributedSampler(dataset, shuffle=True)
    loader = DataLoader(dataset, batch_size=32, sampler=sampler, pin_memory=True)
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
    accum = 2
    for epoch in range(5):
        sampler.set_epoch(epoch)
        model.train()
        for step, (x, y) in enumerate(loader):
            x, y = x.to(device), y.to(device)
            sync = (step + 1) % accum == 0
            ctx = model.no_sync() if not sync else contextlib.nullcontext()
            with ctx:
                loss = nn.functional.cross_entropy(model(x), y) / accum
                loss.backward()
            if sync:
                optimizer.step()
                optimizer.zero_grad()
        if rank == 0:
            torch.save(model.module.state_dict(), f"ckpt_{epoch}.pt")
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
