import math

import torch
import torch.nn as nn
from torch.optim.lr_scheduler import LambdaLR


def linear_warmup(optimizer, warmup, total):
    def lr_lambda(step):
        if step < warmup:
            return step / max(1, warmup)
        return max(0.0, (total - step) / max(1, total - warmup))

    return LambdaLR(optimizer, lr_lambda)


def finetune(model, train_batches, epochs=3, lr=2e-5):
    optimizer = torch.optim.AdamW(model.parameters(), lr=lr, weight_decay=0.01)
    total = epochs * len(train_batches)
    scheduler = linear_warmup(optimizer, int(0.1 * total), total)
    model.train()
    for epoch in range(epochs):
        for step, (inputs, labels) in enumerate(train_batches):
            logits = model(inputs)
            loss = nn.functional.cross_entropy(logits, labels)
            loss.backward()
            optimizer.zero_grad()  # expect: TL621
            optimizer.step()
            scheduler.step()
        print(epoch, math.exp(min(loss.item(), 20)))


if __name__ == "__main__":
    net = nn.Sequential(nn.Linear(16, 16), nn.ReLU(), nn.Linear(16, 2))
    finetune(net, [(torch.randn(4, 16), torch.randint(0, 2, (4,))) for _ in range(5)])
