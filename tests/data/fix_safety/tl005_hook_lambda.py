import torch
import torch.nn as nn

torch.manual_seed(0)
layer = nn.Linear(2, 2)
layer.register_forward_pre_hook(lambda module, inputs: (inputs[0] + layer.forward(inputs[0]).detach(),))
print(layer(torch.ones(1, 2)).sum().item())
