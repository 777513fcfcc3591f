"""Softmax only at inference time: must stay silent."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(16, 5)

    def forward(self, x):
        logits = self.fc(x)
        if not self.training:
            return F.softmax(logits, dim=-1)
        return logits


def train(model, batches, optimizer):
    criterion = nn.CrossEntropyLoss()
    model.train()
    for x, y in batches:
        optimizer.zero_grad()
        loss = criterion(model(x), y)
        loss.backward()
        optimizer.step()


def calibrate(model, batches, T=1.5):
    model.eval()
    with torch.no_grad():
        probs = [model(x) for x, _ in batches]
    logits = [torch.log(p.clamp_min(1e-12)) / T for p in probs]
    return [F.softmax(l, dim=-1) for l in logits]


if __name__ == "__main__":
    net = Net()
    data = [(torch.randn(4, 16), torch.randint(0, 5, (4,))) for _ in range(3)]
    train(net, data, torch.optim.SGD(net.parameters(), lr=0.1))
    print(calibrate(net, data)[0].sum(-1))
