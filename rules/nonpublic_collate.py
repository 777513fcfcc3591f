"""TL304 nonpublic-collate: `torch.utils.data._utils.collate.default_collate` and its import,
where `torch.utils.data.default_collate` is public (TorchFix TOR104, TOR105)."""

from __future__ import annotations

import re

import libcst as cst

from torchlint.analysis import dotted_name
from torchlint.rule import Invalid, Rule
from torchlint.rules._training import spelled
from torchlint.rules.registry import register

_PRIVATE = "torch.utils.data._utils.collate"
_PUBLIC = "torch.utils.data"
_NAMES = frozenset({"default_collate", "default_convert"})


@register
class NonpublicCollate(Rule):
    """
    ## What it does
    Flags calls and imports of `default_collate` and `default_convert` through the private module
    `torch.utils.data._utils.collate`.

    ## Why is this bad?
    `_utils` is private: it may move or change without notice. The same functions are public as
    `torch.utils.data.default_collate` and `torch.utils.data.default_convert` (since torch 1.11).

    ## Example
    ```python
    from torch.utils.data._utils.collate import default_collate
    ```

    ## Use instead
    ```python
    from torch.utils.data import default_collate
    ```

    ## Fix safety
    The fix is **safe**: the public names are the same function objects. A call is rewritten to
    the public path when the file can spell it (`torch.utils.data.default_collate`); an import is
    rewritten when every name it imports is one of the two.

    ## References
    - [torch.utils.data.default_collate](https://pytorch.org/docs/stable/data.html#torch.utils.data.default_collate)
    """

    code = "TL304"
    name = "nonpublic-collate"
    summary = "`default_collate`/`default_convert` from the private `torch.utils.data._utils`"
    severity = "warning"
    preview = False
    fix_safety = ("safe",)
    trigger_tokens = ("_utils",)
    trigger_patterns = (re.compile(r"default_co(?:llate|nvert)"),)
    scope_tokens = ("default_collate", "default_convert")

    valid = (
        "from torch.utils.data import default_collate\nb = default_collate(items)\n",
        "import torch\nb = torch.utils.data.default_collate(items)\n",
        "from torch.utils.data._utils.collate import collate, default_collate_fn_map\n",
        "from mylib._utils.collate import default_collate\nb = default_collate(items)\n",
        "from torch.utils.data.dataloader import default_collate\n",
        "from torch.utils.data import _utils\nn = _utils.MP_STATUS_CHECK_INTERVAL\n",
    )
    invalid = (
        Invalid(
            "from torch.utils.data._utils.collate import default_collate\nb = default_collate(items)\n",
            "from torch.utils.data import default_collate\nb = default_collate(items)\n",
        ),
        Invalid(
            "import torch\nb = torch.utils.data._utils.collate.default_convert(x)\n",
            "import torch\nb = torch.utils.data.default_convert(x)\n",
        ),
        Invalid("from torch.utils.data._utils.collate import default_collate, collate\n"),
    )

    def visit_Call(self, node: cst.Call) -> None:
        qualified = self.ctx.qualify(node.func)
        if not qualified or qualified.rpartition(".")[::2] not in {(_PRIVATE, name) for name in _NAMES}:
            return
        public = f"{_PUBLIC}.{qualified.rpartition('.')[2]}"
        fix = None
        if isinstance(node.func, cst.Attribute):  # a from-imported name is fixed at its import
            func = spelled(self.ctx, public, where=True)
            fix = self.replace(node.func, func, f"Use `{public}`") if func is not None else None
        self.report(node, f"`{qualified.rpartition('.')[2]}` from a private module; use `{public}`", fix)

    def visit_ImportFrom(self, node: cst.ImportFrom) -> None:
        if node.relative or node.module is None or dotted_name(node.module) != _PRIVATE:
            return
        if isinstance(node.names, cst.ImportStar):
            return
        names = [dotted_name(alias.name) for alias in node.names]
        fix = None
        if all(name in _NAMES for name in names):
            fix = self.replace(node, node.with_changes(module=cst.parse_expression(_PUBLIC)), f"Import from `{_PUBLIC}`")
        for alias, name in zip(node.names, names):
            if name in _NAMES:
                self.report(alias, f"Import of `{name}` from a private module; use `{_PUBLIC}.{name}`", fix)
                fix = None
