"""Moving batches to the device in the usual correct ways: must stay silent."""
import torch
from torch.utils.data import DataLoader, TensorDataset


def move(batch, device):
    if isinstance(batch, dict):
        return {k: v.to(device) for k, v in batch.items()}
    return [t.to(device) for t in batch]


def collate(samples):
    xs, ys = zip(*samples)
    return torch.stack(xs), torch.tensor(ys)


def run(device="cpu"):
    ds = TensorDataset(torch.randn(20, 4), torch.arange(20))
    loader = DataLoader(ds, batch_size=5)
    total = 0.0
    for batch in loader:
        batch = move(batch, device)
        total += batch[0].sum().item()
    for x, y in loader:
        x = x.to(device, non_blocking=True)
        y = y.to(device)
        total += (x.sum() + y.sum()).item()
    for step, (x, y) in enumerate(loader):
        inputs = x.to(device).float()
        total += inputs.mean().item() * step
    custom = DataLoader([(torch.randn(4), i) for i in range(6)], batch_size=3, collate_fn=collate)
    for x, y in custom:
        total += x.to(device).sum().item()
    return total


if __name__ == "__main__":
    print(run())
