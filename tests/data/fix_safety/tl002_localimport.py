from torch import nn


def seed():
    import torch
    torch.manual_seed(0)


seed()
net = nn.Linear(2, 2)
net = nn.DataParallel(net)
for p in net.parameters():
    p.data.zero_()
print(net.module.weight.sum().item() if hasattr(net, "module") else net.weight.sum().item())
