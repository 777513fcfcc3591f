"""TL004 whole-model-save: `torch.save(model, path)` pickles the whole module."""

from __future__ import annotations

import os
import re
from pathlib import Path

import libcst as cst

from torchlint.analysis import argument, calls_in, dotted_name, walk_statements
from torchlint.codemod import method_call, names_used, with_keyword
from torchlint.config import DEFAULT_EXCLUDES
from torchlint.kinds import CONTAINER, MODULE, Kind
from torchlint.oracle import literal_key
from torchlint.project.index import ProjectClass
from torchlint.rule import FixSpec, Invalid, Rule
from torchlint.rules.registry import register
from torchlint.torch_api import SELF_RETURNING_METHODS
from torchlint.walk import children, descendants

_SAVE = "torch.save"
_LOADS = frozenset({"torch.load", "torch.serialization.load"})
# What a loaded model is used for, proving the loaded object is meant to be a module.
_MODULE_USES = frozenset(
    {"eval", "train", "to", "cuda", "cpu", "forward", "parameters", "named_parameters", "state_dict",
     "modules", "children", "half", "float", "requires_grad_"}
)

T = "import torch\nimport torch.nn as nn\n"
_LITERALS = (cst.Dict, cst.List, cst.Tuple, cst.Set)
NET = T + "class Net(nn.Module):\n    def __init__(self, width=4):\n        super().__init__()\n        self.fc = nn.Linear(width, 2)\n"


