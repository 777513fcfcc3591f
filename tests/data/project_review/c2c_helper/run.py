import torch
from models import *
net = Tagger()
res = net(torch.randn(2, 5, 4))
print(type(res["feats"][0]).__name__, res["feats"][0].data.shape)
