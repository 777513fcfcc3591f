"""Folds BatchNorm into the preceding convolution for deployment, writing the fused weights
through `.data` assignment targets as many export scripts do (a tuple target and an annotated
one, review W12), then checks the fused model against the original."""

import torch
import torch.nn as nn

torch.set_num_threads(1)
torch.manual_seed(0)


def fused_parameters(conv, bn):
    scale = bn.weight / torch.sqrt(bn.running_var + bn.eps)
    weight = conv.weight * scale.reshape(-1, 1, 1, 1)
    bias = (conv.bias - bn.running_mean) * scale + bn.bias
    return weight.detach().clone(), bias.detach().clone()


model = nn.Sequential(nn.Conv2d(2, 3, 3, padding=1), nn.BatchNorm2d(3), nn.ReLU())
model.train()
for _ in range(3):
    model(torch.randn(4, 2, 5, 5))
model.eval()
x = torch.randn(1, 2, 5, 5)
reference = model(x).data.sum()

fused = nn.Conv2d(2, 3, 3, padding=1)
fused.weight.data, fused.bias.data = fused_parameters(model[0], model[1])
head = nn.Linear(3, 1)
head.bias.data: torch.Tensor = torch.zeros(1)
deployed = nn.Sequential(fused, nn.ReLU()).eval()

print("reference:", reference.item())
print("fused:", deployed(x).sum().item())
print("max_abs_difference_below_1e-5:", (deployed(x) - model(x)).abs().max().item() < 1e-5)
print("head:", head(deployed(x).mean((2, 3))).tolist())
