import torch
import torch.nn as nn

torch.manual_seed(0)
layer = nn.Linear(2, 2)


def refine(module, inputs, output):
    return layer.forward(inputs[0]) + output


layer.register_forward_hook(refine)
print(layer(torch.ones(1, 2)).sum().item())
