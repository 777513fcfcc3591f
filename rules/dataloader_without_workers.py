"""TL401 dataloader-without-workers: a DataLoader loading in the main process (TorchFix TOR401); off
by default."""

from __future__ import annotations

import libcst as cst

from torchlint.analysis import argument
from torchlint.rule import Invalid, Rule
from torchlint.rules.registry import register
from torchlint.torch_api import DATA_LOADERS

D = "from torch.utils.data import DataLoader\n"


@register
class DataLoaderWithoutWorkers(Rule):
    """
    ## What it does
    Flags `DataLoader(...)` without `num_workers`, or with `num_workers=0`.

    ## Why is this bad?
    With no workers, every batch is loaded and collated in the training process, between steps:
    the accelerator waits for the data. `num_workers > 0` loads batches in parallel worker
    processes while the model computes (PyTorch's profiler reports this as a synchronized
    DataLoader).

    Off by default: many loaders are rightly synchronous (tiny in-memory datasets, tests,
    evaluation scripts, datasets that are not picklable or hold open handles), so the rule is for
    an audit, enabled with `--extend-select TL401`.

    ## Example
    ```python
    loader = DataLoader(dataset, batch_size=64, shuffle=True)
    ```

    ## Use instead
    ```python
    loader = DataLoader(dataset, batch_size=64, shuffle=True, num_workers=4, pin_memory=True)
    ```

    ## Fix safety
    There is no fix: the right number of workers depends on the machine, and workers change
    how random state, open files and the dataset's memory behave.

    ## References
    - [Single- and multi-process data loading](https://pytorch.org/docs/stable/data.html#single-and-multi-process-data-loading)
    """

    code = "TL401"
    name = "dataloader-without-workers"
    summary = "a DataLoader without worker processes loads every batch in the training loop"
    severity = "info"
    preview = False
    default_enabled = False
    trigger_tokens = ("DataLoader",)
    scope_tokens = ("DataLoader",)
    trigger_calls = DATA_LOADERS

    valid = (
        D + "loader = DataLoader(ds, batch_size=32, num_workers=4)\n",
        D + "loader = DataLoader(ds, batch_size=32, num_workers=args.workers)\n",
        D + "loader = DataLoader(ds, **loader_kwargs)\n",
        D + "loader = DataLoader(ds, 32, True, None, None, 8)\n",
        "from torch_geometric.loader import DataLoader\nloader = DataLoader(ds, batch_size=32)\n",
        "from monai.data import DataLoader\nloader = DataLoader(ds)\n",
    )
    invalid = (
        Invalid(D + "loader = DataLoader(ds, batch_size=32, shuffle=True)\n"),
        Invalid("import torch\nloader = torch.utils.data.DataLoader(ds, num_workers=0)\n"),
    )

    def visit_Call(self, node: cst.Call) -> None:
        if self.ctx.qualify(node.func) not in DATA_LOADERS or any(arg.star for arg in node.args):
            return
        workers = argument(node, 5, "num_workers")
        if workers is not None and not (isinstance(workers.value, cst.Integer) and workers.value.value == "0"):
            return
        self.report(node, "DataLoader without workers loads batches in the training process; set `num_workers`")
