import torch
import torch.nn as nn
import torch.nn.functional as F


class VAE(nn.Module):
    def __init__(self, d=784, z=20):
        super().__init__()
        self.fc1 = nn.Linear(d, 400)
        self.fc21 = nn.Linear(400, z)
        self.fc22 = nn.Linear(400, z)
        self.fc3 = nn.Linear(z, 400)
        self.fc4 = nn.Linear(400, d)

    def encode(self, x):
        h1 = F.relu(self.fc1(x))
        return self.fc21(h1), self.fc22(h1)

    def reparameterize(self, mu, logvar):
        std = torch.exp(0.5 * logvar)
        return mu + torch.randn_like(std) * std

    def decode(self, z):
        return torch.sigmoid(self.fc4(F.relu(self.fc3(z))))

    def forward(self, x):
        mu, logvar = self.encode(x.view(-1, 784))
        return self.decode(self.reparameterize(mu, logvar)), mu, logvar


def loss_function(recon_x, x, mu, logvar):
    bce = F.binary_cross_entropy(recon_x, x.view(-1, 784), reduction="sum")
    kld = -0.5 * torch.sum(1 + logvar - mu.pow(2) - logvar.exp())
    return bce + kld


def manual_bce(recon_x, x):
    return -(x * torch.log(recon_x) + (1 - x) * torch.log(1 - recon_x)).sum()  # expect: TL526


model = VAE()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
data = [torch.rand(16, 1, 28, 28) for _ in range(5)]
for epoch in range(2):
    model.train()
    for x in data:
        optimizer.zero_grad()
        recon, mu, logvar = model(x)
        loss = loss_function(recon, x, mu, logvar)
        loss.backward()
        optimizer.step()
    print(manual_bce(recon.detach(), x.view(-1, 784)).item())
