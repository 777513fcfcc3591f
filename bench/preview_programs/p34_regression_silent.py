"""A careful regression script: everything here must stay silent."""
import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


def make_loaders(n=1000, batch_size=64):
    X = np.random.randn(n, 8).astype(np.float32)
    y = (X @ np.arange(8, dtype=np.float32) + 0.1 * np.random.randn(n)).astype(np.float32)
    ds = TensorDataset(torch.from_numpy(X), torch.from_numpy(y).unsqueeze(1))
    train_ds, val_ds = torch.utils.data.random_split(ds, [800, 200])
    return DataLoader(train_ds, batch_size=batch_size, shuffle=True), DataLoader(val_ds, batch_size=batch_size)


def run_epoch(model, loader, loss_fn, optimizer=None, device="cpu"):
    training = optimizer is not None
    model.train(training)
    total = 0.0
    with torch.set_grad_enabled(training):
        for xb, yb in loader:
            xb, yb = xb.to(device), yb.to(device)
            loss = loss_fn(model(xb), yb)
            if training:
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()
            total += loss.item() * len(xb)
    return total / len(loader.dataset)


def main():
    device = "cuda" if torch.cuda.is_available() else "cpu"
    model = nn.Sequential(nn.Linear(8, 32), nn.ReLU(), nn.Dropout(0.1), nn.Linear(32, 1)).to(device)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    scheduler = torch.optim.lr_scheduler.ReduceLROnPlateau(optimizer, patience=3)
    loss_fn = nn.MSELoss()
    train_dl, val_dl = make_loaders()
    for epoch in range(20):
        train_loss = run_epoch(model, train_dl, loss_fn, optimizer, device)
        val_loss = run_epoch(model, val_dl, loss_fn, None, device)
        scheduler.step(val_loss)
        print(f"{epoch:3d} {train_loss:.4f} {val_loss:.4f}")


if __name__ == "__main__":
    main()
