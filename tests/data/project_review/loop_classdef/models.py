import torch
import torch.nn as nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(4, 4)

    def forward(self, x, steps):
        x = self.lin(x)
        for _ in range(steps):
            x = torch.relu(x)
            import torch.utils as x
        return self.pool(x)

    def pool(self, fea):
        return fea.data


if __name__ == "__main__":
    print(Net()(torch.ones(2, 4), 1).__name__)
