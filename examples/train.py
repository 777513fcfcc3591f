"""A small training script with the anti-patterns torchlint finds.

Run `torchlint check examples/` to see them, `torchlint check --fix examples/` to fix them.
"""

import torch
import torch.nn as nn
import torch.nn.functional as F


class Classifier(nn.Module):
    def __init__(self, features: int = 16, classes: int = 4):
        super().__init__()
        self.encoder = nn.Sequential(nn.Linear(features, 32), nn.ReLU())
        self.head = nn.Linear(32, classes)

    def forward(self, x):
        # Calling a submodule's forward() directly skips its hooks.
        return self.head.forward(self.encoder(x))

    def predict(self, x):
        return self.forward(x).argmax(dim=-1)


def train(steps: int = 5) -> float:
    torch.manual_seed(0)
    model = Classifier()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    inputs, targets = torch.randn(64, 16), torch.randint(0, 4, (64,))
    for _ in range(steps):
        optimizer.zero_grad()
        loss = F.cross_entropy(model.forward(inputs), targets)
        loss.backward()
        optimizer.step()
    return loss.item()


if __name__ == "__main__":
    print(f"final loss: {train():.4f}")
