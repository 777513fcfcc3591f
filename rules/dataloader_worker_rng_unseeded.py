"""TL007 dataloader-worker-rng-unseeded: DataLoader workers share one RNG object's state."""

from __future__ import annotations

from dataclasses import dataclass

import libcst as cst

from torchlint.analysis import argument, calls_in, dotted_name, walk_statements
from torchlint.codemod import free_name, names_used, with_keyword
from torchlint.oracle import OBJECT
from torchlint.rule import FixSpec, Invalid, Rule
from torchlint.rules.registry import register
from torchlint.torch_api import DATA_LOADERS

# RNG constructors, and how a worker reseeds an attribute holding one (`{rng}`: the attribute,
# `{new}`: the constructor as the file spells it).
RNG_RESEEDS = {
    "numpy.random.default_rng": "{rng} = {new}(info.seed)",
    "numpy.random.RandomState": "{rng} = {new}(info.seed % 2**32)",
    "random.Random": "{rng} = {new}(info.seed)",
    "torch.Generator": "{rng}.manual_seed(info.seed)",
}
_PER_ITEM_METHODS = frozenset({"__getitem__", "__getitems__", "__iter__", "__next__"})
_GLOBAL_NUMPY_RANDOM = "numpy.random."
_MESSAGE = "Every DataLoader worker gets the same copy of the dataset's RNG; reseed it per worker"
_GLOBAL_MESSAGE = "Before torch 1.9 DataLoader workers share the global numpy RNG state; reseed it per worker"
WORKER_RESEEDING_SINCE = (1, 9)  # torch reseeds the global random, numpy and torch RNGs per worker

T = "import numpy as np\nimport torch\nfrom torch.utils.data import DataLoader, Dataset\n"
DS = (
    T + "class Noisy(Dataset):\n"
    "    def __init__(self, n):\n"
    "        self.n = n\n"
    "        self.rng = np.random.default_rng(0)\n"
    "    def __len__(self):\n"
    "        return self.n\n"
    "    def __getitem__(self, i):\n"
    "        return i + self.rng.normal()\n"
)
RESEED = (
    "\n\ndef reseed_worker_rng(worker_id):\n"
    "    info = torch.utils.data.get_worker_info()\n"
    "    info.dataset.rng = np.random.default_rng(info.seed)\n"
)


@dataclass(frozen=True)
class _Rng:
    attribute: str | None  # None: the global numpy RNG
    qualified: str | None
    constructor: cst.BaseExpression | None