@register
class WholeModelSave(Rule):
    """
    ## What it does
    Flags `torch.save(m, path)` where `m` is an `nn.Module` instance: a model constructed in the
    file, a torchvision or timm model, an `nn.Sequential`, `model.module` of a wrapper, or `self`
    inside an `nn.Module` subclass.

    ## Why is this bad?
    Saving the module object pickles a reference to its class by import path, plus every attribute
    it holds. The checkpoint breaks when the class is renamed, moved or refactored, cannot be
    loaded without the exact code, and loading it runs arbitrary pickled code. Since torch 2.6,
    `torch.load` defaults to `weights_only=True` and refuses such a file unless the caller opts
    back into unsafe unpickling. A `state_dict` holds only tensors and loads with
    `weights_only=True`.

    ## Example
    ```python
    torch.save(model, "model.pt")
    restored = torch.load("model.pt")
    ```

    ## Use instead
    ```python
    torch.save(model.state_dict(), "model.pt")
    restored = Net()
    restored.load_state_dict(torch.load("model.pt", weights_only=True))
    ```

    ## Fix safety
    The fix is **unsafe**: whoever loads the file must change too, because it now holds a
    `state_dict` instead of a module. It rewrites `torch.save(m, p)` to
    `torch.save(m.state_dict(), p)` and every load of that checkpoint in the file:
    `m2 = torch.load(p).eval()` becomes `m2 = Net(...)` (with the calls chained on the saved
    model's constructor, `.to(map_location)` when the load maps it, since mode and device are not
    in a state_dict), `m2.load_state_dict(torch.load(p, weights_only=True))`, and `m2.eval()`
    (the load's own chained calls). A load that already passes `weights_only=True` is left as is.
    Building `Net(...)` at the load runs its initialisation, which draws from the global random
    generators: random numbers drawn after the load differ from those of the unfixed program.

    The fix edits one file, so it is offered only when every load that could read the checkpoint
    is in that file and rewritten with it:
    - the saved path is built from a string literal (directly or through names bound once), and
      no other file below the file's project root (the nearest folder with `.git`,
      `pyproject.toml`, `setup.py` or `setup.cfg`) that code or its launch reads spells its file
      name: Python files, notebooks, shell scripts, Makefiles, configs (YAML, JSON, TOML, INI)
      and docs (`python eval.py --ckpt model.pt` in a README); a path from an argument or a
      config value has readers the linter cannot see;
    - every `torch.load` in the file reads a path it can pair with the save (the same literal,
      or the same name bound once in the same scope) or tell apart (a different file name), and
      `torch.load` is only called, never handed around (`functools.partial(torch.load, ...)`,
      `load = torch.load`), which would hide the loads made through it;
    - each paired load is `name = torch.load(...)` (optionally with self-returning calls), the
      name is used as a module, and the saved model was built by a constructor of this file
      whose arguments are literals or module-level names bound once, then only called, saved or
      asked for its state or parameters (a mode change, `requires_grad`, attributes set on it or
      an unknown function it was passed to would not survive a state_dict round trip).

    What a state_dict does not hold is lost by the round trip even then, which is why the fix
    stays unsafe: non-persistent buffers (`register_buffer(..., persistent=False)`), plain
    attributes a module sets on itself while it runs (an ActNorm's `initialized` flag), and a
    reader that finds the checkpoint without its name (`glob("checkpoints/*.pt")` in another file).

    A whole module inside the saved object (`torch.save({"model": model, "epoch": e}, p)`, a
    `copy.deepcopy(model).half()` among the values, a module as a key, `{model: model.state_dict()}`,
    which stays whatever replaces its value, or such a dict kept in a name first:
    `ckpt = {"model": model}` then `torch.save(ckpt, p)`, a list the scope grows with modules
    only: `Gs = []`, `Gs.append(G)` per scale, `torch.save(Gs, p)`, or any list, a parameter
    included, that the scope appended a module to before the save, the same list still held, or
    a dict the scope built (a display) or was given that it stored a module in under a literal
    key before the save, `ckpt["arch"] = model`: the key's last store there (keys compared by
    value), in the save's block or an outer one, or in `if` branches that never leave early
    (`return`, `raise`, `break`, `continue`, an exit), with no loop around the save storing again
    after it and nothing taking items out or storing them otherwise in between) is flagged
    without a fix. A display's module that a store under its key replaced before the save
    (`ckpt = {"model": model}`, then `ckpt["model"] = model.state_dict()`, in the save's block or
    an outer one: surely run; not in a loop whose `else` saves, nor a `try` whose handler or
    `finally` does) is not counted, nor is anything a dict holds where the scope also takes
    items out of it or stores under a key it cannot read (`ckpt.pop("model")`, `del
    ckpt["model"]`, `ckpt.update(...)`, `ckpt[key] = ...`: the module may be gone by the save),
    nor a display's entry a later entry of the display may replace (the same key, a key not
    written as a literal, `**other`: `{1: model, True: 3}` holds 3); nor a dict handed to code
    that may change it, aliased, or used by a nested function.

    No fix either where the module's class (or a base) defines `state_dict` or `load_state_dict`
    itself, or may (a base not seen, a decorator, a store): its state_dict may not rebuild it.

    Not flagged: `torch.save(model.state_dict(), p)`, dicts of state_dicts, tensors,
    `best = model.state_dict(); torch.save(best, p)`, `torch.jit.save`, `torch.save(self, p)` in a
    class that is not a module, and objects of unknown type.

    ## References
    - [Saving and loading models](https://pytorch.org/tutorials/beginner/saving_loading_models.html)
    - [torch.load and weights_only (torch 2.6 default)](https://pytorch.org/docs/stable/generated/torch.load.html)
    """

    code = "TL004"
    preview = False  # released
    name = "whole-model-save"
    summary = "`torch.save(model)` pickles the whole module instead of its state_dict"
    severity = "warning"
    fix_safety = ("unsafe",)
    trigger_tokens = ("save",)
    scope_tokens = ("save",)  # calls of `torch.save`, by this name or an alias
    trigger_calls = frozenset({_SAVE})
    # `torch.save(` (or `th.`/`pt.`), or `save` imported from torch
    trigger_patterns = (
        re.compile(r"\.save(?:(?<=\btorch\.save)|(?<=\bth\.save)|(?<=\bpt\.save))\s*\("),
        re.compile(r"from\s+torch\s+import[^\n]*\bsave\b"),
    )

    valid = (
        NET + "model = Net()\ntorch.save(model.state_dict(), 'm.pt')\n",
        # a dict whose module was replaced by its state, taken out, or stored after the save;
        # one given a computed key in between (any key may have been replaced)
        NET + "model = Net()\nckpt = {'epoch': 1}\nckpt['model'] = model\nckpt['model'] = model.state_dict()\n"
        "torch.save(ckpt, 'c.pt')\n",
        NET + "model = Net()\nckpt = {}\nckpt['model'] = model\ndel ckpt['model']\ntorch.save(ckpt, 'c.pt')\n",
        NET + "model = Net()\nckpt = {}\nckpt['model'] = model\nckpt.pop('model')\ntorch.save(ckpt, 'c.pt')\n",
        NET + "model = Net()\nckpt = {}\ntorch.save(ckpt, 'c.pt')\nckpt['model'] = model\n",
        NET + "model = Net()\nckpt = {}\nckpt['model'] = model\nckpt[name] = model.state_dict()\ntorch.save(ckpt, 'c.pt')\n",
        NET + "model = Net()\nckpt = {}\nckpt['model'] = model\nckpt = {'epoch': 1}\ntorch.save(ckpt, 'c.pt')\n",
        NET + "model = Net()\nckpt = {}\nckpt['state'] = model.state_dict()\nckpt['epoch'] = 3\ntorch.save(ckpt, 'c.pt')\n",
        # a store the save is not reached from (another branch, a return after it), a key spelt
        # otherwise, a store in a tuple target, a dict another name holds too
        NET + "model = Net()\nckpt = {}\nif full:\n    ckpt['arch'] = model\n    print(len(ckpt))\n"
        "else:\n    ckpt['state'] = model.state_dict()\n    torch.save(ckpt, 'l.pt')\n",
        NET + "model = Net()\ndef save(full):\n    ckpt = {}\n    if full:\n        ckpt['arch'] = model\n"
        "        return len(ckpt)\n    torch.save(ckpt, 'l.pt')\n",
        NET + "model = Net()\nckpt = {}\nckpt['\\x6d'] = model\nckpt[\"m\"] = model.state_dict()\ntorch.save(ckpt, 'c.pt')\n",
        NET + "model = Net()\nckpt = {}\nckpt['m'] = model\nckpt['m'], step = model.state_dict(), 10\ntorch.save(ckpt, 'c.pt')\n",
        NET + "model = Net()\nckpt = holder.ckpt\nckpt['m'] = model\nholder.ckpt['m'] = model.state_dict()\n"
        "torch.save(ckpt, 'c.pt')\n",
        # a branch that leaves early however it does, a store the next pass of a loop makes
        # first, a list whose positions an insert moves
        NET + "import sys\nmodel = Net()\nckpt = {}\nif full:\n    ckpt['m'] = model\n    sys.exit(0)\ntorch.save(ckpt, 'c.pt')\n",
        NET + "model = Net()\nfor epoch in range(4):\n    ckpt = {'epoch': epoch}\n    if epoch % 2:\n"
        "        ckpt['m'] = model\n        continue\n    torch.save(ckpt, 'c.pt')\n",
        NET + "model = Net()\ndef save(full):\n    ckpt = {}\n    if full:\n        ckpt['m'] = model\n"
        "        with lock:\n            return len(ckpt)\n    torch.save(ckpt, 'c.pt')\n",
        NET + "model = Net()\nckpt = {'m': None}\nckpt['m'] = model\nfor epoch in range(3):\n    if epoch:\n"
        "        torch.save(ckpt, 'c.pt')\n    ckpt['m'] = model.state_dict()\n",
        NET + "model = Net()\nitems = [None]\nitems[0] = model\nitems.insert(0, model.state_dict())\n"
        "items[1] = {'epoch': 1}\ntorch.save(items, 'c.pt')\n",
        # a display's module replaced before the save by a store under its key that surely ran
        NET + "model = Net()\nckpt = {'model': model, 'epoch': 1}\nckpt[\"model\"] = model.state_dict()\n"
        "torch.save(ckpt, 'c.pt')\n",
        NET + "def save(path):\n    model = Net()\n    ckpt = {0: model}\n    ckpt[0] = model.state_dict()\n"
        "    torch.save(ckpt, path)\n",
        # keys that name the module or its class, not the module; a module key taken out before the save
        NET + "model = Net()\ntorch.save({type(model).__name__: model.state_dict()}, 'c.pt')\n",
        NET + "model = Net()\ntorch.save({Net: model.state_dict(), str(model): 1}, 'c.pt')\n",
        NET + "model = Net()\nckpt = {model: model.state_dict()}\nckpt.pop(model)\ntorch.save(ckpt, 'c.pt')\n",
        # the module taken out of the dict, or maybe replaced, before the save
        NET + "def save(path):\n    ckpt = {'model': Net(), 'epoch': 1}\n    sd = ckpt.pop('model').state_dict()\n"
        "    torch.save(ckpt, path)\n",
        NET + "def save(path):\n    ckpt = {'model': Net(), 'epoch': 1}\n"
        "    ckpt['model'] = ckpt.pop('model').state_dict()\n    torch.save(ckpt, path)\n",
        NET + "def save(path):\n    ckpt = {'model': Net(), 'epoch': 1}\n    del ckpt['model']\n    torch.save(ckpt, path)\n",
        NET + "def save(path, key):\n    ckpt = {key: Net()}\n    ckpt[key] = ckpt[key].state_dict()\n"
        "    torch.save(ckpt, path)\n",
        NET + "def save(path, other):\n    ckpt = {'model': Net()}\n    ckpt.update(other)\n    torch.save(ckpt, path)\n",
        NET + "torch.save({1: Net(), True: 3}, 'c.pt')\n",
        NET + "torch.save({'model': Net(), 'model': 3}, 'c.pt')\n",
        NET + "def save(path, extra):\n    torch.save({'model': Net(), **extra}, path)\n",
        # the module's key replaced through an alias, or by code the dict is handed to
        NET + "def save(path):\n    model = Net()\n    ckpt = {'model': model}\n    state = ckpt\n"
        "    state['model'] = model.state_dict()\n    torch.save(ckpt, path)\n",
        NET + "def save(path):\n    ckpt = {'model': Net()}\n    to_state_dicts(ckpt)\n    torch.save(ckpt, path)\n",
        # a list grown with state dicts, or handed to code that may put anything in it
        NET + "def fit(n):\n    states = []\n    for i in range(n):\n        states.append(Net().state_dict())\n"
        "        torch.save(states, 'all.pt')\n",
        NET + "def fit(n):\n    nets = []\n    for i in range(n):\n        nets.append(Net())\n"
        "    nets = [net.state_dict() for net in nets]\n    torch.save(nets, 'all.pt')\n",
        NET + "def fit(n):\n    nets = []\n    for i in range(n):\n        nets.append(Net())\n"
        "    export(nets)\n    torch.save(nets, 'all.pt')\n",
        NET + "model = Net()\nopt = torch.optim.SGD(model.parameters(), lr=0.1)\n"
        "torch.save({'model': model.state_dict(), 'opt': opt.state_dict(), 'epoch': 3}, 'ckpt.pt')\n",
        T + "torch.save(torch.randn(3), 't.pt')\n",
        NET + "model = Net()\nbest = model.state_dict()\ntorch.save(best, 'best.pt')\n",
        # a checkpoint dict kept in a name first: of state_dicts, rebound before the save, unknown
        NET + "model = Net()\nckpt = {'model': model.state_dict(), 'epoch': 3}\ntorch.save(ckpt, 'c.pt')\n",
        NET + "model = Net()\nckpt = {'model': model}\nckpt = {'model': model.state_dict()}\ntorch.save(ckpt, 'c.pt')\n",
        NET + "model = Net()\nckpt = make_checkpoint(model)\ntorch.save(ckpt, 'c.pt')\n",
        NET + "model = Net()\nscripted = torch.jit.script(model)\ntorch.jit.save(scripted, 'm.pt')\n",
        T + "class Config:\n    def save(self, path):\n        torch.save(self, path)\n",
        T + "def save(model, path):\n    torch.save(model, path)\n",
        NET + "model = Net()\nnp.save('weights.npy', model)\n",
    )

    invalid = (
        Invalid(
            NET + "model = Net()\ntorch.save(model, 'model.pt')\n",
            NET + "model = Net()\ntorch.save(model.state_dict(), 'model.pt')\n",
        ),
        Invalid(
            T + "import torchvision\nmodel = torchvision.models.resnet18()\ntorch.save(obj=model, f='r.pt')\n",
            T + "import torchvision\nmodel = torchvision.models.resnet18()\ntorch.save(obj=model.state_dict(), f='r.pt')\n",
        ),
        Invalid(
            T + "model = nn.Sequential(nn.Linear(2, 2))\nwrapped = nn.DataParallel(model)\n"
            "torch.save(wrapped.module, 'm.pt')\n",
            T + "model = nn.Sequential(nn.Linear(2, 2))\nwrapped = nn.DataParallel(model)\n"
            "torch.save(wrapped.module.state_dict(), 'm.pt')\n",
        ),
        # the path comes from the caller: whoever loads it is out of sight, so no fix
        Invalid(NET + "    def checkpoint(self, path):\n        torch.save(self, path)\n", None),
        # the same file loads it back into a model whose constructor is visible
        Invalid(
            NET + "model = Net(width=4)\ntorch.save(model, 'net.pt')\n"
            "restored = torch.load('net.pt')\nrestored.eval()\nprint(restored(torch.zeros(1, 4)))\n",
            NET + "model = Net(width=4)\ntorch.save(model.state_dict(), 'net.pt')\n"
            "restored = Net(width=4)\nrestored.load_state_dict(torch.load('net.pt', weights_only=True))\n"
            "restored.eval()\nprint(restored(torch.zeros(1, 4)))\n",
        ),
        # the constructor is followed by calls that return the model: the rebuilt model repeats
        # them (its mode and device are not in a state_dict), then moves where the load maps it
        Invalid(
            NET + "model = Net(4).to('cpu').eval()\ntorch.save(model, 'net.pt')\n"
            "restored = torch.load('net.pt', map_location='cpu')\nrestored.eval()\n",
            NET + "model = Net(4).to('cpu').eval()\ntorch.save(model.state_dict(), 'net.pt')\n"
            "restored = Net(4).to('cpu').eval().to('cpu')\n"
            "restored.load_state_dict(torch.load('net.pt', map_location='cpu', weights_only=True))\n"
            "restored.eval()\n",
        ),
        # a load that cannot be rewritten (the constructor's argument is unknown): no fix
        Invalid(
            NET + "model = Net(args.width)\n"
            "torch.save(model, 'net.pt')\nother = torch.load('net.pt', map_location='cpu')\nother.eval()\n",
            None,
        ),
        # the load's own calls are kept after the state is loaded
        Invalid(
            NET + "model = Net(4).eval()\ntorch.save(model, 'net.pt')\n"
            "restored = torch.load('net.pt', weights_only=False).eval()\nrestored(torch.zeros(1, 4))\n",
            NET + "model = Net(4).eval()\ntorch.save(model.state_dict(), 'net.pt')\n"
            "restored = Net(4).eval()\nrestored.load_state_dict(torch.load('net.pt', weights_only=True))\n"
            "restored.eval()\nrestored(torch.zeros(1, 4))\n",
        ),
        # another load in the file whose path the linter cannot pair: no fix
        Invalid(
            NET + "model = Net(4)\ntorch.save(model, 'net.pt')\n"
            "def resume(f):\n    model = torch.load(f)\n    return model\n",
            None,
        ),
        # `torch.load` handed around (a partial, an alias): the loads made through it are not seen
        Invalid(
            NET + "import functools\nload_full = functools.partial(torch.load, weights_only=False)\n"
            "model = Net(4)\ntorch.save(model, 'net.pt')\nrestored = load_full('net.pt')\n",
            None,
        ),
        # the model's mode or flags changed after it was built: a rebuilt model would not match
        Invalid(
            NET + "model = Net(4)\nmodel.eval()\ntorch.save(model, 'net.pt')\n"
            "restored = torch.load('net.pt')\nrestored.eval()\n",
            None,
        ),
        Invalid(
            NET + "model = Net(4)\nfreeze(model)\ntorch.save(model, 'net.pt')\n"
            "restored = torch.load('net.pt')\nrestored.eval()\n",
            None,
        ),
        # a path from an argument or a config: loaded who knows where
        Invalid(NET + "model = Net(4)\ntorch.save(model, args.out)\n", None),
        # a copy of the model, converted
        Invalid(
            NET + "import copy\nmodel = Net(4)\ntorch.save(copy.deepcopy(model).half(), 'half.pt')\n",
            NET + "import copy\nmodel = Net(4)\ntorch.save(copy.deepcopy(model).half().state_dict(), 'half.pt')\n",
        ),
        # a whole module inside the saved object: flagged without a fix
        Invalid(NET + "def fit(n):\n    Gs = []\n    for scale in range(n):\n        G = Net()\n        Gs.append(G)\n"
                "        torch.save(Gs, 'Gs.pth')\n", None),
        Invalid(NET + "model = Net(4)\ntorch.save({'model': model, 'epoch': 3}, 'ckpt.pt')\n", None),
        # other keys stored and read around the module: it is still saved
        Invalid(NET + "def save(path, key, e):\n    ckpt = {'model': Net(), 'epoch': e}\n    ckpt['epoch'] = e + 1\n"
                "    print(ckpt.get('model'), len(ckpt))\n    torch.save(ckpt, path)\n", None),
        Invalid(NET + "def save(path, key):\n    torch.save({key: Net()}, path)\n", None),
        # a module as a key: pickled whole, whatever its value
        Invalid(NET + "def fit(path):\n    model = Net(4)\n    ckpt = {model: model.state_dict(), 'epoch': 1}\n"
                "    torch.save(ckpt, path)\n", None),
        # a class with a `state_dict` of its own: its state_dict may not rebuild it (no fix)
        Invalid(T + "class Adapter(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
                "        self.fc = nn.Linear(2, 2)\n    def state_dict(self, *a, **k):\n        return {}\n"
                "model = Adapter()\ntorch.save(model, 'm.pt')\n", None),
        # a module stored in the saved dict under a literal key (the last store of that key)
        Invalid(NET + "def save(net, path, full):\n    attributes = {'epoch': 1}\n    if full:\n"
                "        attributes['arch'] = net\n    torch.save(attributes, path)\nsave(Net(4), 'p.pt', True)\n", None),
        Invalid(NET + "model = Net(4)\nckpt = {}\nckpt['model'] = model.state_dict()\nckpt['model'] = model\n"
                "torch.save(ckpt, 'c.pt')\n", None),
        Invalid(NET + "import sys\nmodel = Net(4)\nckpt = {}\nmatch len(sys.argv):\n    case 2:\n"
                "        ckpt['m'] = model\n        torch.save(ckpt, 'f.pt')\n    case _:\n        torch.save(ckpt, 'c.pt')\n", None),
        Invalid(NET + "def fit(path):\n    model = Net(4)\n    ckpt = {'epoch': 3, 'model': model}\n"
                "    torch.save(ckpt, path)\n", None),
        # a display's module under a key only maybe replaced (in a branch, a loop), or under another key
        Invalid(NET + "def fit(path, full):\n    model = Net(4)\n    ckpt = {'model': model}\n    if full:\n"
                "        ckpt['model'] = model.state_dict()\n    torch.save(ckpt, path)\n", None),
        Invalid(NET + "def fit(path, n):\n    model = Net(4)\n    ckpt = {'model': model}\n    for _ in range(n):\n"
                "        ckpt['model'] = model.state_dict()\n    torch.save(ckpt, path)\n", None),
        Invalid(NET + "def fit(path):\n    model = Net(4)\n    ckpt = {'model': model, 'ema': model}\n"
                "    ckpt['model'] = model.state_dict()\n    torch.save(ckpt, path)\n", None),
        # the save in another part of a statement around the store: a loop's `else`, `finally`, a handler
        Invalid(NET + "def fit(path, n):\n    model = Net(4)\n    ckpt = {'model': model}\n    for _ in range(n):\n"
                "        ckpt['model'] = model.state_dict()\n        break\n    else:\n        torch.save(ckpt, path)\n", None),
        Invalid(NET + "def fit(path):\n    model = Net(4)\n    ckpt = {'model': model}\n    try:\n"
                "        ckpt['model'] = model.state_dict()\n    finally:\n        torch.save(ckpt, path)\n", None),
        Invalid(NET + "def fit(path):\n    model = Net(4)\n    ckpt = {'model': model}\n    try:\n"
                "        ckpt['model'] = model.state_dict()\n    except RuntimeError:\n        torch.save(ckpt, path)\n", None),
        Invalid(
            NET + "import copy\nmodel = Net(4)\ntorch.save({'ema': [copy.deepcopy(model).half()], 'step': 1}, 'c.pt')\n",
            None,
        ),
    )

    def visit_Call(self, node: cst.Call) -> None:
        if self.ctx.qualify(node.func) != _SAVE or not node.args:
            return
        saved = argument(node, 0, "obj")
        if saved is None:
            return
        if self._is_module_value(saved.value):
            self.report(node, _MESSAGE, self._fix(node, saved))
        elif self._holds_module(saved.value):
            self.report(node, _NESTED_MESSAGE)

    # ---- what is saved ----------------------------------------------------------------------
    def _is_module_value(self, expr: cst.BaseExpression) -> bool:
        """A module, `copy.deepcopy(module)`, or either with self-returning calls (`.half()`)."""
        if self.ctx.is_module(expr):
            return True
        if not isinstance(expr, cst.Call):
            return False
        if isinstance(expr.func, cst.Attribute) and expr.func.attr.value in SELF_RETURNING_METHODS:
            return self._is_module_value(expr.func.value)
        return self.ctx.qualify(expr.func) == "copy.deepcopy" and bool(expr.args) and self._is_module_value(expr.args[0].value)

    def _holds_module(self, expr: cst.BaseExpression, replaced: frozenset[str] = frozenset()) -> bool:
        """A dict, list or tuple literal with a whole module among its values, at any depth (not
        under the `replaced` keys), a name every binding of which that reaches the save is one
        (`ckpt = {"model": model}`), or a container the oracle knows holds modules (`Gs = []`,
        then `Gs.append(G)` per scale)."""
        if isinstance(expr, cst.Name):
            return self._name_holds_module(expr)
        if not replaced and _holds_module_kind(self.ctx.kind(expr)):
            return True
        if isinstance(expr, cst.Dict):
            values = [e.value for e in _lasting_entries(expr)
                      if not replaced or literal_key(e.key) not in replaced]
            # a key stays whatever later replaces its value (`{model: model.state_dict()}`)
            values += [e.key for e in expr.elements if isinstance(e, cst.DictElement)]
        elif isinstance(expr, (cst.List, cst.Tuple, cst.Set)):
            values = [e.value for e in expr.elements]
        else:
            return False
        return any(self._is_module_value(value) or self._holds_module(value) for value in values)

    def _name_holds_module(self, name: cst.Name) -> bool:
        """What the name holds at the save: its displays' values, less those a store under the
        same key surely replaced before the save (`ckpt = {"model": model}`, then
        `ckpt["model"] = model.state_dict()`), and what was added or stored since."""
        oracle = self.ctx.oracle
        added = oracle.items_added_before(name.value, self.ctx.stack)
        if any(kind is not None and kind.base == MODULE for kind in added):
            return True  # `Gs.append(G)` before `torch.save(Gs, p)`: G is among what is saved
        if oracle.items_may_leave(name.value, self.ctx.stack):
            return False  # `ckpt.pop("model")`, `del ckpt["model"]`: the module may be gone by the save
        bindings = oracle.reaching_bindings(name.value, self.ctx.stack) or []
        displays = bool(bindings) and all(binding.how == "value" and not binding.path
                                          and isinstance(binding.value, _LITERALS) for binding in bindings)
        replaced = oracle.keys_replaced_before(name.value, self.ctx.stack) if displays else frozenset()
        if not replaced and _holds_module_kind(self.ctx.kind(name)):
            return True
        return displays and all(self._holds_module(binding.value, replaced) for binding in bindings)

    # ---- the fix ----------------------------------------------------------------------------
    def _fix(self, node: cst.Call, saved: cst.Arg) -> FixSpec | None:
        """Save the state_dict, and rewrite every load in the file that may read the checkpoint.
        Offered only when every such load is in this file and can be rewritten: the saved path is
        spelled with a literal name no other file of the project mentions, every `torch.load` in
        the file reads a path the linter can tell apart or pair, and the model can be rebuilt as it
        was saved (its constructor, the calls chained on it, nothing else done to it)."""
        if self._own_state_handling(saved.value):
            return None
        path = argument(node, 1, "f")
        names = self._path_literals(path.value) if path is not None else set()
        if not names or self._loader_passed_around():
            return None
        paired = []
        for load in self._loads():
            load_path = argument(load, 0, "f")
            if load_path is None:
                return None
            if self._same_path(load_path.value, load, path.value, node):
                paired.append(load)
                continue
            other = self._path_literals(load_path.value)
            if not other or {_basename(n) for n in other} & {_basename(n) for n in names}:
                return None  # a load that may read this checkpoint and cannot be paired
        rewrites = {}
        for load in paired:
            if _passes_weights_only(load):
                continue  # already reads tensors only: it reads the state_dict as it is
            rewrite = self._load_rewrite(saved.value, load)
            if rewrite is None:
                return None
            rewrites[rewrite[0]] = rewrite[1]
        if _project_mentions(self.ctx.path, frozenset(_basename(n) for n in names)):
            return None  # another file of the project may load it
        new_module = self.ctx.module.visit(_Rewriter(saved.value, method_call(saved.value, "state_dict"), rewrites))
        message = "Save the `state_dict()`" + (" and load it into a new model" if rewrites else "")
        return FixSpec("unsafe", message, ((self.ctx.module, new_module),))

    def _own_state_handling(self, saved: cst.BaseExpression) -> bool:
        """The saved module's class, where it is known, may define `state_dict` or
        `load_state_dict` itself (it or a base does, a base is not seen, a decorator or a store may
        change it): a state_dict saved and loaded back may not rebuild it."""
        kind = self.ctx.kind(saved)
        cls = self.ctx.oracle.instance_class(saved, self.ctx.stack) or (kind.cls if kind is not None else None)
        methods = ("state_dict", "load_state_dict")
        if isinstance(cls, ProjectClass):
            return any(self.ctx.project.may_override(cls, method) for method in methods)
        if isinstance(cls, cst.ClassDef):
            return any(self.ctx.oracle.may_override(cls, method) for method in methods)
        return False  # (a library's module, `nn.Linear(...)`; one of no known class: the fix is unsafe anyway)

    def _loads(self) -> list[cst.Call]:
        return [call for call in calls_in(self.ctx.module) if self.ctx.qualify(call.func) in _LOADS]

    def _loader_passed_around(self) -> bool:
        """`torch.load` used other than by calling it (`partial(torch.load, ...)`, `load = torch.load`,
        a callback): the loads made through it cannot be found, so none can be paired."""
        called = {id(call.func) for call in self._loads()}
        return any(
            isinstance(node, (cst.Name, cst.Attribute)) and id(node) not in called and self.ctx.qualify(node) in _LOADS
            for node in descendants(self.ctx.module, lambda n: isinstance(n, (cst.Import, cst.ImportFrom)))
        )

    def _path_literals(self, expr: cst.BaseExpression, depth: int = 0) -> set[str]:
        """The string literals a path is built from, through names bound once; empty when any
        part of it is unknown to the file (an argument, a config value)."""
        if isinstance(expr, cst.SimpleString):
            value = expr.evaluated_value
            return {value} if isinstance(value, str) else set()
        if isinstance(expr, cst.Name) and depth < 4:
            binding = self._single_binding(expr.value)
            return self._path_literals(binding.value, depth + 1) if binding is not None else set()
        if isinstance(expr, cst.Call):
            found = set()
            for arg in expr.args:
                found |= {v for v in self._path_literals(arg.value, depth + 1) if "." in v or "/" in v}
            return found
        if isinstance(expr, cst.FormattedString):
            texts = [part.value for part in expr.parts if isinstance(part, cst.FormattedStringText)]
            return {texts[-1]} if texts and "." in texts[-1] else set()
        return set()

    def _single_binding(self, name: str):
        bindings = self.ctx.oracle.bindings_of(name, self.ctx.stack) or []
        # not a tuple target: the rule reads the binding's whole value as the name's
        return bindings[0] if len(bindings) == 1 and bindings[0].how == "value" and not bindings[0].path else None

    def _same_path(self, load_path, load: cst.Call, save_path, save: cst.Call) -> bool:
        """The same literal, or the same name bound once, in the same scope as the save."""
        load_literal, save_literal = _whole_literal(load_path, self), _whole_literal(save_path, self)
        if load_literal is not None and load_literal == save_literal:
            return True
        code = self.ctx.module.code_for_node
        return (
            isinstance(save_path, cst.Name) and code(load_path) == code(save_path)
            and self._single_binding(save_path.value) is not None
            and _enclosing_function(self.ctx.module, load) is _enclosing_function(self.ctx.module, save)
        )

    def _load_rewrite(self, saved: cst.BaseExpression, load: cst.Call):
        """`m2 = torch.load(p).eval()` → `m2 = Net(...)`, `m2.load_state_dict(torch.load(p,
        weights_only=True))`, `m2.eval()`: the line and its replacement lines."""
        rebuilt = self._rebuilt_model(saved, load)
        line = _line_assigning(self.ctx.module, load)
        if rebuilt is None or line is None:
            return None
        target = line.body[0].targets[0].target
        if not _used_as_module(self.ctx.module, target.value):
            return None
        kept = [arg for arg in load.args if arg.keyword is None or arg.keyword.value != "weights_only"]
        if len(kept) < len(load.args):
            kept[-1] = kept[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT)
        safe_load = with_keyword(load.with_changes(args=kept), "weights_only", cst.Name("True"))
        build = line.with_changes(body=[line.body[0].with_changes(value=rebuilt)])
        restore = _expression_line(cst.Call(func=cst.Attribute(target, cst.Name("load_state_dict")), args=[cst.Arg(safe_load)]))
        lines = [build, restore]
        chained = _chain_onto(line.body[0].value, load, target)
        if chained is not None:
            lines.append(_expression_line(chained))
        return line, lines

    def _rebuilt_model(self, saved: cst.BaseExpression, load: cst.Call) -> cst.BaseExpression | None:
        """The saved model's constructor with the calls chained on it, moved where the load maps
        it; None unless that is all that was done to the model before it was saved."""
        if not isinstance(saved, cst.Name):
            return None
        binding = self._single_binding(saved.value)
        if binding is None or not self._only_run(saved.value, binding):
            return None
        constructor, chain = _split_chain(binding.value)
        if not isinstance(constructor, cst.Call) or not isinstance(constructor.func, cst.Name):
            return None
        kind = self.ctx.oracle.binding_kind(binding)
        if kind is None or kind.base != "module" or any(m not in _REBUILT_CHAIN for m in chain):
            return None
        arguments = [arg.value for call in _calls_of(binding.value) for arg in call.args]
        if not all(self._stable_value(value, load) for value in arguments):
            return None
        rebuilt = binding.value
        location = argument(load, 1, "map_location")
        if location is not None:
            if not isinstance(location.value, cst.SimpleString):
                return None
            rebuilt = cst.Call(func=cst.Attribute(rebuilt, cst.Name("to")), args=[cst.Arg(location.value)])
        return rebuilt

    def _only_run(self, name: str, binding) -> bool:
        """The model is only called, saved or asked for its state or parameters (for an optimizer):
        nothing the state_dict leaves out (training mode, requires_grad, attributes) can change."""
        scope = binding.scope.node
        body = scope.body if isinstance(scope, cst.FunctionDef) else scope
        for node, parent, grandparent in _names_with_parents(body, name):
            if isinstance(parent, cst.AssignTarget) and binding.value is not None:
                continue
            if isinstance(parent, cst.Call) and parent.func is node:
                continue
            if isinstance(parent, cst.Arg) and isinstance(grandparent, cst.Call) and dotted_name(grandparent.func) in _NEUTRAL_CALLS:
                continue
            if isinstance(parent, cst.Arg) and isinstance(grandparent, cst.Call) and self.ctx.qualify(grandparent.func) == _SAVE:
                continue
            if isinstance(parent, cst.Attribute) and parent.value is node and parent.attr.value in _READ_ONLY_METHODS:
                continue
            return False
        return True

    def _stable_value(self, value: cst.BaseExpression, load: cst.Call) -> bool:
        """A literal, or a module-level name bound once that the load's function does not rebind."""
        if isinstance(value, (cst.Integer, cst.Float, cst.SimpleString)):
            return True
        if not isinstance(value, cst.Name):
            return False
        if value.value in ("True", "False", "None"):
            return True
        binding = self._single_binding(value.value)
        if binding is None or binding.scope.node is not self.ctx.module:
            return False
        function = _enclosing_function(self.ctx.module, load)
        return function is None or value.value not in names_used(function)


