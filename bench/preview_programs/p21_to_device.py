import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


def train(model, loader, optimizer, device):
    model.to(device)
    model.train()
    for x, y in loader:
        x.to(device)  # expect: TL722
        y = y.to(device)
        optimizer.zero_grad()
        loss = nn.functional.mse_loss(model(x), y)
        loss.backward()
        optimizer.step()


def predict(model, inputs, device):
    mask = torch.ones(inputs.shape[0], dtype=torch.bool)
    mask.cuda()  # expect: TL722
    weights = torch.rand(inputs.shape[0])
    weights.to(device=device, dtype=torch.float16)  # expect: TL722
    model.eval().to(device)
    with torch.no_grad():
        return model(inputs.to(device))[mask] * weights.to(device)


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = nn.Linear(6, 1)
    model.cuda() if torch.cuda.is_available() else model.cpu()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
    loader = DataLoader(TensorDataset(torch.randn(40, 6), torch.randn(40, 1)), batch_size=8)
    train(model, loader, optimizer, device)
    print(predict(model, torch.randn(5, 6), device))


if __name__ == "__main__":
    main()
