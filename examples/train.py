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
    inputs, targets = torch.randn(64, 16), torch.randint(0, 4, (64,))
    total_loss = 0.0
    for _ in range(steps):
        model.zero_grad()
        loss = F.cross_entropy(model.forward(inputs), targets)
        loss.backward()
        for p in model.parameters():
            p.data.add_(p.grad, alpha=-0.1)  # a hand-written SGD step through .data
        total_loss += loss  # keeps every step's graph alive
    return float(total_loss) / steps


def predict_in_chunks(model: Classifier, inputs: torch.Tensor) -> torch.Tensor:
    try:
        scores = model(inputs)
    except torch.cuda.OutOfMemoryError:
        scores = torch.cat([model(chunk) for chunk in inputs.split(8)])
    return scores.data


if __name__ == "__main__":
    print(f"mean loss: {train():.4f}")
    print(predict_in_chunks(Classifier(), torch.randn(4, 16)).shape)
