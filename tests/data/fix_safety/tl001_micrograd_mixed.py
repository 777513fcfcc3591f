import random

import torch.nn as nn


class Value:
    def __init__(self, data):
        self.data = data
        self.grad = 0.0


class Neuron:
    def __init__(self, n):
        self.w = [Value(float(i)) for i in range(n)]

    def parameters(self):
        return self.w


def snapshot(model):
    return [p.data for p in model.parameters()]


def step(model):
    for p in model.parameters():
        p.data -= 0.1 * p.grad


def params_of(m):
    return list(m.parameters())


# one function given a micrograd-style model and a torch module
neuron = Neuron(3)
step(neuron)
print(snapshot(neuron))
layer = nn.Linear(3, 1)
step_input = layer(layer.weight.new_ones(2, 3)).sum()
step_input.backward()
step(layer)
print(len(snapshot(layer)))
# the two kinds side by side in displays
models = {"micro": Neuron(3), "torch": nn.Linear(3, 1)}
for name in models:
    print(name, len(snapshot(models[name])))
for m in [Neuron(3), nn.Linear(3, 1)]:
    print([type(p.data).__name__ for p in params_of(m)])
random.seed(1)
chosen = random.choice([Neuron(2), nn.Linear(2, 1)])
print(type(chosen).__name__, len([p.data for p in chosen.parameters()]))
