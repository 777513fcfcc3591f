import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(32, 32), nn.ReLU(), nn.Linear(32, 8))

    def forward(self, x):
        return self.body(x)


def main():
    model = Model()
    opt_model = torch.compile(model, mode="reduce-overhead")
    optimizer = torch.optim.Adam(opt_model.parameters(), lr=1e-3)
    for _ in range(5):
        optimizer.zero_grad()
        loss = opt_model(torch.randn(16, 32)).pow(2).mean()
        loss.backward()
        optimizer.step()
    torch.save(opt_model.state_dict(), "model.pt")  # expect: TL220
    torch.save(model.state_dict(), "model_plain.pt")
    torch.save(opt_model._orig_mod.state_dict(), "model_orig.pt")
    torch.save({"model": model.state_dict(), "optimizer": optimizer.state_dict()}, "ckpt.pt")


if __name__ == "__main__":
    main()