_MESSAGE = "`torch.save` of a whole module pickles its class by import path; save its `state_dict()`"
_NESTED_MESSAGE = "A whole module inside the saved object is pickled by import path; save its `state_dict()`"
# Calls chained on a constructor that the rebuilt model can repeat: modes, devices, dtypes.
_REBUILT_CHAIN = frozenset({"eval", "train", "to", "cuda", "cpu", "half", "float", "double", "bfloat16", "requires_grad_"})
_READ_ONLY_METHODS = frozenset({"forward", "state_dict", "parameters", "named_parameters", "zero_grad", "buffers"})
_NEUTRAL_CALLS = frozenset({"print", "str", "repr", "id", "type", "isinstance", "len"})
# Files that may name a checkpoint for a reader: code, launch scripts, configs and instructions.
_READER_SUFFIXES = (".py", ".ipynb", ".sh", ".bash", ".yaml", ".yml", ".json", ".toml", ".cfg", ".ini", ".md", ".rst",
                    ".txt")
_READER_NAMES = frozenset({"Makefile", "Dockerfile", "Procfile"})
_CONFIG_SIZE_LIMIT = 1_000_000  # bytes
_SEARCH_LIMIT = 5000  # files; a larger project is not searched and gets no fix
_ROOT_MARKERS = (".git", "pyproject.toml", "setup.py", "setup.cfg")


