"""Regenerate torchlint/data/tensor_methods.txt from the installed torch (the linter itself never
imports torch, so it reads what a tensor answers to from that table).

    python bench/tensor_methods.py
"""

from pathlib import Path

import torch

TABLE = Path(__file__).parent.parent / "torchlint" / "data" / "tensor_methods.txt"


def main() -> None:
    names = sorted(name for name in dir(torch.Tensor) if not name.startswith("_"))
    header = f"# The public attributes of torch.Tensor in torch {torch.__version__.split('+')[0]} (regenerate: python bench/tensor_methods.py).\n"
    TABLE.write_text(header + "\n".join(names) + "\n")
    print(f"{len(names)} names -> {TABLE}")


if __name__ == "__main__":
    main()
