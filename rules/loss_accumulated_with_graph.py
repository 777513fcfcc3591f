"""TL003 loss-accumulated-with-graph: `total += loss` keeps every iteration's graph alive."""

from __future__ import annotations

import re

import libcst as cst

from torchlint.analysis import dotted_name, unpacked_names, walk_statements
from torchlint.codemod import method_call, names_used
from torchlint.kinds import GUESSED
from torchlint.oracle import starts_at_number
from torchlint.scopes import all_params
from torchlint.rule import Invalid, Rule
from torchlint.rules.registry import register
from torchlint.torch_api import is_tensor_function
from torchlint.walk import SCOPE_NODES, ElidedBlock, children, descendants, outside_nested_scopes, paths

T = "import torch\nimport torch.nn as nn\nimport torch.nn.functional as F\n"
SETUP = T + "model = nn.Linear(4, 1)\ncriterion = nn.MSELoss()\n"
METER = ("class Meter:\n    def __init__(self):\n        self.sum, self.count = 0, 0\n"
         "    def update(self, val, n=1):\n        self.val = val\n        self.sum += val * n\n        self.count += n\n")


@register
class LossAccumulatedWithGraph(Rule):
    """
    ## What it does
    Flags `total += loss`, `total = total + loss` and `history.append(loss)` inside a loop when
    `loss` is a tensor that carries an autograd graph (a criterion or `F.*loss` result, a module's
    output, arithmetic on those, a model output's `.loss`) and the accumulator is bound before the
    loop, so it outlives the iteration. The accumulating statement names a loss (`loss`,
    `criterion` or `logit` in it), or adds a value the loop itself backpropagates on every pass
    without keeping its graph (a GAN's `errD.backward()`, then `errD_total += errD`; not under an
    `if`, nor with `retain_graph`): outputs collected in an evaluation loop are TL626's. The accumulator may also be an element of a container the
    scope builds itself and nothing else holds (`totals["mse"] += loss`, `hist["G"].append(loss)`),
    when no element of it is assigned in the loop. Or an instance of a class of the project made
    before the loop, whose method adds the argument to an attribute of its own
    (`losses.update(loss, n)` with `AverageMeter.update` doing `self.sum += val * n`, an
    `Averager.add` doing `self.v = (self.v * self.n + x) / (self.n + 1)`): the meter keeps every
    iteration's graph as a list would. Not where the method adds the value only through a call or
    an attribute (`val.item()`, `to_scalar(val)`, `min(self.best, val)`, `val.data`), only keeps
    the last one (`self.val = val`), switches a grad mode, is a static method or a coroutine, or
    belongs to a library class; the fix (`.detach()` on the
    argument) is **unsafe** there, since what else reads the meter's attributes is out of sight.

    ## Why is this bad?
    Adding a graph-carrying tensor to an accumulator makes the accumulator part of the graph, so
    every iteration's graph, with all the activations it saved, stays alive until the accumulator
    is freed. Memory grows with each step until the epoch ends or the process runs out of memory.
    This is the PyTorch FAQ's "Don't accumulate history across your training loop".

    ## Example
    ```python
    total_loss = 0
    for x, y in loader:
        loss = criterion(model(x), y)
        loss.backward()
        total_loss += loss
    ```

    ## Use instead
    ```python
    total_loss = 0
    for x, y in loader:
        loss = criterion(model(x), y)
        loss.backward()
        total_loss += loss.detach()   # or loss.item() when a Python number is all you need
    ```

    ## Fix safety
    The fix wraps the added value in `.detach()` and is **safe**: the accumulator gets the same
    value, dtype and device, there is no host synchronisation (unlike `.item()`), and later
    `.item()` or `dist.all_reduce(total)` calls keep working. The only difference is that the old
    graphs are freed. It is **unsafe** when the added value is taken for a tensor by a guess (as
    TL001 says: a layer's parameter by its name alone, an element of a DataLoader's batch, a value
    taken for a tensor because only tensors have what is called on it, a method's parameter typed
    by the calls the project shows, the `.loss` or `["loss"]` of a model whose output is not known,
    read by transformers' convention, or a value computed from such guesses alone), or is a name
    also bound to a number (`loss = 0.0`, then `if ...: loss = criterion(...)`): were it a
    number, `.detach()` would not exist on it.

    The rule follows every value derived from the accumulator in its scope (`mean = total / n`,
    `torch.stack(losses)`, `for item in losses`, containers and comprehensions of them) to where
    it ends. It is flagged only when each one ends where it is known never to be backpropagated:
    printed, logged (`logging`, a `logger`, TensorBoard's `add_scalar`, `wandb.log`, `mlflow`,
    Lightning's `self.log`), formatted, converted (`float`, `int`, `.item()`, `.tolist()`),
    compared, reduced across ranks (`torch.distributed`), or dropped. Once the name itself is
    rebound after the loop to its value without the graph (`total = total.item() / n`,
    `loss = loss.detach().numpy()`, on a line of a block around the loop), what the statements
    after it in that block read is that number: returning or storing it keeps no graph. When the added term is
    itself backpropagated inside the loop (without `retain_graph`), its graph is freed there, so
    the total cannot be backpropagated later: then it may also be returned or stored. When the
    program reads the total's autograd state (`.requires_grad`, `.grad_fn`, `.register_hook`),
    the finding has no fix.

    Not flagged: gradient accumulation (a derived value reaches `.backward()`,
    `torch.autograd.grad`, or a wrapper that backpropagates its argument: `accelerator.backward`,
    Lightning's `manual_backward`, `scaler.scale`, `amp.scale_loss`, timm's `loss_scaler`, and the
    names in the `backward-functions` setting); a total that goes where the linter cannot see
    whether it is backpropagated (stored in a subscript or an attribute, passed to any other
    function, returned or yielded, read by a nested function, declared `global`/`nonlocal`); a
    `grad_norm += g.pow(2).sum()` later added to a loss that is backpropagated; a second total
    of a loop that backpropagates nothing itself while another of its totals is backpropagated
    after it (an unroll over a horizon inside one step: `value_loss += ...` and
    `priority_loss += ...`, then `value_loss.backward()`; the iterations' graphs live together
    until that backward by design); anything under
    `torch.no_grad()`/`torch.inference_mode()` or in a function decorated with them, and values
    computed there and added after the block (`with torch.no_grad(): batch_loss = criterion(out,
    y)`, then `losses.append(batch_loss * n)`); values
    already `.item()`ed, `.detach()`ed or `float(...)`ed; a total rebound to its number later in
    the same pass (`total += loss`, then `total = total.item()` in the same block, with no
    statement between that may leave the pass); plain numbers; an accumulator reset
    on every way through the loop body to the accumulation (a reset only under a condition of its
    own, such as the end of a gradient-accumulation window, is not one); and values of unknown
    type (a value that is `.backward()`ed in its scope is a tensor that carries a graph, in a file
    that uses torch: another autodiff library's values, micrograd's, have `.backward()` too). A
    tensor made where the linter cannot tell whether it carries a graph (`-torch.mean(utils.nll(out,
    y))`, with `utils` not known) carries one when every binding of its name that reaches the
    accumulation is `.backward()`ed in the scope (and not `.detach_()`ed): backward on a tensor
    without one raises.

    For speed, the rule only looks at files where a line that accumulates (`+=`, `.append(`,
    `x = x + ...`) also names a loss, a criterion or logits, or a name that `.backward()` is
    called on in the file; an accumulation of, say, raw model outputs on a line that names none
    of these is not checked.

    ## References
    - [PyTorch FAQ: Don't accumulate history across your training loop](https://pytorch.org/docs/stable/notes/faq.html#my-model-reports-cuda-runtime-error-2-out-of-memory)
    - [torch.Tensor.detach](https://pytorch.org/docs/stable/generated/torch.Tensor.detach.html)
    """

    code = "TL003"
    preview = False  # released
    name = "loss-accumulated-with-graph"
    summary = "A graph-carrying loss accumulated across loop iterations keeps every graph alive"
    severity = "warning"
    fix_safety = ("safe", "unsafe")
    trigger_tokens = ("loss", "criterion", "logit", ".backward(")
    # It visits `+=`, `x = x + ...` and `.append(...)`, and reports only a statement that names a
    # loss (`_LOSS_WORD`, any case) or adds a value backpropagated in the loop: a body without one
    # of these spellings holds no finding.
    scope_tokens = ("loss", "Loss", "LOSS", "criterion", "Criterion", "CRITERION", "logit", "Logit", "LOGIT", "backward")

    @classmethod
    def could_fire(cls, text: str) -> bool:
        return super().could_fire(text) and (_a_line_accumulates_a_loss(text) or _a_line_accumulates_a_backpropagated_name(text))

    valid = (
        # meters that keep numbers, keep only the last value, or are made anew each pass; a
        # method that takes the value out first; a meter of a library; no grad
        SETUP + METER + "losses = Meter()\nfor x, y in loader:\n    loss = criterion(model(x), y)\n    loss.backward()\n"
        "    losses.update(loss.item(), x.size(0))\n",
        SETUP + "class Meter:\n    def update(self, val, n=1):\n        self.sum += val.item() * n\n"
        "losses = Meter()\nfor x, y in loader:\n    loss = criterion(model(x), y)\n    loss.backward()\n    losses.update(loss)\n",
        SETUP + "class Meter:\n    def update(self, val, n=1):\n        self.val = val\n        self.count += n\n"
        "losses = Meter()\nfor x, y in loader:\n    loss = criterion(model(x), y)\n    loss.backward()\n    losses.update(loss)\n",
        SETUP + "class Meter:\n    def update(self, val, n=1):\n        val = float(val)\n        self.sum += val * n\n"
        "losses = Meter()\nfor x, y in loader:\n    loss = criterion(model(x), y)\n    loss.backward()\n    losses.update(loss)\n",
        SETUP + "class Meter:\n    @staticmethod\n    def update(val, n=1):\n        n.sum += val\n"
        "losses = Meter()\nfor x, y in loader:\n    loss = criterion(model(x), y)\n    loss.backward()\n    losses.update(loss, 1)\n",
        SETUP + METER + "for x, y in loader:\n    losses = Meter()\n    loss = criterion(model(x), y)\n    loss.backward()\n"
        "    losses.update(loss, x.size(0))\n",
        SETUP + "from torchmetrics import MeanMetric\nlosses = MeanMetric()\nfor x, y in loader:\n    loss = criterion(model(x), y)\n"
        "    loss.backward()\n    losses.update(loss)\n",
        SETUP + "def to_scalar(v):\n    return v.item()\nclass Meter:\n    def update(self, val, n=1):\n        self.sum += to_scalar(val) * n\n"
        "losses = Meter()\nfor x, y in loader:\n    loss = criterion(model(x), y)\n    loss.backward()\n    losses.update(loss)\n",
        SETUP + "class Meter:\n    def update(self, val, n=1):\n        with torch.no_grad():\n            self.sum += val * n\n"
        "losses = Meter()\nfor x, y in loader:\n    loss = criterion(model(x), y)\n    loss.backward()\n    losses.update(loss)\n",
        SETUP + "class Best:\n    def update(self, val):\n        self.best = min(self.best, val)\n"
        "best = Best()\nfor x, y in loader:\n    loss = criterion(model(x), y)\n    loss.backward()\n    best.update(loss)\n",
        SETUP + "class Meter:\n    async def update(self, val, n=1):\n        self.sum += val * n\n"
        "losses = Meter()\nfor x, y in loader:\n    loss = criterion(model(x), y)\n    loss.backward()\n    losses.update(loss)\n",
        SETUP + METER + "losses = Meter()\nwith torch.no_grad():\n    for x, y in loader:\n        loss = criterion(model(x), y)\n"
        "        losses.update(loss, x.size(0))\n",
        # a helper's tensor of unknown graph, never backpropagated: nothing says it carries one
        SETUP + "import utils\nhistory = []\nfor x, y in loader:\n    loss = -torch.mean(utils.log_normal(model(x), y))\n"
        "    history.append(loss)\n",
        # backpropagated only where the other binding (the one under `else`) does not reach
        SETUP + "import utils\nhistory = []\nfor x, y in loader:\n    loss = -torch.mean(utils.log_normal(model(x), y))\n"
        "    if train:\n        loss.backward()\n    else:\n        loss = -torch.mean(utils.log_normal(x, y))\n"
        "    history.append(loss)\n",
        # a pickled metric called on a model's output: its dict holds numbers, not a model's loss
        SETUP + "scorer = torch.load('scorer.pt')\nhistory = []\nfor x, y in loader:\n    stats = scorer(model(x), y)\n"
        "    history.append(stats['loss'])\n",
        # detached in place after its backward: what is appended carries no graph
        SETUP + "import utils\nhistory = []\nfor x, y in loader:\n    loss = -torch.mean(utils.log_normal(model(x), y))\n"
        "    loss.backward()\n    loss.detach_()\n    history.append(loss)\n",
        # the value accumulated is not the one backpropagated
        SETUP + "import utils\nhistory = []\nfor x, y in loader:\n    err = -torch.mean(utils.log_normal(model(x), y))\n"
        "    loss = err * 2\n    loss.backward()\n    history.append(err)\n",
        # the name is rebound to a float after its backward: what is accumulated is the float
        "def train(batches, step, opt):\n    total = 0\n    for b in batches:\n        loss = step(b)\n"
        "        loss.backward()\n        opt.step()\n        loss = loss.item()\n        total += loss\n",
        # not a loss: outputs collected without no_grad are TL626's (inference-without-no-grad)
        SETUP + "preds = []\nfor x in test_loader:\n    preds.append(model(x))\n",
        # a list another object owns (`losses = history["train"]`, `losses = self.pending`): it may be
        # backpropagated where the rule cannot see
        SETUP + "def collect(batches, history):\n    losses = history['train']\n    for x, y in batches:\n"
        "        losses.append(F.mse_loss(model(x), y))\n",
        SETUP + "class T:\n    def collect(self, batches):\n        losses = self.pending\n        for x, y in batches:\n"
        "            losses.append(F.mse_loss(model(x), y))\n",
        # MAML: the inner loop's gradients keep their graph (`create_graph=True`), and the meta-loss
        # summed over it is backpropagated by the caller
        "import torch\ndef inner(model, criterion, batches, lr=0.1):\n    w = model.weight\n    meta_loss = 0\n"
        "    for x, y in batches:\n        loss = criterion(x @ w, y)\n"
        "        g, = torch.autograd.grad(loss, (w,), create_graph=True)\n        w = w - lr * g\n"
        "        meta_loss += loss\n    return meta_loss\n",
        "import torch\ndef inner(model, batches):\n    total = 0\n    for x in batches:\n        loss = model(x).sum()\n"
        "        loss.backward(create_graph=True)\n        total += loss\n    return total\n",
        # a total unpacked from numbers but reset on every iteration, or unpacked from elsewhere
        SETUP + "for x, y in loader:\n    loss, acc = 0., 0.\n    loss += F.cross_entropy(model(x), y)\n    loss.backward()\n",
        SETUP + "loss, acc = [], 0.\nfor x, y in loader:\n    loss, acc = F.cross_entropy(model(x), y), 1.\n"
        "    loss += F.cross_entropy(model(x), y)\n",
        SETUP + "for epoch in range(3):\n    loss, n = restore()\n    for x, y in loader:\n        loss += F.cross_entropy(model(x), y)\n"
        "    loss.backward()\n",
        # gradient accumulation: the accumulator is backpropagated
        SETUP + "total = 0\nfor x, y in batches:\n    total = total + criterion(model(x), y)\ntotal.backward()\n",
        SETUP + "total = 0\nfor x, y in batches:\n    total += criterion(model(x), y)\n"
        "grads = torch.autograd.grad(total, model.parameters())\n",
        SETUP + "total = 0\nfor x, y in batches:\n    total += criterion(model(x), y)\nscaler.scale(total).backward()\n",
        SETUP + "total = 0\nfor x, y in batches:\n    total += criterion(model(x), y)\naccelerator.backward(total / 4)\n",
        SETUP + "losses = []\nfor x, y in batches:\n    losses.append(criterion(model(x), y))\n"
        "torch.stack(losses).mean().backward()\n",
        # a loss being composed and returned
        T + "class MultiHead(nn.Module):\n"
        "    def __init__(self):\n"
        "        super().__init__()\n"
        "        self.head = nn.Linear(4, 1)\n"
        "        self.criterion = nn.MSELoss()\n"
        "    def loss(self, x, ys):\n"
        "        total = 0\n"
        "        for y in ys:\n"
        "            total += self.criterion(self.head(x), y)\n"
        "        return total\n",
        # a penalty accumulated into a loss that is backpropagated
        SETUP + "loss = criterion(model(x), y)\ngrad_norm = 0\nfor p in model.parameters():\n"
        "    grad_norm += p.pow(2).sum()\nloss = loss + 0.1 * grad_norm\nloss.backward()\n",
        # no graph recorded
        SETUP + "total = 0\nwith torch.no_grad():\n    for x, y in batches:\n        total += criterion(model(x), y)\n",
        SETUP + "total = 0\nwith torch.inference_mode():\n    for x, y in batches:\n        total += criterion(model(x), y)\n",
        SETUP + "@torch.no_grad()\ndef evaluate(batches):\n    total = 0\n    for x, y in batches:\n"
        "        total += criterion(model(x), y)\n    return total\n",
        # computed with grad off, added after the block
        SETUP + "losses = []\nfor x, y in batches:\n    with torch.no_grad():\n        batch_loss = criterion(model(x), y)\n"
        "    losses.append(batch_loss * len(y))\n",
        # already detached or converted
        SETUP + "total = 0\nfor x, y in batches:\n    loss = criterion(model(x), y)\n    loss.backward()\n"
        "    total += loss.item()\n",
        SETUP + "total = 0\nfor x, y in batches:\n    loss = criterion(model(x), y)\n    loss.backward()\n"
        "    total += loss.detach()\n",
        SETUP + "total = 0\nfor x, y in batches:\n    loss = criterion(model(x), y)\n    loss.backward()\n"
        "    total += float(loss)\n",
        SETUP + "losses = []\nfor x, y in batches:\n    loss = criterion(model(x), y)\n    loss.backward()\n"
        "    losses.append(loss.item())\n",
        # plain numbers, unknown types, an accumulator reset every iteration, no loop
        "count = 0\nfor batch in batches:\n    count += 1\n",
        "total = 0\nfor batch in batches:\n    loss = compute(batch)\n    total += loss\n",
        SETUP + "for x, y in batches:\n    step_total = 0\n    step_total += criterion(model(x), y)\n",
        SETUP + "total = 0\nloss = criterion(model(x), y)\ntotal += loss\n",
        # reset on every way to the accumulation, even when that way is conditional
        SETUP + "total = 0\nfor step, (x, y) in enumerate(loader):\n    if step % 4 == 0:\n        total = 0\n"
        "        total += criterion(model(x), y)\n        print(total.item())\n",
        SETUP + "total = 0\nfor x, y in loader:\n    with torch.enable_grad():\n        total = 0\n"
        "    total += criterion(model(x), y)\n",
        # totals kept in a container: one that leaves the scope, belongs to another object, is
        # reset element by element in the loop, or is backpropagated
        SETUP + "def run(loader):\n    totals = {'mse': 0}\n    for x, y in loader:\n"
        "        totals['mse'] += criterion(model(x), y)\n    return totals\n",
        SETUP + "totals = stats.totals\nfor x, y in loader:\n    totals['mse'] += criterion(model(x), y)\n",
        SETUP + "totals = {}\nfor x, y in loader:\n    totals['mse'] = 0\n    totals['mse'] += criterion(model(x), y)\n"
        "print(totals)\n",
        SETUP + "losses = {'a': 0}\nfor x, y in loader:\n    losses['a'] += criterion(model(x), y)\n"
        "sum(losses.values()).backward()\n",
        # a class of the program with its own `backward` (not a tensor)
        "class Value:\n    def __init__(self, data):\n        self.data = data\n    def backward(self):\n        pass\n"
        "    def __add__(self, other):\n        return Value(self.data + other.data)\n"
        "total = Value(0)\nfor x in xs:\n    loss = Value(x)\n    loss.backward()\n    total = total + loss\n",
        "total = Value(0)\nfor x in xs:\n    err = Value(x)\n    err.backward()\n    total = total + err\n",
        # a value backpropagated in the loop, accumulated as a number, or reset on each iteration
        T + "netD = nn.Linear(4, 1)\nerr_total = 0\nfor x in batches:\n    errD = netD(x).mean()\n"
        "    errD.backward()\n    err_total += errD.item()\n",
        T + "netD = nn.Linear(4, 1)\nfor x in batches:\n    err_total = 0\n    errD = netD(x).mean()\n"
        "    errD.backward()\n    err_total += errD\n    print(err_total)\n",
        # a file without torch: another autodiff library's values have `.backward()` too (micrograd)
        "from engine import Value\ndef train(batches):\n    running = 0\n    for x in batches:\n"
        "        loss = Value(x) * 2\n        loss.backward()\n        running += loss\n    print(running)\n",
        # backpropagated only on some passes, or keeping its graph (by position): the total, returned,
        # may be backpropagated later
        T + "model = nn.Linear(4, 1)\ndef run(batches, train):\n    total = 0\n    for x in batches:\n"
        "        err = model(x).pow(2).mean()\n        if train:\n            err.backward()\n"
        "        total = total + err\n    return total\n",
        T + "model = nn.Linear(4, 1)\ndef run(batches):\n    total = 0\n    for x in batches:\n"
        "        err = model(x).pow(2).mean()\n        err.backward(None, True)\n        total = total + err\n"
        "    return total\n",
        # outputs collected in a loop, backpropagated elsewhere: not a loss accumulated (TL626's)
        T + "model = nn.Linear(4, 1)\npred = model(x)\npred.backward(torch.ones_like(pred))\npreds = []\n"
        "for x in batches:\n    pred = model(x)\n    preds.append(pred)\n",
        # data, not losses
        T + "total = 0\nfor x in batches:\n    total += torch.ones(3)\n",
        # the total goes where the linter cannot see whether it is backpropagated
        SETUP + "def compute(batches):\n    out = {}\n    total = 0\n    for x, y in batches:\n"
        "        total += criterion(model(x), y)\n    out['loss'] = total\n    return out\n",
        SETUP + "total = 0\nfor x, y in batches:\n    total = total + criterion(model(x), y)\napply(total / 3)\n",
        SETUP + "class Trainer:\n    def accumulate(self, batches):\n        total = 0\n        for x, y in batches:\n"
        "            total += criterion(model(x), y)\n        self.loss = total\n",
        SETUP + "total = 0\ndef finish():\n    total.backward()\nfor x, y in batches:\n    total += criterion(model(x), y)\n",
        SETUP + "losses = []\nfor x, y in batches:\n    losses.append(criterion(model(x), y))\nhistory.extend(losses)\n",
        # each element backpropagated on its own
        SETUP + "losses = []\nfor x, y in batches:\n    losses.append(criterion(model(x), y))\n"
        "for item in losses:\n    item.backward(retain_graph=True)\n",
        SETUP + "losses = []\nfor x, y in batches:\n    losses.append(criterion(model(x), y))\n"
        "grads = [torch.autograd.grad(item, model.weight) for item in losses]\n",
        # backpropagated through a wrapper: built in, or named in `backward-functions`
        SETUP + "total = 0\nfor x, y in batches:\n    total += criterion(model(x), y)\nself.manual_backward(total)\n",
        SETUP + "total = 0\nfor x, y in batches:\n    total += criterion(model(x), y)\nloss_scaler(total, optimizer)\n",
        SETUP + "from torch.autograd import grad\ntotal = 0\nfor x, y in batches:\n    total += criterion(model(x), y)\n"
        "g = grad(total, model.weight)\n",
        SETUP + "total = 0\nfor x, y in batches:\n    total += criterion(model(x), y)\nmean = total / 3\n"
        "stats = {'loss': mean}\nstats['loss'].backward()\n",
        # an unroll inside one step: the loop backpropagates nothing, another total of it is
        # backpropagated after it, so its graphs live together by design until then
        SETUP + "def update(z, target):\n    value_loss, priority_loss = 0, 0\n    for t in range(5):\n"
        "        q = model(z[t])\n        value_loss += criterion(q, target[t])\n"
        "        priority_loss += F.l1_loss(q, target[t])\n    value_loss.backward()\n"
        "    return priority_loss.detach()\n",
        SETUP + "def update(z, target):\n    total, logged = 0, 0\n    for t in range(5):\n"
        "        loss = criterion(model(z[t]), target[t])\n        total = total + loss\n        logged += loss\n"
        "    (total / 5).backward()\n    print(logged.item())\n",
        # the same unroll inside a batch loop, both totals made anew for each batch
        SETUP + "for x, y in loader:\n    total, parts = 0, []\n    for t in range(5):\n"
        "        loss = criterion(model(x[t]), y[t])\n        total = total + loss\n        parts.append(loss)\n"
        "    total.backward()\n    print([p.item() for p in parts])\n",
        # the total returned as it is, or rebound to a number only under a condition, by arithmetic
        # that keeps its graph, or after its value went elsewhere or was backpropagated
        SETUP + "def evaluate(loader, stats):\n    total = 0\n    for x, y in loader:\n        total += criterion(model(x), y)\n"
        "    if stats:\n        total = total.item()\n    return total\n",
        SETUP + "def evaluate(loader, stats):\n    total = 0\n    for x, y in loader:\n        total += criterion(model(x), y)\n"
        "    total = total / len(loader)\n    return total\n",
        SETUP + "def evaluate(loader, stats):\n    total = 0\n    for x, y in loader:\n        total += criterion(model(x), y)\n"
        "    stats.total = total\n    total = total.item()\n    return total\n",
        SETUP + "def evaluate(loader, stats):\n    total = 0\n    for x, y in loader:\n        total += criterion(model(x), y)\n"
        "    total.backward()\n    total = total.item()\n    return total\n",
        # a rebinding that keeps the graph in another of its reads of the total
        SETUP + "def evaluate(loader, stats):\n    total = 0\n    for x, y in loader:\n        total += criterion(model(x), y)\n"
        "    total = total if stats else total.item()\n    return total\n",
        SETUP + "def evaluate(loader, stats):\n    total = 0\n    for x, y in loader:\n        total += criterion(model(x), y)\n"
        "    total = (total.item(), total)\n    return total\n",
        SETUP + "def evaluate(loader, stats):\n    total = 0\n    for x, y in loader:\n        total += criterion(model(x), y)\n"
        "    total = total.sum() / total.shape[0]\n    return total\n",
        SETUP + "def evaluate(loader, stats):\n    total = 0\n    for x, y in loader:\n        total += criterion(model(x), y)\n"
        "    total = total.mean() if isinstance(total, torch.Tensor) else torch.tensor(total)\n    return total\n",
        # a differentiable collective (`torch.distributed.nn`), then returned
        "import torch.distributed.nn.functional as dist_fn\n" + SETUP + "def evaluate(loader, stats):\n    total = 0\n    for x, y in loader:\n        total += criterion(model(x), y)\n"
        "    total = dist_fn.all_reduce(total)\n    return total\n",
        "from torch.distributed.tensor import DTensor, Replicate\n" + SETUP + "def evaluate(loader, stats):\n    total = 0\n    for x, y in loader:\n        total += criterion(model(x), y)\n"
        "    total = DTensor.from_local(total, stats, [Replicate()])\n    return total\n",
        # each pass ends with the number: no graph outlives the iteration
        SETUP + "total = 0\nfor x, y in loader:\n    total += criterion(model(x), y)\n    n = x.size(0)\n"
        "    total = total.item()\nprint(total)\n",
        SETUP + "total = 0\nfor x, y in loader:\n    total = total + criterion(model(x), y)\n    total = float(total)\n"
        "history.append(total)\n",
    )

    invalid = (
        # made afresh for each epoch, but the loop that fills it steps the optimizer each batch: every
        # batch's graph of the epoch stays alive
        Invalid(
            SETUP + "def train(loader, optimizer, scheduler):\n    for epoch in range(3):\n        hist = []\n"
            "        for x, y in loader:\n            loss = criterion(model(x), y)\n            loss.backward()\n"
            "            optimizer.step()\n            hist.append(loss)\n        scheduler.step()\n",
            SETUP + "def train(loader, optimizer, scheduler):\n    for epoch in range(3):\n        hist = []\n"
            "        for x, y in loader:\n            loss = criterion(model(x), y)\n            loss.backward()\n"
            "            optimizer.step()\n            hist.append(loss.detach())\n        scheduler.step()\n",
        ),
        # made afresh for each batch, but kept past it (`history.append(parts)`), stepped inside the
        # accumulating loop (`scaler.step(optimizer)`), or stepped before that loop only
        Invalid(
            SETUP + "def train(loader, optimizer, history):\n    for x, y in loader:\n        parts = []\n"
            "        for _ in range(4):\n            loss = criterion(model(x), y)\n            loss.backward()\n"
            "            parts.append(loss)\n        optimizer.step()\n        history.append(parts)\n",
            SETUP + "def train(loader, optimizer, history):\n    for x, y in loader:\n        parts = []\n"
            "        for _ in range(4):\n            loss = criterion(model(x), y)\n            loss.backward()\n"
            "            parts.append(loss.detach())\n        optimizer.step()\n        history.append(parts)\n",
        ),
        Invalid(
            SETUP + "def train(epochs, loader, optimizer, scaler, opt_scheduler):\n    for epoch in epochs:\n        hist = []\n"
            "        for x, y in loader:\n            loss = criterion(model(x), y)\n            scaler.scale(loss).backward()\n"
            "            scaler.step(optimizer)\n            hist.append(loss)\n        opt_scheduler.step()\n",
            SETUP + "def train(epochs, loader, optimizer, scaler, opt_scheduler):\n    for epoch in epochs:\n        hist = []\n"
            "        for x, y in loader:\n            loss = criterion(model(x), y)\n            scaler.scale(loss).backward()\n"
            "            scaler.step(optimizer)\n            hist.append(loss.detach())\n        opt_scheduler.step()\n",
        ),
        Invalid(
            SETUP + "def train(epochs, loader, optimizer):\n    for epoch in epochs:\n        hist = []\n        optimizer.step()\n"
            "        for x, y in loader:\n            loss = criterion(model(x), y)\n            loss.backward()\n"
            "            hist.append(loss)\n",
            SETUP + "def train(epochs, loader, optimizer):\n    for epoch in epochs:\n        hist = []\n        optimizer.step()\n"
            "        for x, y in loader:\n            loss = criterion(model(x), y)\n            loss.backward()\n"
            "            hist.append(loss.detach())\n",
        ),
        # the loop around steps only a scheduler: an epoch, not a batch
        Invalid(
            SETUP + "def train(loader, scheduler):\n    for epoch in range(3):\n        hist = []\n"
            "        for x, y in loader:\n            loss = criterion(model(x), y)\n            loss.backward()\n"
            "            hist.append(loss)\n        scheduler.step()\n",
            SETUP + "def train(loader, scheduler):\n    for epoch in range(3):\n        hist = []\n"
            "        for x, y in loader:\n            loss = criterion(model(x), y)\n            loss.backward()\n"
            "            hist.append(loss.detach())\n        scheduler.step()\n",
        ),
        # the pass may end before the rebinding (a `continue` under an `if` between them)
        Invalid(
            SETUP + "total = 0\nfor x, y in loader:\n    total += criterion(model(x), y)\n    if x is None:\n"
            "        continue\n    total = total.item()\nprint(total)\n",
            SETUP + "total = 0\nfor x, y in loader:\n    total += criterion(model(x), y).detach()\n    if x is None:\n"
            "        continue\n    total = total.item()\nprint(total)\n",
        ),
        # rebound to a number after the loop: what the function returns carries no graph, and the
        # loop kept every batch's graph until then
        Invalid(
            SETUP + "def evaluate(loader, stats):\n    total = 0\n    for x, y in loader:\n        total += criterion(model(x), y)\n"
            "    total = total.item() / len(loader)\n    return total\n",
            SETUP + "def evaluate(loader, stats):\n    total = 0\n    for x, y in loader:\n        total += criterion(model(x), y).detach()\n"
            "    total = total.item() / len(loader)\n    return total\n",
        ),
        Invalid(
            SETUP + "def evaluate(loader, stats):\n    total = 0\n    for x, y in loader:\n        total += criterion(model(x), y)\n"
            "    total = total.detach().numpy()\n    stats['loss'].append(total)\n",
            SETUP + "def evaluate(loader, stats):\n    total = 0\n    for x, y in loader:\n        total += criterion(model(x), y).detach()\n"
            "    total = total.detach().numpy()\n    stats['loss'].append(total)\n",
        ),
        # a second loop accumulates into the rebound number and returns that total: only the
        # first loop's graphs are known to be dropped
        Invalid(
            SETUP + "def evaluate(train, val):\n    total = 0\n    for x, y in train:\n        total += criterion(model(x), y)\n"
            "    total = total.item()\n    for x, y in val:\n        total += criterion(model(x), y)\n    return total\n",
            SETUP + "def evaluate(train, val):\n    total = 0\n    for x, y in train:\n        total += criterion(model(x), y).detach()\n"
            "    total = total.item()\n    for x, y in val:\n        total += criterion(model(x), y)\n    return total\n",
        ),
        # a meter of the project whose `update` adds what it is given to its own total
        Invalid(
            SETUP + METER + "losses = Meter()\nfor x, y in loader:\n    loss = criterion(model(x), y)\n    loss.backward()\n"
            "    losses.update(loss, x.size(0))\n",
            SETUP + METER + "losses = Meter()\nfor x, y in loader:\n    loss = criterion(model(x), y)\n    loss.backward()\n"
            "    losses.update(loss.detach(), x.size(0))\n",
        ),
        Invalid(
            SETUP + "class Averager:\n    def __init__(self):\n        self.n, self.v = 0, 0\n    def add(self, x):\n"
            "        self.v = (self.v * self.n + x) / (self.n + 1)\n        self.n += 1\n"
            "tl = Averager()\nfor x, y in loader:\n    loss = criterion(model(x), y)\n    loss.backward()\n    tl.add(loss)\n",
            SETUP + "class Averager:\n    def __init__(self):\n        self.n, self.v = 0, 0\n    def add(self, x):\n"
            "        self.v = (self.v * self.n + x) / (self.n + 1)\n        self.n += 1\n"
            "tl = Averager()\nfor x, y in loader:\n    loss = criterion(model(x), y)\n    loss.backward()\n    tl.add(loss.detach())\n",
        ),
        # an unroll inside an epoch loop, its second total bound before the epoch loop: it keeps
        # every epoch's graph
        Invalid(
            SETUP + "history = 0\nfor epoch in range(3):\n    total = 0\n    for t in range(5):\n"
            "        loss = criterion(model(x[t]), y[t])\n        total = total + loss\n        history += loss\n"
            "    total.backward()\n",
            SETUP + "history = 0\nfor epoch in range(3):\n    total = 0\n    for t in range(5):\n"
            "        loss = criterion(model(x[t]), y[t])\n        total = total + loss\n        history += loss.detach()\n"
            "    total.backward()\n",
        ),
        # a loop of two totals, neither backpropagated after it: no one graph is being built
        Invalid(
            SETUP + "def evaluate(z, target):\n    total, logged = 0, 0\n    for t in range(5):\n"
            "        loss = criterion(model(z[t]), target[t])\n        total = total + loss.detach()\n        logged += loss\n"
            "    print(total.item(), logged.item())\n",
            SETUP + "def evaluate(z, target):\n    total, logged = 0, 0\n    for t in range(5):\n"
            "        loss = criterion(model(z[t]), target[t])\n        total = total + loss.detach()\n        logged += loss.detach()\n"
            "    print(total.item(), logged.item())\n",
        ),
        # a helper's tensor of unknown graph, backpropagated: it carries one
        Invalid(
            SETUP + "import utils\nhistory = []\nfor x, y in loader:\n    loss = -torch.mean(utils.log_normal(model(x), y))\n"
            "    loss.backward()\n    history.append(loss)\n",
            SETUP + "import utils\nhistory = []\nfor x, y in loader:\n    loss = -torch.mean(utils.log_normal(model(x), y))\n"
            "    loss.backward()\n    history.append(loss.detach())\n",
        ),
        # a GAN's `errD`: named like no loss, but backpropagated in the loop that accumulates it
        Invalid(
            T + "netD = nn.Linear(4, 1)\nerr_total = 0\nfor x in batches:\n    errD = netD(x).mean()\n"
            "    errD.backward()\n    err_total += errD\nprint(err_total.item())\n",
            T + "netD = nn.Linear(4, 1)\nerr_total = 0\nfor x in batches:\n    errD = netD(x).mean()\n"
            "    errD.backward()\n    err_total += errD.detach()\nprint(err_total.item())\n",
        ),
        Invalid(
            T + "netG = nn.Linear(4, 1)\nhistory = []\nfor z in batches:\n    errG = (netG(z) - 1).pow(2).mean()\n"
            "    errG.backward()\n    history.append(errG)\n",
            T + "netG = nn.Linear(4, 1)\nhistory = []\nfor z in batches:\n    errG = (netG(z) - 1).pow(2).mean()\n"
            "    errG.backward()\n    history.append(errG.detach())\n",
        ),
        Invalid(
            SETUP + "total_loss = 0\nfor x, y in loader:\n    loss = criterion(model(x), y)\n    loss.backward()\n"
            "    total_loss += loss\nprint(total_loss / len(loader))\n",
            SETUP + "total_loss = 0\nfor x, y in loader:\n    loss = criterion(model(x), y)\n    loss.backward()\n"
            "    total_loss += loss.detach()\nprint(total_loss / len(loader))\n",
        ),
        Invalid(
            SETUP + "total = 0.0\nstep = 0\nwhile step < 10:\n    loss = F.mse_loss(model(x), y)\n    loss.backward()\n"
            "    total = total + loss\n    step += 1\n",
            SETUP + "total = 0.0\nstep = 0\nwhile step < 10:\n    loss = F.mse_loss(model(x), y)\n    loss.backward()\n"
            "    total = total + loss.detach()\n    step += 1\n",
        ),
        Invalid(
            SETUP + "history = []\nfor x, y in loader:\n    loss = criterion(model(x), y)\n    history.append(loss)\n",
            SETUP + "history = []\nfor x, y in loader:\n    loss = criterion(model(x), y)\n    history.append(loss.detach())\n",
        ),
        Invalid(
            SETUP + "def train_epoch(loader, opt):\n    total = 0.0\n    for x, y in loader:\n"
            "        opt.zero_grad()\n        loss = criterion(model(x), y)\n        loss.backward()\n"
            "        opt.step()\n        total += loss * x.size(0)\n    return total / len(loader.dataset)\n",
            SETUP + "def train_epoch(loader, opt):\n    total = 0.0\n    for x, y in loader:\n"
            "        opt.zero_grad()\n        loss = criterion(model(x), y)\n        loss.backward()\n"
            "        opt.step()\n        total += (loss * x.size(0)).detach()\n    return total / len(loader.dataset)\n",
        ),
        Invalid(
            SETUP + "for epoch in range(3):\n    loss, mf_loss = 0., 0.\n    for x, y in loader:\n"
            "        batch_loss = F.cross_entropy(model(x), y)\n        batch_loss.backward()\n        loss += batch_loss\n",
            SETUP + "for epoch in range(3):\n    loss, mf_loss = 0., 0.\n    for x, y in loader:\n"
            "        batch_loss = F.cross_entropy(model(x), y)\n        batch_loss.backward()\n        loss += batch_loss.detach()\n",
        ),
        Invalid(
            SETUP + "for epoch in range(3):\n    epoch_loss = 0\n    for x, y in loader:\n"
            "        epoch_loss += F.cross_entropy(model(x), y)\n",
            SETUP + "for epoch in range(3):\n    epoch_loss = 0\n    for x, y in loader:\n"
            "        epoch_loss += F.cross_entropy(model(x), y).detach()\n",
        ),
        Invalid(
            "from transformers import AutoModelForCausalLM\nmodel = AutoModelForCausalLM.from_pretrained('gpt2')\n"
            "running = 0\nfor batch in loader:\n    outputs = model(**batch)\n    loss = outputs.loss\n"
            "    loss.backward()\n    running += loss\n",
            "from transformers import AutoModelForCausalLM\nmodel = AutoModelForCausalLM.from_pretrained('gpt2')\n"
            "running = 0\nfor batch in loader:\n    outputs = model(**batch)\n    loss = outputs.loss\n"
            "    loss.backward()\n    running += loss.detach()\n",
        ),
        # a total kept in a container the scope builds and only reads
        Invalid(
            SETUP + "history = {'loss': []}\nfor x, y in loader:\n    loss = criterion(model(x), y)\n    loss.backward()\n"
            "    history['loss'].append(loss)\nprint(len(history['loss']))\n",
            SETUP + "history = {'loss': []}\nfor x, y in loader:\n    loss = criterion(model(x), y)\n    loss.backward()\n"
            "    history['loss'].append(loss.detach())\nprint(len(history['loss']))\n",
        ),
        Invalid(
            SETUP + "totals = {'mse': 0}\nfor x, y in loader:\n    totals['mse'] += criterion(model(x), y)\n"
            "print(totals['mse'].item())\n",
            SETUP + "totals = {'mse': 0}\nfor x, y in loader:\n    totals['mse'] += criterion(model(x), y).detach()\n"
            "print(totals['mse'].item())\n",
        ),
        # reset only when a gradient-accumulation window ends: the graphs of the window stay alive
        Invalid(
            SETUP + "running = 0\nfor step, (x, y) in enumerate(loader):\n    loss = criterion(model(x), y) / 4\n"
            "    running += loss\n    loss.backward()\n    if (step + 1) % 4 == 0:\n        optimizer.step()\n"
            "        print(running.item())\n        running = 0\n",
            SETUP + "running = 0\nfor step, (x, y) in enumerate(loader):\n    loss = criterion(model(x), y) / 4\n"
            "    running += loss.detach()\n    loss.backward()\n    if (step + 1) % 4 == 0:\n        optimizer.step()\n"
            "        print(running.item())\n        running = 0\n",
        ),
        # the added value is backpropagated in the loop, so it is a tensor that carries a graph (in
        # a file that uses torch)
        Invalid(
            "import torch\ndef train(trainer, loader):\n    running = 0\n    for batch in loader:\n"
            "        loss = trainer.compute_loss(batch)\n        loss.backward()\n        running += loss\n"
            "    print(running.item())\n",
            "import torch\ndef train(trainer, loader):\n    running = 0\n    for batch in loader:\n"
            "        loss = trainer.compute_loss(batch)\n        loss.backward()\n        running += loss.detach()\n"
            "    print(running.item())\n",
        ),
        # only printed, logged or converted: the fix keeps the program's output
        Invalid(
            SETUP + "total = 0\nfor x, y in loader:\n    total += criterion(model(x), y)\n"
            "logger.info('loss %.3f', float(total))\nwriter.add_scalar('loss', total.item(), 0)\nprint(f'{total:.3f}')\n",
            SETUP + "total = 0\nfor x, y in loader:\n    total += criterion(model(x), y).detach()\n"
            "logger.info('loss %.3f', float(total))\nwriter.add_scalar('loss', total.item(), 0)\nprint(f'{total:.3f}')\n",
        ),
        # the program reads the total's autograd state, which `.detach()` changes: no fix
        Invalid(
            SETUP + "total = 0\nfor x, y in loader:\n    total += criterion(model(x), y)\nprint(total.requires_grad)\n",
            None,
        ),
    )

    def visit_AugAssign(self, node: cst.AugAssign) -> None:
        if isinstance(node.operator, cst.AddAssign) and isinstance(node.target, cst.Name):
            self._check(node.target.value, node.value, node)
        elif isinstance(node.operator, cst.AddAssign) and _subscripted_name(node.target) is not None:
            self._check(_subscripted_name(node.target), node.value, node, element=True)

    def visit_Assign(self, node: cst.Assign) -> None:
        added = _self_addition(node)
        if added is not None:
            self._check(added[0], added[1], node)

    def visit_Call(self, node: cst.Call) -> None:
        func = node.func
        if isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name) and func.attr.value != "append":
            self._check_kept_by_instance(node, func)
            return
        if not (isinstance(func, cst.Attribute) and func.attr.value == "append"):
            return
        if len(node.args) != 1 or node.args[0].keyword is not None or node.args[0].star:
            return
        if isinstance(func.value, cst.Name):
            self._check(func.value.value, node.args[0].value, node, appended=True)
        elif _subscripted_name(func.value) is not None:  # `history["G"].append(loss)`
            self._check(_subscripted_name(func.value), node.args[0].value, node, element=True)

    def _check_kept_by_instance(self, node: cst.Call, func: cst.Attribute) -> None:
        """`losses.update(loss, n)` with `losses` an instance of a class of the project whose
        `update` adds its argument to an attribute (`self.sum += val * n`): the meter keeps each
        iteration's graph as a list would."""
        if any(arg.star for arg in node.args) or self.ctx.innermost_loop() is None:
            return
        positional = [arg.value for arg in node.args if arg.keyword is None]
        if not any(_LOSS_WORD.search(dotted_name(value) or "") for value in positional):
            return  # (asked first: what the receiver is costs more to find)
        kept = self.ctx.oracle.accumulated_arguments(func.value, func.attr.value, self.ctx.stack)
        for position in kept:
            if position < len(positional) and _LOSS_WORD.search(dotted_name(positional[position]) or ""):
                self._check(func.value.value, positional[position], node, kept_by_instance=True)
                return  # (one finding for the call)

    def _check(self, accumulator: str, value: cst.BaseExpression, report_at: cst.CSTNode,
               element: bool = False, appended: bool = False, kept_by_instance: bool = False) -> None:
        """`element`: the total is an element of the container `accumulator` (`losses[k] += loss`);
        `appended`: the list `accumulator` is appended to; `kept_by_instance`: an instance whose
        method keeps the value (its other uses of it are out of sight: the fix is unproven)."""
        loop = self.ctx.innermost_loop()
        if loop is None or self.ctx.grad_disabled() or not self.ctx.is_tensor(value, graph=True):
            return
        freed_in_loop = _backpropagated_in(value, loop, self._backward_names())
        if not freed_in_loop and not _LOSS_WORD.search(self.ctx.module.code_for_node(report_at)):
            # The rule is about losses: the accumulation names one (as the file gate asks), or
            # adds a value the loop backpropagates (`errD.backward()`, then `errD_total += errD`).
            return
        function = self.ctx.enclosing(cst.FunctionDef)
        scope_body = function.body if function is not None else self.ctx.module
        if not _bound_before(accumulator, loop, scope_body) or _reset_in(accumulator, loop, self.ctx.stack):
            return
        if self._ended_in_the_pass(accumulator, scope_body):
            return
        if element and (not _only_fresh_containers(accumulator, scope_body) or _stored_into(accumulator, loop)):
            return  # another object's container (its fate is unseen), or elements reset in the loop
        if appended and not freed_in_loop and not _only_fresh_containers(accumulator, scope_body):
            return  # `losses = history["train"]`: another object's list, backpropagated where unseen
        if _declared_outside(accumulator, scope_body):
            return  # a global or nonlocal total: other scopes may backpropagate it
        fates = self._fates(scope_body).of(accumulator, self, loop)
        if BACKWARD in fates:
            return  # gradient accumulation: the graph is the point
        if ESCAPES in fates and not freed_in_loop:
            return  # the total goes where the linter cannot see whether it is backpropagated
        if not freed_in_loop and self._unrolled_into_one_backward(accumulator, loop, scope_body):
            return
        fix = None
        if OBSERVES_GRAPH not in fates:
            # A value taken for a tensor by a guess (see TL001): were it a number, `.detach()`
            # would not exist on it.
            guessed = self.ctx.kind(value).origin in GUESSED or self._may_be_a_number(value) or kept_by_instance
            fix = self.replace(value, method_call(value, "detach"), "Accumulate `.detach()`",
                               "unsafe" if guessed else "safe")
        self.report(report_at, _MESSAGE, fix)

    def _ended_in_the_pass(self, accumulator: str, scope_body: cst.CSTNode) -> bool:
        """`total += loss`, then `total = total.item()` later in the same block, with only simple
        statements that do not jump between them: each pass leaves the number, so no graph
        outlives the iteration."""
        line = next((node for node in reversed(self.ctx.stack) if isinstance(node, cst.SimpleStatementLine)), None)
        if line is None:
            return False
        block = self.ctx.stack[[id(node) for node in self.ctx.stack].index(id(line)) - 1]
        if not isinstance(block, cst.IndentedBlock):
            return False
        start = _index_in(block, line)
        for rebinding, where in self._fates(scope_body).detaching_rebindings(accumulator, self):
            if where is not block:
                continue
            end = _index_in(block, rebinding)
            between = block.body[start + 1:end]
            if end > start and all(isinstance(statement, cst.SimpleStatementLine) and not any(
                    isinstance(small, _JUMPS) for small in statement.body) for statement in between):
                return True
        return False

    def _unrolled_into_one_backward(self, accumulator: str, loop: cst.CSTNode, scope_body: cst.CSTNode) -> bool:
        """The loop backpropagates nothing itself, and another total it accumulates is
        backpropagated after it (`value_loss += ...` in an unroll over a horizon, then
        `value_loss.backward()`): its iterations build one graph, alive together by design until
        that backward, and a second total of them (`priority_loss += ...`, detached later) keeps
        no graph of another step."""
        outer = self._outer_loop(loop)
        if outer is not None and not _bound_before(accumulator, loop, outer.body):
            return False  # a total bound before an outer loop keeps each of its iterations' graphs
        if any(isinstance(node, cst.Call) and self._backpropagates(node) for node in descendants(loop.body, outside_nested_scopes)):
            return False
        fates = self._fates(scope_body)
        return any(BACKWARD in fates.of(total, self) for total in _totals_of(loop) - {accumulator}
                   if _bound_before(total, loop, scope_body))

    def _outer_loop(self, loop: cst.CSTNode) -> cst.CSTNode | None:
        """The nearest loop of the same scope around `loop`."""
        stack = self.ctx.stack
        inside = stack[max((i for i, node in enumerate(stack) if isinstance(node, SCOPE_NODES)), default=0):]
        return next((node for node in reversed(inside[: inside.index(loop)]) if isinstance(node, (cst.For, cst.While))), None)

    def _backpropagates(self, call: cst.Call) -> bool:
        func = call.func
        return (isinstance(func, cst.Attribute) and func.attr.value == "backward") or self._is_backward_call(call)

    def _may_be_a_number(self, value: cst.BaseExpression) -> bool:
        """`loss = 0.0`, then `if cond: loss = criterion(...)`: the name is a tensor where the
        loss was computed, and may still be the number (`.detach()` does not exist on it)."""
        if not isinstance(value, cst.Name):
            return False
        return any(map(starts_at_number, self.ctx.oracle.bindings_of(value.value, self.ctx.stack) or ()))

    def _fates(self, scope_body: cst.CSTNode) -> _Fates:
        """One analysis per scope, shared by the accumulations in it."""
        cache = self.__dict__.setdefault("_fates_by_scope", {})
        if id(scope_body) not in cache:
            cache[id(scope_body)] = (scope_body, _Fates(scope_body))
        return cache[id(scope_body)][1]

    def _backward_names(self) -> frozenset[str]:
        return BACKWARD_FUNCTIONS | frozenset(self.ctx.settings.backward_functions)

    def _is_backward_call(self, call: cst.Call) -> bool:
        """A call that backpropagates its arguments: `accelerator.backward(x)`, `scaler.scale(x)`,
        `torch.autograd.grad(x, ...)`, or a name in the `backward-functions` setting."""
        names = self._backward_names()
        return _matches(dotted_name(call.func), names) or _matches(self.ctx.qualify(call.func), names)

    def _never_backpropagates(self, call: cst.Call) -> bool:
        """A call known never to backpropagate what it is given: printing, formatting, number
        conversion, logging and experiment trackers. The hook for project knowledge: a project
        function whose summary shows it never backpropagates belongs here too."""
        name = dotted_name(call.func)
        qualified = self.ctx.qualify(call.func)
        if name in _NEVER_BACKPROPAGATING_BUILTINS and qualified is None:
            return True
        if qualified is not None and qualified.startswith(_NEVER_BACKPROPAGATING_MODULES) and not (
                qualified.startswith("torch.distributed.") and qualified.count(".") > 2):
            # (only torch.distributed's own functions: `torch.distributed.nn`'s collectives,
            # DTensor's `from_local` and the functional collectives' autograd ones are differentiable)
            return True
        if not isinstance(call.func, cst.Attribute):
            return False
        method = call.func.attr.value
        receiver = dotted_name(call.func.value) or ""
        if method in _REPORTING_METHODS:
            return True
        if method in _LOGGING_METHODS and receiver.rsplit(".", 1)[-1].lower() in _LOGGER_NAMES:
            return True
        return receiver == "self" and method in ("log", "log_dict")  # Lightning logs a detached copy


