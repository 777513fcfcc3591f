"""TL722 tensor-conversion-discarded: `x.to(device)` as a statement leaves `x` where it was."""

from __future__ import annotations

import libcst as cst

from torchlint.rule import Invalid, Rule
from torchlint.rules.registry import register
from torchlint.torch_api import DATA_LOADERS

# Tensor methods that return a new tensor and leave the receiver as it was.
_OUT_OF_PLACE = frozenset({
    "to", "cuda", "cpu", "half", "float", "double", "bfloat16", "long", "int", "short", "bool", "byte",
    "type", "pin_memory", "contiguous", "detach", "clone", "xpu", "mps",
})
T = "import torch\n"


@register
class TensorConversionDiscarded(Rule):
    """
    ## What it does
    Flags a statement that converts a tensor and drops the result: `x.to(device)`, `x.cuda()`,
    `x.cpu()`, `x.half()`, `x.float()`, `x.detach()`, `x.contiguous()`, ..., where `x` is known to
    be a tensor, or is unpacked from a torch `DataLoader`'s batch (`for x, y in loader:`, through
    `enumerate`/`tqdm`, or `x, y = batch`): default collation makes every element that has a
    `.to()` a tensor. A whole batch (`for batch in loader: batch.to(device)`) is not flagged: a
    collate function may return an object whose `.to()` works in place (`BatchEncoding`).

    ## Why is this bad?
    Unlike `nn.Module.to()`, which moves a module's parameters in place, `Tensor.to()` and its
    siblings return a new tensor and leave the receiver unchanged. The statement has no effect,
    and the code that follows still uses the CPU (or float32, or graph-carrying) tensor, which
    surfaces later as a device mismatch or a dtype error, or silently as slow CPU work.

    ## Example
    ```python
    inputs.to(device)
    outputs = model(inputs)
    ```

    ## Use instead
    ```python
    inputs = inputs.to(device)
    outputs = model(inputs)
    ```

    ## Fix safety
    Where the receiver is a plain name, the fix assigns the result back
    (`x = x.to(device)`) and is **unsafe**: it makes a statement that had no effect take effect,
    so everything after it sees a tensor on another device or of another dtype. That is what the
    author meant, but code that (accidentally) relied on the old tensor changes behaviour.
    An attribute gets no fix: assigning a plain tensor to a module's Parameter attribute raises.

    Not flagged: modules (`model.to(device)` and `model.cuda()` work in place), objects of
    unknown type, in-place methods (`x.cuda_()` does not exist; `x.half_()` neither; `x.zero_()`
    works), and results that are used.

    Off by default: measured on 3,693 files of real training code and 7,167 files of library code
    (bench/realworld.py), 4 findings, 4 judged correct; fewer than the 10 judged findings a rule
    needs to be on by default. See docs/new-rules-precision.md.

    ## References
    - [torch.Tensor.to: "returns a Tensor ... self is returned if it already has the correct dtype and device, otherwise the returned tensor is a copy"](https://pytorch.org/docs/stable/generated/torch.Tensor.to.html)
    - [nn.Module.to: "This method modifies the module in-place"](https://pytorch.org/docs/stable/generated/torch.nn.Module.html#torch.nn.Module.to)
    """

    code = "TL722"
    name = "tensor-conversion-discarded"
    summary = "A tensor's `.to()`/`.cuda()`/`.half()` result is discarded"
    severity = "error"
    default_enabled = False
    fix_safety = ("unsafe",)
    trigger_tokens = (".to(", ".cuda(", ".cpu(", ".half(", ".float(", ".double(", ".bfloat16(", ".long(", ".int(",
                      ".detach(", ".contiguous(", ".clone(", ".type(", ".pin_memory(", ".bool(", ".short(", ".byte(",
                      ".xpu(", ".mps(")
    scope_tokens = tuple(token.rstrip("(") for token in trigger_tokens)  # attribute tokens: `.to`

    valid = (
        T + "model = torch.nn.Linear(2, 2)\nmodel.to('cuda')\nmodel.half()\n",
        T + "x = torch.zeros(2)\nx = x.to('cuda')\n",
        T + "x = torch.zeros(2)\ny = x.cuda()\n",
        T + "x = torch.zeros(2)\nx.zero_()\n",
        "batch.to(device)\n",
        T + "from torch.utils.data import DataLoader\nloader = DataLoader(ds)\nfor batch in loader:\n    batch.to('cuda')\n",
        T + "from torch.utils.data import DataLoader\nloader = DataLoader(ds)\nfor i, (x, y) in enumerate(loader):\n"
        "    x = x.to('cuda')\n    i.to('cuda')\n",
        T + "for x, y in pairs:\n    x.to('cuda')\n",
        T + "x = torch.zeros(2)\nprint(x.float())\n",
        T + "x = torch.zeros(2)\nreturn_value = [x.cpu()]\n",
        T + "class Net(torch.nn.Module):\n    def setup(self):\n        self.cuda()\n",
    )
    invalid = (
        Invalid(
            T + "x = torch.zeros(2)\nx.to('cuda')\ny = x + 1\n",
            T + "x = torch.zeros(2)\nx = x.to('cuda')\ny = x + 1\n",
        ),
        Invalid(
            T + "def step(model, device):\n    x = torch.randn(4, 2)\n    x.cuda()  # move it\n    return model(x)\n",
            T + "def step(model, device):\n    x = torch.randn(4, 2)\n    x = x.cuda()  # move it\n    return model(x)\n",
        ),
        # a module's parameter: assigning a plain tensor to it raises, so no fix
        Invalid(T + "m = torch.nn.Linear(2, 2)\nm.weight.half()\n"),
        Invalid(T + "x = torch.zeros(2)\n(x + 1).float()\n"),
        Invalid(
            T + "from torch.utils.data import DataLoader\nfrom tqdm import tqdm\nloader = DataLoader(ds)\n"
            "for i, (x, y) in enumerate(tqdm(loader)):\n    x.to('cuda')\n",
            T + "from torch.utils.data import DataLoader\nfrom tqdm import tqdm\nloader = DataLoader(ds)\n"
            "for i, (x, y) in enumerate(tqdm(loader)):\n    x = x.to('cuda')\n",
        ),
    )

    def visit_Expr(self, node: cst.Expr) -> None:
        call = node.value
        if not (isinstance(call, cst.Call) and isinstance(call.func, cst.Attribute)):
            return
        method = call.func.attr.value
        receiver = call.func.value
        if method not in _OUT_OF_PLACE or not (self.ctx.is_tensor(receiver) or self._batch_element(receiver)):
            return
        fix = None
        if isinstance(receiver, cst.Name):
            assign = cst.Assign(targets=[cst.AssignTarget(receiver)], value=call)
            fix = self.replace(node, assign, "Assign the result back", "unsafe")
        name = f"`{receiver.value}`" if isinstance(receiver, cst.Name) and len(receiver.value) <= 20 else "the tensor"
        self.report(call, f"`Tensor.{method}()` returns a new tensor; the result is discarded, so {name} is unchanged", fix)

    def _batch_element(self, receiver: cst.CSTNode) -> bool:
        """A name unpacked from a torch DataLoader's batch (`for x, y in loader:`, through
        `enumerate`/`tqdm`, or `x, y = batch` of such a loop): default collation makes every
        element that has a `.to()` a tensor."""
        if not isinstance(receiver, cst.Name):
            return False
        bindings = self.ctx.oracle.bindings_of(receiver.value, self.ctx.stack)
        if not bindings or len(bindings) != 1:
            return False
        binding = bindings[0]
        if binding.how == "value" and binding.path and isinstance(binding.value, cst.Name):
            outer = self.ctx.oracle.bindings_of(binding.value.value, self.ctx.stack)
            if not outer or len(outer) != 1 or outer[0].how != "for":
                return False
            binding, path = outer[0], outer[0].path + binding.path
        elif binding.how == "for":
            path = binding.path
        else:
            return False
        iterated = binding.value
        while isinstance(iterated, cst.Call) and iterated.args and self._iteration_wrapper(iterated.func):
            if self._iteration_wrapper(iterated.func) == "enumerate":
                if not path or path[0] != 1:
                    return False
                path = path[1:]
            iterated = iterated.args[0].value
        kind = self.ctx.kind(iterated)
        return bool(path) and kind is not None and kind.origin in DATA_LOADERS

    def _iteration_wrapper(self, func: cst.CSTNode) -> str | None:
        qualified = self.ctx.qualify(func) or (func.value if isinstance(func, cst.Name) else None)
        if qualified in ("enumerate", "builtins.enumerate"):
            return "enumerate"
        return "tqdm" if qualified is not None and qualified.split(".")[0] == "tqdm" else None


