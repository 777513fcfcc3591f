import torch
import losses
def train(a, b):
    crit = losses.symmetric_mse_loss
    return crit(a, b).data
print(train(torch.ones(2), torch.zeros(2)))
