import os
import tempfile

import torch
import torch.nn as nn


class Net(nn.Module):
    def __init__(self, p):
        super().__init__()
        self.lin = nn.Linear(4, 4)
        self.drop = nn.Dropout(p)

    def forward(self, x):
        return self.drop(self.lin(x))


torch.manual_seed(0)
model = Net(0.5).eval()
path = os.path.join(tempfile.mkdtemp(), "m.pt")
torch.save(model, path)
restored = torch.load(path, weights_only=False)
x = torch.ones(1, 4)
print(torch.equal(restored(x), model(x)), restored.training)
