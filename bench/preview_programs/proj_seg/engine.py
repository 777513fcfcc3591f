import torch


def dice_score(logits, target, eps=1e-6):
    pred = (torch.sigmoid(logits) > 0.5).float()
    inter = (pred * target).sum()
    return (2 * inter + eps) / (pred.sum() + target.sum() + eps)


def train_one_epoch(model, loader, optimizer, criterion, device):
    model.train()
    total = 0.0
    for images, masks in loader:
        images, masks = images.to(device), masks.to(device)
        optimizer.zero_grad()
        logits = model(images)
        loss = criterion(torch.sigmoid(logits), masks)  # expect: TL523
        loss.backward()
        optimizer.step()
        total += loss.item()
    return total / len(loader)


def validate(model, loader, device):
    scores = []
    for images, masks in loader:  # expect: TL625
        images, masks = images.to(device), masks.to(device)
        logits = model(images)  # expect: TL626
        scores.append(dice_score(logits, masks))
    return torch.stack(scores).mean().item()
