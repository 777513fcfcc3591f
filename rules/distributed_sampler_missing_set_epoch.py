"""TL006 distributed-sampler-missing-set-epoch: every epoch sees the same order."""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

import libcst as cst

from torchlint.analysis import calls_in, dotted_name, element_at, walk_statements
from torchlint.codemod import names_used
from torchlint.kinds import FUNCTION
from torchlint.rule import Invalid, Rule
from torchlint.rules._training import grad_disabled_at, model_calls, put_in_eval_mode
from torchlint.rules.registry import register
from torchlint.scopes import Binding, all_params
from torchlint.torch_api import DATA_LOADERS, DISTRIBUTED_SAMPLERS
from torchlint.walk import SCOPE_NODES, descendants, outside_nested_scopes, path_to

# Wrappers around the iterable of a loop: `for i, b in enumerate(tqdm(loader))`.
_ITERATION_WRAPPERS = frozenset({"enumerate", "tqdm", "tqdm.tqdm", "iter", "track", "rich.progress.track"})
_BATCH_SAMPLERS = frozenset({"torch.utils.data.BatchSampler", "torch.utils.data.sampler.BatchSampler"})
_EPOCH_NAME = re.compile(r"epoch|^ep\d*$|_ep$", re.IGNORECASE)
_COUNTERS = frozenset({"range", "trange", "tqdm.trange", "count", "itertools.count"})
# An evaluation pass is named for one, and never for training (see `_evaluation_pass`).
_EVALUATION_NAME = re.compile(r"(?:^|_)(?:eval|valid|val|test|infer|predict)", re.IGNORECASE)
_TRAINING_NAME = re.compile(r"train|fit|learn|adapt|update|step|optimi", re.IGNORECASE)
# A call whose name says it trains (`adapt_batch(model, x, opt)`, `train_on(x)`), wherever its
# function is defined; `meter.update(loss)` and `bar.update()` say nothing.
_TRAINING_CALL = re.compile(r"train|fit|learn|adapt|optimi|backward", re.IGNORECASE)
_TRAINING_TEXT = ("backward", "step(", "zero_grad", "autograd", "enable_grad", "set_grad_enabled", "functional_call",
                  ".grad")
_MESSAGE = "A DistributedSampler without `set_epoch` gives every epoch the same order; call it per epoch"

T = "import torch\nfrom torch.utils.data import DataLoader, DistributedSampler\n"
SETUP = T + "sampler = DistributedSampler(dataset)\nloader = DataLoader(dataset, batch_size=8, sampler=sampler)\n"
TRAINER = (
    T + "class Trainer:\n    def __init__(self, ds):\n        self.sampler = DistributedSampler(ds)\n"
    "        self.loader = DataLoader(ds, batch_size=8, sampler=self.sampler)\n"
    "    def step(self, batch):\n        pass\n    def fit(self, epochs):\n        for epoch in range(epochs):\n"
)

HELPER = (
    T + "def make(ds):\n    sampler = DistributedSampler(ds)\n    loader = DataLoader(ds, sampler=sampler)\n"
    "    if ds:\n        return {ret}\n"
)

CHOSEN = (
    "from torch.utils.data import RandomSampler, SequentialSampler\n"
    "train_sampler = RandomSampler if rank == -1 else DistributedSampler\n"
    "loader = DataLoader(ds, sampler=train_sampler(ds))\n"
)
ZIPPED = SETUP + "extra = DataLoader(other, sampler=DistributedSampler(other))\n"
FACTORY = T + "def make_sampler(ds, shuffle=False):\n    return DistributedSampler(ds, shuffle=shuffle)\n"
FACTORY_LOOP = "loader = DataLoader(dataset, sampler=sampler)\nfor epoch in range(3):\n    for batch in loader:\n        step(batch)\n"