class _Rewriter(cst.CSTTransformer):
    """The saved value replaced, and each rewritten load line replaced by its lines."""

    def __init__(self, saved: cst.CSTNode, replacement: cst.CSTNode, lines: dict):
        super().__init__()
        self.saved, self.replacement, self.lines = saved, replacement, lines

    def on_leave(self, original, updated):
        if original is self.saved:
            return self.replacement
        if original in self.lines:
            return cst.FlattenSentinel(self.lines[original])
        return updated


def _whole_literal(expr: cst.BaseExpression, rule: WholeModelSave) -> str | None:
    if isinstance(expr, cst.Name):
        binding = rule._single_binding(expr.value)
        expr = binding.value if binding is not None else expr
    value = expr.evaluated_value if isinstance(expr, cst.SimpleString) else None
    return value if isinstance(value, str) else None


def _basename(path: str) -> str:
    return path.replace("\\", "/").rstrip("/").rsplit("/", 1)[-1]


def _passes_weights_only(load: cst.Call) -> bool:
    arg = argument(load, None, "weights_only")
    return arg is not None and isinstance(arg.value, cst.Name) and arg.value.value == "True"


def _split_chain(expr: cst.BaseExpression) -> tuple[cst.BaseExpression, list[str]]:
    """`Net(8)` and `["to", "eval"]` from `Net(8).to(device).eval()`."""
    chain = []
    while isinstance(expr, cst.Call) and isinstance(expr.func, cst.Attribute) and isinstance(expr.func.value, cst.Call):
        chain.append(expr.func.attr.value)
        expr = expr.func.value
    return expr, chain[::-1]


