"""Seed for bench/fuzz.py: an image classifier trained with AMP, a scheduler and checkpoints."""

from __future__ import annotations

import argparse
import os
from dataclasses import dataclass, field
from pathlib import Path

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset


@dataclass
class Config:
    epochs: int = 2
    batch_size: int = 16
    lr: float = 1e-3
    workers: int = 0
    out: Path = Path("checkpoints")
    milestones: list[int] = field(default_factory=lambda: [1, 2])


class Shapes(Dataset):
    """Random images with a label; deterministic per index."""

    def __init__(self, size: int, classes: int = 10):
        self.size, self.classes = size, classes

    def __len__(self) -> int:
        return self.size

    def __getitem__(self, index: int):
        generator = torch.Generator().manual_seed(index)
        image = torch.randn(3, 32, 32, generator=generator)
        return image, index % self.classes


class Block(nn.Module):
    def __init__(self, channels: int):
        super().__init__()
        self.conv = nn.Conv2d(channels, channels, 3, padding=1, bias=False)
        self.norm = nn.BatchNorm2d(channels)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return F.relu(x + self.norm(self.conv(x)))


class Net(nn.Module):
    def __init__(self, classes: int = 10, width: int = 16, depth: int = 2):
        super().__init__()
        self.stem = nn.Conv2d(3, width, 3, padding=1)
        self.blocks = nn.Sequential(*[Block(width) for _ in range(depth)])
        self.head = nn.Linear(width, classes)

    def forward(self, x):
        x = self.blocks(F.relu(self.stem(x)))
        return self.head(x.mean(dim=(2, 3)))


def accuracy(logits: torch.Tensor, targets: torch.Tensor) -> float:
    return (logits.argmax(-1) == targets).float().mean().item()


@torch.no_grad()
def evaluate(model: nn.Module, loader: DataLoader, device: torch.device) -> dict[str, float]:
    model.eval()
    losses, accuracies = [], []
    for images, targets in loader:
        images, targets = images.to(device), targets.to(device)
        logits = model(images)
        losses.append(F.cross_entropy(logits, targets).item())
        accuracies.append(accuracy(logits, targets))
    model.train()
    return {"loss": sum(losses) / max(len(losses), 1), "accuracy": sum(accuracies) / max(len(accuracies), 1)}


def save_checkpoint(model, optimizer, epoch: int, out: Path) -> Path:
    out.mkdir(parents=True, exist_ok=True)
    path = out / f"epoch{epoch:03d}.pt"
    torch.save({"model": model.state_dict(), "optimizer": optimizer.state_dict(), "epoch": epoch}, path)
    return path


def train(config: Config) -> float:
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    torch.manual_seed(0)
    model = Net().to(device)
    optimizer = torch.optim.AdamW(model.parameters(), lr=config.lr, weight_decay=0.05)
    scheduler = torch.optim.lr_scheduler.MultiStepLR(optimizer, milestones=config.milestones)
    scaler = torch.amp.GradScaler(enabled=device.type == "cuda")
    train_loader = DataLoader(Shapes(64), batch_size=config.batch_size, shuffle=True, num_workers=config.workers)
    val_loader = DataLoader(Shapes(32), batch_size=config.batch_size)
    running = 0.0
    for epoch in range(config.epochs):
        for step, (images, targets) in enumerate(train_loader):
            images = images.to(device, non_blocking=True)
            targets = targets.to(device, non_blocking=True)
            with torch.autocast(device.type, enabled=device.type == "cuda"):
                loss = F.cross_entropy(model(images), targets, label_smoothing=0.1)
            optimizer.zero_grad(set_to_none=True)
            scaler.scale(loss).backward()
            scaler.unscale_(optimizer)
            nn.utils.clip_grad_norm_(model.parameters(), max_norm=1.0)
            scaler.step(optimizer)
            scaler.update()
            running += loss.item()
            if step % 10 == 0:
                print(f"epoch {epoch} step {step}: loss {loss.item():.4f}")
        scheduler.step()
        metrics = evaluate(model, val_loader, device)
        print(f"epoch {epoch}: " + ", ".join(f"{k}={v:.3f}" for k, v in metrics.items()))
        save_checkpoint(model, optimizer, epoch, config.out)
    return running


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=2)
    parser.add_argument("--workers", type=int, default=int(os.environ.get("WORKERS", 0)))
    args = parser.parse_args(argv)
    train(Config(epochs=args.epochs, workers=args.workers))


if __name__ == "__main__":
    main()
