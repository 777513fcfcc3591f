import torch
import torch.nn as nn
import torchvision


def freeze_backbone(model):
    for name, param in model.named_parameters():
        if not name.startswith("fc."):
            param.requires_grad_  # expect: TL723


def freeze_backbone_ok(model):
    for name, param in model.named_parameters():
        if not name.startswith("fc."):
            param.requires_grad_(False)


def unfreeze(model):
    for param in model.parameters():
        param.requires_grad = True


def reset_head(head: nn.Linear):
    with torch.no_grad():
        head.bias.zero_  # expect: TL723
        head.weight.normal_(0, 0.01)


model = torchvision.models.resnet18(weights=None)
model.fc = nn.Linear(model.fc.in_features, 5)
freeze_backbone(model)
freeze_backbone_ok(model)
reset_head(model.fc)
optimizer = torch.optim.SGD(filter(lambda p: p.requires_grad, model.parameters()), lr=0.01)
unfreeze(model)