_MESSAGE = "A loss accumulated with its graph keeps every iteration's graph alive; add `.detach()`"

# What can become of a value derived from the accumulator.
BACKWARD = "backward"  # it is backpropagated: gradient accumulation
ESCAPES = "escapes"  # it goes where the linter cannot follow (a store, an unknown call, a return)
OBSERVES_GRAPH = "observes-graph"  # it reads autograd state that `.detach()` would change
SAFE = "safe"  # printed, logged, converted, compared, or dropped

# Built-in names of calls that backpropagate their argument; a dotted name matches by its end.
BACKWARD_FUNCTIONS = frozenset(
    {"backward", "manual_backward", "autograd.grad", "torch.autograd.grad", "scale", "scale_loss",
     "loss_scaler", "accelerator.backward", "amp.scale_loss"}
)
_NEVER_BACKPROPAGATING_BUILTINS = frozenset(
    {"print", "str", "repr", "format", "float", "int", "bool", "len", "isinstance", "type", "id", "hash"}
)
_NEVER_BACKPROPAGATING_MODULES = (
    "logging.", "warnings.", "math.", "wandb.", "mlflow.", "torch.distributed.", "numpy.isfinite", "numpy.isnan",
)
_LOGGING_METHODS = frozenset({"debug", "info", "warning", "warn", "error", "critical", "log", "exception"})
_LOGGER_NAMES = frozenset({"log", "logger", "logging", "_log", "_logger", "logger_"})
# TensorBoard's SummaryWriter, progress bars, and str.format.
_REPORTING_METHODS = frozenset(
    {"add_scalar", "add_scalars", "add_histogram", "add_text", "log_metric", "log_metrics", "set_postfix",
     "set_postfix_str", "set_description", "format"}
)
# Calls whose result is still (a container of) the value: the question moves to the result.
_PASS_THROUGH_BUILTINS = frozenset(
    {"sum", "min", "max", "abs", "round", "sorted", "reversed", "list", "tuple", "zip", "enumerate", "iter"}
)
# Tensor methods that end the question: the result is a number, a copy without graph, or metadata.
_DETACHING_METHODS = frozenset({"item", "tolist", "numpy", "detach", "detach_", "size", "dim", "numel"})
_GRAPH_METHODS = frozenset({"register_hook", "retain_grad", "requires_grad_", "register_post_accumulate_grad_hook"})
_GRAPH_ATTRIBUTES = frozenset({"requires_grad", "grad_fn", "is_leaf", "grad", "_version"})
_METADATA_ATTRIBUTES = frozenset({"shape", "dtype", "device", "ndim", "is_cuda"})
# Expressions whose value carries the operand on: the question moves to the enclosing expression.
_CARRIERS = (
    cst.BinaryOperation, cst.UnaryOperation, cst.BooleanOperation, cst.IfExp, cst.Subscript, cst.SubscriptElement,
    cst.Index, cst.Slice, cst.Element, cst.StarredElement, cst.DictElement, cst.StarredDictElement, cst.Tuple,
    cst.List, cst.Set, cst.Dict, cst.ListComp, cst.SetComp, cst.DictComp, cst.GeneratorExp, cst.CompFor, cst.CompIf,
    cst.Await,
)
_JUMPS = (cst.Continue, cst.Break, cst.Return, cst.Raise)
_READING_STATEMENTS = (cst.Expr, cst.If, cst.While, cst.Assert, cst.Del, cst.Comparison, cst.ComparisonTarget)


