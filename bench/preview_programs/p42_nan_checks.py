"""NaN handling done right: must stay silent."""
import math

import numpy as np
import torch


def clean(t: torch.Tensor) -> torch.Tensor:
    return torch.where(torch.isnan(t), torch.zeros_like(t), t)


def guard(loss):
    value = loss.item()
    if math.isnan(value) or value == float("inf"):
        raise FloatingPointError(f"bad loss {value}")
    return loss


def fraction_missing(arr: np.ndarray) -> float:
    return float(np.isnan(arr).mean())


def same(a, b):
    return bool(((a == b) | (torch.isnan(a) & torch.isnan(b))).all())


def parse(s):
    return float(s) if s != "nan" else float("nan")


print(clean(torch.tensor([1.0, float("nan")])), guard(torch.tensor(1.0)), fraction_missing(np.zeros(3)))
print(same(torch.ones(2), torch.ones(2)), parse("1.5"))
