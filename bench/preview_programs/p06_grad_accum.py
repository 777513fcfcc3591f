import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

ACCUM_STEPS = 8


def train(model, loader, optimizer, loss_fn, accumulation_steps=ACCUM_STEPS):
    model.train()
    optimizer.zero_grad()
    for i, (x, y) in enumerate(loader):
        out = model(x)
        loss = loss_fn(out, y)
        loss.backward()  # expect: TL627
        if (i + 1) % accumulation_steps == 0:
            optimizer.step()
            optimizer.zero_grad()


def train_scaled(model, loader, optimizer, loss_fn, accumulation_steps=ACCUM_STEPS):
    model.train()
    optimizer.zero_grad()
    for i, (x, y) in enumerate(loader):
        loss = loss_fn(model(x), y) / accumulation_steps
        loss.backward()
        if (i + 1) % accumulation_steps == 0:
            optimizer.step()
            optimizer.zero_grad()


if __name__ == "__main__":
    model = nn.Sequential(nn.Linear(10, 32), nn.GELU(), nn.Linear(32, 1))
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    loader = DataLoader(TensorDataset(torch.randn(64, 10), torch.randn(64, 1)), batch_size=4)
    train(model, loader, optimizer, nn.MSELoss())
    train_scaled(model, loader, optimizer, nn.MSELoss())
