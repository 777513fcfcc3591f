"""Gradient accumulation done right, in a few common spellings."""
import torch
import torch.nn as nn
import torch.nn.functional as F


def make_model():
    return nn.Sequential(nn.Embedding(1000, 64), nn.Flatten(), nn.Linear(64 * 16, 2))


def fit(model, batches, optimizer, grad_accum=4, max_grad_norm=1.0):
    model.train()
    for step, (tokens, labels) in enumerate(batches):
        logits = model(tokens)
        loss = F.cross_entropy(logits, labels)
        loss = loss / grad_accum
        loss.backward()
        if (step + 1) % grad_accum == 0 or step + 1 == len(batches):
            torch.nn.utils.clip_grad_norm_(model.parameters(), max_grad_norm)
            optimizer.step()
            optimizer.zero_grad(set_to_none=True)


def fit_mean(model, batches, optimizer, accum=2):
    model.train()
    optimizer.zero_grad()
    for step, (tokens, labels) in enumerate(batches, start=1):
        loss = F.cross_entropy(model(tokens), labels)
        (loss / accum).backward()
        if step % accum == 0:
            optimizer.step()
            optimizer.zero_grad()


if __name__ == "__main__":
    model = make_model()
    opt = torch.optim.AdamW(model.parameters(), lr=5e-5)
    data = [(torch.randint(0, 1000, (8, 16)), torch.randint(0, 2, (8,))) for _ in range(12)]
    fit(model, data, opt)
    fit_mean(model, data, opt)
