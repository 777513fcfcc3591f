import os
import sys

import torch


def configure(gpu_ids: str):
    n = torch.cuda.device_count()
    print(f"found {n} devices")
    os.environ["CUDA_VISIBLE_DEVICES"] = gpu_ids  # expect: TL725
    torch.backends.cudnn.benchmark = True
    return torch.device("cuda" if n else "cpu")


if __name__ == "__main__":
    device = configure(sys.argv[1] if len(sys.argv) > 1 else "0")
    x = torch.ones(2, device=device)
    y = torch.ones(2, device="cuda:0" if torch.cuda.is_available() else "cpu")
    print(x, y)
