import torch

class Box:
    def __init__(self, v):
        self.data = v
    def __repr__(self):
        return "Box"

def symmetric_mse_loss(a, b):
    return Box(a - b)
