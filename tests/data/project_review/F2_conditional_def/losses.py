import torch, os

class Box:
    def __init__(self, v):
        self.data = v
    def __repr__(self):
        return "Box"

if os.environ.get("LEGACY_LOSS", "1") == "1":
    def symmetric_mse_loss(a, b):
        return Box(torch.sum((a - b) ** 2))
else:
    def symmetric_mse_loss(a, b):
        return torch.sum((a - b) ** 2)
