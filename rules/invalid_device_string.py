"""TL720 invalid-device-string: `torch.device("gpu")`, `.to("cuda0")`: a device torch rejects."""

from __future__ import annotations

import re

import libcst as cst

from torchlint.rule import Invalid, Rule
from torchlint.rules.registry import register

# torch's built-in device types (c10/core/DeviceType.cpp), optionally with `:index`. Backends
# registered through PrivateUse1 (`npu`, `mlu`, `musa`, ...) may take any lower-case name, so only
# misspellings of the built-in ones are reported.
_VALID = re.compile(r"(cpu|cuda|mps|xpu|meta|hpu|xla|ipu|mtia|maia|lazy|vulkan|mkldnn|opengl|opencl|ideep|hip|ve|fpga)(:\d+)?")
_MISSPELLED = re.compile(
    r"(?i:gpu|gpus|rocm|gpu[:_]?\d+)"                       # no such device type
    r"|(?i:cuda|cpu|mps|xpu)(\d+|_\d+|:|:\D.*|\s+:?\s*\d*)"   # `cuda0`, `cuda_1`, `cuda:`, `cuda: 0`
    r"|CUDA(:\d+)?|CPU|Cuda(:\d+)?|MPS|Cpu"                   # device types are lower case
)
_DEVICE_CONSTRUCTORS = frozenset({"torch.device"})
T = "import torch\n"


@register
class InvalidDeviceString(Rule):
    """
    ## What it does
    Flags misspelt device strings that torch rejects: `"gpu"`, `"cuda0"`, `"cuda_1"`, `"cuda:"`,
    `"rocm"`, `"CUDA"`, `"CPU"`, in `torch.device(...)`, a `device=` argument, or the first
    argument of `.to(...)`. Only misspellings are reported, not every unknown name: backends
    registered through PrivateUse1 (`"npu"`, `"mlu"`, `"musa"`, ...) add device types of their own,
    and other libraries' `.to("meter")` take strings of their own.

    ## Why is this bad?
    `torch.device` accepts only the device types torch knows (`cpu`, `cuda`, `mps`, `xpu`, `meta`,
    ...) in lower case, optionally followed by `:index`. Anything else raises `RuntimeError:
    Expected one of cpu, cuda, ... device type at start of device string`, usually deep in a
    script after data loading. AMD GPUs under ROCm are addressed as `"cuda"` too.

    ## Example
    ```python
    model.to("gpu")
    x = torch.zeros(3, device="cuda0")
    ```

    ## Use instead
    ```python
    model.to("cuda")
    x = torch.zeros(3, device="cuda:0")
    ```

    ## Fix safety
    There is no fix: which device was meant (`cuda`, `cuda:0`, `mps`) is the author's choice.
    This rule is on by default (in preview): the pattern raises at run time.

    Not flagged: f-strings and variables (`f"cuda:{rank}"`), valid strings with an index
    (`"cuda:1"`), and strings passed to `.to()` of objects not known to be tensors or modules
    unless they are GPU misspellings.

    On by default (once preview is on): the pattern raises at run time. Measured on 3,693 files of
    real training code and 7,167 files of library code (bench/realworld.py): 0 findings. See
    docs/new-rules-precision.md.

    ## References
    - [torch.device](https://pytorch.org/docs/stable/tensor_attributes.html#torch.device)
    - [HIP (ROCm) semantics: "cuda" addresses AMD GPUs too](https://pytorch.org/docs/stable/notes/hip.html)
    """

    code = "TL720"
    name = "invalid-device-string"
    summary = "A device string torch rejects (`gpu`, `cuda0`, `rocm`)"
    severity = "error"
    trigger_tokens = ("device", ".to(", "map_location")
    scope_tokens = ("device", ".to", "map_location")

    valid = (
        T + "d = torch.device('cuda:1')\nx = torch.zeros(3, device='cpu')\n",
        T + "d = torch.device(f'cuda:{rank}')\n",
        T + "d = torch.device('cuda' if torch.cuda.is_available() else 'cpu')\n",
        T + "m = torch.nn.Linear(2, 2).to('mps')\n",
        "q = quantity.to('meter')\n",
        "frame = frame.to('records')\n",
        "unit = get_unit()\nunit.to('gpu_hours')\n",
        T + "x = torch.zeros(3, device=device)\n",
        T + "x = torch.zeros(3).to('cuda', non_blocking=True)\n",
        T + "x = torch.zeros(3).to('meta')\n",
        # a PrivateUse1 backend's own device type (mmengine)
        T + "device = torch.device('mlu', torch.mlu.current_device())\n",
        T + "x = torch.zeros(3, device='npu:0')\n",
    )
    invalid = (
        Invalid(T + "device = torch.device('gpu')\n"),
        Invalid(T + "x = torch.zeros(3, device='cuda0')\n"),
        Invalid(T + "model = torch.nn.Linear(2, 2)\nmodel.to('rocm')\n"),
        Invalid("batch = batch.to('gpu')\n"),
        Invalid(T + "x = torch.ones(2).to('CUDA')\n"),
        Invalid(T + "t = torch.randn(2)\nt = t.to(device='cuda:')\n"),
        Invalid(T + "d = torch.device('cuda_1')\n"),
        Invalid(T + "state = torch.load('model.pt', map_location='gpu')\n"),
    )

    def visit_Call(self, node: cst.Call) -> None:
        for arg in self._device_arguments(node):
            value = arg.value
            if not isinstance(value, cst.SimpleString):
                continue
            text = value.evaluated_value
            if not isinstance(text, str) or _VALID.fullmatch(text):
                continue
            if _MISSPELLED.fullmatch(text):
                self.report(value, f"`{text}` is not a device torch knows; it raises at run time (use e.g. `cuda:0`)")

    def _device_arguments(self, call: cst.Call):
        """The arguments of `call` that name a device."""
        if self.ctx.qualify(call.func) in _DEVICE_CONSTRUCTORS:
            yield from (arg for arg in call.args[:1] if arg.keyword is None or arg.keyword.value == "type")
            return
        to = isinstance(call.func, cst.Attribute) and call.func.attr.value == "to"
        for arg in call.args:
            if (to and arg is call.args[0] and arg.keyword is None) or (arg.keyword and arg.keyword.value == "device"):
                yield arg
            elif arg.keyword and arg.keyword.value == "map_location" and self.ctx.qualify(call.func) in _LOADERS:
                yield arg


_LOADERS = frozenset({"torch.load", "torch.serialization.load", "torch.jit.load"})
