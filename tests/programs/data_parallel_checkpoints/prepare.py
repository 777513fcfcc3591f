"""Stands in for a checkpoint downloaded from a project that trained with nn.DataParallel: its
state_dict keys carry the wrapper's `module.` prefix."""

import os

import torch

from net import ConvNet

torch.set_num_threads(1)
torch.manual_seed(42)
trained = ConvNet()
os.makedirs("pretrained", exist_ok=True)
torch.save(
    {"epoch": 90, "state_dict": {f"module.{name}": value for name, value in trained.state_dict().items()}},
    os.path.join("pretrained", "convnet_dp.pth"),
)
