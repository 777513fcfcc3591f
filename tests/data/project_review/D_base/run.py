import torch
from torch.nn.utils.rnn import pack_sequence
from models import *
net = Tagger()
res = net(torch.randn(2, 5, 4))
print(type(res["clip"]).__name__, res["clip"].data.shape)
