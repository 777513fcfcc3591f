import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
train_ds = TensorDataset(torch.randn(300, 12), torch.randint(0, 3, (300,)))
test_ds = TensorDataset(torch.randn(100, 12), torch.randint(0, 3, (100,)))
train_loader = DataLoader(train_ds, batch_size=30, shuffle=True)
test_loader = DataLoader(test_ds, batch_size=50)

model = nn.Sequential(nn.Linear(12, 48), nn.ReLU(), nn.Dropout(0.4), nn.Linear(48, 3))
criterion = nn.CrossEntropyLoss()
optimizer = torch.optim.RMSprop(model.parameters(), lr=1e-3)

for epoch in range(15):
    for xb, yb in train_loader:
        optimizer.zero_grad()
        loss = criterion(model(xb), yb)
        loss.backward()
        optimizer.step()

feats = []
for xb, _ in test_loader:
    feats.append(model[0](xb).detach())

test_loss = 0.0
for xb, yb in test_loader:  # expect: TL625
    test_loss += criterion(model(xb), yb).item()
print(test_loss / len(test_loader), len(feats))

model.eval()
with torch.no_grad():
    correct = sum((model(xb).argmax(1) == yb).sum().item() for xb, yb in test_loader)
print(correct / len(test_ds))
