"""Fine-tunes from a DataParallel checkpoint the way the ImageNet example resumes: the model is
wrapped first, then the `module.`-prefixed state_dict is loaded strictly; then saves the
unwrapped weights for export through the wrapper's `.module` (review W8)."""

import os

import torch
import torch.nn as nn

from net import ConvNet

torch.set_num_threads(1)
torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")

model = ConvNet()
model = nn.DataParallel(model).to(device)
checkpoint = torch.load(os.path.join("pretrained", "convnet_dp.pth"), weights_only=True)
model.load_state_dict(checkpoint["state_dict"])
print("resumed_epoch:", checkpoint["epoch"])

criterion = nn.CrossEntropyLoss()
optimizer = torch.optim.SGD(model.parameters(), lr=0.05)
images, targets = torch.randn(6, 1, 8, 8), torch.randint(0, 3, (6,))
for step in range(3):
    loss = criterion(model(images.to(device)), targets.to(device))
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(f"step{step}.loss:", loss.item())

net = ConvNet()
parallel_net = nn.DataParallel(net)
parallel_net.load_state_dict(model.state_dict())
export_state = parallel_net.module.state_dict()
print("export_keys:", sorted(export_state))
print("export.classifier:", export_state["classifier.weight"].flatten().tolist())
