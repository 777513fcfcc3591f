import collections
import torch.nn.functional as F

Summary = collections.namedtuple("Summary", "data count")


def compute(model, x, y, train=True):
    out = model(x)
    loss = F.mse_loss(out, y)
    if train:
        return loss, out
    return Summary([loss.item()], len(x)), out
