"""TL729 require-grad-typo: `x.require_grad = True`, a typo of `requires_grad` (TorchFix TOR002)."""

from __future__ import annotations

import re
from functools import cached_property

import libcst as cst

from torchlint.oracle import MODULE, TENSOR
from torchlint.rule import Invalid, Rule
from torchlint.rules.registry import register

_ANY = re.compile(r"\brequire_grad\b")
_ASSIGNED = re.compile(r"\.\s*require_grad\s*=(?!=)")


@register
class RequireGradTypo(Rule):
    """
    ## What it does
    Flags an assignment to an attribute named `require_grad` (`p.require_grad = False`), in a file
    that never otherwise mentions `require_grad`, on anything but an object known to be of another
    kind (an instance of a plain class of the project, whose other files may read the name).

    ## Why is this bad?
    Tensors and modules have `requires_grad`. Assigning `require_grad` silently creates a new
    Python attribute and changes nothing: the parameter meant to be frozen keeps training.

    ## Example
    ```python
    for p in backbone.parameters():
        p.require_grad = False
    ```

    ## Use instead
    ```python
    for p in backbone.parameters():
        p.requires_grad = False
    ```

    ## Fix safety
    The fix is **unsafe**: it renames the attribute to `requires_grad`, which is what the line is
    meant to do, and so changes what the program does (the parameter stops training; on a tensor
    that is not a leaf, `requires_grad = False` raises). A file that reads or defines
    `require_grad` anywhere else (a config field, a keyword parameter, a class attribute of its
    own) is left alone: there the name is deliberate; so is an instance of a plain class of the
    project (`opts = Options()`), which another file may read it from.

    ## References
    - [torch.Tensor.requires_grad](https://pytorch.org/docs/stable/generated/torch.Tensor.requires_grad.html)
    """

    code = "TL729"
    name = "require-grad-typo"
    summary = "`x.require_grad = ...`: a typo of `requires_grad` that changes nothing"
    severity = "error"
    preview = False
    fix_safety = ("unsafe",)
    trigger_tokens = ("require_grad",)
    scope_tokens = ("require_grad",)
    trigger_attributes = frozenset({"require_grad"})

    valid = (
        "import torch\nfor p in model.parameters():\n    p.requires_grad = False\n",
        "require_grad = True\n",
        "class Cfg:\n    require_grad = True\ncfg = Cfg()\ncfg.require_grad = False\n",
        "def build(require_grad=True):\n    pass\nopts.require_grad = True\n",
        "opts.require_grad = True\nif opts.require_grad:\n    pass\n",
        "ok = p.require_grad == True\n",
        # an options object of the project's, which another file may read the name from
        "class Options:\n    pass\nopts = Options()\nopts.require_grad = True\n",
    )
    invalid = (
        Invalid(
            "import torch\nfor p in model.parameters():\n    p.require_grad = False\n",
            "import torch\nfor p in model.parameters():\n    p.requires_grad = False\n",
        ),
        Invalid("import torch\nx = torch.zeros(3)\nx.require_grad = True\n", "import torch\nx = torch.zeros(3)\nx.requires_grad = True\n"),
    )

    @cached_property
    def _only_assigned(self) -> bool:
        """Every use of the name in the file is an assignment (counted once per file, not per
        assignment: the text is the whole file)."""
        text = self.ctx.text
        return len(_ANY.findall(text)) == len(_ASSIGNED.findall(text))

    def visit_Assign(self, node: cst.Assign) -> None:
        if not self._only_assigned:
            return
        for target in node.targets:
            attribute = target.target
            if isinstance(attribute, cst.Attribute) and attribute.attr.value == "require_grad":
                receiver = self.ctx.kind(attribute.value)
                if receiver is not None and receiver.base not in (TENSOR, MODULE):
                    continue  # an object of another kind: the name may be its own
                fixed = attribute.with_changes(attr=cst.Name("requires_grad"))
                self.report(attribute, "`require_grad` is a typo: assigning it changes nothing; use `requires_grad`",
                            self.replace(attribute, fixed, "Use `requires_grad`", "unsafe"))
