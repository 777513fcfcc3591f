"""TL305 torchvision-pretrained: `resnet50(pretrained=True)` instead of `weights=` (TorchFix TOR201)."""

from __future__ import annotations

import tomllib
from functools import lru_cache
from importlib import resources

import libcst as cst

from torchlint.analysis import argument
from torchlint.rule import Invalid, Rule
from torchlint.rules._training import spelled
from torchlint.rules.registry import register
from torchlint.uses import FileUses

_MODELS = "torchvision.models."
_SUBPACKAGES = frozenset({"detection", "segmentation", "video", "optical_flow", "quantization"})
# (legacy parameter, its position in the old signatures, the new parameter, the table). The
# backbone flag's position differed per model (3 for fasterrcnn_resnet50_fpn): keyword only.
_PARAMETERS = (("pretrained", 0, "weights", "pretrained"), ("pretrained_backbone", None, "weights_backbone", "pretrained_backbone"))
M = "import torchvision\nfrom torchvision import models\n"


@lru_cache(maxsize=1)
def weights_table() -> dict:
    text = resources.files("torchlint").joinpath("data/torchvision_weights.toml").read_text(encoding="utf-8")
    return tomllib.loads(text)


def model_key(qualified: str | None) -> tuple[str, str | None] | None:
    """`torchvision.models.detection.faster_rcnn.fasterrcnn_resnet50_fpn` →
    (`detection.fasterrcnn_resnet50_fpn`, `detection`); None for anything else."""
    if not qualified or not qualified.startswith(_MODELS):
        return None
    parts = qualified[len(_MODELS):].split(".")
    if len(parts) > 3:
        return None
    sub = parts[0] if len(parts) > 1 and parts[0] in _SUBPACKAGES else None
    key = f"{sub}.{parts[-1]}" if sub else parts[-1]
    table = weights_table()
    if key in table["pretrained"] or key in table["report_only"]:
        return key, sub
    return None


def _literal(arg: cst.Arg) -> bool | None:
    value = arg.value
    return value.value == "True" if isinstance(value, cst.Name) and value.value in ("True", "False") else None


