import os
import tempfile

import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Linear(2, 2)
path = os.path.join(tempfile.mkdtemp(), "ckpt.pt")
torch.save({"model": model, "epoch": 3}, path)
checkpoint = torch.load(path, weights_only=False)
print(checkpoint["epoch"], type(checkpoint["model"]).__name__)
