import torch.nn as nn

net = nn.Linear(2, 2)
dp = nn.DataParallel(net)
print(sorted(dp.module.state_dict()))
