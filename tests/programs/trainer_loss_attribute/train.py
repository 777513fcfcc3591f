"""A Trainer class in the style of small research codebases: micro-batch losses are summed in
one method, kept on `self.loss`, and backpropagated in another (review W3). Validation runs
under `torch.no_grad()`."""

import torch
import torch.nn as nn

torch.set_num_threads(1)
torch.manual_seed(0)


def make_blobs(n, generator):
    labels = torch.randint(0, 3, (n,), generator=generator)
    centers = torch.tensor([[2.0, 0.0], [-1.0, 1.5], [-1.0, -1.5]])
    points = centers[labels] + 0.6 * torch.randn(n, 2, generator=generator)
    return list(zip(points.split(8), labels.split(8)))


class Trainer:
    def __init__(self, model, lr=0.1):
        self.model = model
        self.criterion = nn.CrossEntropyLoss()
        self.optimizer = torch.optim.SGD(model.parameters(), lr=lr)
        self.history = []

    def accumulate(self, micro_batches):
        total = 0
        for x, y in micro_batches:
            total += self.criterion(self.model(x), y)
        self.loss = total / len(micro_batches)

    def step(self):
        self.optimizer.zero_grad()
        self.loss.backward()
        self.optimizer.step()
        self.history.append(self.loss.item())

    def evaluate(self, loader):
        self.model.eval()
        val_loss, correct, seen = 0.0, 0, 0
        with torch.no_grad():
            for x, y in loader:
                logits = self.model(x)
                val_loss += self.criterion(logits, y)
                correct += (logits.argmax(dim=1) == y).sum().item()
                seen += y.numel()
        self.model.train()
        return val_loss.item() / len(loader), correct / seen

    def fit(self, loader, val_loader, epochs, accum_steps=2):
        for epoch in range(epochs):
            for start in range(0, len(loader), accum_steps):
                self.accumulate(loader[start : start + accum_steps])
                self.step()
            val_loss, accuracy = self.evaluate(val_loader)
            print(f"epoch{epoch}.val_loss:", val_loss)
            print(f"epoch{epoch}.accuracy:", accuracy)


generator = torch.Generator().manual_seed(1)
train_loader = make_blobs(96, generator)
val_loader = make_blobs(48, generator)
model = nn.Sequential(nn.Linear(2, 16), nn.Tanh(), nn.Linear(16, 3))
trainer = Trainer(model)
trainer.fit(train_loader, val_loader, epochs=3)
print("train_losses:", trainer.history)
print("weight:", model[2].weight.flatten().tolist())
