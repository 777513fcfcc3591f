import torch
from extlib import build_detector


class Trainer:
    def __init__(self, cfg):
        self.model = build_detector(cfg)

    def train_step(self, images, targets, opt):
        self.model.train()
        loss = self.model(images, targets)   # train mode: a loss tensor
        loss.backward()
        opt.step()

    @torch.no_grad()
    def predict(self, images):
        self.model.eval()
        packed = self.model(images)           # eval mode: a PackedSequence of detections
        return packed.data, packed.batch_sizes