@dataclass(frozen=True)
class _Sampler:
    receiver: cst.BaseExpression  # what `.set_epoch` is called on
    certain: bool  # every binding is a DistributedSampler (or None)
    may_be_none: bool
    # names of this file that hold the same sampler or loader under other names (a helper's own
    # `sampler`, the other targets of `loader, sampler = make_loaders()`)
    aliases: frozenset[str] = frozenset()
    # given to the loader inside a `BatchSampler` (`batch_sampler=`): the loader reaches it as
    # `loader.batch_sampler.sampler`, its own `sampler` being a default one
    batched: bool = False


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
    built inline) as the first statement of the outermost loop around the loader, using its loop
    variable; it is guarded by `if sampler is not None:` when the sampler can be `None`. A loop
    over several loaders zipped together (`for x, u in zip(labeled, unlabeled)`) gets no fix: each
    sampler needs its own call. It is **safe** when the sampler is certainly a DistributedSampler in that scope: the data order
    changes, which is the point, and each rank still sees a disjoint shard that covers the dataset.
    The fix is offered only when that loop is the epoch loop: a counting loop
    (`for epoch in range(...)`, `trange`, `tqdm(range(...))`, `itertools.count()`) that is the only
    counting loop around the loader, or one whose variable is named for epochs. There is no fix for
    a loop with no usable variable (`while`, `for _ in ...`, tuple targets), a loop over something
    else (`for phase in ["train", "val"]`), nested counters none of which is named for epochs,
    a sampler that may be another kind of sampler, or a sampler or loader built inside the epoch
    loop (the inserted call would run before it exists; one built from the loop's variable, such
    as `DistributedSampler(ds, seed=epoch)`, is not flagged: its order changes every epoch).

    The loop over the loader may be in a function of the file that the epoch loop calls with
    the loader (`for epoch in ...: train_one_epoch(model, loader)`, the function looping over that
    parameter): it is reported at the call. A function of another file is not followed. The
    loop may also be over a name bound once to a progress bar or `enumerate` of the loader
    (`bar = tqdm(loader)`, then `for batch in bar`). A DistributedSampler wrapped in torch's
    `BatchSampler` (`DataLoader(ds, batch_sampler=BatchSampler(sampler, 8, False))`) counts:
    the fix names the sampler, or reaches it as `loader.batch_sampler.sampler` (the loader's own
    `sampler` is then a default one).

    Every real form of the call counts as present: `sampler.set_epoch(e)`,
    `loader.sampler.set_epoch(e)`, `loader.batch_sampler.sampler.set_epoch(e)`, behind any `if`,
    in a helper called from the loop whose name contains `set_epoch`, or in a function of the
    file that the loop calls (`begin_epoch(epoch)` that sets it); in any loop around the
    loader, anywhere in the enclosing function, or in a function of the file that calls it (the
    epoch loop may live in a caller). Not flagged: samplers with `shuffle=False`, loaders handed
    to `accelerator.prepare`, loaders built in Lightning `*_dataloader` hooks (the framework sets
    the epoch), a single pass with no epoch loop, and an evaluation pass: a loop over the loader
    (or a helper looping over it) named for evaluation (the function looping or the loader:
    `evaluate`, `validate`, `val_loader`, `test_loader`, with nothing in those names saying
    train, fit, learn, adapt, update or step), calling nothing whose name says it trains
    (`adapt_batch(...)`, wherever it is defined), with nothing that trains in it or in the
    functions and methods of the file it calls, three calls deep (`backward`, `step(`,
    `zero_grad`, `autograd`, `enable_grad`, `set_grad_enabled`, `.grad`), and whose every model
    call runs with autograd off (`with
    torch.no_grad():` in it or around it, a `no_grad` decorator), a model being a module or a
    parameter the helper calls `.eval()` on. The order of an evaluation changes no result.

    The sampler may come from a function of the file that returns it (`make_sampler(ds,
    shuffle=True, distributed=d)`): each of its `return`s counts as a binding. In such a helper
    (and in one that returns the loader, below) the call decides: a `shuffle` that names a
    parameter (as a keyword or the fourth positional argument) is what the call passes for it, or
    its default; one the helper computes (`shuffle = training`, `**kwargs`) is not known and the
    sampler is not taken for a shuffling one; `DistributedSampler(ds) if distributed else None`
    with `distributed=False` passed is None. One that may return another sampler is flagged
    without a fix. `DistributedSampler(ds, world, rank, False)` does not shuffle either.

    The loader may come from a function of the file that builds it and returns it, alone or in
    a tuple (`loader, sampler = make_loaders(args)`), when every `return` gives a loader with a
    DistributedSampler in that place; the fix is then `loader.sampler.set_epoch(epoch)`, and there
    is none when the helper's sampler may be `None` (the loader then has a default sampler with no
    `set_epoch`). A `set_epoch` on any name the same call binds counts as present.

    A loader kept on `self` (`for batch in self.train_loader` in an epoch loop of a method) is
    flagged, without a fix, only where it is provable: the class (in this file) gives it a shuffling
    DistributedSampler wherever it assigns it, directly or through `self.<sampler>`; the file never
    mentions `set_epoch` or `.prepare(`; and the epoch loop calls no method the class does not
    define itself and passes `self` to no call (an inherited hook or a callback could set it).

    ## References
    - [DistributedSampler: "calling set_epoch() at the beginning of each epoch ... is necessary"](https://pytorch.org/docs/stable/data.html#torch.utils.data.distributed.DistributedSampler)
    """

    code = "TL006"
    preview = False  # released
    name = "distributed-sampler-missing-set-epoch"
    summary = "A DistributedSampler without `set_epoch` gives every epoch the same order"
    severity = "warning"
    fix_safety = ("safe",)
    trigger_tokens = ("DistributedSampler",)
    _one_of_several = False  # the loader checked is one of several a loop zips together (no fix then)
    _reported_at: int | None = None  # id of the last place reported
    scope_tokens = ("for",)  # it visits every `for` loop: the sampler may be made elsewhere

    valid = (
        # an evaluation pass: no backward or step, every model call with autograd off
        SETUP + "model = torch.nn.Linear(2, 2)\ndef evaluation(net, batches):\n    net.eval()\n    total = 0\n"
        "    for batch in batches:\n        with torch.no_grad():\n            total += net(batch).sum()\n    return total\n"
        "for epoch in range(3):\n    evaluation(model, loader)\n",
        T + "model = torch.nn.Linear(2, 2)\nsampler = DistributedSampler(ds)\nval_loader = DataLoader(ds, sampler=sampler)\n"
        "@torch.no_grad()\ndef evaluate(batches):\n    return [model(b) for b in batches]\n"
        "def validate(batches):\n    with torch.inference_mode():\n        for b in batches:\n            model(b)\n"
        "for epoch in range(3):\n    evaluate(val_loader)\n    validate(val_loader)\n    with torch.no_grad():\n"
        "        for b in val_loader:\n            model(b)\n",
        # a helper that loops over the loader: it sets the epoch itself, or the loop does first
        SETUP + "def one_pass(batches, epoch):\n    batches.sampler.set_epoch(epoch)\n    for b in batches:\n"
        "        step(b)\nfor epoch in range(10):\n    one_pass(loader, epoch)\n",
        SETUP + "def one_pass(batches):\n    for b in batches:\n        step(b)\nfor epoch in range(10):\n"
        "    sampler.set_epoch(epoch)\n    one_pass(loader)\n",
        # a helper that does not loop over it, or one defined elsewhere
        SETUP + "def report(batches):\n    print(len(batches))\nfor epoch in range(10):\n    report(loader)\n",
        SETUP + "from engine import train_one_epoch\nfor epoch in range(10):\n    train_one_epoch(model, loader)\n",
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
        # set_epoch in an outer loop, in the function, or in a caller of the function
        SETUP + "for epoch in range(3):\n    sampler.set_epoch(epoch)\n    for phase in ['train', 'val']:\n"
        "        for batch in loader:\n            step(batch)\n",
        SETUP + "def train_epoch(epoch):\n    sampler.set_epoch(epoch)\n    for repeat in range(2):\n"
        "        for batch in loader:\n            step(batch)\n",
        SETUP + "def run_epoch():\n    for repeat in range(2):\n        for batch in loader:\n            step(batch)\n"
        "for epoch in range(3):\n    sampler.set_epoch(epoch)\n    run_epoch()\n",
        SETUP + "for epoch in range(10):\n    self.train_sampler.set_epoch(epoch)\n    for batch in loader:\n"
        "        step(batch)\n",
        # set_epoch in a function of the file that the epoch loop calls
        SETUP + "def begin_epoch(e):\n    sampler.set_epoch(e)\nfor epoch in range(3):\n    begin_epoch(epoch)\n"
        "    for batch in loader:\n        step(batch)\n",
        # a new sampler each epoch, seeded from the epoch
        T + "for epoch in range(3):\n    sampler = DistributedSampler(dataset, seed=epoch)\n"
        "    loader = DataLoader(dataset, sampler=sampler)\n    for batch in loader:\n        step(batch)\n",
        T + "loader = DataLoader(dataset, shuffle=True)\nfor epoch in range(10):\n    for batch in loader:\n        step(batch)\n",
        # a loader returned by a helper: set_epoch on the sampler returned beside it, a branch
        # returning a loader without one, an unshuffled sampler, a helper of another file
        HELPER.format(ret="loader, sampler") + "loader, sampler = make(ds)\nfor epoch in range(3):\n"
        "    sampler.set_epoch(epoch)\n    for batch in loader:\n        step(batch)\n",
        HELPER.format(ret="loader") + "    return DataLoader(ds)\nloader = make(ds)\nfor epoch in range(3):\n"
        "    for batch in loader:\n        step(batch)\n",
        HELPER.format(ret="loader").replace("(ds)\n    loader", "(ds, shuffle=False)\n    loader")
        + "loader = make(ds)\nfor epoch in range(3):\n    for batch in loader:\n        step(batch)\n",
        T + "from data import make\nloader = make(ds)\nfor epoch in range(3):\n    for batch in loader:\n        step(batch)\n",
        # a sampler made by a function of the file told not to shuffle, or not shuffling by default
        FACTORY + "sampler = make_sampler(dataset, shuffle=False)\n" + FACTORY_LOOP,
        FACTORY + "sampler = make_sampler(dataset)\n" + FACTORY_LOOP,
        # the call decides the helper's shuffle or sampler: told not to, through the fourth
        # positional argument, through `**kwargs` or a local (unknown here), a branch not taken
        T + "def make_loader(ds, train):\n    sampler = DistributedSampler(ds, shuffle=train)\n"
        "    return DataLoader(ds, sampler=sampler)\nloader = make_loader(dataset, train=False)\n" + "for epoch in range(3):\n    for batch in loader:\n        step(batch)\n",
        T + "def make_sampler(ds, world, rank, shuffle):\n    return DistributedSampler(ds, world, rank, shuffle)\n"
        "sampler = make_sampler(dataset, 2, 0, False)\n" + FACTORY_LOOP,
        T + "def make_sampler(ds, **kwargs):\n    return DistributedSampler(ds, **kwargs)\n"
        "sampler = make_sampler(dataset, shuffle=False)\n" + FACTORY_LOOP,
        T + "def make_sampler(ds, training):\n    shuffle = training\n    return DistributedSampler(ds, shuffle=shuffle)\n"
        "sampler = make_sampler(dataset, False)\n" + FACTORY_LOOP,
        T + "def get_loader(ds, distributed):\n    sampler = DistributedSampler(ds) if distributed else None\n"
        "    return DataLoader(ds, sampler=sampler)\nloader = get_loader(dataset, distributed=False)\n"
        "for epoch in range(3):\n    for batch in loader:\n        step(batch)\n",
        T + "sampler = DistributedSampler(dataset, 2, 0, False)\n" + FACTORY_LOOP,
        # after a starred target, the name takes the last element
        T + "*_, sampler = dataset, DistributedSampler(dataset), None\n" + FACTORY_LOOP,
        # a tuple assignment: the sampler is the element in the name's place
        T + "sampler, other = None, DistributedSampler(dataset)\nloader = DataLoader(dataset, sampler=sampler)\n"
        "for epoch in range(10):\n    for batch in loader:\n        step(batch)\n",
        T + "sampler, shuffle = make_sampler(dataset)\nloader = DataLoader(dataset, sampler=sampler)\n"
        "for epoch in range(10):\n    for batch in loader:\n        step(batch)\n",
        # a loader kept on `self`: set_epoch anywhere in the file, an inherited method or a callback
        # given `self` in the epoch loop, a loader or sampler the class does not always build itself
        TRAINER + "            self.sampler.set_epoch(epoch)\n            for batch in self.loader:\n"
        "                self.step(batch)\n",
        TRAINER + "            self.begin(epoch)\n            for batch in self.loader:\n                self.step(batch)\n"
        "    def begin(self, epoch):\n        self.loader.sampler.set_epoch(epoch)\n",
        TRAINER + "            self.on_epoch_start(epoch)\n            for batch in self.loader:\n"
        "                self.step(batch)\n",
        TRAINER + "            self.callbacks.epoch_begins(self)\n            for batch in self.loader:\n"
        "                self.step(batch)\n",
        TRAINER + "            for batch in self.loader:\n                self.step(batch)\n"
        "    def reload(self, ds):\n        self.loader = DataLoader(ds, shuffle=True)\n",
        TRAINER.replace("DistributedSampler(ds)", "DistributedSampler(ds, shuffle=False)")
        + "            for batch in self.loader:\n                self.step(batch)\n",
        TRAINER + "            pass\n    def run(self):\n        for batch in self.loader:\n            self.step(batch)\n",
        # a BatchSampler over another sampler, over an unshuffled DistributedSampler, or one whose
        # sampler's epoch is set; a batch sampler of the project's own
        T + "from torch.utils.data import BatchSampler, RandomSampler\n"
        "loader = DataLoader(ds, batch_sampler=BatchSampler(RandomSampler(ds), 8, False))\n"
        "for epoch in range(10):\n    for batch in loader:\n        step(batch)\n",
        T + "from torch.utils.data import BatchSampler\n"
        "loader = DataLoader(ds, batch_sampler=BatchSampler(DistributedSampler(ds, shuffle=False), 8, False))\n"
        "for epoch in range(10):\n    for batch in loader:\n        step(batch)\n",
        T + "from torch.utils.data import BatchSampler\nsampler = DistributedSampler(ds)\n"
        "loader = DataLoader(ds, batch_sampler=BatchSampler(sampler, 8, False))\n"
        "for epoch in range(10):\n    sampler.set_epoch(epoch)\n    for batch in loader:\n        step(batch)\n",
        T + "class GroupedBatches:\n    def __init__(self, sampler, size):\n        self.sampler = sampler\n"
        "loader = DataLoader(ds, batch_sampler=GroupedBatches(DistributedSampler(ds), 8))\n"
        "for epoch in range(10):\n    for batch in loader:\n        step(batch)\n",
        # a progress bar bound to a name: over a list of batches, over an unshuffled sampler's
        # loader, or over a loader whose sampler's epoch is set
        T + "from tqdm import tqdm\nloader = [1, 2, 3]\nfor epoch in range(10):\n    bar = tqdm(loader)\n"
        "    for batch in bar:\n        step(batch)\n",
        T + "from tqdm import tqdm\nsampler = DistributedSampler(ds, shuffle=False)\nloader = DataLoader(ds, sampler=sampler)\n"
        "for epoch in range(10):\n    bar = tqdm(loader)\n    for batch in bar:\n        step(batch)\n",
        T + "from tqdm import tqdm\nloader = DataLoader(ds, sampler=DistributedSampler(ds))\nfor epoch in range(10):\n"
        "    bar = tqdm(loader)\n    loader.sampler.set_epoch(epoch)\n    for batch in bar:\n        step(batch)\n",
        # a chosen class: its epoch set when it is the distributed one, a choice without one, or
        # the distributed one unshuffled
        T + CHOSEN + "for epoch in range(3):\n    if rank != -1:\n        loader.sampler.set_epoch(epoch)\n"
        "    for b in loader:\n        step(b)\n",
        T + CHOSEN.replace("DistributedSampler\n", "SequentialSampler\n") + "for epoch in range(3):\n    for b in loader:\n        step(b)\n",
        T + CHOSEN.replace("train_sampler(ds)", "train_sampler(ds, shuffle=False)")
        + "for epoch in range(3):\n    for b in loader:\n        step(b)\n",
        # zipped loaders whose samplers both have their epoch set, or only one of them distributed
        # and set; a zip of a loader with a plain list
        ZIPPED + "for epoch in range(3):\n    sampler.set_epoch(epoch)\n    extra.sampler.set_epoch(epoch)\n"
        "    for x, u in zip(loader, extra):\n        step(x, u)\n",
        SETUP + "plain = DataLoader(other, shuffle=True)\nfor epoch in range(3):\n    sampler.set_epoch(epoch)\n"
        "    for x, u in zip(loader, plain):\n        step(x, u)\n",
        SETUP + "for epoch in range(3):\n    sampler.set_epoch(epoch)\n    for x, w in zip(loader, weights):\n        step(x, w)\n",
        ZIPPED + "def train(labeled, unlabeled, epoch):\n    labeled.sampler.set_epoch(epoch)\n"
        "    unlabeled.sampler.set_epoch(epoch)\n    for x, u in zip(labeled, unlabeled):\n        step(x, u)\n"
        "for epoch in range(3):\n    train(loader, extra, epoch)\n",
    )

    invalid = (
        # not an evaluation pass: named for training (or not for evaluation), training in a
        # function of the file it calls, a model called with autograd on (an EMA updated under
        # `no_grad` does not make the loop one), or a step taken
        Invalid(
            T + "teacher = torch.nn.Linear(2, 2)\nsampler = DistributedSampler(ds)\nval_loader = DataLoader(ds, sampler=sampler)\n"
            "def learn(x):\n    loss = student(x).sum()\n    loss.backward()\n"
            "def evaluate(batches):\n    for x in batches:\n        with torch.no_grad():\n            soft = teacher(x)\n"
            "        learn(x)\nfor epoch in range(3):\n    evaluate(val_loader)\n",
            T + "teacher = torch.nn.Linear(2, 2)\nsampler = DistributedSampler(ds)\nval_loader = DataLoader(ds, sampler=sampler)\n"
            "def learn(x):\n    loss = student(x).sum()\n    loss.backward()\n"
            "def evaluate(batches):\n    for x in batches:\n        with torch.no_grad():\n            soft = teacher(x)\n"
            "        learn(x)\nfor epoch in range(3):\n    sampler.set_epoch(epoch)\n    evaluate(val_loader)\n",
        ),
        Invalid(  # test-time adaptation: a test loader, trained on two calls deep
            T + "model = torch.nn.Linear(2, 2)\nsampler = DistributedSampler(ds)\ntest_loader = DataLoader(ds, sampler=sampler)\n"
            "def _backprop(loss):\n    loss.backward()\ndef entropy(x):\n    _backprop(model(x).sum())\n"
            "def test(batches):\n    for x in batches:\n        entropy(x)\n        with torch.no_grad():\n            model(x)\n"
            "for epoch in range(3):\n    test(test_loader)\n",
            T + "model = torch.nn.Linear(2, 2)\nsampler = DistributedSampler(ds)\ntest_loader = DataLoader(ds, sampler=sampler)\n"
            "def _backprop(loss):\n    loss.backward()\ndef entropy(x):\n    _backprop(model(x).sum())\n"
            "def test(batches):\n    for x in batches:\n        entropy(x)\n        with torch.no_grad():\n            model(x)\n"
            "for epoch in range(3):\n    sampler.set_epoch(epoch)\n    test(test_loader)\n",
        ),
        Invalid(
            T + "from tta import adapt_batch\nmodel = torch.nn.Linear(2, 2)\nsampler = DistributedSampler(ds)\n"
            "test_loader = DataLoader(ds, sampler=sampler)\ndef test(batches):\n    for x in batches:\n        adapt_batch(model, x)\n"
            "        with torch.no_grad():\n            model(x)\nfor epoch in range(3):\n    test(test_loader)\n",
            T + "from tta import adapt_batch\nmodel = torch.nn.Linear(2, 2)\nsampler = DistributedSampler(ds)\n"
            "test_loader = DataLoader(ds, sampler=sampler)\ndef test(batches):\n    for x in batches:\n        adapt_batch(model, x)\n"
            "        with torch.no_grad():\n            model(x)\nfor epoch in range(3):\n    sampler.set_epoch(epoch)\n    test(test_loader)\n",
        ),
        Invalid(
            T + "model = torch.nn.Linear(2, 2)\nsampler = DistributedSampler(ds)\nval_loader = DataLoader(ds, sampler=sampler)\n"
            "@torch.no_grad()\ndef train_and_eval(batches):\n    for b in batches:\n        model(b)\n        step_all(b)\n"
            "for epoch in range(3):\n    train_and_eval(val_loader)\n",
            T + "model = torch.nn.Linear(2, 2)\nsampler = DistributedSampler(ds)\nval_loader = DataLoader(ds, sampler=sampler)\n"
            "@torch.no_grad()\ndef train_and_eval(batches):\n    for b in batches:\n        model(b)\n        step_all(b)\n"
            "for epoch in range(3):\n    sampler.set_epoch(epoch)\n    train_and_eval(val_loader)\n",
        ),
        Invalid(
            T + "model = torch.nn.Linear(2, 2)\nsampler = DistributedSampler(ds)\nloader = DataLoader(ds, sampler=sampler)\n"
            "for epoch in range(3):\n    for b in loader:\n        out = model(b)\n        with torch.no_grad():\n"
            "            ema.update(model)\n",
            T + "model = torch.nn.Linear(2, 2)\nsampler = DistributedSampler(ds)\nloader = DataLoader(ds, sampler=sampler)\n"
            "for epoch in range(3):\n    sampler.set_epoch(epoch)\n    for b in loader:\n        out = model(b)\n        with torch.no_grad():\n"
            "            ema.update(model)\n",
        ),
        Invalid(
            T + "model = torch.nn.Linear(2, 2)\nsampler = DistributedSampler(ds)\nloader = DataLoader(ds, sampler=sampler)\n"
            "for epoch in range(3):\n    for b in loader:\n        with torch.no_grad():\n            out = model(b)\n"
            "        opt.step()\n",
            T + "model = torch.nn.Linear(2, 2)\nsampler = DistributedSampler(ds)\nloader = DataLoader(ds, sampler=sampler)\n"
            "for epoch in range(3):\n    sampler.set_epoch(epoch)\n    for b in loader:\n        with torch.no_grad():\n            out = model(b)\n"
            "        opt.step()\n",
        ),
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
        # the DistributedSampler wrapped in a BatchSampler: named, or reached through the loader
        Invalid(
            T + "from torch.utils.data import BatchSampler\nsampler = DistributedSampler(ds)\n"
            "loader = DataLoader(ds, batch_sampler=BatchSampler(sampler, 8, True))\n"
            "for epoch in range(10):\n    for batch in loader:\n        step(batch)\n",
            T + "from torch.utils.data import BatchSampler\nsampler = DistributedSampler(ds)\n"
            "loader = DataLoader(ds, batch_sampler=BatchSampler(sampler, 8, True))\n"
            "for epoch in range(10):\n    sampler.set_epoch(epoch)\n    for batch in loader:\n        step(batch)\n",
        ),
        Invalid(
            T + "from torch.utils.data import BatchSampler\nbatches = BatchSampler(DistributedSampler(ds), 8, False)\n"
            "loader = DataLoader(ds, batch_sampler=batches)\nfor epoch in range(10):\n    for batch in loader:\n"
            "        step(batch)\n",
            T + "from torch.utils.data import BatchSampler\nbatches = BatchSampler(DistributedSampler(ds), 8, False)\n"
            "loader = DataLoader(ds, batch_sampler=batches)\nfor epoch in range(10):\n"
            "    loader.batch_sampler.sampler.set_epoch(epoch)\n    for batch in loader:\n        step(batch)\n",
        ),
        # a helper returns the loader: reached through its batch sampler
        Invalid(
            T + "from torch.utils.data import BatchSampler\ndef make(ds):\n"
            "    return DataLoader(ds, batch_sampler=BatchSampler(DistributedSampler(ds), 2, False))\n"
            "loader = make(ds)\nfor epoch in range(3):\n    for batch in loader:\n        step(batch)\n",
            T + "from torch.utils.data import BatchSampler\ndef make(ds):\n"
            "    return DataLoader(ds, batch_sampler=BatchSampler(DistributedSampler(ds), 2, False))\n"
            "loader = make(ds)\nfor epoch in range(3):\n    loader.batch_sampler.sampler.set_epoch(epoch)\n"
            "    for batch in loader:\n        step(batch)\n",
        ),
        # a progress bar (or `enumerate`) over the loader, bound to a name first
        Invalid(
            SETUP + "from tqdm import tqdm\nfor epoch in range(10):\n    bar = tqdm(loader, desc='train')\n"
            "    for i, batch in enumerate(bar):\n        step(batch)\n",
            SETUP + "from tqdm import tqdm\nfor epoch in range(10):\n    sampler.set_epoch(epoch)\n"
            "    bar = tqdm(loader, desc='train')\n    for i, batch in enumerate(bar):\n        step(batch)\n",
        ),
        # the loop over the loader is in a function of the file the epoch loop calls
        Invalid(
            SETUP + "def one_pass(net, batches):\n    for x, y in batches:\n        step(net, x, y)\n"
            "for epoch in range(10):\n    one_pass(model, loader)\n",
            SETUP + "def one_pass(net, batches):\n    for x, y in batches:\n        step(net, x, y)\n"
            "for epoch in range(10):\n    sampler.set_epoch(epoch)\n    one_pass(model, loader)\n",
        ),
        # a tuple assignment binds the sampler
        Invalid(
            T + "sampler, shuffle = DistributedSampler(dataset), False\n"
            "loader = DataLoader(dataset, sampler=sampler, shuffle=shuffle)\n"
            "for epoch in range(10):\n    for batch in loader:\n        step(batch)\n",
            T + "sampler, shuffle = DistributedSampler(dataset), False\n"
            "loader = DataLoader(dataset, sampler=sampler, shuffle=shuffle)\n"
            "for epoch in range(10):\n    sampler.set_epoch(epoch)\n    for batch in loader:\n        step(batch)\n",
        ),
        # a sampler made by a function of the file: told to shuffle, or always a DistributedSampler
        Invalid(
            FACTORY + "sampler = make_sampler(dataset, shuffle=True)\n" + FACTORY_LOOP,
            FACTORY + "sampler = make_sampler(dataset, shuffle=True)\n"
            + FACTORY_LOOP.replace("    for batch", "    sampler.set_epoch(epoch)\n    for batch"),
        ),
        Invalid(
            T + "def make_sampler(ds):\n    if distributed:\n        return DistributedSampler(ds)\n"
            "    return RandomSampler(ds)\n" + "sampler = make_sampler(dataset)\n" + FACTORY_LOOP,
            None,
        ),
        # a loader built with a DistributedSampler by a helper of the file and returned
        Invalid(
            HELPER.format(ret="loader, ds") + "def fit(ds):\n    loader, data = make(ds)\n    for epoch in range(3):\n"
            "        for batch in loader:\n            step(batch)\n",
            HELPER.format(ret="loader, ds") + "def fit(ds):\n    loader, data = make(ds)\n    for epoch in range(3):\n"
            "        loader.sampler.set_epoch(epoch)\n        for batch in loader:\n            step(batch)\n",
        ),
        # the helper's sampler may be None: the loader then has a default sampler, so no fix
        Invalid(
            HELPER.format(ret="loader").replace("sampler = DistributedSampler(ds)",
                                                "sampler = DistributedSampler(ds) if dist else None")
            + "loader = make(ds)\nfor epoch in range(3):\n    for batch in loader:\n        step(batch)\n",
            None,
        ),
        # no usable loop variable: flagged without a fix
        Invalid(SETUP + "for _ in range(10):\n    for batch in loader:\n        step(batch)\n", None),
        Invalid(SETUP + "while not done:\n    for batch in loader:\n        step(batch)\n", None),
        # the outermost loop is not a counter, or several counters could be the epoch: no fix
        Invalid(SETUP + "for epoch in epochs:\n    for batch in loader:\n        step(batch)\n", None),
        Invalid(
            SETUP + "for repeat in range(2):\n    for run in range(3):\n        for batch in loader:\n"
            "            step(batch)\n",
            None,
        ),
        # the epoch loop is the outermost one, not the innermost
        Invalid(
            SETUP + "for epoch in range(3):\n    for phase in ['train', 'val']:\n        for batch in loader:\n"
            "            step(batch)\n",
            SETUP + "for epoch in range(3):\n    sampler.set_epoch(epoch)\n    for phase in ['train', 'val']:\n"
            "        for batch in loader:\n            step(batch)\n",
        ),
        # another sampler's set_epoch does not cover this one
        Invalid(
            SETUP + "other = DistributedSampler(more)\nfor epoch in range(3):\n    other.set_epoch(epoch)\n"
            "    for batch in loader:\n        step(batch)\n",
            SETUP + "other = DistributedSampler(more)\nfor epoch in range(3):\n    sampler.set_epoch(epoch)\n"
            "    other.set_epoch(epoch)\n    for batch in loader:\n        step(batch)\n",
        ),
        # a loader kept on `self`, iterated in an epoch loop with no `set_epoch` in the file: no fix
        Invalid(TRAINER + "            for batch in self.loader:\n                self.step(batch)\n", None),
        Invalid(
            TRAINER.replace("sampler=self.sampler", "sampler=DistributedSampler(ds)")
            + "            for i, batch in enumerate(self.loader):\n                self.step(batch)\n",
            None,
        ),
        # the sampler may be another sampler: flagged without a fix
        Invalid(
            T + "sampler = DistributedSampler(ds) if distributed else RandomSampler(ds)\n"
            "loader = DataLoader(ds, sampler=sampler)\nfor epoch in range(3):\n    for b in loader:\n        step(b)\n",
            None,
        ),
        # a new sampler each epoch with the same seed: the same order, but set_epoch at the top of
        # the loop would run before the sampler exists: no fix
        Invalid(
            T + "for epoch in range(3):\n    sampler = DistributedSampler(dataset, seed=0)\n"
            "    loader = DataLoader(dataset, sampler=sampler)\n    for batch in loader:\n        step(batch)\n",
            None,
        ),
        # the class is chosen first (`RandomSampler if rank == -1 else DistributedSampler`): the
        # loader's sampler may be the other class, so no fix calls its `set_epoch`
        Invalid(T + CHOSEN + "for epoch in range(3):\n    for b in loader:\n        step(b)\n", None),
        # loaders zipped together (semi-supervised training), in the loop or in a function the
        # epoch loop calls: one finding, no fix (each sampler needs its own call)
        Invalid(ZIPPED + "for epoch in range(3):\n    for x, u in zip(loader, extra):\n        step(x, u)\n", None),
        Invalid(ZIPPED + "def train(labeled, unlabeled):\n    batches = zip(labeled, unlabeled)\n"
                "    for i, (x, u) in enumerate(batches):\n        step(x, u)\n"
                "for epoch in range(3):\n    train(loader, extra)\n", None),
    )

    def visit_For(self, node: cst.For) -> None:
        loaders = self._unaliased(node.iter)
        # (`zip(labeled, unlabeled)`: a `set_epoch` for one of them would leave the other's
        # order as it was, so a loop over several gets no fix)
        self._one_of_several = len(loaders) > 1
        for loader in loaders:
            if isinstance(loader, cst.Attribute):
                self._check_attribute_loader(node, loader)
            elif isinstance(loader, cst.Name):
                self._check_loop_over(node.iter, loader)
        self._one_of_several = False

    def _unaliased(self, iterated: cst.BaseExpression, depth: int = 3) -> list[cst.BaseExpression]:
        """What a loop iterates, through `enumerate`, progress bars and `zip` (`for (x, u) in
        zip(labeled, unlabeled)`) and names bound once to them (`bar = tqdm(loader)`, then `for
        batch in bar`)."""
        found = []
        for each in _iterated_all(iterated):
            binding = self._single_binding(each.value, self.ctx.stack) if isinstance(each, cst.Name) and depth else None
            value = self.ctx.oracle.bound_value(binding) if binding is not None else None
            if isinstance(value, cst.Call) and _wraps_iteration(value):
                found += self._unaliased(value, depth - 1)
            else:
                found.append(each)
        return found

    def _check_loop_over(self, where: cst.CSTNode, loader: cst.Name, helper: cst.FunctionDef | None = None) -> None:
        """The loop over `loader` at `where` (a `for` header, or a call of `helper`, a function
        of this file that loops over it)."""
        sampler = self._distributed_sampler(loader)
        loops = self._enclosing_loops()
        if sampler is None or not loops or self._prepared(loader.value):
            return
        if self._evaluation_pass(helper if helper is not None else self.ctx.stack[-1], helper, loader):
            return
        self._ours = self._covering_call_test(loader.value, sampler)
        if self._sets_epoch(loops):
            return
        rebuilt = self._built_in(loops[-1], {loader.value, (dotted_name(sampler.receiver) or "").split(".")[0]})
        if rebuilt and isinstance(loops[-1], cst.For) and names_used(loops[-1].target) & set().union(*map(names_used, rebuilt)):
            return  # a new sampler or loader each epoch, built from the epoch: its order may change
        if self._one_of_several and self._reported_at == id(where):
            return  # one finding for a loop over several loaders
        self._reported_at = id(where)
        self.report(where, _MESSAGE, None if rebuilt or self._one_of_several else self._fix(loops, sampler))

    def visit_Call(self, node: cst.Call) -> None:
        """`train_one_epoch(model, loader, ...)` in an epoch loop, where that function of this file
        iterates the parameter the loader is passed as: its loop over the loader is this call."""
        if not isinstance(node.func, cst.Name) or not self._enclosing_loops():
            return
        found = self._loaders_passed_to_iterating_helper(node)
        if found:
            helper = self.ctx.kind(node.func).cls
            self._one_of_several = len(found) > 1
            for loader in found:
                self._check_loop_over(node, loader, helper)
            self._one_of_several = False

    def _evaluation_pass(self, loop: cst.CSTNode, helper: cst.FunctionDef | None, loader: cst.Name) -> bool:
        """The pass over the loader is an evaluation: named for one (the function looping, or
        the loader: `evaluate`, `val_loader`; nothing in those names says train, fit, learn,
        update or step), nothing in it or in the functions of this file it calls trains
        (`backward`, `step(`, `zero_grad`, `autograd`, `enable_grad`, ...), and every model it
        calls (a module, or a parameter it put in eval mode) is called with autograd off
        (`with torch.no_grad():` in it, around it, or a decorator). The order of an evaluation
        changes no result, so its sampler needs no `set_epoch`."""
        function = helper or next((n for n in reversed(self.ctx.stack) if isinstance(n, cst.FunctionDef)), None)
        names = [loader.value] + ([function.name.value] if function is not None else [])
        if not any(map(_EVALUATION_NAME.search, names)) or any(map(_TRAINING_NAME.search, names)):
            return False
        if self._may_train(loop) or any(_TRAINING_CALL.search(dotted_name(call.func) or "") for call in calls_in(loop)):
            return False
        if any(self._may_train(callee) for callee in self._functions_called(loop, depth=3)):
            return False
        evaluated = put_in_eval_mode(function) if function is not None else frozenset()
        calls = model_calls(self.ctx, loop, evaluated)
        if not calls:
            return False
        if helper is None and grad_disabled_at(self.ctx, self.ctx.stack[:-1]):
            return True
        if helper is not None and any(self.ctx.oracle.disables_grad(d.decorator) for d in helper.decorators):
            return True
        unguarded = {id(call) for call in calls}
        for block in descendants(loop):
            if isinstance(block, cst.With) and any(self.ctx.oracle.disables_grad(item.item) for item in block.items):
                unguarded -= {id(call) for call in model_calls(self.ctx, block, evaluated)}
        return not unguarded

    def _may_train(self, node: cst.CSTNode) -> bool:
        text = self.ctx.module.code_for_node(node)
        return any(marker in text for marker in _TRAINING_TEXT)

    def _functions_called(self, node: cst.CSTNode, depth: int) -> list[cst.FunctionDef]:
        """The functions and methods of this file that calls below `node` reach, and those they
        call in turn (`depth` levels)."""
        found: list[cst.FunctionDef] = []
        for call in calls_in(node):
            callee = self.ctx.kind(call.func)
            if callee is not None and callee.base == FUNCTION and isinstance(callee.cls, cst.FunctionDef):
                found.append(callee.cls)
            elif isinstance(call.func, cst.Attribute):  # `self.learn(x)`: any method of the file of that name
                found += [method for method in self.ctx.oracle.classes.method_owner if method.name.value == call.func.attr.value]
        if depth > 1:
            found += [inner for function in list(found) for inner in self._functions_called(function, depth - 1)]
        return found

    def _loaders_passed_to_iterating_helper(self, call: cst.Call) -> list[cst.Name]:
        named = [arg for arg in call.args if isinstance(arg.value, cst.Name) and not arg.star]
        if not named:
            return []
        callee = self.ctx.kind(call.func)
        helper = callee.cls if callee is not None and callee.base == FUNCTION else None
        if not isinstance(helper, cst.FunctionDef):
            return []
        iterated = _iterated_parameters(helper)
        found = []
        for index, arg in enumerate(call.args):
            if arg not in named:
                continue
            param = _parameter_taking(helper, call, index)
            if param is not None and param.name.value in iterated:
                found.append(arg.value)
        return found

    def _built_in(self, loop: cst.CSTNode, names: set[str]) -> list[cst.CSTNode]:
        """The values that `names` are bound to inside `loop` (a sampler or loader made anew at
        each iteration: a `set_epoch` at the top of the loop would run before it exists)."""
        return [
            binding.value
            for name in names
            for binding in self.ctx.oracle.bindings_of(name, self.ctx.stack) or []
            if id(loop) in binding.chain and binding.value is not None
        ]

    def _check_attribute_loader(self, node: cst.For, loader: cst.Attribute) -> None:
        """`for batch in self.train_loader` inside an epoch loop of a method, the class of this file
        giving the loader a shuffling DistributedSampler wherever it assigns it. Only the provable
        case: no `set_epoch` anywhere in the file (a method of another file cannot reach this loop
        except through calls made in it), no inherited method called in the loop and `self` passed
        to no call there (a callback may set the epoch); reported without a fix."""
        loops = self._enclosing_loops()
        owner = self.ctx.oracle.instance_class(loader.value, self.ctx.stack)
        if not loops or owner is None or "set_epoch" in self.ctx.text or ".prepare(" in self.ctx.text:
            return
        values = self.ctx.oracle.attribute_values(owner, loader.attr.value)
        if not values or not all(self._loader_with_distributed_sampler(owner, value) for value in values):
            return
        own_methods = {item.name.value for item in owner.body.body if isinstance(item, cst.FunctionDef)}
        self_name = loader.value.value
        for call in calls_in(loops[-1]):
            func = call.func
            if any(isinstance(arg.value, cst.Name) and arg.value.value == self_name for arg in call.args):
                return  # `callbacks.on_epoch_start(self)`: another file may set the epoch
            if (isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name) and func.value.value == self_name
                    and func.attr.value not in own_methods):
                return  # an inherited method, defined where the linter does not look
        self.report(node.iter, _MESSAGE)

    def _loader_with_distributed_sampler(self, owner: cst.ClassDef, value: cst.CSTNode | None) -> bool:
        if not isinstance(value, cst.Call) or self.ctx.qualify(value.func) not in DATA_LOADERS:
            return False
        argument = _keyword(value, "sampler")
        if argument is not None and self._is_shuffling_sampler(argument):
            return True
        if not (isinstance(argument, cst.Attribute) and isinstance(argument.value, cst.Name)
                and argument.value.value == "self"):
            return False  # a sampler built elsewhere: only `self.<sampler>` of this class is followed
        samplers = self.ctx.oracle.attribute_values(owner, argument.attr.value)
        return bool(samplers) and all(v is not None and self._is_shuffling_sampler(v) for v in samplers)

    def _enclosing_loops(self) -> list[cst.For | cst.While]:
        """The loops around the current one within its function, innermost first."""
        loops = []
        for node in reversed(self.ctx.stack[:-1]):
            if isinstance(node, SCOPE_NODES):
                break
            if isinstance(node, (cst.For, cst.While)):
                loops.append(node)
        return loops

    def _sets_epoch(self, loops: list[cst.CSTNode]) -> bool:
        """`set_epoch` is called in an enclosing loop (or a function of the file the loop calls),
        anywhere in the enclosing function, or by a function of this file that calls it (the
        epoch loop may live in a caller)."""
        if _calls_set_epoch(loops[-1], self._ours, self.ctx.module):
            return True
        function = self.ctx.enclosing(cst.FunctionDef)
        return function is not None and self._reaches_set_epoch(function, set())

    def _reaches_set_epoch(self, function: cst.FunctionDef, seen: set[cst.CSTNode]) -> bool:
        if function in seen:
            return False
        seen.add(function)
        if _calls_set_epoch(function.body, self._ours):
            return True
        name = function.name.value
        for caller in _callers(self.ctx.module, name):
            if caller is self.ctx.module:
                if _calls_set_epoch_outside_functions(self.ctx.module, self._ours):
                    return True
            elif self._reaches_set_epoch(caller, seen):
                return True
        return False

    def _covering_call_test(self, loader: str, sampler: _Sampler):
        """Which `set_epoch` calls may be this sampler's: any but one called on another sampler or
        loader of the file (`probe_sampler` is not covered by `pretrain_sampler.set_epoch(e)`)."""
        ours = {loader, (dotted_name(sampler.receiver) or "").split(".")[0], *sampler.aliases}
        others = self._sampler_and_loader_names() - ours

        def covers(call: cst.Call) -> bool:
            if not isinstance(call.func, cst.Attribute):
                return True  # a helper: `maybe_set_epoch(loader, epoch)`
            root = (dotted_name(call.func.value) or "").split(".")[0]
            return root not in others

        return covers

    def _sampler_and_loader_names(self) -> set[str]:
        """Names the file binds to a DistributedSampler or DataLoader construction."""
        kinds = DATA_LOADERS | DISTRIBUTED_SAMPLERS
        return {
            target.target.value
            for statement in walk_statements(self.ctx.module)
            if isinstance(statement, cst.SimpleStatementLine)
            for small in statement.body
            if isinstance(small, cst.Assign) and isinstance(small.value, cst.Call)
            and self.ctx.qualify(small.value.func) in kinds
            for target in small.targets
            if isinstance(target.target, cst.Name)
        }

    def _single_binding(self, name: str, stack) -> Binding | None:
        bindings = self.ctx.oracle.bindings_of(name, stack) or []
        return bindings[0] if len(bindings) == 1 else None

    def _distributed_sampler(self, loader: cst.Name) -> _Sampler | None:
        binding = self._single_binding(loader.value, self.ctx.stack)
        if binding is None:
            return None
        construction = self.ctx.oracle.bound_value(binding)
        if construction is not None and _constructs(self.ctx, construction, DATA_LOADERS):
            return self._sampler_of(loader, construction, self.ctx.stack)
        return self._returned_sampler(loader, binding)

    def _sampler_of(self, loader: cst.Name, construction: cst.CSTNode, stack, made_by=None) -> _Sampler | None:
        """The shuffling DistributedSampler of a DataLoader construction, `stack` being where
        the construction's names are looked up; `made_by`: (helper, call) when the construction
        is in a function of the file that `call` runs (its `shuffle=` may name a parameter)."""
        if not _constructs(self.ctx, construction, DATA_LOADERS):
            return None
        argument, reached_as = _keyword(construction, "sampler"), cst.Attribute(loader, cst.Name("sampler"))
        if argument is None:
            # `batch_sampler=BatchSampler(sampler, 8, drop_last=True)`: the loader's own `sampler`
            # is then a default one; the DistributedSampler is the batch sampler's
            argument = self._batched_sampler(_keyword(construction, "batch_sampler"), stack)
            reached_as = cst.Attribute(cst.Attribute(loader, cst.Name("batch_sampler")), cst.Name("sampler"))
        if argument is None:
            return None
        batched = _keyword(construction, "sampler") is None
        if self._is_shuffling_sampler(_passed_shuffle(argument, *made_by) if made_by else argument):
            return _Sampler(reached_as, certain=True, may_be_none=False, batched=batched)
        chosen = self._chosen_classes(argument, stack)
        if chosen and any(map(self._is_shuffling_sampler, chosen)) and not any(map(self._is_unshuffled_sampler, chosen)):
            # `sampler=train_sampler(ds)`, `train_sampler = RandomSampler if rank == -1 else
            # DistributedSampler`: distributed runs get the same order every epoch; the loader's
            # sampler may be the other class, so no fix calls its `set_epoch`
            certain = all(map(self._is_shuffling_sampler, chosen))
            return _Sampler(reached_as, certain=certain, may_be_none=False, batched=batched)
        if isinstance(argument, cst.Name):
            named = self._named_sampler(argument, stack, made_by)
            return replace(named, batched=batched) if named is not None else None
        return None

    def _batched_sampler(self, batches: cst.BaseExpression | None, stack) -> cst.BaseExpression | None:
        """The sampler a `BatchSampler(sampler, ...)` wraps, built there or bound once to a name."""
        if isinstance(batches, cst.Name):
            binding = self._single_binding(batches.value, stack)
            batches = self.ctx.oracle.bound_value(binding) if binding is not None else None
        if not (isinstance(batches, cst.Call) and self.ctx.qualify(batches.func) in _BATCH_SAMPLERS):
            return None
        positional = [arg.value for arg in batches.args if arg.keyword is None and not arg.star]
        return positional[0] if positional else _keyword(batches, "sampler")

    def _returned_sampler(self, loader: cst.Name, binding: Binding) -> _Sampler | None:
        """`loader, data = make_loaders(...)`: the loader a function of this file returns (every
        `return` gives it at that place), built there with a DistributedSampler. The sampler is
        reached as `loader.sampler`; one that may be None gives the loader a default sampler, so
        the fix is withheld then."""
        call = binding.value
        if binding.how != "value" or not isinstance(call, cst.Call):
            return None
        callee = self.ctx.kind(call.func)
        helper = callee.cls if callee is not None and callee.base == FUNCTION else None
        if not isinstance(helper, cst.FunctionDef):
            return None
        returns = self.ctx.oracle.returned_values(helper) or []
        found = [self._returned_loader_sampler(loader, value, binding.path, (helper, call)) for value in returns]
        if not found or None in found or len({(f.certain, f.may_be_none, f.batched) for f in found}) != 1:
            return None
        siblings = {name for name, other in self._names_bound_by(call) if other is not binding}
        aliases = frozenset(siblings.union(*(f.aliases for f in found)))
        certain = found[0].certain and not found[0].may_be_none
        holder = cst.Attribute(loader, cst.Name("batch_sampler")) if found[0].batched else loader
        return _Sampler(cst.Attribute(holder, cst.Name("sampler")), certain, may_be_none=False, aliases=aliases,
                        batched=found[0].batched)

    def _returned_loader_sampler(self, loader: cst.Name, returned: cst.BaseExpression | None,
                                 path: tuple[int, ...], made_by) -> _Sampler | None:
        element = element_at(returned, path) if returned is not None else None
        if element is None:
            return None
        stack = path_to(self.ctx.module, element) or []
        if isinstance(element, cst.Name):
            inner = self._single_binding(element.value, stack)
            construction = self.ctx.oracle.bound_value(inner) if inner is not None else None
            if construction is None:
                return None
            element, stack, names = construction, path_to(self.ctx.module, construction) or [], {element.value}
        else:
            names = set()
        sampler = self._sampler_of(loader, element, stack, made_by) if stack else None
        if sampler is None:
            return None
        names.add((dotted_name(sampler.receiver) or "").split(".")[0])
        return _Sampler(sampler.receiver, sampler.certain, sampler.may_be_none, frozenset(names), sampler.batched)

    def _names_bound_by(self, call: cst.Call) -> list[tuple[str, Binding]]:
        """The names of the current scope bound by the assignment whose value is `call`."""
        scope = self.ctx.oracle.scope_at(self.ctx.stack)
        return [(name, b) for name, bindings in scope.bindings.items() for b in bindings if b.value is call]

    def _named_sampler(self, name: cst.Name, stack=None, made_by=None) -> _Sampler | None:
        bindings = self.ctx.oracle.bindings_of(name.value, stack or self.ctx.stack) or []
        values = [self.ctx.oracle.bound_value(b) for b in bindings]
        if None in values:
            return None
        options = [option for value in values for branch in _branches(value, made_by) for option in self._made_by(branch)]
        if made_by is not None:
            options = [_passed_shuffle(option, *made_by) for option in options]
        samplers = [option for option in options if self._is_shuffling_sampler(option)]
        if not samplers or any(self._is_unshuffled_sampler(option) for option in options):
            return None
        others = [o for o in options if o not in samplers and not _is_none(o)]
        return _Sampler(name, certain=not others, may_be_none=any(_is_none(o) for o in options))

    def _chosen_classes(self, call: cst.BaseExpression, stack) -> list[cst.Call]:
        """`train_sampler(ds)` with `train_sampler` bound once to a choice of classes (`RandomSampler
        if rank == -1 else DistributedSampler`): the call as each choice would make it; none
        for any other call."""
        if not (isinstance(call, cst.Call) and isinstance(call.func, cst.Name)):
            return []
        binding = self._single_binding(call.func.value, stack)
        value = self.ctx.oracle.bound_value(binding) if binding is not None else None
        if not isinstance(value, cst.IfExp):
            return []
        return [call.with_changes(func=branch) for branch in _branches(value)]

    def _made_by(self, value: cst.BaseExpression) -> list[cst.BaseExpression]:
        """`make_sampler(ds, shuffle=True)`, a function of the file: what each of its `return`s
        gives (a returned name: its one value there), with a `shuffle=` of the sampler that
        names a parameter replaced by what the call passes for it; anything else: itself."""
        callee = self.ctx.kind(value.func) if isinstance(value, cst.Call) else None
        helper = callee.cls if callee is not None and callee.base == FUNCTION else None
        returns = self.ctx.oracle.returned_values(helper) if isinstance(helper, cst.FunctionDef) else None
        if not returns:
            return [value]
        made = []
        for returned in returns:
            if isinstance(returned, cst.Name):
                binding = self._single_binding(returned.value, path_to(self.ctx.module, returned) or [])
                returned = self.ctx.oracle.bound_value(binding) if binding is not None else returned
            made += [_passed_shuffle(option, helper, value) for option in _branches(returned, (helper, value))] if returned else [value]
        return made

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

    def _fix(self, loops: list[cst.CSTNode], sampler: _Sampler):
        """`set_epoch(epoch)` at the top of the outermost loop, when that loop is the epoch loop: a
        `for epoch in range(...)`, the only counting loop around the loader or one named for epochs."""
        loop = loops[-1]
        if not sampler.certain or not isinstance(loop, cst.For) or not isinstance(loop.target, cst.Name):
            return None
        epoch = loop.target.value
        if epoch == "_" or not isinstance(loop.body, cst.IndentedBlock) or not _counts(loop):
            return None
        counters = [other for other in loops if isinstance(other, cst.For) and _counts(other)]
        if len(counters) > 1 and not _EPOCH_NAME.search(epoch):
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


def _keyword(call: cst.Call, name: str) -> cst.BaseExpression | None:
    return next((arg.value for arg in call.args if arg.keyword and arg.keyword.value == name), None)


def _iterated_parameters(function: cst.FunctionDef) -> set[str]:
    """The parameters a function loops over in its own body (`for batch in loader:`, `for x, u in
    zip(labeled, unlabeled)`, or through a name it binds once to such a wrapper: `batches =
    zip(labeled, unlabeled)`, `for i, (x, u) in enumerate(batches)`)."""
    names = {param.name.value for param in all_params(function.params)}
    statements = list(walk_statements(function.body, into_scopes=False))
    wrapped: dict[str, list[cst.BaseExpression]] = {}
    for statement in statements:
        for small in statement.body if isinstance(statement, cst.SimpleStatementLine) else ():
            if (isinstance(small, cst.Assign) and len(small.targets) == 1 and isinstance(small.targets[0].target, cst.Name)
                    and isinstance(small.value, cst.Call) and _wraps_iteration(small.value)):
                wrapped.setdefault(small.targets[0].target.value, []).append(small.value)
    found = set()
    for statement in statements:
        if not isinstance(statement, cst.For):
            continue
        for iterated in _iterated_all(statement.iter):
            name = iterated.value if isinstance(iterated, cst.Name) else None
            if name in wrapped and len(wrapped[name]) == 1 and name not in names:
                found |= {inner.value for inner in _iterated_all(wrapped[name][0]) if isinstance(inner, cst.Name)}
            elif name is not None:
                found.add(name)
    return found & names


def _iterated(expr: cst.BaseExpression) -> cst.BaseExpression:
    while isinstance(expr, cst.Call) and dotted_name(expr.func) in _ITERATION_WRAPPERS and expr.args:
        expr = expr.args[0].value
    return expr


def _iterated_all(expr: cst.BaseExpression) -> list[cst.BaseExpression]:
    """What iterating `expr` iterates, through `enumerate`/progress bars (their first argument)
    and `zip` (each argument)."""
    expr = _iterated(expr)
    if isinstance(expr, cst.Call) and dotted_name(expr.func) == "zip" and expr.args and not any(a.star for a in expr.args):
        return [inner for arg in expr.args for inner in _iterated_all(arg.value)]
    return [expr]


def _wraps_iteration(call: cst.Call) -> bool:
    return bool(call.args) and dotted_name(call.func) in _ITERATION_WRAPPERS | {"zip"}


def _passed_shuffle(option: cst.BaseExpression, helper: cst.FunctionDef, call: cst.Call) -> cst.BaseExpression:
    """A sampler built in `helper`, which `call` runs: the same construction with its `shuffle`
    as the call decides it. A parameter (`shuffle=shuffle`, or the fourth positional argument)
    is what the call passes for it, or its default; anything else the helper computes
    (`shuffle = training`, `**kwargs`) is not known here, and counts as `shuffle=False`: the
    sampler is not taken for a shuffling one."""
    if not isinstance(option, cst.Call):
        return option
    given = _shuffle_argument(option)
    if given is None:
        return option  # not given: shuffles by default
    if isinstance(given, cst.Name) and given.value in ("True", "False"):
        return option
    passed = _argument_for(helper, call, given.value) if isinstance(given, cst.Name) else None
    kept = [arg for arg in option.args if arg.value is not given and not arg.star]
    return option.with_changes(args=[*kept, cst.Arg(passed or cst.Name("False"), keyword=cst.Name("shuffle"))])


def _shuffle_argument(call: cst.Call) -> cst.BaseExpression | None:
    """What a DistributedSampler construction passes for `shuffle` (keyword, or the fourth
    positional argument: `DistributedSampler(ds, world, rank, False)`); `**kwargs` or `*args`
    stand for an unknown value (a `cst.Ellipsis`); None when nothing is passed."""
    for arg in call.args:
        if arg.keyword is not None and arg.keyword.value == "shuffle":
            return arg.value
    positional = [arg for arg in call.args if arg.keyword is None and not arg.star]
    if len(positional) >= 4 and all(arg.keyword is None for arg in call.args[:4]) and not any(a.star for a in call.args[:4]):
        return positional[3].value
    return cst.Ellipsis() if any(arg.star for arg in call.args) else None


def _parameter_taking(function: cst.FunctionDef, call: cst.Call, index: int) -> cst.Param | None:
    """The parameter of `function` that the call's argument at `index` binds (by keyword, or by
    its position)."""
    arg = call.args[index]
    if arg.keyword is not None:
        return next((p for p in all_params(function.params) if p.name.value == arg.keyword.value), None)
    positional = [*function.params.posonly_params, *function.params.params]
    return positional[index] if index < len(positional) else None


def _argument_for(function: cst.FunctionDef, call: cst.Call, name: str) -> cst.BaseExpression | None:
    """What `call` passes for the parameter `name` of `function` (its default when nothing)."""
    param = next((p for p in all_params(function.params) if p.name.value == name), None)
    if param is None:
        return None
    for index, arg in enumerate(call.args):
        if arg.star:
            return None
        if _parameter_taking(function, call, index) is param:
            return arg.value
    return param.default


def _constructs(ctx, expr: cst.CSTNode, classes: frozenset[str]) -> bool:
    return isinstance(expr, cst.Call) and ctx.qualify(expr.func) in classes


def _branches(value: cst.BaseExpression, made_by=None) -> list[cst.BaseExpression]:
    """What a conditional expression may give; in a function `made_by[1]` runs, a test on one of
    its parameters given as `True`/`False` there picks its branch (`DistributedSampler(ds) if
    distributed else None` with `distributed=False`)."""
    if isinstance(value, cst.IfExp):
        test = value.test
        passed = _argument_for(*made_by, test.value) if made_by and isinstance(test, cst.Name) else None
        if isinstance(passed, cst.Name) and passed.value in ("True", "False"):
            return _branches(value.body if passed.value == "True" else value.orelse, made_by)
        return [*_branches(value.body, made_by), *_branches(value.orelse, made_by)]
    return [value]


def _is_none(expr: cst.CSTNode) -> bool:
    return isinstance(expr, cst.Name) and expr.value == "None"


def _shuffle_is_false(call: cst.Call) -> bool:
    given = _shuffle_argument(call)
    return isinstance(given, cst.Name) and given.value == "False"


def _is_set_epoch(call: cst.Call, covers) -> bool:
    return "set_epoch" in (dotted_name(call.func) or "") and covers(call)


def _calls_set_epoch(node: cst.CSTNode, covers, module: cst.Module | None = None, seen: set[str] | None = None) -> bool:
    """A `set_epoch` call below `node`, or (given the module) in a function of the file that a
    call below `node` runs, transitively (`begin_epoch(epoch)` whose body sets the epoch)."""
    seen = set() if seen is None else seen
    for call in calls_in(node):
        if _is_set_epoch(call, covers):
            return True
        if module is not None and isinstance(call.func, cst.Name) and call.func.value not in seen:
            name = call.func.value
            seen.add(name)  # each function is searched once
            functions = [s for s in walk_statements(module) if isinstance(s, cst.FunctionDef) and s.name.value == name]
            if any(_calls_set_epoch(f.body, covers, module, seen) for f in functions):
                return True
    return False


def _calls_set_epoch_outside_functions(module: cst.Module, covers) -> bool:
    return any(
        isinstance(node, cst.Call) and _is_set_epoch(node, covers)
        for node in descendants(module, outside_nested_scopes)
    )


def _callers(module: cst.Module, name: str) -> list[cst.CSTNode]:
    """The functions of the file (and the module itself) whose own code calls `name` or `x.name`."""
    found = []
    scopes = [module, *(s for s in walk_statements(module) if isinstance(s, cst.FunctionDef))]
    for scope in scopes:
        body = scope.body if isinstance(scope, cst.FunctionDef) else scope
        if any(
            isinstance(node, cst.Call) and (dotted_name(node.func) or "").rsplit(".", 1)[-1] == name
            for node in descendants(body, outside_nested_scopes)
        ):
            found.append(scope)
    return found


def _counts(loop: cst.For) -> bool:
    """`for e in range(...)` (or `trange`, `tqdm(range(...))`, `itertools.count()`): a counter."""
    iterated = _iterated(loop.iter)
    return isinstance(iterated, cst.Call) and dotted_name(iterated.func) in _COUNTERS
