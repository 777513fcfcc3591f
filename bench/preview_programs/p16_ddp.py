import os

import torch
import torch.distributed as dist
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import DataLoader, TensorDataset


def setup():
    dist.init_process_group("nccl")
    local_rank = int(os.environ["LOCAL_RANK"])
    torch.cuda.set_device(local_rank)
    return local_rank


def main():
    local_rank = setup()
    model = nn.Sequential(nn.Linear(128, 256), nn.ReLU(), nn.Linear(256, 10)).cuda(local_rank)
    ddp_model = DDP(model, device_ids=[local_rank])
    compiled = torch.compile(ddp_model)  # expect: TL727
    dataset = TensorDataset(torch.randn(4096, 128), torch.randint(0, 10, (4096,)))
    loader = DataLoader(dataset, batch_size=64, shuffle=True, num_workers=4)  # expect: TL121
    optimizer = torch.optim.SGD(ddp_model.parameters(), lr=0.01)
    loss_fn = nn.CrossEntropyLoss()
    accum = 4
    for epoch in range(10):
        for i, (x, y) in enumerate(loader):
            x, y = x.cuda(local_rank), y.cuda(local_rank)
            loss = loss_fn(compiled(x), y) / accum
            loss.backward()  # expect: TL627
            if (i + 1) % accum == 0:
                optimizer.step()
                optimizer.zero_grad()
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
