"""Trains a next-character model, saves the best one whole (`torch.save(model, ...)`), and
reloads the best checkpoint at the end for a final evaluation, as many small LM repos do;
generate.py samples from the same checkpoint."""

import os

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.set_num_threads(1)
torch.manual_seed(0)

CKPT = os.path.join("checkpoints", "model.pt")
BLOCK = 6
text = torch.tensor([int(c) for c in "0123456789" * 8 + "9876543210" * 4])


def get_batch(generator):
    ix = torch.randint(0, len(text) - BLOCK - 1, (8,), generator=generator)
    x = torch.stack([text[i : i + BLOCK] for i in ix])
    return x, text[ix + BLOCK]


model = nn.Sequential(nn.Embedding(10, 8), nn.Flatten(), nn.Linear(8 * BLOCK, 32), nn.ReLU(), nn.Linear(32, 10))
optimizer = torch.optim.AdamW(model.parameters(), lr=3e-2)
train_gen = torch.Generator().manual_seed(1)
x_val, y_val = get_batch(torch.Generator().manual_seed(2))
best_val_loss = float("inf")
os.makedirs("checkpoints", exist_ok=True)
for it in range(40):
    x, y = get_batch(train_gen)
    loss = F.cross_entropy(model(x), y)
    optimizer.zero_grad(set_to_none=True)
    loss.backward()
    optimizer.step()
    if it % 10 == 9:
        model.eval()
        with torch.no_grad():
            val_loss = F.cross_entropy(model(x_val), y_val)
        model.train()
        print(f"iter{it}.val_loss:", val_loss.item())
        if val_loss.item() < best_val_loss:
            best_val_loss = val_loss.item()
            torch.save(model, CKPT)

best_model = torch.load(CKPT, weights_only=False)
best_model.eval()
with torch.no_grad():
    print("best.val_loss:", F.cross_entropy(best_model(x_val), y_val).item())
