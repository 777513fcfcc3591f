import torch
import losses
from extra import *
losses.symmetric_mse_loss = symmetric_mse_loss
def train(a, b):
    crit = losses.symmetric_mse_loss
    return crit(a, b).data
print(train(torch.ones(2), torch.zeros(2)))
