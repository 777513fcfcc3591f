"""TL006 distributed-sampler-missing-set-epoch: every epoch sees the same order."""

from __future__ import annotations

from dataclasses import dataclass

import libcst as cst

from torchlint.analysis import calls_in, dotted_name
from torchlint.codemod import names_used
from torchlint.rule import Invalid, Rule
from torchlint.rules.registry import register
from torchlint.torch_api import DATA_LOADERS, DISTRIBUTED_SAMPLERS

# Wrappers around the iterable of a loop: `for i, b in enumerate(tqdm(loader))`.
_ITERATION_WRAPPERS = frozenset({"enumerate", "tqdm", "tqdm.tqdm", "iter", "track", "rich.progress.track"})

T = "import torch\nfrom torch.utils.data import DataLoader, DistributedSampler\n"
SETUP = T + "sampler = DistributedSampler(dataset)\nloader = DataLoader(dataset, batch_size=8, sampler=sampler)\n"


@dataclass(frozen=True)
class _Sampler:
    receiver: cst.BaseExpression  # what `.set_epoch` is called on
    certain: bool  # every binding is a DistributedSampler (or None)
    may_be_none: bool


@register
class DistributedSamplerMissingSetEpoch(Rule):
    """
    ## What it does
    Flags a `DistributedSampler` (with `shuffle` not literally `False`) that feeds a DataLoader
    iterated inside an epoch loop, when nothing in that loop calls `set_epoch`.

    ## Why is this bad?
    DistributedSampler shuffles with a generator seeded from `seed + epoch`, and the epoch only
    changes when `set_epoch` is called. Without it every epoch uses the same permutation, so the
    model sees the data in the same order every epoch, which hurts convergence and silently undoes
    the point of shuffling.

    ## Example
    ```python
    sampler = DistributedSampler(dataset)
    loader = DataLoader(dataset, sampler=sampler)
    for epoch in range(epochs):
        for batch in loader:
            ...
    ```

    ## Use instead
    ```python
    for epoch in range(epochs):
        sampler.set_epoch(epoch)
        for batch in loader:
            ...
    ```

    ## Fix safety
    The fix inserts `sampler.set_epoch(epoch)` (or `loader.sampler.set_epoch(epoch)` for a sampler
    built inline) as the epoch loop's first statement, using the loop variable; it is guarded by
    `if sampler is not None:` when the sampler can be `None`. It is **safe** when the sampler is
    certainly a DistributedSampler in that scope: the data order changes, which is the point, and
    each rank still sees a disjoint shard that covers the dataset. There is no fix when the loop
    has no usable variable (`while`, `for _ in ...`, tuple targets), or when the sampler may be
    another kind of sampler.

    Every real form of the call counts as present: `sampler.set_epoch(e)`,
    `loader.sampler.set_epoch(e)`, `loader.batch_sampler.sampler.set_epoch(e)`, behind any `if`,
    or in a helper called from the loop whose name contains `set_epoch`. Not flagged: samplers with
    `shuffle=False`, loaders handed to `accelerator.prepare`, loaders built in Lightning
    `*_dataloader` hooks (the framework sets the epoch), and a single pass with no epoch loop.

    ## References
    - [DistributedSampler: "calling set_epoch() at the beginning of each epoch ... is necessary"](https://pytorch.org/docs/stable/data.html#torch.utils.data.distributed.DistributedSampler)
    """

    code = "TL006"
    name = "distributed-sampler-missing-set-epoch"
    summary = "A DistributedSampler without `set_epoch` gives every epoch the same order"
    severity = "warning"
    fix_safety = ("safe",)
    trigger_tokens = ("DistributedSampler",)
    scope_tokens = ("for",)  # it visits every `for` loop: the sampler may be made elsewhere

    valid = (
        SETUP + "for epoch in range(10):\n    sampler.set_epoch(epoch)\n    for batch in loader:\n        step(batch)\n",
        SETUP + "for epoch in range(10):\n    loader.sampler.set_epoch(epoch)\n    for batch in loader:\n        step(batch)\n",
        SETUP + "for epoch in range(10):\n    loader.batch_sampler.sampler.set_epoch(epoch)\n"
        "    for batch in loader:\n        step(batch)\n",
        SETUP + "for epoch in range(10):\n    if args.distributed:\n        sampler.set_epoch(epoch)\n"
        "    for batch in loader:\n        step(batch)\n",
        SETUP + "for epoch in range(10):\n    if isinstance(loader.sampler, DistributedSampler):\n"
        "        loader.sampler.set_epoch(epoch)\n    for batch in loader:\n        step(batch)\n",
        SETUP + "for epoch in range(10):\n    if hasattr(loader.sampler, 'set_epoch'):\n"
        "        loader.sampler.set_epoch(epoch)\n    for batch in loader:\n        step(batch)\n",
        SETUP + "for epoch in range(10):\n    maybe_set_epoch(loader, epoch)\n    for batch in loader:\n        step(batch)\n",
        T + "sampler = DistributedSampler(dataset, shuffle=False)\nloader = DataLoader(dataset, sampler=sampler)\n"
        "for epoch in range(10):\n    for batch in loader:\n        step(batch)\n",
        SETUP + "loader = accelerator.prepare(loader)\nfor epoch in range(10):\n    for batch in loader:\n        step(batch)\n",
        T + "class Data(LightningDataModule):\n    def train_dataloader(self):\n"
        "        return DataLoader(self.ds, sampler=DistributedSampler(self.ds))\n",
        SETUP + "for batch in loader:\n    step(batch)\n",
        T + "loader = DataLoader(dataset, shuffle=True)\nfor epoch in range(10):\n    for batch in loader:\n        step(batch)\n",
    )

    invalid = (
        Invalid(
            SETUP + "for epoch in range(10):\n    for batch in loader:\n        step(batch)\n",
            SETUP + "for epoch in range(10):\n    sampler.set_epoch(epoch)\n    for batch in loader:\n        step(batch)\n",
        ),
        Invalid(
            T + "def train(dataset, epochs):\n"
            "    loader = DataLoader(dataset, sampler=DistributedSampler(dataset, shuffle=True))\n"
            "    for epoch in range(epochs):\n        # one pass\n        for i, batch in enumerate(tqdm(loader)):\n"
            "            step(batch)\n",
            T + "def train(dataset, epochs):\n"
            "    loader = DataLoader(dataset, sampler=DistributedSampler(dataset, shuffle=True))\n"
            "    for epoch in range(epochs):\n        loader.sampler.set_epoch(epoch)\n        # one pass\n"
            "        for i, batch in enumerate(tqdm(loader)):\n            step(batch)\n",
        ),
        Invalid(
            T + "sampler = DistributedSampler(ds) if distributed else None\n"
            "loader = DataLoader(ds, sampler=sampler, shuffle=sampler is None)\n"
            "for ep in range(start, end):\n    for batch in loader:\n        step(batch)\n",
            T + "sampler = DistributedSampler(ds) if distributed else None\n"
            "loader = DataLoader(ds, sampler=sampler, shuffle=sampler is None)\n"
            "for ep in range(start, end):\n    if sampler is not None:\n        sampler.set_epoch(ep)\n"
            "    for batch in loader:\n        step(batch)\n",
        ),
        # no usable loop variable: flagged without a fix
        Invalid(SETUP + "for _ in range(10):\n    for batch in loader:\n        step(batch)\n", None),
        Invalid(SETUP + "while not done:\n    for batch in loader:\n        step(batch)\n", None),
        # the sampler may be another sampler: flagged without a fix
        Invalid(
            T + "sampler = DistributedSampler(ds) if distributed else RandomSampler(ds)\n"
            "loader = DataLoader(ds, sampler=sampler)\nfor epoch in range(3):\n    for b in loader:\n        step(b)\n",
            None,
        ),
    )

    def visit_For(self, node: cst.For) -> None:
        loader = _iterated(node.iter)
        if not isinstance(loader, cst.Name):
            return
        sampler = self._distributed_sampler(loader)
        epoch_loop = self.ctx.innermost_loop()
        if sampler is None or epoch_loop is None or _calls_set_epoch(epoch_loop) or self._prepared(loader.value):
            return
        receiver = self.ctx.module.code_for_node(sampler.receiver)
        message = (
            f"`{receiver}` is a DistributedSampler, but nothing in this epoch loop calls `set_epoch`: every "
            f"epoch sees the same order; call `{receiver}.set_epoch(epoch)` at the start of each epoch"
        )
        self.report(node.iter, message, self._fix(epoch_loop, sampler))

    def _single_value(self, name: str) -> cst.BaseExpression | None:
        bindings = self.ctx.oracle.bindings_of(name, self.ctx.stack) or []
        return bindings[0].value if len(bindings) == 1 and bindings[0].how == "value" else None

    def _distributed_sampler(self, loader: cst.Name) -> _Sampler | None:
        construction = self._single_value(loader.value)
        if not isinstance(construction, cst.Call) or self.ctx.qualify(construction.func) not in DATA_LOADERS:
            return None
        argument = next((a.value for a in construction.args if a.keyword and a.keyword.value == "sampler"), None)
        if argument is None:
            return None
        if self._is_shuffling_sampler(argument):
            return _Sampler(cst.Attribute(loader, cst.Name("sampler")), certain=True, may_be_none=False)
        if isinstance(argument, cst.Name):
            return self._named_sampler(argument)
        return None

    def _named_sampler(self, name: cst.Name) -> _Sampler | None:
        bindings = self.ctx.oracle.bindings_of(name.value, self.ctx.stack) or []
        values = [b.value for b in bindings if b.how == "value"]
        if len(values) != len(bindings):
            return None
        options = [branch for value in values for branch in _branches(value)]
        samplers = [option for option in options if self._is_shuffling_sampler(option)]
        if not samplers or any(self._is_unshuffled_sampler(option) for option in options):
            return None
        others = [o for o in options if o not in samplers and not _is_none(o)]
        return _Sampler(name, certain=not others, may_be_none=any(_is_none(o) for o in options))

    def _is_sampler_call(self, expr: cst.CSTNode) -> bool:
        return isinstance(expr, cst.Call) and self.ctx.qualify(expr.func) in DISTRIBUTED_SAMPLERS

    def _is_shuffling_sampler(self, expr: cst.CSTNode) -> bool:
        return self._is_sampler_call(expr) and not _shuffle_is_false(expr)

    def _is_unshuffled_sampler(self, expr: cst.CSTNode) -> bool:
        return self._is_sampler_call(expr) and _shuffle_is_false(expr)

    def _prepared(self, loader: str) -> bool:
        """Handed to a framework (`accelerator.prepare(loader)`) that sets the epoch itself."""
        return any(
            isinstance(call.func, cst.Attribute) and call.func.attr.value == "prepare"
            and any(loader in names_used(arg.value) for arg in call.args)
            for call in calls_in(self.ctx.module)
        )

    def _fix(self, loop: cst.CSTNode, sampler: _Sampler):
        if not sampler.certain or not isinstance(loop, cst.For) or not isinstance(loop.target, cst.Name):
            return None
        epoch = loop.target.value
        if epoch == "_" or not isinstance(loop.body, cst.IndentedBlock):
            return None
        call = cst.Call(
            func=cst.Attribute(value=sampler.receiver, attr=cst.Name("set_epoch")), args=[cst.Arg(cst.Name(epoch))]
        )
        statement: cst.BaseStatement = cst.SimpleStatementLine(body=[cst.Expr(call)])
        if sampler.may_be_none:
            guard = cst.Comparison(
                left=sampler.receiver,
                comparisons=[cst.ComparisonTarget(operator=cst.IsNot(), comparator=cst.Name("None"))],
            )
            statement = cst.If(test=guard, body=cst.IndentedBlock(body=[statement]))
        body = loop.body.with_changes(body=[statement, *loop.body.body])
        return self.replace(loop, loop.with_changes(body=body), "Call `set_epoch(epoch)` at the start of each epoch")


def _iterated(expr: cst.BaseExpression) -> cst.BaseExpression:
    while isinstance(expr, cst.Call) and dotted_name(expr.func) in _ITERATION_WRAPPERS and expr.args:
        expr = expr.args[0].value
    return expr


def _branches(value: cst.BaseExpression) -> list[cst.BaseExpression]:
    if isinstance(value, cst.IfExp):
        return [*_branches(value.body), *_branches(value.orelse)]
    return [value]


def _is_none(expr: cst.CSTNode) -> bool:
    return isinstance(expr, cst.Name) and expr.value == "None"


def _shuffle_is_false(call: cst.Call) -> bool:
    return any(
        arg.keyword is not None and arg.keyword.value == "shuffle" and isinstance(arg.value, cst.Name)
        and arg.value.value == "False"
        for arg in call.args
    )


def _calls_set_epoch(loop: cst.CSTNode) -> bool:
    return any("set_epoch" in (dotted_name(call.func) or "") for call in calls_in(loop))
