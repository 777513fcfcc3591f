"""Transfer-learning script that imports `torch` only inside its seeding helper and uses
`from torch import nn` at the top (review W9): the classifier head is reset in place through
`.data` at module level, where no name `torch` exists."""

from torch import nn, optim, randn


def seed_everything(seed):
    import random

    import torch

    random.seed(seed)
    torch.manual_seed(seed)
    torch.set_num_threads(1)


seed_everything(0)
backbone = nn.Sequential(nn.Linear(6, 12), nn.ReLU())
head = nn.Linear(12, 2)
model = nn.Sequential(backbone, head)
for p in head.parameters():
    p.data.zero_()
for p in backbone.parameters():
    p.requires_grad_(False)

optimizer = optim.SGD(head.parameters(), lr=0.5)
criterion = nn.CrossEntropyLoss()
inputs = randn(16, 6)
targets = (inputs[:, 0] > 0).long()
for step in range(4):
    loss = criterion(model(inputs), targets)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(f"step{step}.loss:", loss.item())
print("head.weight:", head.weight.flatten().tolist())
