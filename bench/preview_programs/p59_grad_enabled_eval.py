import torch
import torch.nn as nn


def run_epoch(model, batches, optimizer, train=True):
    model.train(train)
    outputs = []
    with torch.set_grad_enabled(train):
        for x, y in batches:
            out = model(x)
            loss = nn.functional.mse_loss(out, y)
            if train:
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()
            outputs.append(out.detach())
    return torch.cat(outputs)


def validate(model, batches):
    model.eval()
    preds, targets = [], []
    for x, y in batches:
        pred = model(x)  # expect: TL626
        preds.append(pred)
        targets.append(y)
    return nn.functional.mse_loss(torch.cat(preds), torch.cat(targets)).item()


if __name__ == "__main__":
    net = nn.Sequential(nn.Linear(3, 8), nn.Dropout(0.1), nn.Linear(8, 1))
    opt = torch.optim.SGD(net.parameters(), lr=0.01)
    data = [(torch.randn(5, 3), torch.randn(5, 1)) for _ in range(4)]
    for _ in range(3):
        run_epoch(net, data, opt, train=True)
        run_epoch(net, data, opt, train=False)
    print(validate(net, data))
