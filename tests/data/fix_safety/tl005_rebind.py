import torch.nn as nn


class Pipeline:
    def forward(self, x):
        return x + 1

    def __call__(self, x):
        return "called"


m = nn.Identity()
if (m := Pipeline()) is not None:
    print("walrus:", m.forward(1))

g = nn.Identity()


def swap():
    global g
    g = Pipeline()


swap()
print("global:", g.forward(1))


def outer():
    h = nn.Identity()

    def inner():
        nonlocal h
        h = Pipeline()

    inner()
    return h.forward(1)


print("nonlocal:", outer())
