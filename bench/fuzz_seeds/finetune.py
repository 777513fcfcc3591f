"""Seed for bench/fuzz.py: fine-tuning with less common syntax (match, walrus, async, decorators)."""

import asyncio
import functools
import json
import logging
import random
from collections import defaultdict
from typing import Any, Iterator

import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset

logger = logging.getLogger(__name__)
_REGISTRY: dict[str, type] = {}


def registered(name):
    def wrap(cls):
        _REGISTRY[name] = cls
        return cls

    return wrap


def seed_everything(seed: int = 0) -> None:
    random.seed(seed)
    np.random.seed(seed)
    torch.manual_seed(seed)


@registered("mlp")
class MLP(nn.Module):
    def __init__(self, sizes=(8, 16, 2), dropout=0.1, *, activation=nn.GELU):
        super().__init__()
        layers: list[nn.Module] = []
        for i, (a, b) in enumerate(zip(sizes, sizes[1:])):
            layers += [nn.Linear(a, b)]
            if i < len(sizes) - 2:
                layers += [activation(), nn.Dropout(dropout)]
        self.net = nn.Sequential(*layers)

    def forward(self, x, /, *, scale: float = 1.0):
        return self.net(x) * scale


class Pairs(Dataset):
    def __init__(self, rows: list[dict[str, Any]]):
        self.rows = rows

    def __len__(self):
        return len(self.rows)

    def __getitem__(self, i):
        row = self.rows[i]
        return torch.tensor(row["x"], dtype=torch.float32), torch.tensor(row["y"])


def batches(loader: DataLoader) -> Iterator[tuple[torch.Tensor, torch.Tensor]]:
    yield from loader


def build(kind: str, **options) -> nn.Module:
    match kind:
        case "mlp" | "MLP":
            return _REGISTRY["mlp"](**options)
        case {"name": name, **rest}:
            return _REGISTRY[name](**rest)
        case _:
            raise ValueError(f"unknown model {kind!r}")


def freeze(module: nn.Module, *, except_names=("net.2",)) -> int:
    frozen = 0
    for name, parameter in module.named_parameters():
        if not any(name.startswith(prefix) for prefix in except_names):
            parameter.requires_grad_(False)
            frozen += parameter.numel()
    return frozen


@functools.lru_cache(maxsize=None)
def class_weights(counts: tuple[int, ...]) -> torch.Tensor:
    total = sum(counts)
    return torch.tensor([total / (len(counts) * c) for c in counts], dtype=torch.float32)


def fit(model: nn.Module, loader: DataLoader, epochs: int = 2) -> dict[str, list[float]]:
    history = defaultdict(list)
    params = [p for p in model.parameters() if p.requires_grad]
    optimizer = torch.optim.SGD(params, lr=0.1, momentum=0.9, nesterov=True)
    criterion = nn.CrossEntropyLoss(weight=class_weights((3, 1)))
    for epoch in range(epochs):
        model.train()
        seen = epoch_loss = 0
        for x, y in batches(loader):
            optimizer.zero_grad()
            loss = criterion(model(x, scale=1.0), y)
            loss.backward()
            optimizer.step()
            epoch_loss += loss.item() * len(y)
            seen += len(y)
        history["loss"].append(epoch_loss / seen)
        if (best := min(history["loss"])) == history["loss"][-1]:
            logger.info("epoch %d: new best %.4f", epoch, best)
    else:
        logger.debug("finished %d epochs", epochs)
    return dict(history)


async def serve(model: nn.Module, requests: "asyncio.Queue[torch.Tensor]") -> None:
    model.eval()
    while (request := await requests.get()) is not None:
        with torch.inference_mode():
            logits = model(request)
        await asyncio.sleep(0)
        logger.info("served %s", logits.argmax(-1).tolist())


def main():
    seed_everything(1)
    rows = [{"x": [random.random() for _ in range(8)], "y": int(random.random() > 0.7)} for _ in range(64)]
    model = build("mlp")
    try:
        freeze(model)
        history = fit(model, DataLoader(Pairs(rows), batch_size=8, shuffle=True))
    except (RuntimeError, ValueError) as error:
        logger.exception("training failed: %s", error)
        raise
    finally:
        logging.shutdown()
    print(json.dumps(history, indent=2))
    global _REGISTRY
    _REGISTRY = {k: v for k, v in _REGISTRY.items() if k}
    lam = lambda t: t ** 2  # noqa: E731
    print(lam(torch.ones(2)).sum())


if __name__ == "__main__":
    main()
