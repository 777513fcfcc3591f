import numpy as np
import torch
import torch.nn as nn
from sklearn.model_selection import KFold
from torch.utils.data import DataLoader, Subset, TensorDataset


def make_model():
    return nn.Sequential(nn.Linear(6, 32), nn.ReLU(), nn.Dropout(0.2), nn.Linear(32, 1))


def fit(model, loader, epochs=5):
    opt = torch.optim.Adam(model.parameters(), lr=1e-3, weight_decay=1e-5)  # expect: TL728
    loss_fn = nn.BCEWithLogitsLoss()
    for _ in range(epochs):
        model.train()
        for x, y in loader:
            opt.zero_grad()
            loss_fn(model(x).squeeze(1), y).backward()
            opt.step()


@torch.no_grad()
def predict_proba(model, loader):
    model.eval()
    return torch.cat([torch.sigmoid(model(x).squeeze(1)) for x, _ in loader])


X = torch.randn(200, 6)
y = (X[:, 0] > 0).float()
ds = TensorDataset(X, y)
scores = []
for fold, (tr, va) in enumerate(KFold(n_splits=4, shuffle=True, random_state=0).split(np.arange(len(ds)))):
    model = make_model()
    fit(model, DataLoader(Subset(ds, tr), batch_size=16, shuffle=True))
    probs = predict_proba(model, DataLoader(Subset(ds, va), batch_size=64))
    scores.append(((probs > 0.5).float() == y[va]).float().mean().item())
print(np.mean(scores))
