import torch
import losses
losses.symmetric_mse_loss = lambda a, b: losses.Box(a - b)
def train(a, b):
    crit = losses.symmetric_mse_loss
    return crit(a, b).data
print(train(torch.ones(2), torch.zeros(2)))
