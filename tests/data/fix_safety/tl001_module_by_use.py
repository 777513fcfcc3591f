import torch
import torch.nn as nn


def step(model, x, y):
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    out = model(x)
    loss = ((out - y) ** 2).mean()
    loss.backward()
    opt.step()
    return out.data.argmax(1).tolist(), torch.max(out - 1.0, torch.zeros(1)).data.sum().item()


torch.manual_seed(0)
print(step(nn.Linear(3, 2), torch.ones(2, 3), torch.zeros(2, 2)))
