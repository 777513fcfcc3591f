import torch
import torch.nn as nn

model = nn.Linear(20, 2)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
batches = [(torch.randn(8, 20), torch.randint(0, 2, (8,))) for _ in range(10)]
onecycle = torch.optim.lr_scheduler.OneCycleLR(optimizer, max_lr=0.1, total_steps=30)
plateau = torch.optim.lr_scheduler.ReduceLROnPlateau(optimizer, mode="min")

for epoch in range(3):
    model.train()
    epoch_loss = 0.0
    for x, y in batches:
        onecycle.step()  # expect: TL620
        optimizer.zero_grad()
        loss = nn.functional.cross_entropy(model(x), y)
        loss.backward()
        optimizer.step()
        epoch_loss += loss.item()
    plateau.step(epoch_loss)

warm = torch.optim.lr_scheduler.LinearLR(optimizer, start_factor=0.1, total_iters=5)
for epoch in range(5):
    for x, y in batches:
        optimizer.zero_grad()
        nn.functional.cross_entropy(model(x), y).backward()
        optimizer.step()
    warm.step()
