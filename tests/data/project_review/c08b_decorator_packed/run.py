import torch
from models import Tagger
net = Tagger()
res = net(torch.randn(2, 5, 4))
print(type(res["clip"]).__name__, res["clip"].data.shape)
