"""Samples greedily from the checkpoint train.py saved."""

import torch

torch.set_num_threads(1)

model = torch.load("checkpoints/model.pt", weights_only=False)
model.eval()
idx = torch.tensor([[3, 4, 5, 6, 7, 8]])
with torch.no_grad():
    for _ in range(10):
        next_char = model(idx[:, -6:]).argmax(-1, keepdim=True)
        idx = torch.cat([idx, next_char], dim=1)
print("sample:", idx[0].tolist())
