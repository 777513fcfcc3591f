import argparse
import os

import torch
import torch.nn as nn


def get_device(name):
    if name == "auto":
        return torch.device("cuda" if torch.cuda.is_available() else "cpu")
    return torch.device(name)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--device", default="auto")
    parser.add_argument("--gpu", type=int, default=0)
    args = parser.parse_args()
    device = get_device(args.device)
    model = nn.Linear(8, 2).to(device)
    other = nn.Linear(8, 2).to(f"cuda:{args.gpu}" if torch.cuda.is_available() else "cpu")
    if torch.backends.mps.is_available():
        other = other.to("mps")
    x = torch.randn(3, 8, device="cuda0")  # expect: TL720
    print(model(x.to(device)), other)
    checkpoint = torch.load("model.pt", map_location="gpu")  # expect: TL720
    model.load_state_dict(checkpoint)
    print(os.environ.get("LOCAL_RANK", "0"))
    spare = torch.zeros(4, device="cuda:1")
    print(spare.device, torch.device("cpu"))


if __name__ == "__main__":
    main()
