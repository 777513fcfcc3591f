"""What fixture programs import: the device they run on, distributed set-up, `record()`, and
`graph_nodes()` (how much of an autograd graph a tensor still holds).

A fixture program runs as `python program.py` (or under torchrun for several processes) with
TORCHLINT_VERIFY_DEVICE and TORCHLINT_VERIFY_OUT set by the verifier.
"""

from __future__ import annotations

import atexit
import json
import os


def device() -> str:
    return os.environ.get("TORCHLINT_VERIFY_DEVICE", "cpu")


def rank() -> int:
    return int(os.environ.get("RANK", "0"))


def init_distributed() -> tuple[int, int]:
    """Start the process group torchrun describes: nccl on CUDA when every rank has its own GPU,
    gloo otherwise. Returns (rank, world size); (0, 1) outside torchrun."""
    import torch
    import torch.distributed as dist

    if "WORLD_SIZE" not in os.environ:
        return 0, 1
    world = int(os.environ["WORLD_SIZE"])
    backend = "gloo"
    if device() == "cuda" and torch.cuda.device_count() >= world:
        torch.cuda.set_device(int(os.environ.get("LOCAL_RANK", "0")))
        backend = "nccl"
    dist.init_process_group(backend)
    # Leaving with the group still up can abort a rank at exit; wait for everyone, then close it.
    atexit.register(_close_process_group)
    return dist.get_rank(), world


def _close_process_group() -> None:
    import torch.distributed as dist

    if dist.is_initialized():
        dist.barrier()
        dist.destroy_process_group()


def _plain(value):
    """Tensors and nested containers as JSON values."""
    if hasattr(value, "detach") and hasattr(value, "tolist"):
        return value.detach().cpu().tolist()
    if isinstance(value, dict):
        return {str(key): _plain(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(item) for item in value]
    return value


def record(**observables) -> None:
    """Add observables to this run's results. Only rank 0 records in a distributed run."""
    if rank() != 0:
        return
    path = os.environ.get("TORCHLINT_VERIFY_OUT")
    if not path:
        print(json.dumps(_plain(observables)))
        return
    existing = {}
    if os.path.exists(path):
        with open(path, encoding="utf-8") as handle:
            existing = json.load(handle)
    existing.update(_plain(observables))
    with open(path, "w", encoding="utf-8") as handle:
        json.dump(existing, handle)


def graph_nodes(tensor, kind: str) -> int:
    """How many nodes of the autograd graph behind `tensor` are of `kind` (a node class's name
    prefix, `"MseLoss"`: one per iteration whose loss the tensor still reaches)."""
    seen, stack, count = set(), [getattr(tensor, "grad_fn", None)], 0
    while stack:
        node = stack.pop()
        if node is None or node in seen:
            continue
        seen.add(node)
        count += type(node).__name__.startswith(kind)
        stack.extend(next_node for next_node, _ in node.next_functions)
    return count
