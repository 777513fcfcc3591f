"""TL306 transforms-v2-to-tensor: `torchvision.transforms.v2.ToTensor()`, deprecated (TorchFix TOR202)."""

from __future__ import annotations

import libcst as cst

from torchlint.rule import Invalid, Rule
from torchlint.rules._training import spelled
from torchlint.rules.registry import register

_TO_TENSOR = frozenset({"torchvision.transforms.v2.ToTensor"})
V2 = "import torch\nfrom torchvision.transforms import v2\n"


@register
class TransformsV2ToTensor(Rule):
    """
    ## What it does
    Flags `torchvision.transforms.v2.ToTensor()`.

    ## Why is this bad?
    torchvision deprecates it (it warns, and will be removed): in the v2 API a PIL image or array
    becomes an image tensor with `v2.ToImage()`, and its values are converted and scaled to
    `[0, 1]` by `v2.ToDtype(torch.float32, scale=True)`, as two explicit steps. The v1
    `transforms.ToTensor()` is not deprecated and is not flagged.

    ## Example
    ```python
    transform = v2.Compose([v2.RandomResizedCrop(224), v2.ToTensor()])
    ```

    ## Use instead
    ```python
    transform = v2.Compose([v2.RandomResizedCrop(224), v2.ToImage(), v2.ToDtype(torch.float32, scale=True)])
    ```

    ## Fix safety
    The fix writes `v2.Compose([v2.ToImage(), v2.ToDtype(torch.float32, scale=True)])` and is
    **unsafe**: the values are the same to within float32 rounding (`ToDtype` multiplies by
    1/255 where `ToTensor` divides by 255, so a value can differ in its last bit; the fixture
    allows that and no more), but the result is a `tv_tensors.Image` (a Tensor
    subclass) rather than a plain Tensor, which later v2 transforms treat as an image and code
    checking `type(x) is torch.Tensor` does not. It is offered where `ToTensor` is read from the
    `v2` module and `torch` is imported. Without torchvision installed the fixture is skipped.

    ## References
    - [torchvision.transforms.v2.ToTensor](https://pytorch.org/vision/stable/generated/torchvision.transforms.v2.ToTensor.html)
    """

    code = "TL306"
    name = "transforms-v2-to-tensor"
    summary = "`transforms.v2.ToTensor()` is deprecated; use `v2.ToImage()` and `v2.ToDtype(..., scale=True)`"
    severity = "warning"
    preview = False
    fix_safety = ("unsafe",)
    trigger_tokens = ("ToTensor",)
    scope_tokens = ("ToTensor",)

    valid = (
        "from torchvision import transforms\nt = transforms.ToTensor()\n",
        "import torchvision.transforms as T\nt = T.Compose([T.ToTensor()])\n",
        V2 + "t = v2.Compose([v2.ToImage(), v2.ToDtype(torch.float32, scale=True)])\n",
        "from albumentations.pytorch import ToTensorV2\nt = ToTensorV2()\n",
        "class ToTensor:\n    pass\nt = ToTensor()\n",
        "from torchvision.transforms import ToTensor\nt = ToTensor()\n",
    )
    invalid = (
        Invalid(
            V2 + "t = v2.Compose([v2.Resize(64), v2.ToTensor()])\n",
            V2 + "t = v2.Compose([v2.Resize(64), v2.Compose([v2.ToImage(), v2.ToDtype(torch.float32, scale=True)])])\n",
        ),
        Invalid("from torchvision.transforms.v2 import ToTensor\nt = ToTensor()\n"),
        Invalid("import torchvision.transforms.v2 as v2\nt = v2.ToTensor()\n"),
    )

    def visit_Call(self, node: cst.Call) -> None:
        if self.ctx.qualify(node.func) not in _TO_TENSOR:
            return
        fix = None
        float32 = spelled(self.ctx, "torch.float32", where=True)
        if isinstance(node.func, cst.Attribute) and not node.args and float32 is not None:
            v2 = node.func.value
            text = cst.Module([]).code_for_node
            new = cst.parse_expression(
                f"{text(v2)}.Compose([{text(v2)}.ToImage(), {text(v2)}.ToDtype({text(float32)}, scale=True)])"
            )
            fix = self.replace(node, new, "Use `v2.ToImage()` and `v2.ToDtype(torch.float32, scale=True)`", "unsafe")
        self.report(node, "`v2.ToTensor()` is deprecated; use `v2.ToImage()`, `v2.ToDtype(torch.float32, scale=True)`", fix)