def _matches(name: str | None, names: frozenset[str]) -> bool:
    if not name:
        return False
    return any(name == wanted or name.endswith("." + wanted) for wanted in names)


def _totals_of(loop: cst.CSTNode) -> set[str]:
    """The names the loop adds to (`total += x`, `total = total + x`), outside nested scopes."""
    totals = set()
    for node in descendants(loop.body, outside_nested_scopes):
        if isinstance(node, cst.AugAssign) and isinstance(node.operator, cst.AddAssign) and isinstance(node.target, cst.Name):
            totals.add(node.target.value)
        elif isinstance(node, cst.Assign) and (added := _self_addition(node)) is not None:
            totals.add(added[0])
    return totals


def _self_addition(node: cst.Assign) -> tuple[str, cst.BaseExpression] | None:
    """`total = total + x` (or `x + total`): the name, and what is added to it."""
    if len(node.targets) != 1 or not isinstance(node.targets[0].target, cst.Name):
        return None
    value, accumulator = node.value, node.targets[0].target.value
    if not (isinstance(value, cst.BinaryOperation) and isinstance(value.operator, cst.Add)):
        return None
    for same, other in ((value.left, value.right), (value.right, value.left)):
        if isinstance(same, cst.Name) and same.value == accumulator:
            return accumulator, other
    return None


