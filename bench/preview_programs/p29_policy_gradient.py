"""REINFORCE on a toy bandit. Must stay silent."""
import torch
import torch.nn as nn
from torch.distributions import Categorical


class Policy(nn.Module):
    def __init__(self, n_obs=4, n_act=2):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(n_obs, 64), nn.Tanh(), nn.Linear(64, n_act))

    def forward(self, obs):
        return torch.softmax(self.net(obs), dim=-1)


policy = Policy()
optimizer = torch.optim.Adam(policy.parameters(), lr=1e-2)
gamma = 0.99

for episode in range(50):
    log_probs, rewards = [], []
    obs = torch.randn(4)
    for t in range(20):
        probs = policy(obs)
        dist = Categorical(probs)
        action = dist.sample()
        log_probs.append(dist.log_prob(action))
        rewards.append(float(action.item() == 1))
        obs = torch.randn(4)
    returns, R = [], 0.0
    for r in reversed(rewards):
        R = r + gamma * R
        returns.insert(0, R)
    returns = torch.tensor(returns)
    returns = (returns - returns.mean()) / (returns.std() + 1e-8)
    loss = -(torch.stack(log_probs) * returns).sum()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
