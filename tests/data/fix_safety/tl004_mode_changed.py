import os
import tempfile

import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(4, 4), nn.Dropout(0.5))
model.eval()
path = os.path.join(tempfile.mkdtemp(), "seq.pt")
torch.save(model, path)
restored = torch.load(path, weights_only=False)
print(restored.training)
