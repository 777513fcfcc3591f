import os
import tempfile

import torch
import torch.nn as nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(4, 4)
        self.drop = nn.Dropout(0.5)

    def forward(self, x):
        return self.drop(self.lin(x))


torch.manual_seed(0)
model = Net().double().eval()
path = os.path.join(tempfile.mkdtemp(), "net.pt")
torch.save(model, path)
restored = torch.load(path, map_location="cpu", weights_only=False).eval()
x = torch.ones(1, 4, dtype=torch.float64)
print(torch.equal(restored(x), model(x)), restored.training, restored.lin.weight.dtype)
