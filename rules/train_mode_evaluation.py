"""TL625 train-mode-evaluation: an evaluation pass over a model left in train mode, or a
training loop reached after `eval()` with no `train()` back."""

from __future__ import annotations

import re

import libcst as cst

from torchlint.rule import Invalid, Rule
from torchlint.rules._modes import EVAL, TRAIN, ModeTracker, mode_free
from torchlint.rules._training import follows_training, grad_disabled_at, is_backward, method_of
from torchlint.rules.registry import register
from torchlint.walk import SCOPE_NODES, descendants, path_to

_EVAL_FUNCTION = re.compile(r"(?i)(eval|valid|predict|infer)|^(test|test_epoch|test_one_epoch|test_model|run_test)$")
T = (
    "import torch\nimport torch.nn as nn\n"
    "model = nn.Sequential(nn.Linear(4, 4), nn.Dropout(0.5), nn.Linear(4, 1))\n"
    "opt = torch.optim.SGD(model.parameters(), lr=0.1)\n"
)
TRAIN_LOOP = "    for x, y in train_loader:\n        opt.zero_grad()\n        model(x).sum().backward()\n        opt.step()\n"
EVAL_LOOP = "    with torch.no_grad():\n        for x, y in val_loader:\n            preds = model(x)\n"

FUNCS = (
    "import torch\nimport torch.nn as nn\n"
    "def train_epoch(model: nn.Sequential, loader, opt):\n{train_mode}    for x, y in loader:\n"
    "        opt.zero_grad()\n        model(x).sum().backward()\n        opt.step()\n"
    "def validate(model: nn.Sequential, loader):\n{eval_mode}    total = 0.0\n    with torch.no_grad():\n"
    "        for x, _ in loader:\n            total += model(x).sum().item()\n    return total\n"
    "def main():\n    model = nn.Sequential(nn.Linear(4, 4), nn.Dropout(0.5))\n"
    "    opt = torch.optim.SGD(model.parameters(), lr=0.1)\n    for epoch in range(3):\n"
    "        train_epoch(model, train_loader, opt)\n        validate(model, val_loader)\n"
)


