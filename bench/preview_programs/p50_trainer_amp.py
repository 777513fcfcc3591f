import torch
import torch.nn as nn
from torch.cuda.amp import GradScaler, autocast


class AmpTrainer:
    def __init__(self, model, optimizer, grad_clip=1.0, use_amp=True):
        self.model = model
        self.optimizer = optimizer
        self.scaler = GradScaler(enabled=use_amp)
        self.grad_clip = grad_clip
        self.use_amp = use_amp

    def training_step(self, batch):
        x, y = batch
        self.optimizer.zero_grad()
        with autocast(enabled=self.use_amp):
            loss = nn.functional.mse_loss(self.model(x), y)
        self.scaler.scale(loss).backward()
        if self.grad_clip:
            nn.utils.clip_grad_norm_(self.model.parameters(), self.grad_clip)  # expect: TL623
        self.scaler.step(self.optimizer)
        self.scaler.update()
        return loss.detach()

    def train(self, loader, epochs):
        self.model.train()
        for _ in range(epochs):
            for batch in loader:
                self.training_step(batch)


if __name__ == "__main__":
    net = nn.Linear(4, 1)
    trainer = AmpTrainer(net, torch.optim.SGD(net.parameters(), lr=0.01))
    trainer.train([(torch.randn(2, 4), torch.randn(2, 1))], 1)
