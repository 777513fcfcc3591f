"""Trains an encoder over a DistributedSampler whose epoch is set by a helper the epoch loop
calls, with a forward hook that runs the layer's `forward` again (without re-entering the hook)
to add a residual refinement, and exports the whole model to a path from config.py, which
serve.py loads."""

import os

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, DistributedSampler, TensorDataset

from config import EXPORT

torch.set_num_threads(1)
torch.manual_seed(0)

encoder = nn.Sequential(nn.Linear(4, 4), nn.Tanh())
refine = encoder[0]


def add_refinement(module, inputs, output):
    return output + 0.1 * refine.forward(inputs[0]).detach()


hook = refine.register_forward_hook(add_refinement)

dataset = TensorDataset(torch.randn(8, 4), torch.randn(8, 4))
sampler = DistributedSampler(dataset, num_replicas=1, rank=0, seed=3)
loader = DataLoader(dataset, batch_size=4, sampler=sampler)
optimizer = torch.optim.SGD(encoder.parameters(), lr=0.1)


def begin_epoch(epoch):
    sampler.set_epoch(epoch)
    print(f"epoch{epoch}.order:", list(iter(sampler)))


for epoch in range(2):
    begin_epoch(epoch)
    for x, y in loader:
        loss = (encoder(x) - y).pow(2).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"epoch{epoch}.loss:", loss.item())

hook.remove()  # a whole-model export pickles the hooks too
os.makedirs("exported", exist_ok=True)
torch.save(encoder, EXPORT)
