import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Linear(4, 1)
criterion = nn.MSELoss()
batches = [(torch.randn(8, 4), torch.randn(8, 1)) for _ in range(3)]


def run():
    total = 0
    for x, y in batches:
        total += criterion(model(x), y)

    def finish():
        total.backward()

    finish()


run()
print(model.weight.grad.sum().item())
