"""DCGAN training (after pytorch/examples dcgan/main.py): custom weights initialisation applied
with `netG.apply(weights_init)`, class names matched with `classname.find('Conv')`, and the
`.data` writes of the original example."""

import torch
import torch.nn as nn
import torch.optim as optim

from models import NZ, Discriminator, Generator

torch.set_num_threads(1)
torch.manual_seed(999)


# custom weights initialization called on netG and netD
def weights_init(m):
    classname = m.__class__.__name__
    if classname.find('Conv') != -1:
        m.weight.data.normal_(0.0, 0.02)
    elif classname.find('BatchNorm') != -1:
        m.weight.data.normal_(1.0, 0.02)
        m.bias.data.fill_(0)


netG = Generator()
netG.apply(weights_init)
netD = Discriminator()
netD.apply(weights_init)

criterion = nn.BCELoss()
fixed_noise = torch.randn(4, NZ, 1, 1)
real_label, fake_label = 1.0, 0.0
optimizerD = optim.Adam(netD.parameters(), lr=0.0002, betas=(0.5, 0.999))
optimizerG = optim.Adam(netG.parameters(), lr=0.0002, betas=(0.5, 0.999))
dataset = [torch.rand(4, 1, 16, 16) * 2 - 1 for _ in range(3)]

print("init.G:", [p.sum().item() for p in netG.parameters()])
for epoch in range(2):
    for i, real in enumerate(dataset):
        # (1) Update D network: maximize log(D(x)) + log(1 - D(G(z)))
        netD.zero_grad()
        batch_size = real.size(0)
        label = torch.full((batch_size,), real_label)
        output = netD(real)
        errD_real = criterion(output, label)
        errD_real.backward()
        D_x = output.mean().item()

        noise = torch.randn(batch_size, NZ, 1, 1)
        fake = netG(noise)
        label.fill_(fake_label)
        output = netD(fake.detach())
        errD_fake = criterion(output, label)
        errD_fake.backward()
        D_G_z1 = output.mean().item()
        errD = errD_real + errD_fake
        optimizerD.step()

        # (2) Update G network: maximize log(D(G(z)))
        netG.zero_grad()
        label.fill_(real_label)
        output = netD(fake)
        errG = criterion(output, label)
        errG.backward()
        D_G_z2 = output.mean().item()
        optimizerG.step()
        print(f"step{epoch}.{i}.loss_D:", errD.item())
        print(f"step{epoch}.{i}.loss_G:", errG.item())
        print(f"step{epoch}.{i}.D_x:", D_x)
        print(f"step{epoch}.{i}.D_G_z:", [D_G_z1, D_G_z2])

fake = netG(fixed_noise)
print("fixed_noise_samples:", fake.detach().flatten()[:16].tolist())
