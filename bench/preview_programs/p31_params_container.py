import torch
import torch.nn as nn


class MixtureOfExperts(nn.Module):
    def __init__(self, d, n_experts):
        super().__init__()
        self.experts = nn.ModuleList([nn.Linear(d, d) for _ in range(n_experts)])
        self.gate = nn.Linear(d, n_experts)
        self.scales = nn.ParameterList([nn.Parameter(torch.ones(d)) for _ in range(n_experts)])

    def forward(self, x):
        w = torch.softmax(self.gate(x), dim=-1)
        outs = torch.stack([e(x) * s for e, s in zip(self.experts, self.scales)], dim=-1)
        return (outs * w.unsqueeze(-2)).sum(-1)


class MultiHead(nn.Module):
    def __init__(self, d, tasks):
        super().__init__()
        self.trunk = nn.Linear(d, d)
        self.heads = {t: nn.Linear(d, 1) for t in tasks}  # expect: TL721
        self.task_names = list(tasks)

    def forward(self, x):
        h = torch.relu(self.trunk(x))
        return {t: head(h) for t, head in self.heads.items()}


class Prompted(nn.Module):
    def __init__(self, d, n_prompts):
        super().__init__()
        self.prompts = [nn.Parameter(torch.randn(d)) for _ in range(n_prompts)]  # expect: TL721
        self.proj = nn.Linear(d, d)
        self.cache = []

    def forward(self, x):
        return self.proj(x + torch.stack(self.prompts).mean(0))


if __name__ == "__main__":
    for m in (MixtureOfExperts(8, 3), MultiHead(8, ["a", "b"]), Prompted(8, 4)):
        print(type(m).__name__, sum(p.numel() for p in m.parameters()))