def _calls_of(expr: cst.BaseExpression) -> list[cst.Call]:
    calls = []
    while isinstance(expr, cst.Call):
        calls.append(expr)
        expr = expr.func.value if isinstance(expr.func, cst.Attribute) else None
    return calls


def _chain_onto(value: cst.BaseExpression, load: cst.Call, target: cst.Name) -> cst.BaseExpression | None:
    """The calls chained on the load (`torch.load(p).to(d).eval()`) applied to `target`."""
    if value is load:
        return None

    def rebuild(expr):
        if expr is load:
            return target
        return expr.with_changes(func=expr.func.with_changes(value=rebuild(expr.func.value)))

    return rebuild(value)


def _expression_line(call: cst.BaseExpression) -> cst.SimpleStatementLine:
    return cst.SimpleStatementLine(body=[cst.Expr(call)])


def _names_with_parents(body: cst.CSTNode, name: str):
    pending = [(body, None, None)]
    while pending:
        node, parent, grandparent = pending.pop()
        if type(node) is cst.Name and node.value == name:
            if not (isinstance(parent, cst.Attribute) and parent.attr is node) and not (
                isinstance(parent, cst.Arg) and parent.keyword is node
            ):
                yield node, parent, grandparent
            continue
        pending.extend((child, node, parent) for child in children(node))


