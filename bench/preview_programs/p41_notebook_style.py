# Cell 1
import torch
import torch.nn as nn
import matplotlib.pyplot as plt

device = "cuda" if torch.cuda.is_available() else "cpu"
X = torch.linspace(-3, 3, 200).unsqueeze(1)
Y = torch.sin(X) + 0.1 * torch.randn_like(X)
X.to(device)  # expect: TL722
Y = Y.to(device)

# Cell 2
net = nn.Sequential(nn.Linear(1, 64), nn.Tanh(), nn.Linear(64, 1))
net.to(device)
opt = torch.optim.Adam(net.parameters(), lr=1e-2)
losses = []
for step in range(500):
    pred = net(X)
    loss = ((pred - Y) ** 2).mean()
    loss.backward()
    opt.step()  # expect: TL621
    losses.append(loss.item())

# Cell 3
plt.plot(losses)
plt.show()
