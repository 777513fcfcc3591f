"""TL120 dataloader-sampler-with-shuffle: `DataLoader(..., sampler=s, shuffle=True)` raises."""

from __future__ import annotations

import libcst as cst

from torchlint.analysis import argument
from torchlint.rule import Invalid, Rule
from torchlint.rules._training import is_true, without_argument
from torchlint.rules.registry import register

_DATALOADERS = frozenset({"torch.utils.data.DataLoader", "torch.utils.data.dataloader.DataLoader"})
T = "import torch\nfrom torch.utils.data import DataLoader, DistributedSampler\n"


@register
class DataLoaderSamplerWithShuffle(Rule):
    """
    ## What it does
    Flags `torch.utils.data.DataLoader(...)` given both `shuffle=True` and a `sampler=` or
    `batch_sampler=` that is not `None`.

    ## Why is this bad?
    The sampler decides the order; `DataLoader.__init__` raises
    `ValueError: sampler option is mutually exclusive with shuffle` (or the `batch_sampler`
    variant), so the script dies when it builds the loader, typically after the model was built
    and moved to the GPU. A `DistributedSampler` shuffles by itself (`shuffle=True` is its default).

    ## Example
    ```python
    loader = DataLoader(dataset, batch_size=32, sampler=DistributedSampler(dataset), shuffle=True)
    ```

    ## Use instead
    ```python
    loader = DataLoader(dataset, batch_size=32, sampler=DistributedSampler(dataset))
    ```

    ## Fix safety
    The fix removes `shuffle=True` and is **safe**: the call raised before, and without the flag
    the loader iterates in the sampler's order, which is what the sampler was passed for. A
    `shuffle=` that is not the literal `True` (a variable) is not flagged: it may be false.

    This rule is on by default (in preview): the pattern always raises at run time.

    On by default (once preview is on): the pattern raises at run time. Measured on 3,693 files of
    real training code and 7,167 files of library code (bench/realworld.py): 0 findings. See
    docs/new-rules-precision.md.

    ## References
    - [torch.utils.data.DataLoader: "shuffle ... sampler: If specified, shuffle must not be specified"](https://pytorch.org/docs/stable/data.html#torch.utils.data.DataLoader)
    - [DistributedSampler](https://pytorch.org/docs/stable/data.html#torch.utils.data.distributed.DistributedSampler)
    """

    code = "TL120"
    name = "dataloader-sampler-with-shuffle"
    summary = "DataLoader given a sampler and `shuffle=True` raises ValueError"
    severity = "error"
    fix_safety = ("safe",)
    trigger_tokens = ("shuffle",)
    scope_tokens = ("shuffle",)

    valid = (
        T + "loader = DataLoader(ds, sampler=DistributedSampler(ds), shuffle=False)\n",
        T + "loader = DataLoader(ds, batch_size=8, shuffle=True)\n",
        T + "loader = DataLoader(ds, sampler=None, shuffle=True)\n",
        T + "sampler = DistributedSampler(ds) if distributed else None\n"
        "loader = DataLoader(ds, sampler=sampler, shuffle=(sampler is None))\n",
        T + "loader = DataLoader(ds, sampler=sampler, shuffle=args.shuffle)\n",
        T + "loader = DataLoader(ds, sampler=DistributedSampler(ds, shuffle=True))\n",
        # another library's loader with its own rules
        "from torch_geometric.loader import DataLoader\nloader = DataLoader(ds, sampler=s, shuffle=True)\n",
        "loader = make_loader(ds, sampler=s, shuffle=True)\n",
    )
    invalid = (
        Invalid(
            T + "loader = DataLoader(ds, batch_size=32, sampler=DistributedSampler(ds), shuffle=True)\n",
            T + "loader = DataLoader(ds, batch_size=32, sampler=DistributedSampler(ds))\n",
        ),
        Invalid(
            T + "loader = DataLoader(\n    ds,\n    shuffle=True,\n    sampler=sampler,\n)\n",
            T + "loader = DataLoader(\n    ds,\n    sampler=sampler,\n)\n",
        ),
        Invalid(
            "import torch.utils.data as data\nloader = data.DataLoader(ds, batch_sampler=bs, shuffle=True)\n",
            "import torch.utils.data as data\nloader = data.DataLoader(ds, batch_sampler=bs)\n",
        ),
    )

    def visit_Call(self, node: cst.Call) -> None:
        shuffle = argument(node, 2, "shuffle")
        if shuffle is None or not is_true(shuffle.value) or self.ctx.qualify(node.func) not in _DATALOADERS:
            return
        sampler = argument(node, 3, "sampler") or argument(node, 4, "batch_sampler")
        if sampler is None or (isinstance(sampler.value, cst.Name) and sampler.value.value == "None"):
            return
        fix = None
        if shuffle.keyword is not None:
            fix = self.replace(node, without_argument(node, shuffle), "Remove `shuffle=True`; the sampler sets the order")
        self.report(
            node,
            "DataLoader raises when given both a sampler and `shuffle=True`; drop `shuffle=True`",
            fix,
        )
