"""Regenerate the tables of torch's attribute names from the installed torch (the linter itself
never imports torch, so it reads them from torchlint/data/):

- tensor_methods.txt: the public attributes of torch.Tensor (what a tensor answers to);
- module_methods.txt: every attribute of torch.nn.Module, private ones included (the names the
  module machinery may call on a subclass's instance: `forward`, `train`, `_load_from_state_dict`);
- torch_functions.txt: the public functions of torch, torch.nn.functional, torch.linalg, torch.fft
  and torch.special (a name torch lacks, `F.resize_images` left from another framework, returns
  nothing known).

    python bench/tensor_methods.py
"""

from pathlib import Path

import importlib

import torch

FUNCTION_NAMESPACES = ("torch", "torch.nn.functional", "torch.linalg", "torch.fft", "torch.special")
DATA = Path(__file__).parent.parent / "torchlint" / "data"


def write(table: str, names: list[str], what: str) -> None:
    version = torch.__version__.split("+")[0]
    header = f"# {what} in torch {version} (regenerate: python bench/tensor_methods.py).\n"
    (DATA / table).write_text(header + "\n".join(sorted(names)) + "\n")
    print(f"{len(names)} names -> {DATA / table}")


def public_functions(namespace: str) -> list[str]:
    module = importlib.import_module(namespace)
    found = []
    for name in dir(module):
        value = getattr(module, name, None)
        if name[:1].islower() and callable(value) and not isinstance(value, type):
            found.append(f"{namespace}.{name}")
    return found


def main() -> None:
    write("tensor_methods.txt", [n for n in dir(torch.Tensor) if not n.startswith("_")],
          "The public attributes of torch.Tensor")
    write("module_methods.txt", [n for n in dir(torch.nn.Module) if not n.startswith("__")],
          "The attributes of torch.nn.Module (dunders left out)")
    write("torch_functions.txt", [f for namespace in FUNCTION_NAMESPACES for f in public_functions(namespace)],
          "The public functions of torch's tensor namespaces")


if __name__ == "__main__":
    main()