def _enclosing_function(module: cst.Module, node: cst.CSTNode) -> cst.FunctionDef | None:
    found = None
    for statement in walk_statements(module):
        if isinstance(statement, cst.FunctionDef) and any(n is node for n in descendants(statement.body)):
            found = statement  # statements come outermost first: the last match is the innermost
    return found


def _line_assigning(module: cst.Module, call: cst.Call) -> cst.SimpleStatementLine | None:
    """The line `name = <call>` (or `name = <call>.eval()...`) whose value is the load."""
    for statement in walk_statements(module):
        if isinstance(statement, cst.SimpleStatementLine) and len(statement.body) == 1:
            assign = statement.body[0]
            if (
                isinstance(assign, cst.Assign) and len(assign.targets) == 1
                and isinstance(assign.targets[0].target, cst.Name)
                and _split_chain_to(assign.value, call)
            ):
                return statement
    return None


def _split_chain_to(expr: cst.BaseExpression, call: cst.Call) -> bool:
    """`expr` is `call` with only self-returning module methods chained on it."""
    while expr is not call:
        if not (isinstance(expr, cst.Call) and isinstance(expr.func, cst.Attribute) and expr.func.attr.value in _REBUILT_CHAIN):
            return False
        expr = expr.func.value
    return True


def _used_as_module(module: cst.Module, name: str) -> bool:
    for call in calls_in(module):
        func = call.func
        if isinstance(func, cst.Name) and func.value == name:
            return True
        if isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name) and func.value.value == name:
            if func.attr.value in _MODULE_USES:
                return True
    return False


