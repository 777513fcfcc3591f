"""Batch inference and training steps that fall back to smaller batches on CUDA out-of-memory
errors, logging what happened. The OOM is simulated on CPU: `run_model` raises
`torch.cuda.OutOfMemoryError` for batches above a size, as a GPU with little memory would."""

import logging
import sys

import torch
import torch.nn as nn

torch.set_num_threads(1)
torch.manual_seed(0)
logging.basicConfig(stream=sys.stdout, level=logging.INFO, format="log: %(levelname)s %(message)s")
log = logging.getLogger("infer")

MAX_ROWS = 4
model = nn.Sequential(nn.Linear(3, 5), nn.ReLU(), nn.Linear(5, 2))
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
criterion = nn.MSELoss(reduction="sum")


class TracebackCounter(logging.Handler):
    """Counts the records that carry the exception's traceback (what exc_info=True is for)."""

    def __init__(self):
        super().__init__()
        self.with_traceback = 0

    def emit(self, record):
        self.with_traceback += record.exc_info is not None and record.exc_info[0] is not None


tracebacks = TracebackCounter()
log.addHandler(tracebacks)


def run_model(batch):
    if batch.shape[0] > MAX_ROWS:
        raise torch.cuda.OutOfMemoryError("CUDA out of memory (simulated)")
    return model(batch)


def predict(batch):
    try:
        out = run_model(batch)
    except torch.cuda.OutOfMemoryError:
        log.warning("OOM on a batch of %d, retrying in halves", batch.shape[0], exc_info=True)
        out = torch.cat([run_model(half) for half in batch.split(MAX_ROWS)])
    return out


def train_step(inputs, targets):
    optimizer.zero_grad()
    try:
        loss = criterion(run_model(inputs), targets)
        loss.backward()
    except torch.cuda.OutOfMemoryError:
        log.info("OOM at batch size %d, accumulating over chunks", inputs.shape[0])
        torch.cuda.empty_cache()
        loss = 0
        for chunk_in, chunk_target in zip(inputs.split(MAX_ROWS), targets.split(MAX_ROWS)):
            chunk_loss = criterion(run_model(chunk_in), chunk_target)
            chunk_loss.backward()
            loss = loss + chunk_loss.item()
    optimizer.step()
    return float(loss)


with torch.no_grad():
    print("predictions:", predict(torch.randn(8, 3)).tolist())
for step, size in enumerate([3, 8, 4, 6]):
    print(f"step{step}.loss:", train_step(torch.randn(size, 3), torch.randn(size, 2)))
print("weight:", model[2].weight.flatten().tolist())
print("warnings_with_traceback:", tracebacks.with_traceback)
