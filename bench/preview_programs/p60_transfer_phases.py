"""The transfer-learning tutorial's train/val phases: must stay silent."""
import copy
import time

import torch
import torch.nn as nn
import torchvision
from torch.utils.data import DataLoader, TensorDataset


def train_model(model, dataloaders, dataset_sizes, criterion, optimizer, scheduler, device, num_epochs=25):
    since = time.time()
    best_model_wts = copy.deepcopy(model.state_dict())
    best_acc = 0.0
    for epoch in range(num_epochs):
        for phase in ["train", "val"]:
            if phase == "train":
                model.train()
            else:
                model.eval()
            running_loss, running_corrects = 0.0, 0
            for inputs, labels in dataloaders[phase]:
                inputs = inputs.to(device)
                labels = labels.to(device)
                optimizer.zero_grad()
                with torch.set_grad_enabled(phase == "train"):
                    outputs = model(inputs)
                    _, preds = torch.max(outputs, 1)
                    loss = criterion(outputs, labels)
                    if phase == "train":
                        loss.backward()
                        optimizer.step()
                running_loss += loss.item() * inputs.size(0)
                running_corrects += torch.sum(preds == labels.data)
            if phase == "train":
                scheduler.step()
            epoch_acc = running_corrects.double() / dataset_sizes[phase]
            if phase == "val" and epoch_acc > best_acc:
                best_acc = epoch_acc
                best_model_wts = copy.deepcopy(model.state_dict())
    print(f"done in {time.time() - since:.0f}s, best {best_acc:.4f}")
    model.load_state_dict(best_model_wts)
    return model


if __name__ == "__main__":
    device = torch.device("cuda:0" if torch.cuda.is_available() else "cpu")
    model_ft = torchvision.models.resnet18(weights=None)
    model_ft.fc = nn.Linear(model_ft.fc.in_features, 2)
    model_ft = model_ft.to(device)
    ds = TensorDataset(torch.randn(8, 3, 64, 64), torch.randint(0, 2, (8,)))
    loaders = {x: DataLoader(ds, batch_size=4, shuffle=x == "train") for x in ["train", "val"]}
    optimizer_ft = torch.optim.SGD(model_ft.parameters(), lr=0.001, momentum=0.9)
    exp_lr_scheduler = torch.optim.lr_scheduler.StepLR(optimizer_ft, step_size=7, gamma=0.1)
    train_model(model_ft, loaders, {"train": 8, "val": 8}, nn.CrossEntropyLoss(), optimizer_ft, exp_lr_scheduler, device, 2)
