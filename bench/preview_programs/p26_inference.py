import sys

import numpy as np
import torch
import torchvision
from PIL import Image
from torchvision import transforms

preprocess = transforms.Compose([transforms.Resize(256), transforms.CenterCrop(224), transforms.ToTensor()])


def load_model(path):
    model = torchvision.models.resnet50()
    model.load_state_dict(torch.load(path, map_location="cpu", weights_only=True))
    return model.eval()


def predict(model, paths, batch_size=16):
    model.eval()
    outputs = []
    for start in range(0, len(paths), batch_size):
        batch = torch.stack([preprocess(Image.open(p).convert("RGB")) for p in paths[start:start + batch_size]])
        logits = model(batch)  # expect: TL626
        outputs.append(logits.softmax(dim=1))
    return torch.cat(outputs)


@torch.inference_mode()
def predict_ok(model, paths, batch_size=16):
    model.eval()
    outputs = []
    for start in range(0, len(paths), batch_size):
        batch = torch.stack([preprocess(Image.open(p).convert("RGB")) for p in paths[start:start + batch_size]])
        outputs.append(model(batch).softmax(dim=1))
    return torch.cat(outputs)


def embed(model, paths):
    model.eval()
    feats = []
    for p in paths:
        x = preprocess(Image.open(p).convert("RGB")).unsqueeze(0)
        feats.append(model(x).detach().cpu().numpy())
    return np.concatenate(feats)


if __name__ == "__main__":
    m = load_model(sys.argv[1])
    print(predict(m, sys.argv[2:]).argmax(1))
    print(predict_ok(m, sys.argv[2:]).argmax(1))
    print(embed(m, sys.argv[2:]).shape)