def _declared_outside(name: str, scope_body: cst.CSTNode) -> bool:
    return any(
        isinstance(statement, (cst.Global, cst.Nonlocal)) and any(item.name.value == name for item in statement.names)
        for statement in walk_statements(scope_body, into_scopes=False)
    )


class _Fates:
    """Where the values derived from an accumulator go, within one scope."""

    def __init__(self, scope_body: cst.CSTNode):
        self.scope_body = scope_body
        self.uses: dict[str, list[tuple[cst.Name, tuple | None]]] | None = None

    def of(self, accumulator: str, rule: LossAccumulatedWithGraph, loop: cst.CSTNode | None = None) -> set[str]:
        """The fates of the accumulator's value; with `loop`, of the value that loop leaves (not
        what the name holds after a rebinding that ends it: see _rebound_after)."""
        derived, pending, fates = {accumulator}, [accumulator], set()
        if self.uses is None:
            self.uses = self._collect_uses()
        uses = self.uses
        rebound = self._rebound_after(accumulator, loop, rule) if loop is not None else frozenset()
        while pending:
            current = pending.pop()
            for name, chain in uses.get(current, ()):
                if current == accumulator and id(name) in rebound:
                    continue
                fate, flows_to = self._fate(name, chain, rule)
                fates.add(fate)
                for target in flows_to:
                    if target not in derived:
                        derived.add(target)
                        pending.append(target)
        return fates

    def uses_of(self, name: str) -> list:
        """Every read of `name` in the scope, with its chain of ancestors (see _collect_uses)."""
        if self.uses is None:
            self.uses = self._collect_uses()
        return self.uses.get(name, [])

    def detaching_rebindings(self, accumulator: str, rule: LossAccumulatedWithGraph) -> list[tuple[cst.CSTNode, cst.CSTNode]]:
        """(line, block) of each `accumulator = <value>` alone on a line of a block whose every
        read of the accumulator ends its graph (`total.item() / n`, `float(total)`; not `total
        if train else total.item()`, `(total.item(), total)`, `total.sum() / total.shape[0]`),
        with no function or lambda inside that could read it later."""
        lines: dict[int, tuple[cst.CSTNode, cst.CSTNode, bool]] = {}
        for name, chain in self.uses_of(accumulator):
            rebinding = _rebinding_line(name, chain, accumulator) if name is not None else None
            if rebinding is None:
                continue
            line, block = rebinding
            ends = self._fate(name, chain, rule) == (SAFE, [])
            earlier = lines.get(id(line))
            lines[id(line)] = (line, block, ends and (earlier is None or earlier[2]))
        return [(line, block) for line, block, ends in lines.values()
                if ends and not any(isinstance(node, SCOPE_NODES) for node in descendants(line))]

    def _rebound_after(self, accumulator: str, loop: cst.CSTNode, rule: LossAccumulatedWithGraph) -> set[int]:
        """The uses of the accumulator that read it after `total = total.item()` (or any single
        assignment to it from its value without the graph: `.detach()`, `float(total)`) made
        after the loop in a block around it: the later statements of that block run only after
        the rebinding, and read the number. What runs before it (an enclosing loop's next pass
        reaching the top of its body) is followed as before."""
        uses = self.uses_of(accumulator)
        around_loop = next((ancestors[ancestors.index(loop):] for ancestors in
                            (list(_ancestors(name, chain)) for name, chain in uses if name is not None)
                            if any(node is loop for node in ancestors)), None)
        if around_loop is None:
            return set()
        later: list[tuple[cst.CSTNode, int]] = []  # (block, index of the rebinding in it)
        for line, block in self.detaching_rebindings(accumulator, rule):
            if not any(node is block for node in around_loop):
                continue
            loop_statement = around_loop[[id(node) for node in around_loop].index(id(block)) - 1]
            position = _index_in(block, line)
            if _index_in(block, loop_statement) < position:
                later.append((block, position))
        if not later:
            return set()
        return {id(name) for name, chain in uses if name is not None and _after_any(name, chain, later)}

    def _collect_uses(self):
        """Every Name read in the scope with its ancestors (a linked chain, innermost first); a
        nested function, class or lambda that reads a name it does not bind is a use that escapes."""
        uses: dict[str, list] = {}
        pending: list[tuple[cst.CSTNode, tuple | None]] = [(self.scope_body, None)]
        while pending:
            node, chain = pending.pop()
            if isinstance(node, SCOPE_NODES):
                for name in _free_names(node):
                    uses.setdefault(name, []).append((None, None))
                continue
            if type(node) is cst.Name:
                uses.setdefault(node.value, []).append((node, chain))
                continue
            link = (node, chain)
            pending.extend((child, link) for child in children(node))
        return uses

    def _fate(self, name: cst.Name | None, chain, rule: LossAccumulatedWithGraph) -> tuple[str, list[str]]:
        if name is None:
            return ESCAPES, []
        child: cst.CSTNode = name
        while chain is not None:
            parent, chain = chain
            if isinstance(parent, cst.Attribute):
                if parent.value is not child:
                    return SAFE, []  # `x.total`: another object's attribute
                grandparent = chain[0] if chain is not None else None
                if isinstance(grandparent, cst.Call) and grandparent.func is parent:
                    fate = self._method_fate(parent.attr.value)
                    if fate is not None:
                        return fate, []
                    child, chain = grandparent, chain[1]
                    continue
                attribute = parent.attr.value
                if attribute in _GRAPH_ATTRIBUTES:
                    return OBSERVES_GRAPH, []
                if attribute in _METADATA_ATTRIBUTES:
                    return SAFE, []
                child = parent
                continue
            if isinstance(parent, cst.Arg):
                if parent.value is not child:
                    return SAFE, []  # a keyword's name
                call = chain[0] if chain is not None else None
                if not isinstance(call, cst.Call):
                    return ESCAPES, []
                fate = self._call_fate(call, rule)
                if fate is not None:
                    return fate, []
                child, chain = call, chain[1]
                continue
            if isinstance(parent, cst.Call):
                return ESCAPES, []  # the value is called
            if isinstance(parent, cst.FormattedStringExpression):
                return SAFE, []
            if isinstance(parent, cst.CompFor) and parent.iter is child:
                return SAFE, _target_names(parent.target)  # each element: followed by its name
            if isinstance(parent, cst.NamedExpr):
                return (SAFE, []) if parent.target is child else (SAFE, _target_names(parent.target))
            if isinstance(parent, _CARRIERS):
                child = parent
                continue
            return self._statement_fate(parent, child)
        return ESCAPES, []

    def _method_fate(self, method: str) -> str | None:
        if method == "backward":
            return BACKWARD
        if method in _DETACHING_METHODS:
            return SAFE
        if method in _GRAPH_METHODS:
            return OBSERVES_GRAPH
        return None  # a tensor (or list) method: the question moves to its result

    @staticmethod
    def _call_fate(call: cst.Call, rule: LossAccumulatedWithGraph) -> str | None:
        if rule._is_backward_call(call):
            return BACKWARD
        if rule._never_backpropagates(call):
            return SAFE
        qualified = rule.ctx.qualify(call.func)
        if qualified is not None and is_tensor_function(qualified):
            return None
        if qualified is None and dotted_name(call.func) in _PASS_THROUGH_BUILTINS:
            return None
        return ESCAPES

    @staticmethod
    def _statement_fate(statement: cst.CSTNode, child: cst.CSTNode) -> tuple[str, list[str]]:
        if isinstance(statement, _READING_STATEMENTS):
            return SAFE, []
        if isinstance(statement, (cst.Assign, cst.AnnAssign, cst.AugAssign)):
            if statement.value is not child:
                return SAFE, []  # part of a target: `history[i] = ...`
            targets = [t.target for t in statement.targets] if isinstance(statement, cst.Assign) else [statement.target]
            if all(_is_plain_target(target) for target in targets):
                return SAFE, [name for target in targets for name in _target_names(target)]
            return ESCAPES, []  # stored in a container or an attribute that others may read
        if isinstance(statement, cst.For):
            return (SAFE, _target_names(statement.target)) if statement.iter is child else (SAFE, [])
        if isinstance(statement, (cst.AssignTarget, cst.SimpleStatementLine, cst.IndentedBlock)):
            return SAFE, []
        return ESCAPES, []  # returned, yielded, raised, or something not modelled


