import os
import tempfile

import torch
import torch.nn as nn

torch.manual_seed(0)
net = nn.Linear(3, 2)
model = nn.DataParallel(net)
path = os.path.join(tempfile.mkdtemp(), "ckpt.pt")
torch.save(model.state_dict(), path)

restored = nn.DataParallel(nn.Linear(3, 2))
restored.load_state_dict(torch.load(path))
print(sorted(torch.load(path)))
print(restored(torch.ones(1, 3)).sum().item())
