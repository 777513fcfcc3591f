"""Builds a model in eval mode, saves it whole, and reloads it for a consistency check before
export (review W7): the reload must give the model the state it was saved in (eval mode)."""

import os

import torch
import torch.nn as nn

torch.set_num_threads(1)


class Net(nn.Module):
    def __init__(self, p):
        super().__init__()
        self.lin = nn.Linear(4, 4)
        self.drop = nn.Dropout(p)

    def forward(self, x):
        return self.drop(self.lin(x))


torch.manual_seed(0)
device = torch.device("cpu")
model = Net(0.5).to(device).eval()
os.makedirs("export", exist_ok=True)
path = os.path.join("export", "net.pt")
torch.save(model, path)

restored = torch.load(path, weights_only=False)
x = torch.ones(2, 4)
print("restored_matches:", torch.equal(restored(x), model(x)))
print("restored.training:", restored.training)
print("outputs:", restored(x).tolist())
# The difference TL004's fix names: the checkpoint holds only tensors.
try:
    torch.load(path, weights_only=True)
    print("loads_weights_only:", True)
except Exception:
    print("loads_weights_only:", False)
