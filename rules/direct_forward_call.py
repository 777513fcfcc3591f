"""TL005 direct-forward-call: `model.forward(x)` instead of `model(x)`."""

from __future__ import annotations

import re

import libcst as cst

from torchlint.analysis import calls_in, dotted_name
from torchlint.diagnostics import Applicability
from torchlint.kinds import SOME_MODULE
from torchlint.project.index import ProjectClass
from torchlint.rule import Invalid, Rule
from torchlint.rules.registry import register
from torchlint.torch_api import MODULE_BASE_CLASSES
from torchlint.walk import descendants, unparsed_without

_MESSAGE = "Calling `.forward()` directly skips the module's hooks; call the module itself"
# Methods through which a module legitimately runs its own forward.
_FORWARDING_METHODS = frozenset({"forward", "__call__", "_call_impl", "_wrapped_call_impl"})


ENCODER_NET = (
    "import torch.nn as nn\n"
    "class Net(nn.Module):\n"
    "    def __init__(self):\n"
    "        super().__init__()\n"
    "        self.encoder = nn.Linear(4, 4)\n"
)


@register
class DirectForwardCall(Rule):
    """
    ## What it does
    Flags `m.forward(...)` where `m` is known to be an `nn.Module` instance: a module built from an
    `nn.Module` subclass defined in the file, a `torch.nn` module (`nn.Sequential`, `nn.Linear`,
    ...), a torchvision or timm model, a `*.from_pretrained(...)` model, or `self` inside an
    `nn.Module` method other than `forward`/`__call__`.

    ## Why is this bad?
    `nn.Module.__call__` runs the module's forward pre-hooks and forward hooks around `forward`.
    Calling `forward` directly skips them, and with them everything built on hooks: FSDP's
    parameter all-gather, activation checkpointing wrappers, pruning and quantization observers,
    profilers and feature extractors. The result can be silently wrong rather than an error.

    ## Example
    ```python
    model = nn.Sequential(nn.Linear(4, 4), nn.ReLU())
    out = model.forward(x)
    ```

    ## Use instead
    ```python
    model = nn.Sequential(nn.Linear(4, 4), nn.ReLU())
    out = model(x)
    ```

    ## Fix safety
    The fix is safe: `m.forward(a, b=c)` becomes `m(a, b=c)` with the same arguments. Without
    hooks the two compute the same values; with hooks, running them is the point of the fix.
    It is safe only where calling the module is known to run `nn.Module.__call__`: there is
    no fix when the module's class (or a base class in the file) overrides `__call__`, when a
    base class is one the file cannot see, when a decorator of the class may have replaced it
    (one made by a factory, `@MODELS.register_module()`, or a library's; a function of the
    project that returns the class it is given keeps the fix, and a class whose decorator returns
    something else, `def singleton(cls): return cls()`, is not taken for a module at all), or
    when the call is in a method that the class's own `forward` calls (the rewrite would run
    `forward` again from inside it); `self.forward(...)` in
    a method of a class that defines no `forward` itself, or that the project derives other
    classes from, has no fix either (the `forward` that runs may call that method). Where the module's
    class is not known at all (an element of `net.modules()`, a module chosen from several
    classes, a module known by a type test such as `if isinstance(m, nn.Linear)`, which a subclass
    passes too), the fix is **unsafe**: a class of the project may override `__call__`.

    Not flagged, on purpose: `.forward(...)` inside a function or lambda that the file registers
    as a module hook (`register_forward_hook`, `register_forward_pre_hook`, ...), or that a
    factory the file passes there makes (`register_forward_hook(make_hook(net))`), where calling
    the module would run the hooks again and re-enter the hook (a closure any factory returns
    taking what a hook takes, `def hook(module, inputs, output)` or `def wrapper(*args)`, which
    another file may register as one, is reported without a fix); `super().forward(x)` and `Base.forward(self, x)` (calling a parent's
    implementation), `self.forward(...)` inside `forward` or `__call__`, a wrapper's
    `self.module.forward(*args, **kwargs)` inside its own `forward`, or a `forward` whose only
    statement returns `self.model.forward(...)` with its own parameters passed through unchanged
    (by position or keyword), autograd `Function.forward`, references that are not calls
    (`torch.compile(model.forward)`), and any object not known to be a module.

    ## References
    - [nn.Module.__call__ and hooks](https://pytorch.org/docs/stable/generated/torch.nn.Module.html#torch.nn.Module.register_forward_hook)
    - [Module.forward: "one should call the Module instance afterwards instead of this"](https://pytorch.org/docs/stable/generated/torch.nn.Module.html#torch.nn.Module.forward)
    """

    code = "TL005"
    preview = False  # released
    name = "direct-forward-call"
    summary = "`.forward()` called directly on a module skips its hooks"
    severity = "warning"
    fix_safety = ("safe", "unsafe")
    trigger_tokens = (".forward",)
    scope_tokens = (".forward",)  # it visits only `.forward(...)` calls
    trigger_attributes = frozenset({"forward"})
    trigger_patterns = (re.compile(r"\.forward\s*\("),)

    valid = (
        # a hook made by a factory (registered here, or by another file): calling the module in it
        # would run the hook again, without end
        "import torch.nn as nn\nnet = nn.Linear(4, 2)\ndef make_hook(model):\n"
        "    def hook(module, inputs, output):\n        return output + model.forward(inputs[0])\n    return hook\n"
        "net.register_forward_hook(make_hook(net))\n",
        # a module converted in place whose class cannot be seen (it may define its own `__call__`)
        "import torch.nn as nn\nfrom .lib import Detector\nnet = nn.SyncBatchNorm.convert_sync_batchnorm(Detector())\n"
        "out = net.forward(x)\n",
        # a function of the project named like torch's converter: what it returns is not known
        "import torch.nn as nn\nfrom .sync import convert_sync_batchnorm\nclass Net(nn.Module):\n    pass\n"
        "net = convert_sync_batchnorm(Net())\nloss = net.forward(a, b)\n",
        # a parent's implementation
        "import torch.nn as nn\n"
        "class Net(nn.Linear):\n"
        "    def forward(self, x):\n"
        "        return super().forward(x) * 2\n",
        "import torch.nn as nn\n"
        "class Net(nn.Linear):\n"
        "    def forward(self, x):\n"
        "        return nn.Linear.forward(self, x)\n",
        "import torch.nn as nn\n"
        "class Base(nn.Module):\n"
        "    def forward(self, x):\n"
        "        return x\n"
        "class Child(Base):\n"
        "    def forward(self, x):\n"
        "        return Base.forward(self, x) + 1\n",
        # self.forward inside __call__ / forward
        "import torch.nn as nn\n"
        "class Net(nn.Module):\n"
        "    def __call__(self, *args, **kwargs):\n"
        "        return self.forward(*args, **kwargs)\n",
        # a wrapper delegating to the module it wraps, arguments passed through
        "import torch.nn as nn\n"
        "class Wrapper(nn.Module):\n"
        "    def __init__(self, module):\n"
        "        super().__init__()\n"
        "        self.module = nn.Sequential(module)\n"
        "    def forward(self, *args, **kwargs):\n"
        "        return self.module.forward(*args, **kwargs)\n",
        # a wrapper's forward returning the wrapped model's forward with its own arguments, by keyword
        # (transformers' executorch integration)
        "import torch\n"
        "class Exportable(torch.nn.Module):\n"
        "    def __init__(self, model):\n"
        "        super().__init__()\n"
        "        self.model = torch.nn.Sequential(model)\n"
        "    def forward(self, input_ids=None, inputs_embeds=None):\n"
        "        \"\"\"Logits output from the model.\"\"\"\n"
        "        return self.model.forward(input_ids=input_ids, inputs_embeds=inputs_embeds)\n",
        # autograd Function
        "import torch\n"
        "class Square(torch.autograd.Function):\n"
        "    @staticmethod\n"
        "    def forward(ctx, x):\n"
        "        return x * x\n"
        "y = Square.forward(None, x)\n",
        "import torch\n"
        "class Square(torch.autograd.Function):\n"
        "    def run(self, x):\n"
        "        return self.forward(x)\n",
        # references, not calls
        "import torch\nmodel = torch.nn.Linear(2, 2)\ncompiled = torch.compile(model.forward)\n",
        "import inspect\nimport torch.nn as nn\nm = nn.Linear(2, 2)\nsig = inspect.signature(m.forward)\n",
        # objects that are not torch modules
        "class Pipeline:\n    def forward(self, x):\n        return x\np = Pipeline()\np.forward(1)\n",
        "import keras\nlayer = keras.layers.Dense(3)\nlayer.forward(x)\n",
        "def run(model, x):\n    return model.forward(x)\n",
        "tokenizer = AutoTokenizer.from_pretrained('bert-base-uncased')\ntokenizer.forward(x)\n",
        # a name bound to a module and to something unknown
        "import torch.nn as nn\nm = nn.Linear(2, 2)\nif cond:\n    m = load_other()\nm.forward(x)\n",
        # inside a hook: calling the module would run the hooks again and re-enter this one
        "import torch.nn as nn\nlayer = nn.Linear(2, 2)\ndef refine(module, inputs, output):\n"
        "    return layer.forward(inputs[0]) + output\nlayer.register_forward_hook(refine)\n",
        "import torch.nn as nn\nlayer = nn.Linear(2, 2)\n"
        "layer.register_forward_pre_hook(lambda m, inputs: (layer.forward(inputs[0]),))\n",
        # a local class shadowing the torch name, not a module
        "class Linear:\n    def forward(self, x):\n        return x\nm = Linear()\nm.forward(1)\n",
    )

    invalid = (
        # a closure a factory returns, taking what a hook takes: another file may register it as
        # one, so the call is reported without a fix
        Invalid("import torch.nn as nn\ndef make_hook(model: nn.Linear):\n"
                "    def hook(module, inputs, output):\n        return output + model.forward(inputs[0])\n    return hook\n",
                None),
        # a closure that takes one input is no hook
        Invalid(
            "import torch.nn as nn\nnet = nn.Linear(4, 2)\ndef make_step():\n    def step(x):\n"
            "        return net.forward(x)\n    return step\n",
            "import torch.nn as nn\nnet = nn.Linear(4, 2)\ndef make_step():\n    def step(x):\n"
            "        return net(x)\n    return step\n",
        ),
        # a module converted in place is the same module
        Invalid(
            "import torch.nn as nn\nclass Net(nn.Module):\n    pass\nnet = Net()\nif sync:\n"
            "    net = nn.SyncBatchNorm.convert_sync_batchnorm(net)\nloss = net.forward(a, b)\n",
            "import torch.nn as nn\nclass Net(nn.Module):\n    pass\nnet = Net()\nif sync:\n"
            "    net = nn.SyncBatchNorm.convert_sync_batchnorm(net)\nloss = net(a, b)\n",
        ),
        Invalid(
            "import torch.nn as nn\nmodel = nn.Sequential(nn.Linear(4, 4))\nout = model.forward(x)\n",
            "import torch.nn as nn\nmodel = nn.Sequential(nn.Linear(4, 4))\nout = model(x)\n",
        ),
        Invalid(
            "import torch\n"
            "class Net(torch.nn.Module):\n"
            "    def forward(self, x):\n"
            "        return x\n"
            "net = Net().to('cpu')\n"
            "y = net.forward(a, b=c)  # trailing comment\n",
            "import torch\n"
            "class Net(torch.nn.Module):\n"
            "    def forward(self, x):\n"
            "        return x\n"
            "net = Net().to('cpu')\n"
            "y = net(a, b=c)  # trailing comment\n",
        ),
        Invalid(
            "import torchvision\nm = torchvision.models.resnet18()\nm.eval()\nlogits = m.forward(batch)\n",
            "import torchvision\nm = torchvision.models.resnet18()\nm.eval()\nlogits = m(batch)\n",
        ),
        Invalid(
            "import timm\nmodel = timm.create_model('resnet50')\nfeatures = model.forward(images)\n",
            "import timm\nmodel = timm.create_model('resnet50')\nfeatures = model(images)\n",
        ),
        Invalid(
            "from transformers import AutoModelForCausalLM\n"
            "lm = AutoModelForCausalLM.from_pretrained('gpt2')\n"
            "out = lm.forward(input_ids=ids)\n",
            "from transformers import AutoModelForCausalLM\n"
            "lm = AutoModelForCausalLM.from_pretrained('gpt2')\n"
            "out = lm(input_ids=ids)\n",
        ),
        Invalid(
            "import torch.nn as nn\n"
            "class Net(nn.Module):\n"
            "    def forward(self, x):\n"
            "        return x\n"
            "    def predict(self, x):\n"
            "        return self.forward(x).argmax(-1)\n",
            "import torch.nn as nn\n"
            "class Net(nn.Module):\n"
            "    def forward(self, x):\n"
            "        return x\n"
            "    def predict(self, x):\n"
            "        return self(x).argmax(-1)\n",
        ),
        # the `forward` that runs is a subclass's, which may call this very method: no fix
        Invalid("import torch.nn as nn\nclass Refiner(nn.Module):\n    def refine(self, x):\n"
                "        return self.forward(x, depth=1)\n", None),
        Invalid("import torch.nn as nn\nclass Base(nn.Module):\n    def forward(self, x):\n        return x\n"
                "    def refine(self, x):\n        return self.forward(x)\n"
                "class Net(Base):\n    def forward(self, x):\n        return self.refine(x)\n", None),
        Invalid(
            ENCODER_NET
            + "    def forward(self, x):\n"
            "        return self.encoder.forward(x + 1)\n",
            ENCODER_NET
            + "    def forward(self, x):\n"
            "        return self.encoder(x + 1)\n",
        ),
        Invalid(
            # a composite model's forward: the submodule's hooks are skipped even though `x` is passed as is
            ENCODER_NET
            + "    def forward(self, x):\n"
            "        h = self.encoder.forward(x)\n"
            "        return h.relu()\n",
            ENCODER_NET
            + "    def forward(self, x):\n"
            "        h = self.encoder(x)\n"
            "        return h.relu()\n",
        ),
        Invalid(
            # usage evidence: only modules have .parameters()
            "def train(model, batch):\n"
            "    opt = make_optimizer(model.parameters())\n"
            "    return model.forward(batch)\n",
            "def train(model, batch):\n"
            "    opt = make_optimizer(model.parameters())\n"
            "    return model(batch)\n",
        ),
        Invalid(
            "from torch.nn import Linear as L\n"
            "layers = [L(2, 2), L(2, 2)]\n"
            "m = L(2, 2)\n"
            "m.forward(\n"
            "    x,\n"
            ")\n",
            "from torch.nn import Linear as L\n"
            "layers = [L(2, 2), L(2, 2)]\n"
            "m = L(2, 2)\n"
            "m(\n"
            "    x,\n"
            ")\n",
        ),
        # the class overrides `__call__`: calling the module may not run `forward` at all
        Invalid(
            "import torch.nn as nn\n"
            "class Scaled(nn.Module):\n"
            "    def forward(self, x):\n"
            "        return x\n"
            "    def __call__(self, x):\n"
            "        return self.run(x)\n"
            "    def run(self, x):\n"
            "        return self.forward(x) * 2\n"
            "m = Scaled()\ny = m.forward(1)\n",
            None,
        ),
        Invalid(
            "import torch.nn as nn\n"
            "class Base(nn.Module):\n"
            "    def __call__(self, *args):\n"
            "        return self.forward(*args)\n"
            "class Child(Base):\n"
            "    def forward(self, x):\n"
            "        return x\n"
            "    def twice(self, x):\n"
            "        return self.forward(x) * 2\n",
            None,
        ),
        Invalid(
            "import torch.nn as nn\n"
            "class Net(nn.Module):\n"
            "    def forward(self, x):\n"
            "        return x\n"
            "    def run(self, x):\n"
            "        return x * 2\n"
            "    __call__ = run\n"
            "net = Net()\ny = net.forward(1)\n",
            None,
        ),
        # a method that forward itself calls: the rewrite would run forward from inside forward
        Invalid(
            "import torch.nn as nn\n"
            "class Net(nn.Module):\n"
            "    def forward(self, x, depth=0):\n"
            "        return self.refine(x) if depth == 0 else x\n"
            "    def refine(self, x):\n"
            "        return self.forward(x, depth=1)\n",
            None,
        ),
    )

    def __init__(self, ctx):
        super().__init__(ctx)
        self._hooks: tuple[set[str], set[int]] | None = None  # see _in_hook

    def visit_Call(self, node: cst.Call) -> None:
        func = node.func
        if not (isinstance(func, cst.Attribute) and func.attr.value == "forward"):
            return
        receiver = func.value
        if self._runs_own_forward(receiver) or self._is_wrapper_delegation(receiver, node) or self._in_hook():
            return
        if not self.ctx.is_module(receiver):
            return
        fix = None
        safety = self._fix_safety(receiver) if not self._maybe_in_hook() else None
        if safety is not None:
            fix = self.replace(node, node.with_changes(func=receiver), "Call the module instead of `.forward()`", safety)
        self.report(node, _MESSAGE, fix)

    def _fix_safety(self, receiver: cst.CSTNode) -> Applicability | None:
        """Safe where `receiver(...)` is known to run `nn.Module.__call__`, which runs `forward`,
        and not to come back here: the class (or a base defined in this file) overrides no
        `__call__`, every base is known, and the current method is not one that `forward` itself
        calls. Unsafe where the module's class is not known at all (`for m in net.modules()`, a
        module chosen from several classes): one of the project's may override `__call__`."""
        own = self.ctx.oracle.instance_class(receiver, self.ctx.stack)
        kind = self.ctx.kind(receiver)
        cls = own or (kind.cls if kind is not None else None)
        if cls is None:
            # a module a library builds (torch.nn.Linear, torchvision.models) runs nn.Module.__call__;
            # one known only as some nn.Module, or by a type test any subclass passes
            # (`isinstance(m, nn.Linear)`), may be a class of the project's
            built = (kind is not None and kind.origin and kind.origin not in MODULE_BASE_CLASSES
                     and kind.origin != SOME_MODULE
                     and not self.ctx.oracle.narrowed_by_type_test(receiver, self.ctx.stack))
            return "safe" if built else "unsafe"
        if isinstance(cls, ProjectClass):  # a class of another module of the project
            return None if self.ctx.project.may_override(cls, "__call__") else "safe"
        if self.ctx.oracle.may_override(cls, "__call__"):
            return None
        function = self.ctx.enclosing(cst.FunctionDef)
        if own is None or function is None:
            return "safe"
        defines_forward = any(isinstance(item, cst.FunctionDef) and item.name.value == "forward" for item in own.body.body)
        if not defines_forward or self.ctx.oracle.has_subclasses(own):
            return None  # a `forward` of a base or of a subclass may call this method: `self(x)` would recurse
        return "safe" if function.name.value not in _methods_reached(cls, "forward") else None

    def _in_hook(self) -> bool:
        """Inside a function or lambda the file registers as a module hook
        (`m.register_forward_hook(fn)`): there `.forward` is how a hook runs a module without
        running the hooks again, and calling the module would re-enter this very hook."""
        if self._hooks is None:
            self._hooks = _registered_hooks(self.ctx.module)
        names, lambdas = self._hooks
        for node in reversed(self.ctx.stack):
            if isinstance(node, cst.Lambda) and id(node) in lambdas:
                return True
            if isinstance(node, cst.FunctionDef) and node.name.value in names:
                return True
        return False

    def _maybe_in_hook(self) -> bool:
        """In a closure its factory returns, taking what a hook takes (`def make_hook(model): def
        hook(m, inputs, output): ...; return hook`): another file may register what it makes."""
        functions = [node for node in self.ctx.stack if isinstance(node, cst.FunctionDef)]
        return any(_returned_hook_shaped(inner, outer) for outer, inner in zip(functions, functions[1:]))

    def _enclosing_method_name(self) -> str | None:
        function = self.ctx.enclosing(cst.FunctionDef)
        return function.name.value if function is not None else None

    def _runs_own_forward(self, receiver: cst.CSTNode) -> bool:
        """`self.forward(...)` inside `forward`/`__call__`: how a module runs itself."""
        return (
            self._enclosing_method_name() in _FORWARDING_METHODS
            and self.ctx.oracle.instance_class(receiver, self.ctx.stack) is not None
        )

    def _is_wrapper_delegation(self, receiver: cst.CSTNode, call: cst.Call) -> bool:
        """A wrapper's forward handing its own arguments to the module it holds:
        `self.module.forward(*args, **kwargs)`, or a forward whose only statement is
        `return self.model.forward(input_ids=input_ids, ...)` with its parameters unchanged."""
        function = self.ctx.enclosing(cst.FunctionDef)
        if function is None or function.name.value not in _FORWARDING_METHODS:
            return False
        if not (isinstance(receiver, cst.Attribute) and self.ctx.oracle.instance_class(receiver.value, self.ctx.stack)):
            return False
        parameters = {p.name.value for p in [*function.params.params, *function.params.kwonly_params]}
        for special in (function.params.star_arg, function.params.star_kwarg):
            if isinstance(special, cst.Param):
                parameters.add(special.name.value)
        passed = [arg.value for arg in call.args]
        if not passed or not all(isinstance(value, cst.Name) and value.value in parameters for value in passed):
            return False
        return any(arg.star for arg in call.args) or _returns_only(function, call)