def _ancestors(node: cst.CSTNode, chain):
    """The node, then each node around it up to the scope (a chain of _Fates._collect_uses)."""
    yield node
    while chain is not None:
        node, chain = chain
        yield node


def _rebinding_line(name: cst.Name, chain, accumulator: str):
    """(line, block) where the use is read by `accumulator = <value>` alone on a line of a
    block (not `a = b = ...`, not a target list), else None."""
    ancestors = list(_ancestors(name, chain))
    assignment = next((node for node in ancestors if isinstance(node, (cst.Assign, cst.AnnAssign))), None)
    if assignment is None:
        return None
    at = [id(node) for node in ancestors].index(id(assignment))
    if at + 2 >= len(ancestors) or ancestors[at - 1] is not assignment.value:
        return None  # (the target itself)
    line, block = ancestors[at + 1], ancestors[at + 2]
    targets = [t.target for t in assignment.targets] if isinstance(assignment, cst.Assign) else [assignment.target]
    if assignment.value is None or len(targets) != 1 or not isinstance(targets[0], cst.Name) \
            or targets[0].value != accumulator:
        return None
    if not isinstance(line, cst.SimpleStatementLine) or len(line.body) != 1 or not isinstance(block, (cst.IndentedBlock, cst.Module)):
        return None
    return line, block


