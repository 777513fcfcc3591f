import torch
import torch.nn as nn


class Probe:
    def __init__(self, layer):
        self.layer = layer
        layer.register_forward_hook(self.hook)

    def hook(self, module, inputs, output):
        return output + self.layer.forward(inputs[0]).detach()


torch.manual_seed(0)
layer = nn.Linear(2, 2)
probe = Probe(layer)
print(layer(torch.ones(1, 2)).sum().item())