@register
class TrainModeEvaluation(Rule):
    """
    ## What it does
    Follows `model.train()`/`model.eval()` through a function (or a script) and flags
    - an evaluation pass, a loop that calls the model without `backward()` under
      `torch.no_grad()`/`inference_mode()`, in a function named like `evaluate`/`validate`/
      `predict`/`infer`/`test`, or after a loop of the same scope that trains the same model
      (the test pass at the end of a script), when the model is in train mode there: built in this scope (modules
      start in train mode) or set by `model.train()`, with no `eval()` on the way;
    - a training loop (one that calls the model and `backward()`) reached in eval mode: after
      `model.eval()` with no `model.train()` back, including the next epoch of an epoch loop whose
      validation part called `eval()`.

    ## Why is this bad?
    Dropout and batch normalisation behave differently in the two modes. Evaluating in train
    mode drops activations at random and normalises with the batch's statistics while updating
    the running ones, so metrics are noisy, too low, and the BN statistics drift with validation
    data. Training in eval mode disables dropout and freezes BN statistics: the model overfits or
    fine-tunes with stale statistics, silently. `torch.no_grad()` does not switch modes.

    ## Example
    ```python
    for epoch in range(epochs):
        train_one_epoch(model, loader, optimizer)   # calls model.train()
        with torch.no_grad():
            for x, y in val_loader:
                acc += (model(x).argmax(1) == y).sum()
    ```

    ## Use instead
    ```python
    for epoch in range(epochs):
        train_one_epoch(model, loader, optimizer)
        model.eval()
        with torch.no_grad():
            for x, y in val_loader:
                acc += (model(x).argmax(1) == y).sum()
        model.train()
    ```

    ## Fix safety
    There is no fix: where the mode belongs (and whether helpers set it) is the author's call.

    What the rule knows: mode calls on the same expression (`model.eval()`, `model.train()`,
    `model.train(False)`), assignments of a module to it (train mode), in source order within one
    function or the script's top level, and for an epoch loop the mode its previous iteration
    left. Across the file's top-level functions: a call `validate(model)` leaves the model in the
    mode `validate`'s body last sets on that parameter, and a function's model parameter enters
    in the modes its callers in the file pass it in. Within a class, for a model held by `self`
    (`self.model`): a call `self.evaluate()` has the effect that method's body has on it, and a
    method enters in the modes the class's other methods call it in. For a training loop only the
    first model call with autograd on is judged (the forward being trained), and an `eval()` just
    before it in the same iteration is taken as deliberate
    (frozen batch-norm statistics, adversarial steps). A call that passes the model to a function
    not defined in the file (`load(model)`) makes the mode unknown there, and unknown means silent.
    An evaluation pass whose outputs are thrown away (`model(x)` as a statement) is a batch-norm
    recalibration, run in train mode on purpose, and is not flagged. Neither are models of unknown
    type, nor functions called from outside the file.

    Off by default: measured on 3,693 files of real training code and 7,167 files of library code
    (bench/realworld.py), 2 findings, 1 judged correct; fewer than the 10 judged findings a rule
    needs to be on by default. See docs/new-rules-precision.md.

    ## References
    - [nn.Module.eval: "This has an effect only on certain modules ... Dropout, BatchNorm"](https://pytorch.org/docs/stable/generated/torch.nn.Module.html#torch.nn.Module.eval)
    - [Autograd mechanics: "Evaluation Mode (nn.Module.eval())" is not no_grad](https://pytorch.org/docs/stable/notes/autograd.html#locally-disable-grad-doc)
    """

    code = "TL625"
    name = "train-mode-evaluation"
    summary = "Evaluation in train mode, or training after eval() without train()"
    severity = "warning"
    default_enabled = False
    trigger_tokens = ("no_grad", "inference_mode", "eval", "valid", "predict", "infer", "backward")
    scope_tokens = ("for", "while")  # it visits loops (`while(True):` too)

    valid = (
        T + "for epoch in range(3):\n    model.train()\n" + TRAIN_LOOP + "    model.eval()\n" + EVAL_LOOP,
        T + "def validate(model, loader):\n    with torch.no_grad():\n        for x, y in loader:\n            out = model(x)\n",
        T + "for epoch in range(3):\n    model.train()\n" + TRAIN_LOOP + "    evaluate(model, val_loader)\n",
        T + "model.eval()\nwith torch.no_grad():\n    for x in data:\n        out = model(x)\n",
        T + "for epoch in range(3):\n" + TRAIN_LOOP + "    model.eval()\n" + EVAL_LOOP + "    model.train()\n",
        T + "model.train(False)\nwith torch.inference_mode():\n    for x in data:\n        out = model(x)\n",
        T + "model.load_state_dict(sd)\nmodel = load_checkpoint(model)\nwith torch.no_grad():\n    for x in data:\n        out = model(x)\n",
        # `model = self.eval()` / `model.to(d).eval()` leaves eval mode (deepctr, ultralytics)
        T + "def predict(self, loader):\n    model = self.eval()\n    with torch.no_grad():\n        for x in loader:\n"
        "            out = model(x)\n",
        T + "net = model.to('cpu').eval()\nwith torch.no_grad():\n    for x in data:\n        out = net(x)\n",
        # train() called inside the loop before the model runs (deeprobust)
        T + "model.eval()\nfor t in range(10):\n    model.train()\n    model(x).sum().backward()\n    opt.step()\n",
        # an eval-mode step inside a training iteration, after the trained forward (deeprobust)
        T + "for t in range(10):\n    model.train()\n    model(x).sum().backward()\n    opt.step()\n    model.eval()\n"
        "    adv = model(x_adv)\n",
        # a no_grad evaluation at the top of each epoch, then train() before the trained forward (pyod)
        T + "for epoch in range(3):\n    with torch.no_grad():\n        model.eval()\n        score = model(val_x)\n"
        "    model.train()\n    opt.zero_grad()\n    model(x).sum().backward()\n    opt.step()\n",
        # eval() right before a step in the same iteration: deliberate (deeprobust's trigger training)
        T + "for i in range(10):\n    model.eval()\n    opt.zero_grad()\n    model(x).sum().backward()\n    opt.step()\n",
        # recalibrating batch-norm statistics: train mode on purpose, outputs discarded (swa_utils.update_bn)
        T + "model.train()\nwith torch.no_grad():\n    for x in loader:\n        model(x)\n",
        # a loss module has no mode (pyod)
        T + "crit = nn.MSELoss()\nmodel.eval()\nwith torch.no_grad():\n    for x, y in data:\n        total = crit(model(x), y)\n",
        # across the file's functions: each sets its own mode
        FUNCS.format(train_mode="    model.train()\n", eval_mode="    model.eval()\n"),
        # a loop that trains: not an evaluation pass
        T + "for x, y in train_loader:\n    model(x).sum().backward()\n    opt.step()\n    opt.zero_grad()\n",
        # the transfer-learning tutorial's phases: the mode depends on the branch taken
        T + "for epoch in range(3):\n    for phase in ['train', 'val']:\n        if phase == 'train':\n"
        "            model.train()\n        else:\n            model.eval()\n        for x, y in loaders[phase]:\n"
        "            opt.zero_grad()\n            with torch.set_grad_enabled(phase == 'train'):\n"
        "                loss = model(x).sum()\n                if phase == 'train':\n"
        "                    loss.backward()\n                    opt.step()\n",
        # a pytest test named after what it tests (ultralytics' test_predict_gray_and_4ch)
        T + "def test_predict_shapes():\n    for n in (1, 2):\n        out = model(torch.zeros(n, 4))\n        assert out.shape[0] == n\n",
        # after the training loop, eval() before the test pass
        T + "for x, y in train_loader:\n    opt.zero_grad()\n    model(x).sum().backward()\n    opt.step()\n"
        "model.eval()\nfor x, y in test_loader:\n    correct = (model(x).argmax(1) == y).sum()\n",
        # a method whose class's other methods set eval mode before calling it
        "import torch\nimport torch.nn as nn\nclass Learner:\n    def __init__(self):\n        self.model = nn.Sequential(nn.Linear(4, 4), nn.Dropout(0.5))\n        self.opt = torch.optim.SGD(self.model.parameters(), lr=0.1)\n    @torch.no_grad()\n    def evaluate(self, loader):\n        for x in loader:\n            out = self.model(x)\n    def fit(self, loader):\n        for epoch in range(3):\n            self.model.train()\n            for x in loader:\n                self.opt.zero_grad()\n                self.model(x).sum().backward()\n                self.opt.step()\n            self.model.eval()\n            self.evaluate(loader)\n",
        "import torch\nimport torch.nn as nn\nclass Learner:\n    def __init__(self):\n        self.model = nn.Sequential(nn.Linear(4, 4), nn.Dropout(0.5))\n        self.opt = torch.optim.SGD(self.model.parameters(), lr=0.1)\n    @torch.no_grad()\n    def evaluate(self, loader):\n        self.model.eval()\n        for x in loader:\n            out = self.model(x)\n    def fit(self, loader):\n        for epoch in range(3):\n            self.model.train()\n            for x in loader:\n                self.opt.zero_grad()\n                self.model(x).sum().backward()\n                self.opt.step()\n            self.evaluate(loader)\n",
    )
    invalid = (
        Invalid(T + "for epoch in range(3):\n    model.train()\n" + TRAIN_LOOP + EVAL_LOOP),
        # validate() never calls eval(): it runs in the train mode train_epoch() leaves
        Invalid(FUNCS.format(train_mode="    model.train()\n", eval_mode="")),
        # validate() calls eval() and train_epoch() never train(): epochs after the first train in eval mode
        Invalid(FUNCS.format(train_mode="", eval_mode="    model.eval()\n")),
        Invalid(T + "with torch.no_grad():\n    for x in test_loader:\n        out = model(x)\n"),
        Invalid(T + "for epoch in range(3):\n" + TRAIN_LOOP + "    model.eval()\n" + EVAL_LOOP),
        Invalid(
            "import torch.nn as nn\nclass Net(nn.Module):\n    pass\n"
            "def predict(loader):\n    net = Net()\n    for x in loader:\n        yield net(x)\n"
        ),
        # the test pass after the training loop of a script, with no eval() between
        Invalid(T + "for x, y in train_loader:\n    opt.zero_grad()\n    model(x).sum().backward()\n    opt.step()\n"
                "for x, y in test_loader:\n    correct = (model(x).argmax(1) == y).sum()\n"),
        # `fit` calls `self.evaluate()` after `self.model.train()`
        Invalid("import torch\nimport torch.nn as nn\nclass Learner:\n    def __init__(self):\n        self.model = nn.Sequential(nn.Linear(4, 4), nn.Dropout(0.5))\n        self.opt = torch.optim.SGD(self.model.parameters(), lr=0.1)\n    @torch.no_grad()\n    def evaluate(self, loader):\n        for x in loader:\n            out = self.model(x)\n    def fit(self, loader):\n        for epoch in range(3):\n            self.model.train()\n            for x in loader:\n                self.opt.zero_grad()\n                self.model(x).sum().backward()\n                self.opt.step()\n            self.evaluate(loader)\n"),
    )

    def __init__(self, ctx):
        super().__init__(ctx)
        self._reported: set[tuple[int, str]] = set()
        self.modes = ModeTracker(ctx)

    def visit_For(self, node: cst.For) -> None:
        self._check_loop(node)

    def visit_While(self, node: cst.While) -> None:
        self._check_loop(node)

    def _check_loop(self, loop: cst.CSTNode) -> None:
        direct = [node for node in descendants(loop.body, prune=_own_iteration_ends) if isinstance(node, cst.Call)]
        calls = [call for call in direct if self.ctx.is_module(call.func)]
        if not calls:
            return
        training = any(is_backward(call) or method_of(call) == "grad" for call in direct)
        if training:
            # the forward being trained: the first model call with autograd on (a no_grad
            # evaluation or an attack step in eval mode inside the same loop is deliberate)
            calls = [call for call in calls if not self._grad_disabled_in(loop, call)][:1]
        if not training:
            if not self._is_evaluation(loop):
                # the pass that follows a training loop of the same model in this scope
                calls = [call for call in calls if follows_training(self.ctx, self._scope(), loop, call.func)]
                if not calls:
                    return
            # outputs thrown away: a batch-norm recalibration pass (`update_bn`), run in train mode on purpose
            calls = [call for call in calls if not isinstance((path_to(loop, call) or [None, None])[-2], cst.Expr)]
        scope = self._scope()
        for call in calls:
            model = call.func
            key = (id(loop), cst.Module([]).code_for_node(model))
            if key in self._reported:
                continue
            if mode_free(self.ctx.kind(model)):
                continue
            modes = self.modes.at(scope, call, model, training)
            if training and EVAL in modes:
                self._reported.add(key)
                self.report(loop, f"Training runs with {_short(key[1])} in eval mode (`.eval()` above, no `.train()`); "
                                  "call `.train()` first")
            elif not training and TRAIN in modes:
                self._reported.add(key)
                self.report(loop, f"Evaluation runs with {_short(key[1])} in train mode (dropout, batch norm on); "
                                  "call `.eval()` first")

    def _grad_disabled_in(self, loop: cst.CSTNode, call: cst.Call) -> bool:
        path = path_to(loop, call) or [loop, call]
        return grad_disabled_at(self.ctx, [*self.ctx.stack, *path[1:-1]])

    def _is_evaluation(self, loop: cst.CSTNode) -> bool:
        if grad_disabled_at(self.ctx, self.ctx.stack):
            return True
        function = self.ctx.enclosing(cst.FunctionDef)
        # a pytest test (`test_predict_shapes`) checks behaviour, it is not an evaluation pass (ultralytics)
        return function is not None and bool(_EVAL_FUNCTION.search(function.name.value)) and not (
            function.name.value.startswith("test_"))

    def _scope(self) -> cst.CSTNode:
        function = self.ctx.enclosing(cst.FunctionDef)
        return function.body if function is not None else self.ctx.module


def _short(model: str) -> str:
    """The model as the message names it: its expression when short, else "the model"."""
    return f"`{model}`" if len(model) <= 16 else "the model"


def _own_iteration_ends(node: cst.CSTNode) -> bool:
    """Nested loops are checked on their own; nested functions and classes run elsewhere."""
    return isinstance(node, (*SCOPE_NODES, cst.For, cst.While))
