import os

import torch
import torch.nn as nn


def save_checkpoint(model, optimizer, epoch, path):
    torch.save({"epoch": epoch, "model": model.state_dict(), "optimizer": optimizer.state_dict()}, path)


def main(out_dir="ckpt", compile_model=True):
    os.makedirs(out_dir, exist_ok=True)
    model = nn.Sequential(nn.Linear(64, 64), nn.GELU(), nn.Linear(64, 10))
    if compile_model:
        model = torch.compile(model)
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
    for epoch in range(3):
        for _ in range(10):
            optimizer.zero_grad()
            loss = model(torch.randn(32, 64)).logsumexp(-1).mean()
            loss.backward()
            optimizer.step()
        torch.save(model.state_dict(), os.path.join(out_dir, f"epoch{epoch}.pt"))  # expect: TL220
    raw = getattr(model, "_orig_mod", model)
    torch.save(raw.state_dict(), os.path.join(out_dir, "final.pt"))


if __name__ == "__main__":
    main()
