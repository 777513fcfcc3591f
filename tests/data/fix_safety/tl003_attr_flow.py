import torch
import torch.nn as nn

torch.manual_seed(0)


class Trainer:
    def __init__(self):
        self.model = nn.Linear(4, 1)
        self.criterion = nn.MSELoss()

    def accumulate(self, batches):
        total = 0
        for x, y in batches:
            total += self.criterion(self.model(x), y)
        self.loss = total

    def step(self):
        self.loss.backward()


t = Trainer()
t.accumulate([(torch.randn(8, 4), torch.randn(8, 1)) for _ in range(3)])
t.step()
print(t.model.weight.grad.sum().item())
