"""AMP training written correctly: everything here must stay silent."""
import torch
from torch import nn
from torch.amp import GradScaler, autocast


class ConvNet(nn.Module):
    def __init__(self, num_classes=10):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(1, 32, 3), nn.BatchNorm2d(32), nn.ReLU(), nn.MaxPool2d(2), nn.Dropout(0.25)
        )
        self.head = nn.Linear(32 * 13 * 13, num_classes)

    def forward(self, x):
        return self.head(self.features(x).flatten(1))


def run(epochs=2, clip=5.0):
    device = "cuda" if torch.cuda.is_available() else "cpu"
    model = ConvNet().to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9, nesterov=True)
    scheduler = torch.optim.lr_scheduler.CosineAnnealingLR(optimizer, T_max=epochs)
    scaler = GradScaler(device)
    loss_fn = nn.CrossEntropyLoss(label_smoothing=0.1)
    batches = [(torch.randn(16, 1, 28, 28), torch.randint(0, 10, (16,))) for _ in range(8)]
    for epoch in range(epochs):
        model.train()
        for x, y in batches:
            x, y = x.to(device), y.to(device)
            optimizer.zero_grad()
            with autocast(device_type=device, dtype=torch.float16):
                logits = model(x)
                loss = loss_fn(logits, y)
            scaler.scale(loss).backward()
            if clip:
                scaler.unscale_(optimizer)
                nn.utils.clip_grad_norm_(model.parameters(), clip)
            scaler.step(optimizer)
            scaler.update()
        scheduler.step()
        model.eval()
        with torch.inference_mode():
            probs = torch.softmax(model(batches[0][0].to(device)), dim=-1)
            print(epoch, probs.max(dim=-1).values.mean().item())
    return model


if __name__ == "__main__":
    run()
