import torch
from models import Net
net = Net()
net.eval()
total = 0
for i in range(3):
    out = net(torch.ones(2, 4))
    total += out["loss"]
print(type(total).__name__, round(float(total), 4) > 0)
