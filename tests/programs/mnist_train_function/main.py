"""The pytorch/examples MNIST script's shape on synthetic 8x8 digits: the model is built in
models.py, `train(args, model, device, train_loader, optimizer, epoch)` and
`test(model, device, test_loader)` are functions, the test loop runs under no_grad and sums
`.item()`s, and the training loop keeps a running loss for its log line."""

import argparse

import torch
import torch.nn.functional as F
import torch.optim as optim
from torch.optim.lr_scheduler import StepLR
from torch.utils.data import DataLoader, TensorDataset

from models import Net


def train(args, model, device, train_loader, optimizer, epoch):
    model.train()
    running_loss = 0
    for batch_idx, (data, target) in enumerate(train_loader):
        data, target = data.to(device), target.to(device)
        optimizer.zero_grad()
        output = model.forward(data)
        loss = F.nll_loss(output, target)
        loss.backward()
        optimizer.step()
        running_loss += loss
        if batch_idx % args.log_interval == 0:
            print(f"train.epoch{epoch}.batch{batch_idx}.loss:", loss.item())
    print(f"epoch{epoch}.train_loss:", (running_loss / len(train_loader)).item())


def test(model, device, test_loader):
    model.eval()
    test_loss = 0
    correct = 0
    with torch.no_grad():
        for data, target in test_loader:
            data, target = data.to(device), target.to(device)
            output = model(data)
            test_loss += F.nll_loss(output, target, reduction="sum").item()
            pred = output.argmax(dim=1, keepdim=True)
            correct += pred.eq(target.view_as(pred)).sum().item()
    test_loss /= len(test_loader.dataset)
    return test_loss, correct


def synthetic_digits(n, generator):
    target = torch.randint(0, 10, (n,), generator=generator)
    images = torch.rand(n, 1, 8, 8, generator=generator) * 0.3
    images[torch.arange(n), 0, target % 8, target // 2] += 1.0
    return TensorDataset(images, target)


def main():
    parser = argparse.ArgumentParser(description="PyTorch MNIST Example")
    parser.add_argument("--epochs", type=int, default=2)
    parser.add_argument("--lr", type=float, default=1.0)
    parser.add_argument("--gamma", type=float, default=0.7)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--log-interval", type=int, default=4)
    args = parser.parse_args()
    torch.set_num_threads(1)
    torch.manual_seed(args.seed)
    device = torch.device("cpu")

    generator = torch.Generator().manual_seed(args.seed)
    train_loader = DataLoader(synthetic_digits(96, generator), batch_size=12, shuffle=True, generator=generator)
    test_loader = DataLoader(synthetic_digits(40, generator), batch_size=20)
    model = Net().to(device)
    optimizer = optim.Adadelta(model.parameters(), lr=args.lr)
    scheduler = StepLR(optimizer, step_size=1, gamma=args.gamma)
    for epoch in range(1, args.epochs + 1):
        train(args, model, device, train_loader, optimizer, epoch)
        test_loss, correct = test(model, device, test_loader)
        scheduler.step()
        print(f"epoch{epoch}.test_loss:", test_loss)
        print(f"epoch{epoch}.correct:", correct)


if __name__ == "__main__":
    main()