def _index_in(block: cst.CSTNode, statement: cst.CSTNode) -> int:
    return next(i for i, item in enumerate(block.body) if item is statement)


def _after_any(name: cst.Name, chain, rebindings: list[tuple[cst.CSTNode, int]]) -> bool:
    """The use is in a statement that comes after a rebinding in the rebinding's block."""
    previous = None
    for node in _ancestors(name, chain):
        for block, position in rebindings:
            if node is block and previous is not None and _index_in(block, previous) > position:
                return True
        previous = node
    return False


def _is_plain_target(target: cst.CSTNode) -> bool:
    if isinstance(target, cst.Name):
        return True
    if isinstance(target, (cst.Tuple, cst.List)):
        return all(_is_plain_target(element.value) for element in target.elements)
    return isinstance(target, cst.StarredElement) and _is_plain_target(target.value)


def _target_names(target: cst.CSTNode) -> list[str]:
    return [node.value for node in descendants(target) if isinstance(node, cst.Name)]


def _free_names(scope: cst.CSTNode) -> set[str]:
    """Names a nested function, class or lambda reads without binding them itself."""
    words = _names_in(scope)
    bound: set[str] = set()
    body = getattr(scope, "body", None)
    if not (isinstance(body, ElidedBlock) and not body.is_parsed):
        if isinstance(scope, cst.FunctionDef):
            statements = list(walk_statements(scope.body, into_scopes=False))
            declared = {
                item.name.value for s in statements if isinstance(s, (cst.Global, cst.Nonlocal)) for item in s.names
            }
            bound = {name for s in statements for name in _assigned_names(s)} - declared
            bound |= {param.name.value for param in all_params(scope.params)}
    return words - bound


