import torch
import torch.nn as nn
from torch.cuda.amp import GradScaler, autocast


def train_one_epoch(model, loader, criterion, optimizer, scaler, device, max_norm=1.0):
    model.train()
    for images, masks in loader:
        images = images.to(device, non_blocking=True)
        masks = masks.to(device, non_blocking=True)
        optimizer.zero_grad(set_to_none=True)
        with autocast():
            preds = model(images)
            loss = criterion(preds, masks)
        scaler.scale(loss).backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm)  # expect: TL623
        scaler.step(optimizer)
        scaler.update()


def train_one_epoch_fixed(model, loader, criterion, optimizer, scaler, device, max_norm=1.0):
    model.train()
    for images, masks in loader:
        images = images.to(device, non_blocking=True)
        masks = masks.to(device, non_blocking=True)
        optimizer.zero_grad(set_to_none=True)
        with autocast():
            loss = criterion(model(images), masks)
        scaler.scale(loss).backward()
        scaler.unscale_(optimizer)
        torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm)
        scaler.step(optimizer)
        scaler.update()


def main():
    device = torch.device("cuda")
    model = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.ReLU(), nn.Conv2d(16, 1, 1)).to(device)
    criterion = nn.BCEWithLogitsLoss()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    scaler = GradScaler()
    loader = [(torch.randn(4, 3, 32, 32), torch.rand(4, 1, 32, 32).round()) for _ in range(10)]
    for epoch in range(3):
        train_one_epoch(model, loader, criterion, optimizer, scaler, device)
        train_one_epoch_fixed(model, loader, criterion, optimizer, scaler, device)


if __name__ == "__main__":
    main()
