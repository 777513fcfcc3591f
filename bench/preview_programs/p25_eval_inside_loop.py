import torch
import torch.nn as nn

model = nn.Sequential(nn.Linear(10, 64), nn.ReLU(), nn.Dropout(0.5), nn.Linear(64, 1))
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
loss_fn = nn.MSELoss()
x_train, y_train = torch.randn(256, 10), torch.randn(256, 1)
x_val, y_val = torch.randn(64, 10), torch.randn(64, 1)
best = float("inf")

for epoch in range(100):
    for i in range(0, 256, 32):  # expect: TL625
        optimizer.zero_grad()
        pred = model(x_train[i:i + 32])
        loss = loss_fn(pred, y_train[i:i + 32])
        loss.backward()
        optimizer.step()
    model.eval()
    with torch.no_grad():
        val_loss = loss_fn(model(x_val), y_val).item()
    if val_loss < best:
        best = val_loss
        torch.save(model.state_dict(), "best.pt")
    print(epoch, val_loss)
