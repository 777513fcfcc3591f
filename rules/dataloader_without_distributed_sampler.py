"""TL121 dataloader-without-distributed-sampler: a DataLoader in a DDP script with no sampler."""

from __future__ import annotations

import libcst as cst

from torchlint.analysis import argument
from torchlint.rule import Invalid, Rule
from torchlint.rules._training import has_backward, is_true
from torchlint.rules.registry import register
from torchlint.walk import descendants

_DATALOADERS = frozenset({"torch.utils.data.DataLoader", "torch.utils.data.dataloader.DataLoader"})
_DISTRIBUTED = frozenset({
    "torch.distributed.init_process_group", "torch.nn.parallel.DistributedDataParallel",
    "torch.nn.parallel.distributed.DistributedDataParallel",
})
T = "import torch.distributed as dist\nfrom torch.utils.data import DataLoader, DistributedSampler\n"


@register
class DataLoaderWithoutDistributedSampler(Rule):
    """
    ## What it does
    Flags `torch.utils.data.DataLoader(...)` without `sampler=`/`batch_sampler=` in a file that
    initialises a process group (`dist.init_process_group`) or wraps a model in
    `DistributedDataParallel`, when the loader shuffles (`shuffle=True`) or a loop that
    backpropagates iterates it: a training loader. An evaluation loader read whole by every rank
    is slow but not wrong, and is not flagged.

    ## Why is this bad?
    Without a `DistributedSampler` every rank iterates over the whole dataset: each epoch does
    world-size times the work, every rank sees the same batches (so the data-parallel gradient
    average is an average of identical gradients), and the epoch count no longer means what it
    says.

    ## Example
    ```python
    dist.init_process_group("nccl")
    loader = DataLoader(dataset, batch_size=32, shuffle=True)
    ```

    ## Use instead
    ```python
    dist.init_process_group("nccl")
    sampler = DistributedSampler(dataset)
    loader = DataLoader(dataset, batch_size=32, sampler=sampler)
    ```

    ## Fix safety
    There is no fix: the sampler also needs `set_epoch` calls (TL006) and changes the data each
    rank sees. This rule is off by default: evaluation loaders that run on every rank over the
    whole set, or `IterableDataset`s that shard themselves, are legitimate.

    Off by default: measured on 3,693 files of real training code and 7,167 files of library code
    (bench/realworld.py), no findings; fewer than the 10 judged findings a rule needs to be on by
    default. See docs/new-rules-precision.md.

    ## References
    - [DistributedSampler](https://pytorch.org/docs/stable/data.html#torch.utils.data.distributed.DistributedSampler)
    - [DDP tutorial: each process loads its own shard](https://pytorch.org/tutorials/intermediate/ddp_tutorial.html)
    """

    code = "TL121"
    name = "dataloader-without-distributed-sampler"
    summary = "A DataLoader in a distributed script without a DistributedSampler"
    severity = "warning"
    default_enabled = False
    trigger_tokens = ("init_process_group", "DistributedDataParallel")
    scope_tokens = ("DataLoader",)

    valid = (
        T + "dist.init_process_group('gloo')\nloader = DataLoader(ds, sampler=DistributedSampler(ds))\n",
        "from torch.utils.data import DataLoader\nloader = DataLoader(ds, shuffle=True)\n",
        T + "dist.init_process_group('gloo')\nloader = DataLoader(ds, batch_sampler=bs)\n",
        # a sampler passed through **kwargs (pytorch-ignite's auto_dataloader)
        T + "dist.init_process_group('gloo')\nkwargs['sampler'] = DistributedSampler(ds)\nloader = DataLoader(ds, **kwargs)\n",
        # an evaluation loader, not shuffled and not trained on: every rank reads the whole set, slowly but rightly
        T + "dist.init_process_group('nccl')\nval_loader = DataLoader(val_ds, batch_size=64)\n"
        "for x, y in val_loader:\n    acc = (model(x).argmax(1) == y).float().mean()\n",
        T + "dist.init_process_group('nccl')\ntest_loader = DataLoader(test_ds, batch_size=64, shuffle=False)\n",
    )
    invalid = (
        Invalid(T + "dist.init_process_group('nccl')\nloader = DataLoader(ds, batch_size=32, shuffle=True)\n"),
        Invalid(
            "import torch\nfrom torch.nn.parallel import DistributedDataParallel\n"
            "model = DistributedDataParallel(net)\nloader = torch.utils.data.DataLoader(ds, batch_size=8)\n"
            "for x, y in loader:\n    model(x).sum().backward()\n"
        ),
    )

    def visit_Call(self, node: cst.Call) -> None:
        if self.ctx.qualify(node.func) not in _DATALOADERS:
            return
        if any(arg.star == "**" for arg in node.args):
            return  # a sampler may come in through **kwargs
        if argument(node, 3, "sampler") or argument(node, 4, "batch_sampler") or not self._distributed():
            return
        shuffle = argument(node, 2, "shuffle")
        if not ((shuffle is not None and is_true(shuffle.value)) or self._trained_on(node)):
            return  # an evaluation loader: every rank reading the whole set is slow, not wrong
        self.report(node, "Without a DistributedSampler every rank iterates over the whole dataset")

    def _trained_on(self, call: cst.Call) -> bool:
        """The loader, bound to a name, is iterated by a loop that backpropagates."""
        parent = self.ctx.stack[-2] if len(self.ctx.stack) > 1 else None
        if not (isinstance(parent, cst.Assign) and len(parent.targets) == 1 and isinstance(parent.targets[0].target, cst.Name)):
            return False
        name = parent.targets[0].target.value
        for loop in descendants(self.ctx.module):
            if isinstance(loop, cst.For) and has_backward(loop.body) and any(
                isinstance(n, cst.Name) and n.value == name for n in descendants(loop.iter)
            ):
                return True
        return False

    def _distributed(self) -> bool:
        return any(
            isinstance(child, cst.Call) and self.ctx.qualify(child.func) in _DISTRIBUTED
            for child in descendants(self.ctx.module)
        )
