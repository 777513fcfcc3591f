import torch
def symmetric_mse_loss(a, b):
    return torch.sum((a - b) ** 2)

class Box:
    def __init__(self, v):
        self.data = v
    def __repr__(self):
        return "Box"

globals()["symmetric_mse_loss"] = lambda a, b: Box(a - b)