_WORD = re.compile(r"[A-Za-z_]\w*")


def _names_in(node: cst.CSTNode) -> set[str]:
    """Every name below `node`; a function body left unparsed is read as text, not parsed."""
    names: set[str] = set()
    unparsed = lambda n: isinstance(n, ElidedBlock) and not n.is_parsed  # noqa: E731
    for child in descendants(node, unparsed):
        if type(child) is cst.Name:
            names.add(child.value)
        elif unparsed(child):
            names |= set(_WORD.findall(child.source.text))
    return names


# `+=`, `.append(`, `x = x + ...`; and a loss, a criterion or logits named on the same line
# (the last: a method given a loss first, `losses.update(loss, n)`, which a meter may keep)
_ACCUMULATION = re.compile(r"\+=|\.append\(|=[ \t]*[\w.]+[ \t]*\+|\.\w+\([ \t]*[\w.]*(?:loss|criterion|logit)\w*[ \t]*[,)]", re.IGNORECASE)
_LOSS_WORD = re.compile(r"loss|criterion|logit", re.IGNORECASE)


def _a_line_accumulates_a_loss(text: str) -> bool:
    """The file gate: some line's code (before any `#`) accumulates and names a loss. Scanning from
    each accumulation, which few lines have, is much faster than testing every line."""
    for match in _ACCUMULATION.finditer(text):
        line_start = text.rfind("\n", 0, match.start()) + 1
        line_end = text.find("\n", match.start())
        code = text[line_start : line_end if line_end >= 0 else len(text)].split("#", 1)[0]
        if match.start() - line_start < len(code) and _LOSS_WORD.search(code):
            return True
    return False