@register
class DataLoaderWorkerRngUnseeded(Rule):
    """
    ## What it does
    Flags a DataLoader with `num_workers` not literally 0 whose dataset (a class defined in the
    file) creates an RNG object in `__init__` (`np.random.default_rng`, `np.random.RandomState`,
    `random.Random`, `torch.Generator`) and draws from it in `__getitem__`/`__iter__`.

    ## Why is this bad?
    Each worker process receives a copy of the dataset, RNG object and state included, so every
    worker draws exactly the same sequence: the "random" augmentations repeat across workers and
    the effective randomness shrinks by the number of workers. Since torch 1.9 the global
    `random`, `numpy.random` and torch RNGs are reseeded per worker; RNG objects are not.

    ## Example
    ```python
    class Noisy(Dataset):
        def __init__(self):
            self.rng = np.random.default_rng(0)
        def __getitem__(self, i):
            return self.rng.normal()

    loader = DataLoader(Noisy(), num_workers=4)
    ```

    ## Use instead
    ```python
    def reseed_worker_rng(worker_id):
        info = torch.utils.data.get_worker_info()
        info.dataset.rng = np.random.default_rng(info.seed)

    loader = DataLoader(Noisy(), num_workers=4, worker_init_fn=reseed_worker_rng)
    ```

    ## Fix safety
    The fix is **unsafe** because the random streams change: it adds a module-level
    `worker_init_fn` after the dataset class that reseeds the dataset's RNG attribute from
    `get_worker_info().seed` (a new `default_rng`/`Random` from the seed, `RandomState` from the
    seed modulo 2**32, `manual_seed` on a `torch.Generator`), and passes it to the DataLoader. An
    existing `worker_init_fn` that does not reseed the RNG is called first by the new one; another
    loader of the same dataset reuses the function added for the first. The
    worker seeds derive from the loader's base seed, so two runs with the same `torch.manual_seed`
    still agree. There is no fix when the dataset class is not at module level, or when `torch`
    (or the RNG's module, such as `numpy`) is not imported at module level, where the new
    function stands.

    Not flagged: a `worker_init_fn` that reseeds (it calls `get_worker_info()` or touches the RNG
    attribute) or one defined elsewhere, a dataset that creates its RNG lazily from
    `get_worker_info().seed` or reseeds it from the index in `__getitem__`, `num_workers=0` (or
    left at its default of 0), and datasets using only the global RNG functions. With
    `--target-torch` below 1.9, global `np.random` use in `__getitem__` is flagged too (no fix).

    ## References
    - [DataLoader: randomness in multi-process data loading](https://pytorch.org/docs/stable/data.html#randomness-in-multi-process-data-loading)
    - [Reproducibility: DataLoader](https://pytorch.org/docs/stable/notes/randomness.html#dataloader)
    """

    code = "TL007"
    preview = False  # released
    name = "dataloader-worker-rng-unseeded"
    summary = "DataLoader workers share one RNG object's state and draw the same numbers"
    severity = "warning"
    fix_safety = ("unsafe",)
    trigger_tokens = ("num_workers",)
    scope_tokens = ("num_workers",)  # DataLoader calls that pass `num_workers`
    trigger_calls = DATA_LOADERS

    valid = (
        DS + "def seed_worker(worker_id):\n    info = torch.utils.data.get_worker_info()\n"
        "    info.dataset.rng = np.random.default_rng(info.seed)\n"
        "loader = DataLoader(Noisy(8), num_workers=4, worker_init_fn=seed_worker)\n",
        T + "class Lazy(Dataset):\n    def __init__(self):\n        self.rng = None\n"
        "    def __getitem__(self, i):\n        if self.rng is None:\n"
        "            self.rng = np.random.default_rng(torch.utils.data.get_worker_info().seed)\n"
        "        return self.rng.normal()\nloader = DataLoader(Lazy(), num_workers=2)\n",
        T + "class PerIndex(Dataset):\n    def __init__(self):\n        self.rng = np.random.default_rng(0)\n"
        "    def __getitem__(self, i):\n        self.rng = np.random.default_rng(i)\n        return self.rng.normal()\n"
        "loader = DataLoader(PerIndex(), num_workers=2)\n",
        T + "class Local(Dataset):\n    def __getitem__(self, i):\n        rng = np.random.default_rng(i)\n"
        "        return rng.normal()\nloader = DataLoader(Local(), num_workers=2)\n",
        DS + "loader = DataLoader(Noisy(8), num_workers=0)\n",
        DS + "loader = DataLoader(Noisy(8), batch_size=4)\n",
        T + "class Global(Dataset):\n    def __getitem__(self, i):\n        return np.random.rand() + i\n"
        "loader = DataLoader(Global(), num_workers=4)\n",
        T + "class ShuffleOnce(Dataset):\n    def __init__(self, items):\n        rng = np.random.default_rng(0)\n"
        "        self.rng = np.random.default_rng(1)\n        self.order = self.rng.permutation(len(items))\n"
        "    def __getitem__(self, i):\n        return self.order[i]\nloader = DataLoader(ShuffleOnce([1]), num_workers=4)\n",
        "from mylib import NoisyDataset\nfrom torch.utils.data import DataLoader\n"
        "loader = DataLoader(NoisyDataset(), num_workers=4)\n",
        DS + "from mylib import init_fn\nloader = DataLoader(Noisy(8), num_workers=4, worker_init_fn=init_fn)\n",
    )

    invalid = (
        # numpy imported only inside `__init__`: the new module-level function could not name it
        Invalid(
            "import torch\nfrom torch.utils.data import DataLoader, Dataset\n"
            "class Noisy(Dataset):\n    def __init__(self):\n        import numpy as np\n"
            "        self.rng = np.random.default_rng(0)\n    def __len__(self):\n        return 4\n"
            "    def __getitem__(self, i):\n        return self.rng.normal()\n"
            "loader = DataLoader(Noisy(), num_workers=2)\n",
            None,
        ),
        Invalid(
            DS + "loader = DataLoader(Noisy(8), batch_size=2, num_workers=4)\n",
            DS + RESEED + "loader = DataLoader(Noisy(8), batch_size=2, num_workers=4, worker_init_fn=reseed_worker_rng)\n",
        ),
        Invalid(
            "import torch\nfrom torch.utils.data import DataLoader, Dataset\n"
            "class Crops(Dataset):\n    def __init__(self):\n        self.gen = torch.Generator()\n"
            "    def __getitem__(self, i):\n        return torch.randn(2, generator=self.gen)\n"
            "dataset = Crops()\nloader = DataLoader(\n    dataset,\n    num_workers=args.workers,\n)\n",
            "import torch\nfrom torch.utils.data import DataLoader, Dataset\n"
            "class Crops(Dataset):\n    def __init__(self):\n        self.gen = torch.Generator()\n"
            "    def __getitem__(self, i):\n        return torch.randn(2, generator=self.gen)\n\n\n"
            "def reseed_worker_rng(worker_id):\n    info = torch.utils.data.get_worker_info()\n"
            "    info.dataset.gen.manual_seed(info.seed)\n"
            "dataset = Crops()\nloader = DataLoader(\n    dataset,\n    num_workers=args.workers,\n"
            "    worker_init_fn=reseed_worker_rng,\n)\n",
        ),
        Invalid(
            T + "class G(Dataset):\n    def __init__(self):\n        self.g = torch.Generator().manual_seed(3)\n"
            "    def __getitem__(self, i):\n        return torch.rand(1, generator=self.g)\n"
            "loader = DataLoader(G(), num_workers=2)\n",
            T + "class G(Dataset):\n    def __init__(self):\n        self.g = torch.Generator().manual_seed(3)\n"
            "    def __getitem__(self, i):\n        return torch.rand(1, generator=self.g)\n\n\n"
            "def reseed_worker_rng(worker_id):\n    info = torch.utils.data.get_worker_info()\n"
            "    info.dataset.g.manual_seed(info.seed)\n"
            "loader = DataLoader(G(), num_workers=2, worker_init_fn=reseed_worker_rng)\n",
        ),
        Invalid(
            "import random\nimport torch\nfrom torch.utils.data import DataLoader, Dataset\n"
            "class Flip(Dataset):\n    def __init__(self):\n        self.random = random.Random(42)\n"
            "    def __getitem__(self, i):\n        return self.random.random() < 0.5\n"
            "def init(worker_id):\n    print(worker_id)\n"
            "loader = DataLoader(Flip(), num_workers=2, worker_init_fn=init)\n",
            "import random\nimport torch\nfrom torch.utils.data import DataLoader, Dataset\n"
            "class Flip(Dataset):\n    def __init__(self):\n        self.random = random.Random(42)\n"
            "    def __getitem__(self, i):\n        return self.random.random() < 0.5\n\n\n"
            "def reseed_worker_rng(worker_id):\n    init(worker_id)\n    info = torch.utils.data.get_worker_info()\n"
            "    info.dataset.random = random.Random(info.seed)\n"
            "def init(worker_id):\n    print(worker_id)\n"
            "loader = DataLoader(Flip(), num_workers=2, worker_init_fn=reseed_worker_rng)\n",
        ),
        Invalid(
            "import numpy\nimport torch\nfrom torch.utils.data import DataLoader, IterableDataset\n"
            "class Stream(IterableDataset):\n    def __init__(self):\n        self.state = numpy.random.RandomState(7)\n"
            "    def __iter__(self):\n        while True:\n            yield self.state.rand()\n"
            "loader = DataLoader(Stream(), num_workers=3)\n",
            "import numpy\nimport torch\nfrom torch.utils.data import DataLoader, IterableDataset\n"
            "class Stream(IterableDataset):\n    def __init__(self):\n        self.state = numpy.random.RandomState(7)\n"
            "    def __iter__(self):\n        while True:\n            yield self.state.rand()\n\n\n"
            "def reseed_worker_rng(worker_id):\n    info = torch.utils.data.get_worker_info()\n"
            "    info.dataset.state = numpy.random.RandomState(info.seed % 2**32)\n"
            "loader = DataLoader(Stream(), num_workers=3, worker_init_fn=reseed_worker_rng)\n",
        ),
        # two loaders of the same dataset share one reseeding function
        Invalid(
            DS + "train = DataLoader(Noisy(8), num_workers=2)\nval = DataLoader(Noisy(4), num_workers=2)\n",
            DS + RESEED + "train = DataLoader(Noisy(8), num_workers=2, worker_init_fn=reseed_worker_rng)\n"
            "val = DataLoader(Noisy(4), num_workers=2, worker_init_fn=reseed_worker_rng)\n",
        ),
        # the dataset class is not at module level: flagged without a fix
        Invalid(
            T + "def make():\n    class Inner(Dataset):\n        def __init__(self):\n"
            "            self.rng = np.random.default_rng(0)\n        def __getitem__(self, i):\n"
            "            return self.rng.normal()\n    return DataLoader(Inner(), num_workers=2)\n",
            None,
        ),
    )

    def visit_Call(self, node: cst.Call) -> None:
        if self.ctx.qualify(node.func) not in DATA_LOADERS or not _uses_workers(node):
            return
        dataset = argument(node, 0, "dataset")
        kind = self.ctx.kind(dataset.value) if dataset is not None else None
        if kind is None or kind.base != OBJECT or not isinstance(kind.cls, cst.ClassDef):
            return  # a class of another module of the project: its RNG use is not summarised
        rng = self._shared_rng(kind.cls)
        if rng is None:
            return
        existing = self._existing_worker_init(node)
        if existing is False:
            return  # a worker_init_fn that reseeds, or one we cannot see
        if rng.attribute is None:
            self.report(node, _GLOBAL_MESSAGE)
            return
        self.report(node, _MESSAGE, self._fix(node, kind.cls, rng, existing))

    # ---- the dataset --------------------------------------------------------------------------
    def _shared_rng(self, cls: cst.ClassDef) -> _Rng | None:
        if "get_worker_info" in names_used(cls):
            return None
        methods = {m.name.value: m for m in cls.body.body if isinstance(m, cst.FunctionDef)}
        per_item = [methods[name] for name in _PER_ITEM_METHODS if name in methods]
        init = methods.get("__init__")
        if init is not None:
            for attribute, constructor, qualified in self._rng_attributes(init):
                if any(_draws_from(m, attribute) for m in per_item) and not any(_assigns(m, attribute) for m in per_item):
                    return _Rng(attribute, qualified, constructor)
        if self.ctx.settings.target_torch < WORKER_RESEEDING_SINCE and any(self._global_numpy(m) for m in per_item):
            return _Rng(None, None, None)
        return None

    def _rng_attributes(self, init: cst.FunctionDef):
        for statement in walk_statements(init.body, into_scopes=False):
            if not isinstance(statement, cst.Assign):
                continue
            construction = _unseeded(statement.value)
            qualified = self.ctx.qualify(construction.func) if construction is not None else None
            if qualified not in RNG_RESEEDS:
                continue
            for target in statement.targets:
                name = dotted_name(target.target)
                if name and name.startswith("self.") and name.count(".") == 1:
                    yield name.split(".")[1], construction.func, qualified

    def _global_numpy(self, method: cst.FunctionDef) -> bool:
        return any((self.ctx.qualify(call.func) or "").startswith(_GLOBAL_NUMPY_RANDOM) for call in calls_in(method))

    # ---- the loader ---------------------------------------------------------------------------
    def _existing_worker_init(self, loader: cst.Call) -> cst.Name | None | bool:
        """None when there is none, the name of a local one that does not reseed, else False."""
        passed = argument(loader, None, "worker_init_fn")
        if passed is None:
            return None
        if not isinstance(passed.value, cst.Name):
            return False
        definition = next(
            (s for s in walk_statements(self.ctx.module)
             if isinstance(s, cst.FunctionDef) and s.name.value == passed.value.value),
            None,
        )
        if definition is None or "get_worker_info" in names_used(definition):
            return False
        return passed.value

    def _fix(self, loader: cst.Call, cls: cst.ClassDef, rng: _Rng, existing: cst.Name | None):
        module = self.ctx.module
        worker_info = self._worker_info_spelling()
        if worker_info is None or not any(statement is cls for statement in module.body):
            return None
        name = free_name(module, ("reseed_worker_rng", "reseed_dataset_rng"))
        new = module.code_for_node(rng.constructor)
        head = new.split(".", 1)[0]
        if not any(statement is cls for statement in module.body) or not self._bound_at_module_level(head):
            return None  # the constructor's name is imported only inside a function
        lines = [f"def {name}(worker_id):"]
        if existing is not None:
            lines.append(f"    {existing.value}(worker_id)")
        lines.append(f"    info = {worker_info}()")
        lines.append("    " + RNG_RESEEDS[rng.qualified].format(rng=f"info.dataset.{rng.attribute}", new=new))
        function = cst.parse_statement("\n".join(lines) + "\n", config=module.config_for_parsing)
        same = _same_function(module, function)
        if same is not None:  # another loader of the same dataset was fixed first: reuse its function
            new_loader = with_keyword(loader, "worker_init_fn", cst.Name(same))
            return FixSpec("unsafe", f"Reseed `{rng.attribute}` in each worker with `{same}`", ((loader, new_loader),))
        function = function.with_changes(leading_lines=[cst.EmptyLine(), cst.EmptyLine()])
        index = module.body.index(cls)
        body = [*module.body[: index + 1], function, *module.body[index + 1 :]]
        new_loader = with_keyword(loader, "worker_init_fn", cst.Name(name))
        return FixSpec(
            "unsafe",
            f"Reseed `{rng.attribute}` in each worker with a `worker_init_fn`",
            ((module, module.with_changes(body=body)), (loader, new_loader)),
        )

    def _bound_at_module_level(self, name: str) -> bool:
        bindings = self.ctx.oracle.bindings_of(name, [self.ctx.module])
        return bool(bindings) and all(binding.how == "import" for binding in bindings)

    def _worker_info_spelling(self) -> str | None:
        """How the new module-level function spells `get_worker_info`: with module-level imports."""
        torch_name = self.ctx.local_name("torch", at_module_level=True)
        if torch_name is not None:
            return f"{torch_name}.utils.data.get_worker_info"
        return self.ctx.local_name("torch.utils.data.get_worker_info", at_module_level=True)


