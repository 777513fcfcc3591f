"""Seed for bench/fuzz.py: a DDP language-model script launched with torchrun."""

import math
import os
import time
from contextlib import nullcontext

import torch
import torch.distributed as dist
from torch import nn
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import DataLoader, IterableDataset, TensorDataset
from torch.utils.data.distributed import DistributedSampler

WORLD = int(os.environ.get("WORLD_SIZE", 1))
RANK = int(os.environ.get("RANK", 0))


def log(*parts, **kwargs):
    if RANK == 0:
        print(*parts, **kwargs, flush=True)


class TinyLM(nn.Module):
    def __init__(self, vocab=128, dim=32, heads=4, layers=2):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        layer = nn.TransformerEncoderLayer(dim, heads, dim * 4, batch_first=True)
        self.encoder = nn.TransformerEncoder(layer, layers)
        self.lm_head = nn.Linear(dim, vocab, bias=False)
        self.lm_head.weight = self.embed.weight

    def forward(self, tokens, targets=None):
        mask = nn.Transformer.generate_square_subsequent_mask(tokens.size(1), device=tokens.device)
        hidden = self.encoder(self.embed(tokens), mask=mask, is_causal=True)
        logits = self.lm_head(hidden)
        if targets is None:
            return logits, None
        loss = nn.functional.cross_entropy(logits.flatten(0, 1), targets.flatten())
        return logits, loss


class Stream(IterableDataset):
    def __init__(self, length, seq):
        self.length, self.seq = length, seq

    def __iter__(self):
        info = torch.utils.data.get_worker_info()
        generator = torch.Generator().manual_seed(0 if info is None else info.seed)
        for _ in range(self.length):
            yield torch.randint(0, 128, (self.seq + 1,), generator=generator)


def cosine_lr(step, warmup=10, total=100, peak=3e-4):
    if step < warmup:
        return peak * (step + 1) / warmup
    progress = (step - warmup) / max(1, total - warmup)
    return 0.5 * peak * (1 + math.cos(math.pi * min(progress, 1.0)))


def setup():
    if WORLD > 1:
        dist.init_process_group("nccl" if torch.cuda.is_available() else "gloo")
    local_rank = int(os.environ.get("LOCAL_RANK", 0))
    if torch.cuda.is_available():
        torch.cuda.set_device(local_rank)
        return torch.device("cuda", local_rank)
    return torch.device("cpu")


def train(steps=20, accumulation=4, seq=16):
    device = setup()
    model = TinyLM().to(device)
    if dist.is_initialized():
        model = DDP(model, device_ids=[device.index] if device.type == "cuda" else None)
    optimizer = torch.optim.AdamW(model.parameters(), lr=cosine_lr(0), betas=(0.9, 0.95))
    data = TensorDataset(torch.randint(0, 128, (256, seq + 1)))
    sampler = DistributedSampler(data, num_replicas=WORLD, rank=RANK, shuffle=True) if WORLD > 1 else None
    loader = DataLoader(data, batch_size=8, sampler=sampler, shuffle=sampler is None, drop_last=True)
    step, started = 0, time.perf_counter()
    epoch = 0
    while step < steps:
        if sampler is not None:
            sampler.set_epoch(epoch)
        for micro, (batch,) in enumerate(loader):
            batch = batch.to(device)
            inputs, targets = batch[:, :-1], batch[:, 1:]
            last = (micro + 1) % accumulation == 0
            sync = model.no_sync() if isinstance(model, DDP) and not last else nullcontext()
            with sync:
                _, loss = model(inputs, targets)
                (loss / accumulation).backward()
            if not last:
                continue
            for group in optimizer.param_groups:
                group["lr"] = cosine_lr(step)
            torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            optimizer.step()
            optimizer.zero_grad(set_to_none=True)
            step += 1
            if step % 5 == 0:
                elapsed = time.perf_counter() - started
                log(f"step {step:4d} loss {loss.item():.3f} ({elapsed:.1f}s)")
            if step >= steps:
                break
        epoch += 1
    if RANK == 0:
        raw = model.module if isinstance(model, DDP) else model
        torch.save(raw.state_dict(), "lm.pt")
    if dist.is_initialized():
        dist.destroy_process_group()


if __name__ == "__main__":
    train()
