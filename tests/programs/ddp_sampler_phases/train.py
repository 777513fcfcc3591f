"""Epoch / phase loops over DistributedSampler-backed loaders, as in the torchvision fine-tuning
tutorial turned distributed (review W4): `set_epoch` is called in the epoch loop, the loader is
iterated two loops further in. A pretraining stage repeats its loader, and a linear-probe stage
forgets `set_epoch` altogether (the bug TL006 exists for)."""

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, DistributedSampler, TensorDataset

torch.set_num_threads(1)
torch.manual_seed(0)

features = torch.randn(16, 3)
labels = (features.sum(1) > 0).long()
datasets = {"train": TensorDataset(features[:12], labels[:12]), "val": TensorDataset(features[12:], labels[12:])}
samplers = {
    "train": DistributedSampler(datasets["train"], num_replicas=1, rank=0, seed=0),
    "val": DistributedSampler(datasets["val"], num_replicas=1, rank=0, shuffle=False),
}
loaders = {phase: DataLoader(datasets[phase], batch_size=4, sampler=samplers[phase]) for phase in ["train", "val"]}
model = nn.Linear(3, 2)
criterion = nn.CrossEntropyLoss()
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)


def train_model(num_epochs):
    for epoch in range(num_epochs):
        samplers["train"].set_epoch(epoch)
        for phase in ["train", "val"]:
            model.train() if phase == "train" else model.eval()
            running_corrects = 0
            order = []
            for inputs, targets in loaders[phase]:
                order += inputs[:, 0].tolist()
                optimizer.zero_grad()
                with torch.set_grad_enabled(phase == "train"):
                    outputs = model(inputs)
                    loss = criterion(outputs, targets)
                    if phase == "train":
                        loss.backward()
                        optimizer.step()
                running_corrects += (outputs.argmax(1) == targets).sum().item()
            print(f"epoch{epoch}.{phase}.corrects:", running_corrects)
            print(f"epoch{epoch}.{phase}.order:", order)


pretrain_dataset = TensorDataset(torch.arange(8))
pretrain_sampler = DistributedSampler(pretrain_dataset, num_replicas=1, rank=0, seed=3)
pretrain_loader = DataLoader(pretrain_dataset, batch_size=4, sampler=pretrain_sampler)

for epoch in range(2):
    pretrain_sampler.set_epoch(epoch)
    for repeat in range(2):
        seen = []
        for (batch,) in pretrain_loader:
            seen.append(batch.tolist())
        print(f"pretrain.epoch{epoch}.repeat{repeat}:", seen)


probe_dataset = TensorDataset(torch.arange(6))
probe_sampler = DistributedSampler(probe_dataset, num_replicas=1, rank=0, seed=7)
probe_loader = DataLoader(probe_dataset, batch_size=3, sampler=probe_sampler)


def linear_probe(num_epochs):
    orders = []
    for epoch in range(num_epochs):
        order = []
        for (batch,) in probe_loader:
            order += batch.tolist()
        orders.append(order)
    print("probe.epoch0_order:", orders[0])
    # The difference TL006's fix names: the epochs are shuffled differently.
    print("probe.same_order_every_epoch:", all(order == orders[0] for order in orders))


train_model(2)
linear_probe(3)
print("weight:", model.weight.flatten().tolist())
