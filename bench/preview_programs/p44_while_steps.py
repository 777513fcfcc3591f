"""Step-based training (no epochs), as in many LM scripts."""
import itertools
import time

import torch
import torch.nn as nn


class TinyLM(nn.Module):
    def __init__(self, vocab=256, d=64, n_layers=2):
        super().__init__()
        self.tok = nn.Embedding(vocab, d)
        self.layers = nn.ModuleList(nn.TransformerEncoderLayer(d, 4, 4 * d, batch_first=True) for _ in range(n_layers))
        self.lm_head = nn.Linear(d, vocab, bias=False)

    def forward(self, idx):
        x = self.tok(idx)
        for layer in self.layers:
            x = layer(x)
        return self.lm_head(x)


def get_batch(data, block, bs):
    ix = torch.randint(len(data) - block - 1, (bs,))
    x = torch.stack([data[i:i + block] for i in ix])
    y = torch.stack([data[i + 1:i + 1 + block] for i in ix])
    return x, y


@torch.no_grad()
def estimate_loss(model, data, iters=10):
    model.eval()
    losses = torch.zeros(iters)
    for k in range(iters):
        x, y = get_batch(data, 32, 8)
        logits = model(x)
        losses[k] = nn.functional.cross_entropy(logits.view(-1, logits.size(-1)), y.view(-1)).item()
    model.train()
    return losses.mean()


data = torch.randint(0, 256, (10_000,))
model = TinyLM()
optimizer = torch.optim.AdamW(model.parameters(), lr=3e-4, weight_decay=0.1)
max_iters, eval_interval = 200, 50
step = 0
t0 = time.time()
while step < max_iters:
    if step % eval_interval == 0:
        print(step, estimate_loss(model, data).item())
    xb, yb = get_batch(data, 32, 8)
    logits = model(xb)
    loss = nn.functional.cross_entropy(logits.view(-1, logits.size(-1)), yb.view(-1))
    loss.backward()
    torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    optimizer.step()  # expect: TL621
    step += 1

for _ in itertools.repeat(None, 3):
    optimizer.zero_grad(set_to_none=True)
print(time.time() - t0)
