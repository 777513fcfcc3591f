"""DCGAN-style loop: two optimizers, each reset properly. Must stay silent."""
import torch
import torch.nn as nn
from tqdm import tqdm

nz = 16
netG = nn.Sequential(nn.Linear(nz, 128), nn.ReLU(), nn.Linear(128, 784), nn.Tanh())
netD = nn.Sequential(nn.Linear(784, 128), nn.LeakyReLU(0.2), nn.Linear(128, 1), nn.Sigmoid())
criterion = nn.BCELoss()
optimizerD = torch.optim.Adam(netD.parameters(), lr=2e-4, betas=(0.5, 0.999))
optimizerG = torch.optim.Adam(netG.parameters(), lr=2e-4, betas=(0.5, 0.999))
dataloader = [torch.randn(32, 784) for _ in range(20)]
fixed_noise = torch.randn(64, nz)
G_losses, D_losses = [], []

for epoch in range(5):
    for i, real in enumerate(tqdm(dataloader)):
        netD.zero_grad()
        b = real.size(0)
        label = torch.full((b,), 1.0)
        output = netD(real).view(-1)
        errD_real = criterion(output, label)
        errD_real.backward()
        noise = torch.randn(b, nz)
        fake = netG(noise)
        label.fill_(0.0)
        output = netD(fake.detach()).view(-1)
        errD_fake = criterion(output, label)
        errD_fake.backward()
        optimizerD.step()

        netG.zero_grad()
        label.fill_(1.0)
        output = netD(fake).view(-1)
        errG = criterion(output, label)
        errG.backward()
        optimizerG.step()
        G_losses.append(errG.item())
        D_losses.append((errD_real + errD_fake).item())

    with torch.no_grad():
        samples = netG(fixed_noise).detach().cpu()
    print(epoch, samples.shape)