@register
class TorchvisionPretrained(Rule):
    """
    ## What it does
    Flags torchvision model builders called with the legacy `pretrained=` or
    `pretrained_backbone=` (`models.resnet50(pretrained=True)`), by keyword or position.

    ## Why is this bad?
    torchvision 0.13 replaced them with `weights=` / `weights_backbone=`, which name the exact
    weights (and their preprocessing transforms, `weights.transforms()`); the old parameters warn
    and will be removed. `pretrained=True` silently means one particular set of weights, which is
    often not the best one torchvision has (`ResNet50_Weights.IMAGENET1K_V2` is more accurate).

    ## Example
    ```python
    model = models.resnet50(pretrained=True)
    ```

    ## Use instead
    ```python
    model = models.resnet50(weights=models.ResNet50_Weights.IMAGENET1K_V1)
    ```

    ## Fix safety
    The fix is **safe**: a literal `True` becomes the weights enum member torchvision itself maps
    `pretrained=True` to for that model (the table in torchlint/data/torchvision_weights.toml, per
    model and for backbones), so the same weights load; `False` becomes `None`. The enum is
    spelled through the file's imports (`models.ResNet50_Weights...`); when none reaches
    `torchvision.models`, the fix passes the member's name as a string
    (`weights="ResNet50_Weights.IMAGENET1K_V1"`), which torchvision accepts. A non-literal value
    gets no fix, nor do models whose legacy weights depend on other arguments (quantized models
    on `quantize=`, `resnet_fpn_backbone` on its backbone) or that had none (`vit_h_14`).
    The fixture is skipped where torchvision is not installed (it cannot be beside torch 2.13 in
    this project's test environment).

    ## References
    - [torchvision multi-weight support](https://pytorch.org/vision/stable/models.html)
    """

    code = "TL305"
    name = "torchvision-pretrained"
    summary = "torchvision `pretrained=`/`pretrained_backbone=`; use `weights=`/`weights_backbone=`"
    severity = "warning"
    preview = False
    fix_safety = ("safe",)
    trigger_tokens = ("pretrained", "torchvision")
    scope_tokens = ("pretrained", "models")

    valid = (
        M + "m = models.resnet50(weights=models.ResNet50_Weights.DEFAULT)\n",
        M + "m = models.resnet50()\n",
        "import timm\nm = timm.create_model('resnet50', pretrained=True)\n",
        "from transformers import AutoModel\nm = AutoModel.from_pretrained('bert-base-uncased')\n",
        "def resnet50(pretrained=False):\n    pass\nm = resnet50(pretrained=True)\n",
        M + "m = models.resnet50(weights=None, progress=False)\n",
        M + "m = models.detection.fasterrcnn_resnet50_fpn(None, True)\n",  # position 1 is progress=
        "import segmentation_models_pytorch as smp\nm = smp.Unet(encoder_weights='imagenet')\n",
    )
    invalid = (
        Invalid(M + "m = models.resnet50(pretrained=True)\n", M + "m = models.resnet50(weights=models.ResNet50_Weights.IMAGENET1K_V1)\n"),
        Invalid(M + "m = models.vgg16(pretrained=False)\n", M + "m = models.vgg16(weights=None)\n"),
        Invalid(
            "from torchvision.models import mobilenet_v2\nm = mobilenet_v2(True)\n",
            'from torchvision.models import mobilenet_v2\nm = mobilenet_v2(weights="MobileNet_V2_Weights.IMAGENET1K_V1")\n',
        ),
        Invalid(
            M + "m = torchvision.models.detection.fasterrcnn_resnet50_fpn(pretrained=False, pretrained_backbone=True)\n",
            M + "m = torchvision.models.detection.fasterrcnn_resnet50_fpn(weights=None, weights_backbone=models.ResNet50_Weights.IMAGENET1K_V1)\n",
        ),
        Invalid(M + "m = models.resnet18(pretrained=args.pretrained)\n"),
        Invalid("from torchvision.models.quantization import resnet18\nm = resnet18(pretrained=True, quantize=True)\n"),
    )

    @classmethod
    def could_fire_in(cls, uses: FileUses) -> bool:
        return any(call.startswith(_MODELS) for call in uses.calls)  # what `model_key` can accept

    def visit_Call(self, node: cst.Call) -> None:
        found = model_key(self.ctx.qualify(node.func))
        if found is None or any(arg.star for arg in node.args):
            return
        key, sub = found
        table = weights_table()
        replacements, reported = [], []
        for legacy, position, new_name, section in _PARAMETERS:
            arg = argument(node, position, legacy)
            if arg is None or (arg.keyword is None and _literal(arg) is None):  # `weights` by position now
                continue
            reported.append(legacy)
            value = self._new_value(arg, table[section].get(key), sub if section == "pretrained" else None, key)
            if value is not None:
                replacements.append((arg, arg.with_changes(keyword=cst.Name(new_name), value=value, equal=cst.AssignEqual(
                    whitespace_before=cst.SimpleWhitespace(""), whitespace_after=cst.SimpleWhitespace("")))))
        if not reported:
            return
        fix = None
        if len(replacements) == len(reported):
            args = [dict(replacements).get(arg, arg) for arg in node.args]
            fix = self.replace(node, node.with_changes(args=args), "Use `weights=`")
        news = {"pretrained": "`weights=`", "pretrained_backbone": "`weights_backbone=`"}
        what, use = ", ".join(f"`{name}=`" for name in reported), ", ".join(news[name] for name in reported)
        verb = "is deprecated since torchvision 0.13" if len(reported) == 1 else "are deprecated"
        self.report(node, f"{what} {verb}; use {use}", fix)

    def _new_value(self, arg: cst.Arg, enum: str | None, sub: str | None, key: str) -> cst.BaseExpression | None:
        literal = _literal(arg)
        if literal is None or key in weights_table()["report_only"]:
            return None
        if not literal:
            return cst.Name("None")
        if not enum:
            return None
        qualified = _MODELS + (f"{sub}." if sub else "") + enum
        return spelled(self.ctx, qualified, where=True) or cst.SimpleString(f'"{enum}"')
