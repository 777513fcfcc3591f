import torch
from models import Wrapper
net = Wrapper()
res = net(torch.randn(2, 5, 4), torch.tensor([5, 3]))
print(type(res["clip"]).__name__, res["clip"].data.shape)