_BACKPROPAGATED_NAME = re.compile(r"\b([A-Za-z_]\w*)\s*\.backward\(")


# What runs its inside on some passes only (or never): a backward call there may not free the graph.
_CONDITIONAL = (cst.If, cst.IfExp, cst.BooleanOperation, cst.For, cst.While, cst.Try, cst.Match, cst.Lambda,
                cst.ListComp, cst.SetComp, cst.DictComp, cst.GeneratorExp)


def _may_retain_graph(call: cst.Call) -> bool:
    """`retain_graph=` or `create_graph=` given (a graph of the gradient keeps the one it came from:
    MAML's inner loop), or positional arguments enough to reach them (`x.backward(g, True)`,
    `torch.autograd.backward(t, g, True)`, `torch.autograd.grad(o, i, g, True)`)."""
    positional = sum(1 for arg in call.args if arg.keyword is None)
    limit = 2 if isinstance(call.func, cst.Attribute) and call.func.attr.value == "backward" else 3
    return positional >= limit or any(arg.star for arg in call.args) or any(
        arg.keyword is not None and arg.keyword.value in ("retain_graph", "create_graph") for arg in call.args)


def _a_line_accumulates_a_backpropagated_name(text: str) -> bool:
    """The file gate's other half: some line accumulates a name that `name.backward(` is called
    on somewhere in the file (`errD.backward()` ... `errD_total += errD`)."""
    names = set(_BACKPROPAGATED_NAME.findall(text))
    if not names:
        return False
    word = re.compile(r"\b(?:" + "|".join(map(re.escape, sorted(names))) + r")\b")
    for match in _ACCUMULATION.finditer(text):
        line_end = text.find("\n", match.start())
        code = text[match.start() : line_end if line_end >= 0 else len(text)].split("#", 1)[0]
        if word.search(code):
            return True
    return False


def _assigned_names(statement: cst.CSTNode) -> list[str]:
    """The names an assignment binds, unpacked ones too (`loss, mf_loss = 0., 0.`)."""
    if isinstance(statement, cst.Assign):
        return [name for t in statement.targets for name in unpacked_names(t.target)]
    if isinstance(statement, cst.AnnAssign) and statement.value is not None and isinstance(statement.target, cst.Name):
        return [statement.target.value]
    return []


def _subscripted_name(expr: cst.CSTNode) -> str | None:
    """`d` for `d[key]`: an element of a container the scope names."""
    if isinstance(expr, cst.Subscript) and isinstance(expr.value, cst.Name):
        return expr.value.value
    return None


_FRESH_CONTAINERS = frozenset({"dict", "list", "collections.defaultdict", "defaultdict", "collections.OrderedDict",
                               "OrderedDict"})


def _only_fresh_containers(name: str, scope_body: cst.CSTNode) -> bool:
    """Every assignment of `name` in the scope builds a new container (`{}`, `[]`, `defaultdict(list)`,
    a comprehension): no other object holds it, so its fate is the name's."""
    values = [
        statement.value for statement in walk_statements(scope_body, into_scopes=False)
        if name in _assigned_names(statement)
    ]
    return bool(values) and all(
        isinstance(value, (cst.Dict, cst.List, cst.DictComp, cst.ListComp))
        or (isinstance(value, cst.Call) and dotted_name(value.func) in _FRESH_CONTAINERS)
        for value in values
    )


def _stored_into(name: str, loop: cst.CSTNode) -> bool:
    """An element of `name` is assigned inside the loop (`totals[k] = 0`): elements may be reset."""
    return any(
        isinstance(statement, (cst.Assign, cst.AnnAssign))
        and any(_subscripted_name(target) == name for target in _assignment_target_nodes(statement))
        for statement in walk_statements(loop.body, into_scopes=False)
    )


def _assignment_target_nodes(statement: cst.Assign | cst.AnnAssign) -> list[cst.CSTNode]:
    return [t.target for t in statement.targets] if isinstance(statement, cst.Assign) else [statement.target]


def _bound_before(name: str, loop: cst.CSTNode, scope_body: cst.CSTNode) -> bool:
    """`name` is assigned in the scope before `loop` starts (statements come in source order)."""
    for statement in walk_statements(scope_body, into_scopes=False):
        if statement is loop:
            return False
        if name in _assigned_names(statement):
            return True
    return False


def _reset_in(name: str, loop: cst.CSTNode, stack: list[cst.CSTNode]) -> bool:
    """Reset (not `name = name + x`) on every way through the loop body that reaches the
    accumulation: in the body itself, or in a block around the accumulation. Then each iteration
    starts afresh. A reset only under a condition of its own (`if step % accumulation == 0:
    total = 0`) lets the total, and the graphs in it, outlive the iterations in between."""
    inside = stack[next((i for i, node in enumerate(stack) if node is loop), len(stack)) :]
    blocks = [node for node in inside if isinstance(node, (cst.IndentedBlock, cst.SimpleStatementSuite))]
    return any(
        name in _assigned_names(statement) and name not in names_used(statement.value)
        for block in blocks
        for statement in _unconditional_statements(block)
    )


def _unconditional_statements(block: cst.CSTNode):
    """The small statements of a block that run whenever it runs (entering `with` blocks only)."""
    for line in children(block):
        if isinstance(line, cst.SimpleStatementLine):
            yield from line.body
        elif isinstance(line, cst.With):
            yield from _unconditional_statements(line.body)
    if isinstance(block, cst.SimpleStatementSuite):
        yield from block.body


def _backpropagated_in(value: cst.BaseExpression, loop: cst.CSTNode, backward_names: frozenset[str]) -> bool:
    """The added value (or a name in it) is backpropagated on every pass through the loop's body
    (not under an `if`, an inner loop or a short-circuit) without `retain_graph` (by keyword or
    position), so its graph is freed there and the total cannot be backpropagated through it later."""
    names = names_used(value)
    for path in paths(loop.body, outside_nested_scopes):
        call = path[-1]
        if not isinstance(call, cst.Call) or _may_retain_graph(call) or any(isinstance(node, _CONDITIONAL) for node in path[:-1]):
            continue
        func = call.func
        backpropagated: set[str] = set()
        if isinstance(func, cst.Attribute) and func.attr.value == "backward":
            backpropagated = names_used(func.value)
        if backpropagated or _matches(dotted_name(func), backward_names):
            backpropagated |= {name for arg in call.args for name in names_used(arg.value)}
        if names & backpropagated:
            return True
    return False
