import math

import torch
import torch.nn.functional as F

EPS = 1e-8


def entropy(logits):
    p = torch.softmax(logits, dim=-1)
    return -(p * torch.log(p)).sum(-1)  # expect: TL526


def entropy_safe(logits):
    p = torch.softmax(logits, dim=-1)
    return -(p * torch.log(p + EPS)).sum(-1)


def entropy_clamped(logits):
    p = logits.softmax(-1)
    return -(p * p.clamp_min(1e-12).log()).sum(-1)


def log_probs(logits):
    return torch.log(torch.softmax(logits, dim=-1))  # expect: TL520


def log_probs_ok(logits):
    return F.log_softmax(logits, dim=-1)


def has_nan(loss):
    return loss == float("nan")  # expect: TL521


def skip_batch(loss):
    if torch.isnan(loss).any() or math.isnan(loss.item()):
        return True
    return bool(loss != loss)


def focal_loss(logits, target, gamma=2.0):
    logp = F.log_softmax(logits, dim=-1)
    p = logp.exp()
    logp_t = logp.gather(1, target[:, None]).squeeze(1)
    p_t = p.gather(1, target[:, None]).squeeze(1)
    return (-(1 - p_t) ** gamma * logp_t).mean()


def bce_manual(pred_logits, target):
    p = torch.sigmoid(pred_logits).clamp(1e-6, 1 - 1e-6)
    return -(target * torch.log(p) + (1 - target) * torch.log(1 - p)).mean()


if __name__ == "__main__":
    x = torch.randn(4, 5)
    print(entropy(x), entropy_safe(x), entropy_clamped(x), log_probs(x), log_probs_ok(x))
    loss = focal_loss(x, torch.tensor([0, 1, 2, 3]))
    print(has_nan(loss), skip_batch(loss), bce_manual(x[:, 0], torch.ones(4)))
    values = torch.tensor([1.0, float("nan")])
    print(values[values != float("nan")])  # expect: TL521
