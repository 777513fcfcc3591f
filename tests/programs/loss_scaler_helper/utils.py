"""Training utilities in the style of timm's `NativeScaler`: the caller hands the loss over and
the scaler backpropagates it and steps the optimizer."""

import torch


class NativeScaler:
    def __init__(self, clip_grad=None):
        self.clip_grad = clip_grad

    def __call__(self, loss, optimizer, parameters=None):
        loss.backward()
        if self.clip_grad is not None:
            torch.nn.utils.clip_grad_norm_(parameters, self.clip_grad)
        optimizer.step()


def backward_and_step(loss, optimizer):
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
