import torch
def symmetric_mse_loss(a, b):
    return torch.sum((a - b) ** 2)
