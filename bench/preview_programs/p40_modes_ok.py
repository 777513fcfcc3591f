"""Train/eval switching done right in several shapes: must stay silent."""
import torch
import torch.nn as nn

model = nn.Sequential(nn.Linear(10, 32), nn.BatchNorm1d(32), nn.ReLU(), nn.Dropout(0.2), nn.Linear(32, 2))
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
train_batches = [(torch.randn(16, 10), torch.randint(0, 2, (16,))) for _ in range(5)]
val_batches = [(torch.randn(16, 10), torch.randint(0, 2, (16,))) for _ in range(2)]
history = []

for epoch in range(4):
    model.train()
    for x, y in train_batches:
        optimizer.zero_grad()
        loss = nn.functional.cross_entropy(model(x), y)
        loss.backward()
        optimizer.step()
    model.eval()
    val_logits = []
    with torch.no_grad():
        for x, y in val_batches:
            val_logits.append(model(x))
    history.append(torch.cat(val_logits).argmax(1))

model.eval()
with torch.no_grad():
    preds = [model(x).argmax(1) for x, _ in val_batches]
print(len(history), preds[0])
