"""Loads the exported encoder whole, by the path config.py names."""

import torch

import config

encoder = torch.load(config.EXPORT, weights_only=False)
encoder.eval()
with torch.no_grad():
    print("served:", encoder(torch.ones(1, 4)).tolist())
