import torch
from models import LossNet
from evaluate import evaluate
torch.manual_seed(0)
net = LossNet()
total_loss = 0
for step in range(3):
    x, y = torch.randn(8, 4), torch.randn(8, 1)
    loss = evaluate(net, x, y)["mse"]
    total_loss += loss
print("total", round(float(total_loss), 4), type(total_loss).__name__)
