import torch
import torch.nn as nn


def evaluate(model, batches):
    model.eval()
    with torch.no_grad():
        return sum(nn.functional.cross_entropy(model(x), y).item() for x, y in batches) / len(batches)


def train(model, batches, val_batches, steps=1000, eval_every=100):
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    model.train()
    step = 0
    while step < steps:
        for x, y in batches:  # expect: TL625
            optimizer.zero_grad()
            loss = nn.functional.cross_entropy(model(x), y)
            loss.backward()
            optimizer.step()
            step += 1
        if step % eval_every == 0:
            print(step, evaluate(model, val_batches))


def train_ok(model, batches, val_batches, steps=1000, eval_every=100):
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    for step in range(steps):
        model.train()
        x, y = batches[step % len(batches)]
        optimizer.zero_grad()
        nn.functional.cross_entropy(model(x), y).backward()
        optimizer.step()
        if step % eval_every == 0:
            print(step, evaluate(model, val_batches))


if __name__ == "__main__":
    net = nn.Sequential(nn.Linear(6, 12), nn.Dropout(0.5), nn.Linear(12, 3))
    data = [(torch.randn(4, 6), torch.randint(0, 3, (4,))) for _ in range(5)]
    train(net, data, data, steps=10, eval_every=5)
    train_ok(net, data, data, steps=10, eval_every=5)
