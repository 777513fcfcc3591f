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


neuron = Neuron(3)
step(neuron)
print(snapshot(neuron))
layer = nn.Linear(3, 1)
step_input = layer(layer.weight.new_ones(2, 3)).sum()
step_input.backward()
step(layer)
print(len(snapshot(layer)))
