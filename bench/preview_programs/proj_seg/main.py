import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

from engine import train_one_epoch, validate
from unet import TinyUNet


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    ds = TensorDataset(torch.randn(16, 3, 32, 32), torch.randint(0, 2, (16, 1, 32, 32)).float())
    train_loader = DataLoader(ds, batch_size=4, shuffle=True)
    val_loader = DataLoader(ds, batch_size=4)
    model = TinyUNet().to(device)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    criterion = nn.BCEWithLogitsLoss()
    for epoch in range(3):
        loss = train_one_epoch(model, train_loader, optimizer, criterion, device)
        dice = validate(model, val_loader, device)
        print(f"epoch {epoch} loss {loss:.3f} dice {dice:.3f}")


if __name__ == "__main__":
    main()
