import contextlib

import torch.nn as nn


class Pipeline(contextlib.AbstractContextManager):
    def forward(self, x):
        return x + 1

    def __call__(self, x):
        return "called"

    def __exit__(self, *exc):
        return None


m = nn.Identity()
with Pipeline() as m:
    print("with:", m.forward(1))

k = nn.Identity()
if not (k := Pipeline()):
    print("unreachable", k(1))
else:
    print("else:", k.forward(1))

items = [Pipeline(), Pipeline()]
w = nn.Identity()
while items and (w := items.pop()) is not None:
    print("while:", w.forward(1))

n = nn.Identity()
if [n := Pipeline() for _ in range(1)]:
    print("comprehension:", n.forward(1))
