import torch
import torch.nn as nn


class Discriminator(nn.Module):
    def __init__(self, d=64):
        super().__init__()
        self.main = nn.Sequential(nn.Linear(784, d * 4), nn.LeakyReLU(0.2), nn.Linear(d * 4, 1))

    def forward(self, x):
        return self.main(x.view(x.size(0), -1))


class ProbDiscriminator(nn.Module):
    def __init__(self):
        super().__init__()
        self.main = nn.Sequential(nn.Linear(784, 256), nn.LeakyReLU(0.2), nn.Linear(256, 1), nn.Sigmoid())

    def forward(self, x):
        return self.main(x.view(x.size(0), -1))


def d_step(netD, optD, real, fake):
    criterion = nn.BCEWithLogitsLoss()
    optD.zero_grad()
    out_real = torch.sigmoid(netD(real))
    loss_real = criterion(out_real, torch.ones_like(out_real))  # expect: TL523
    loss_fake = criterion(netD(fake.detach()), torch.zeros(fake.size(0), 1))
    (loss_real + loss_fake).backward()
    optD.step()


def d_step_prob(netP, optP, real, fake):
    bce = nn.BCELoss()
    optP.zero_grad()
    pr = netP(real)
    pf = netP(fake.detach())
    loss = bce(pr, torch.ones_like(pr)) + bce(pf, torch.zeros_like(pf))
    loss.backward()
    optP.step()


def d_step_raw(netD, optD, real):
    bce = nn.BCELoss()
    optD.zero_grad()
    logits = netD(real)
    loss = bce(logits, torch.ones(real.size(0), 1))  # expect: TL523
    loss.backward()
    optD.step()


if __name__ == "__main__":
    netD, netP = Discriminator(), ProbDiscriminator()
    optD = torch.optim.Adam(netD.parameters(), lr=2e-4, betas=(0.5, 0.999))
    optP = torch.optim.Adam(netP.parameters(), lr=2e-4, betas=(0.5, 0.999))
    real, fake = torch.randn(8, 1, 28, 28), torch.randn(8, 1, 28, 28)
    d_step(netD, optD, real, fake)
    d_step_prob(netP, optP, real, fake)
    d_step_raw(netD, optD, real)