def _registered_hooks(module: cst.Module) -> tuple[set[str], set[int]]:
    """The names of the functions (and methods: `self.hook`) and the lambdas that the file
    passes to a `register_*hook` call."""
    names: set[str] = set()
    lambdas: set[int] = set()
    # A body whose text never says `register_` registers nothing: it stays unparsed.
    for call in (node for node in descendants(module, unparsed_without("register_")) if isinstance(node, cst.Call)):
        name = dotted_name(call.func) or ""
        last = name.rsplit(".", 1)[-1]
        if not (last.startswith("register_") and last.endswith("hook")):
            continue
        for arg in call.args:
            value = arg.value
            if isinstance(value, cst.Lambda):
                lambdas.add(id(value))
            elif isinstance(value, (cst.Name, cst.Attribute)):
                names.add((dotted_name(value) or "").rsplit(".", 1)[-1])
            elif isinstance(value, cst.Call):  # functools.partial(hook, ...); make_hook(net), the hook's factory
                names.update((dotted_name(a.value) or "").rsplit(".", 1)[-1] for a in value.args)
                names.add((dotted_name(value.func) or "").rsplit(".", 1)[-1])
    names.discard("")
    return names, lambdas


def _returned_hook_shaped(inner: cst.FunctionDef, outer: cst.FunctionDef) -> bool:
    """`inner`, defined in `outer`, is returned by it and takes two or three positional parameters
    (a module and its inputs, and its output or gradients): a hook a factory makes."""
    params = inner.params
    count = len(params.posonly_params) + len(params.params)
    if not 2 <= count <= 3 and not isinstance(params.star_arg, cst.Param):
        return False
    return any(isinstance(node, cst.Return) and isinstance(node.value, cst.Name) and node.value.value == inner.name.value
               for node in descendants(outer.body))


