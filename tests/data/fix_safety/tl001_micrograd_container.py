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


def params_of(m):
    return list(m.parameters())


def snapshot(model):
    return [p.data for p in model.parameters()]


models = {"micro": Neuron(3), "torch": nn.Linear(3, 1)}
for name in models:
    print(name, len(snapshot(models[name])))
for m in [Neuron(3), nn.Linear(3, 1)]:
    print([type(p.data).__name__ for p in params_of(m)])
random.seed(1)
chosen = random.choice([Neuron(2), nn.Linear(2, 1)])
print(type(chosen).__name__, len([p.data for p in chosen.parameters()]))
