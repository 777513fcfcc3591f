import torch
import torch.nn as nn
from torch.nn.utils.rnn import pack_padded_sequence

ident = nn.Identity()
seq = pack_padded_sequence(torch.ones(2, 3, 4), torch.tensor([3, 2]), batch_first=True)
out = ident(seq)
print(type(out).__name__, out.data.shape)
stack = nn.Sequential(nn.Identity())
print(stack(seq).data.shape)
pool = nn.MaxPool1d(2, return_indices=True)
pooled = pool(torch.arange(8.0).view(1, 1, 8))
print(pooled.__class__.__name__, pooled[0].data.tolist())
pool2 = nn.AdaptiveMaxPool1d(2, True)
print(pool2(torch.arange(8.0).view(1, 1, 8))[1].data.tolist())