def _methods_reached(cls: cst.ClassDef, start: str) -> set[str]:
    """The methods of `cls` that `start` runs through `self.<method>(...)` calls, transitively."""
    methods = {item.name.value: item for item in cls.body.body if isinstance(item, cst.FunctionDef)}
    reached, pending = set(), [start]
    while pending:
        method = methods.get(pending.pop())
        if method is None or method.name.value in reached:
            continue
        reached.add(method.name.value)
        for call in calls_in(method.body):
            func = call.func
            if isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name) and func.value.value == "self":
                pending.append(func.attr.value)
    return reached


def _returns_only(function: cst.FunctionDef, call: cst.Call) -> bool:
    """The function's body, docstring aside, is `return <call>`."""
    body = list(function.body.body) if isinstance(function.body, cst.IndentedBlock) else [function.body]
    statements = [line for line in body if not _is_docstring(line)]
    if len(statements) != 1 or not isinstance(statements[0], (cst.SimpleStatementLine, cst.SimpleStatementSuite)):
        return False
    small = statements[0].body
    return len(small) == 1 and isinstance(small[0], cst.Return) and small[0].value is call


def _is_docstring(statement: cst.CSTNode) -> bool:
    return (
        isinstance(statement, cst.SimpleStatementLine)
        and len(statement.body) == 1
        and isinstance(statement.body[0], cst.Expr)
        and isinstance(statement.body[0].value, (cst.SimpleString, cst.ConcatenatedString))
    )