def _project_root(folder: Path) -> Path:
    for candidate in (folder, *folder.parents):
        if any((candidate / marker).exists() for marker in _ROOT_MARKERS):
            return candidate
    return folder


def _holds_module_kind(kind: Kind | None) -> bool:
    """A container with a module among what it holds, at any depth."""
    if kind is None or kind.base != CONTAINER:
        return False
    parts = [*(kind.positions or ()), kind.element]
    return any(part is not None and (part.base == MODULE or _holds_module_kind(part)) for part in parts)


def _project_mentions(path: str, needles: frozenset[str]) -> bool:
    """Whether another file of the project (below the file's project root) that code or its
    launch reads (Python, notebooks, shell scripts, configs, docs) spells one of `needles`: it may
    load the checkpoint (`python eval.py --ckpt model.pt`). A file not on disk has no project."""
    file = Path(path)
    if not needles or not file.is_file():
        return False
    file = file.resolve()
    searched = 0
    for folder, subfolders, files in os.walk(_project_root(file.parent)):
        subfolders[:] = [d for d in subfolders if d not in DEFAULT_EXCLUDES and not d.startswith(".")]
        for name in files:
            candidate = Path(folder) / name
            if not (name.endswith(_READER_SUFFIXES) or name in _READER_NAMES) or candidate == file:
                continue
            searched += 1
            if searched > _SEARCH_LIMIT:
                return True  # too large to search: not proven
            try:
                if not name.endswith((".py", ".ipynb")) and candidate.stat().st_size > _CONFIG_SIZE_LIMIT:
                    continue  # a data file (a large JSON, a log), not a config that names a checkpoint
                text = candidate.read_text(encoding="utf-8", errors="ignore")
            except OSError:
                continue
            if any(needle in text for needle in needles):
                return True
    return False


def _lasting_entries(display: cst.Dict) -> list[cst.DictElement]:
    """The entries of a dict display that no later entry may replace: a later one under the same
    literal key, under a key not written as a literal (`{1: m, True: 3}` holds 3 under 1), or a
    `**` unpacking may."""
    lasting = []
    for position, entry in enumerate(display.elements):
        if not isinstance(entry, cst.DictElement):
            continue
        key = literal_key(entry.key)
        later = display.elements[position + 1:]
        if all(isinstance(other, cst.DictElement) and key is not None and literal_key(other.key) not in (key, None)
               for other in later):
            lasting.append(entry)
    return lasting
