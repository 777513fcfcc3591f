import torch
from models import Tagger
net = Tagger()
x = torch.randn(2, 4)
print(net(x)["clip"].data.shape)
