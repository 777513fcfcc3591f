import os
import tempfile

import torch
import torch.nn as nn

torch.manual_seed(0)
folder = tempfile.mkdtemp()
model = nn.Linear(2, 2)
torch.save(model, os.path.join(folder, "whole.pt"))


def resume(f):
    model = torch.load(f, weights_only=False)
    return model


restored = resume(os.path.join(folder, "whole.pt"))
print(type(restored).__name__, torch.equal(restored.weight, model.weight))
