import torch
import torch.nn as nn


class Classifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(20, 64), nn.BatchNorm1d(64), nn.ReLU(), nn.Dropout(0.3))
        self.out = nn.Linear(64, 2)

    def forward(self, x):
        return self.out(self.body(x))


class Trainer:
    """Each phase sets its own mode: must stay silent."""

    def __init__(self, model, lr=1e-2):
        self.model = model
        self.optimizer = torch.optim.SGD(model.parameters(), lr=lr)
        self.loss_fn = nn.CrossEntropyLoss()

    def _train_epoch(self, batches):
        self.model.train()
        for x, y in batches:
            self.optimizer.zero_grad()
            loss = self.loss_fn(self.model(x), y)
            loss.backward()
            self.optimizer.step()

    @torch.no_grad()
    def _eval_epoch(self, batches):
        self.model.eval()
        return [self.model(x).argmax(1) for x, _ in batches]

    def fit(self, train_batches, val_batches, epochs=3):
        history = []
        for _ in range(epochs):
            self._train_epoch(train_batches)
            history.append(self._eval_epoch(val_batches))
        return history


class LazyTrainer(Trainer):
    def _train_epoch(self, batches):
        for x, y in batches:  # expect: TL625
            self.optimizer.zero_grad()
            self.loss_fn(self.model(x), y).backward()
            self.optimizer.step()

    def fit(self, train_batches, val_batches, epochs=3):
        for _ in range(epochs):
            self._train_epoch(train_batches)
            self._eval_epoch(val_batches)


if __name__ == "__main__":
    data = [(torch.randn(8, 20), torch.randint(0, 2, (8,))) for _ in range(4)]
    Trainer(Classifier()).fit(data, data)
    LazyTrainer(Classifier()).fit(data, data)
