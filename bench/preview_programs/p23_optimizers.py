import torch
import torch.nn as nn


def configure_optimizers(model, cfg):
    decay, no_decay = [], []
    for name, p in model.named_parameters():
        (no_decay if p.ndim < 2 or "norm" in name else decay).append(p)
    groups = [{"params": decay, "weight_decay": cfg["wd"]}, {"params": no_decay, "weight_decay": 0.0}]
    return torch.optim.AdamW(groups, lr=cfg["lr"], betas=(0.9, 0.95))


def build_optimizer(model, lr=1e-3):
    return torch.optim.Adam(model.parameters(), lr=lr, weight_decay=1e-4)  # expect: TL728


def build_plain(model, lr=1e-3):
    return torch.optim.Adam(model.parameters(), lr=lr)


def build_sgd(model, lr=0.1):
    return torch.optim.SGD(model.parameters(), lr=lr, momentum=0.9, weight_decay=5e-4)


if __name__ == "__main__":
    model = nn.Sequential(nn.Linear(4, 8), nn.LayerNorm(8), nn.Linear(8, 2))
    opts = [configure_optimizers(model, {"wd": 0.1, "lr": 3e-4}), build_optimizer(model), build_plain(model), build_sgd(model)]
    zero = torch.optim.Adam(model.parameters(), lr=1e-3, weight_decay=0)
    print(len(opts), zero)