def _same_function(module: cst.Module, function: cst.FunctionDef) -> str | None:
    """The name of a module-level function whose parameters and body are `function`'s."""
    code = module.code_for_node
    for statement in module.body:
        if (
            isinstance(statement, cst.FunctionDef) and not statement.decorators
            and code(statement.params) == code(function.params) and code(statement.body) == code(function.body)
        ):
            return statement.name.value
    return None


def _unseeded(value: cst.BaseExpression) -> cst.Call | None:
    """The constructor call in `torch.Generator()` or `torch.Generator().manual_seed(0)`."""
    if not isinstance(value, cst.Call):
        return None
    func = value.func
    if isinstance(func, cst.Attribute) and func.attr.value == "manual_seed" and isinstance(func.value, cst.Call):
        return func.value
    return value


def _uses_workers(loader: cst.Call) -> bool:
    workers = argument(loader, None, "num_workers")
    if workers is None:
        return False  # the default is 0
    return not (isinstance(workers.value, cst.Integer) and workers.value.evaluated_value == 0)


def _draws_from(method: cst.FunctionDef, attribute: str) -> bool:
    """`self.<attribute>.<draw>(...)`, or `self.<attribute>` passed as `generator=`."""
    for call in calls_in(method):
        name = dotted_name(call.func) or ""
        if name.startswith(f"self.{attribute}."):
            return True
        if any(arg.keyword and arg.keyword.value == "generator" and dotted_name(arg.value) == f"self.{attribute}"
               for arg in call.args):
            return True
    return False


def _assigns(method: cst.FunctionDef, attribute: str) -> bool:
    return any(
        isinstance(statement, cst.Assign)
        and any(dotted_name(target.target) == f"self.{attribute}" for target in statement.targets)
        for statement in walk_statements(method.body, into_scopes=False)
    )
