"""The type oracle's answers, asked at `probe(expr)` calls in small programs."""

from __future__ import annotations

import libcst as cst
import pytest

from torchlint.engine import lint_text
from torchlint.rules.registry import rule_by_code
from torchlint.rule import Rule

HEAD = "import torch\nimport torch.nn as nn\n"
AGENT = HEAD + (
    "class Agent(nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.body = nn.Linear(4, 2)\n"
    "    def forward(self, x):\n        y = self.body(x)\n        return y, y * 2\n"
    "    def act(self, x):\n        y = self.body(x)\n        return y.sum(1), y.argmax(1)\n"
    "    def score(self, x):\n        return self.body(x).sum()\n"
    "    def mixed(self, x):\n        return self.body(x), 3\n"
    "    def maybe(self, x):\n        if x is None:\n            return None\n        return self.body(x)\n"
    "    def stats(self, x):\n        return {'n': self.body(x)}\n"
)
NET = HEAD + "class Net(nn.Module):\n    def forward(self, x):\n        return x\n"


class _Probe(Rule):
    code, name, summary = "TL998", "probe", "records the oracle's answers"
    trigger_tokens = ("probe",)
    answers: list = []

    def visit_Call(self, node: cst.Call) -> None:
        if isinstance(node.func, cst.Name) and node.func.value == "probe":
            kind = self.ctx.kind(node.args[0].value)
            _Probe.answers.append(kind and (kind.base + ("+graph" if kind.graph else "")))


def kinds(source: str) -> list:
    _Probe.answers = []
    result = lint_text(source, "probe.py", [_Probe])
    assert not result.internal_errors, result.internal_errors
    return _Probe.answers


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        pytest.param(HEAD + "m = nn.Linear(2, 2)\nprobe(m)\n", "module", id="torch-nn-class"),
        pytest.param(HEAD + "from torch.nn import Conv2d as C\nprobe(C(1, 1, 3))\n", "module", id="alias"),
        pytest.param(HEAD + "p = nn.Parameter(torch.zeros(2))\nprobe(p)\n", "tensor+graph", id="parameter"),
        # the tensor classes are tensors, not known non-tensors like the other torch classes
        pytest.param(HEAD + "probe(torch.FloatTensor(2))\n", "tensor", id="typed-tensor-class"),
        pytest.param(HEAD + "from torch.autograd import Variable\nprobe(Variable(x))\n", "tensor", id="variable"),
        pytest.param(HEAD + "probe(torch.Generator())\n", "object", id="other-torch-class"),
        # `torch.max(a, b)` with `b` a tensor: the elementwise overload, one tensor
        pytest.param(HEAD + "probe(torch.max(x, torch.zeros(1)))\n", "tensor", id="max-of-two-tensors"),
        pytest.param(HEAD + "probe(torch.min(x, other=torch.zeros(1)))\n", "tensor", id="min-other-by-keyword"),
        pytest.param(HEAD + "probe(torch.max(x, 1))\n", "container", id="max-along-a-dim"),
        pytest.param(HEAD + "probe(torch.max(x, dim))\n", "container", id="max-of-an-unknown-second"),
        pytest.param(HEAD + "probe(torch.max(x, *rest))\n", None, id="max-of-spread-arguments"),
        pytest.param(NET + "probe(Net())\n", "module", id="local-subclass"),
        pytest.param(NET + "class Deeper(Net):\n    pass\nprobe(Deeper())\n", "module", id="transitive-base"),
        # a loaded checkpoint's model state holds tensors; what else it holds is not known
        pytest.param(HEAD + "ckpt = torch.load('p')\nprobe(ckpt['state_dict']['fc.weight'])\n", "tensor",
                     id="loaded-state-dict-value"),
        pytest.param(HEAD + "sd = torch.load('p')['model_state_dict']\nfor k, v in sd.items():\n    probe(v)\n", "tensor",
                     id="loaded-state-dict-items"),
        pytest.param(HEAD + "ckpt = torch.load('p')\nprobe(ckpt['optimizer_state_dict']['state'])\n", None,
                     id="loaded-optimizer-state"),
        pytest.param(HEAD + "ckpt = torch.load('p')\nprobe(ckpt['model'])\n", None, id="loaded-other-key"),
        pytest.param(HEAD + "ckpt = load('p')\nprobe(ckpt['state_dict']['w'])\n", None, id="not-torch-load"),
        # the pieces torch splits a tensor into; other splits are not tensors
        pytest.param(HEAD + "t = torch.zeros(4)\nfor piece in torch.split(t, 2):\n    probe(piece)\n", "tensor",
                     id="iterating-torch-split"),
        pytest.param(HEAD + "t = torch.zeros(4)\nfor piece in t.chunk(2):\n    probe(piece)\n", "tensor",
                     id="iterating-tensor-chunk"),
        pytest.param(HEAD + "import numpy as np\nfor piece in np.split(a, 2):\n    probe(piece)\n", None,
                     id="iterating-numpy-split"),
        pytest.param(HEAD + "text = 'a,b'\nfor piece in text.split(','):\n    probe(piece)\n", None,
                     id="iterating-str-split"),
        # torch.nn.modules' private bases are modules; its other private classes are not
        pytest.param(HEAD + "from torch.nn.modules.loss import _Loss\nclass L(_Loss):\n    pass\nprobe(L())\n",
                     "module", id="private-torch-base"),
        pytest.param(HEAD + "from torch.nn.modules.conv import _ConvNd\nclass C(_ConvNd):\n    pass\nprobe(C())\n",
                     "module", id="private-conv-base"),
        pytest.param(HEAD + "from torch.nn.modules.module import _IncompatibleKeys\nprobe(_IncompatibleKeys([], []))\n",
                     None, id="private-torch-non-module"),
        pytest.param(HEAD + "from torch.nn.utils import _Loss\nclass L(_Loss):\n    pass\nprobe(L())\n",
                     None, id="private-name-outside-modules"),
        pytest.param(HEAD + "class A:\n    pass\nprobe(A())\n", "object", id="plain-class"),
        pytest.param(NET + "m = Net().cuda().eval()\nprobe(m)\n", "module", id="self-returning-chain"),
        pytest.param(NET + "m = Net()\nm = m.to('cpu')\nprobe(m)\n", "module", id="rebinding-cycle"),
        pytest.param(NET + "m = None\nif x:\n    m = Net()\nprobe(m)\n", "module", id="none-is-neutral"),
        pytest.param(NET + "m = Net()\nif x:\n    m = other()\nprobe(m)\n", None, id="unknown-binding"),
        # a one-line suite binds like a block (`if x: m = 3`)
        pytest.param(NET + "m = Net()\nif x: m = 3\nprobe(m)\n", None, id="one-line-if-binds"),
        pytest.param(NET + "def f(x):\n    m = Net()\n    while x: m = other()\n    probe(m)\n", None,
                     id="one-line-while-binds"),
        pytest.param(NET + "def f(a):\n    if a: a = Net()\n    else: a = Net()\n    probe(a)\n", "module",
                     id="one-line-branches-both-bind"),
        pytest.param(NET + "def f(a):\n    if a: a = Net()\n    else: pass\n    probe(a)\n", None,
                     id="one-line-else-neither-binds-nor-leaves"),
        # every branch of an if/elif/else binds the name or leaves: the parameter's value is gone
        pytest.param(NET + "def make(arch):\n    if arch == 'a':\n        arch = Net()\n    elif arch == 'b':\n"
                     "        arch = Net()\n    else:\n        raise ValueError(arch)\n    probe(arch)\n", "module",
                     id="if-elif-else-all-bind"),
        pytest.param(NET + "def make(arch):\n    if arch == 'a':\n        arch = Net()\n    else: return None\n"
                     "    probe(arch)\n", "module", id="else-returns-on-one-line"),
        pytest.param(NET + "def make(arch):\n    if arch == 'a':\n        arch = Net()\n    elif arch == 'b':\n"
                     "        arch = Net()\n    probe(arch)\n", None, id="if-elif-without-else"),
        pytest.param(NET + "def make(arch):\n    if arch == 'a':\n        arch = Net()\n    else:\n        print(arch)\n"
                     "    probe(arch)\n", None, id="else-neither-binds-nor-leaves"),
        pytest.param(NET + "def make(arch):\n    if arch == 'a':\n        if deep:\n            arch = Net()\n"
                     "    else:\n        raise ValueError(arch)\n    probe(arch)\n", None, id="branch-binds-only-sometimes"),
        pytest.param(NET + "def make(arch):\n    for a in arch:\n        if a:\n            arch = Net()\n"
                     "        else:\n            continue\n        probe(arch)\n", "module", id="else-continues"),
        pytest.param(NET + "m = torch.compile(Net())\nprobe(m)\n", "module", id="compile"),
        pytest.param(HEAD + "m = torch.compile(fn)\nprobe(m)\n", None, id="compile-function"),
        pytest.param(
            NET + "from torch.nn.parallel import DistributedDataParallel as DDP\nw = DDP(Net())\nprobe(w.module)\n",
            "module",
            id="ddp-module",
        ),
        pytest.param(HEAD + "def f(m: nn.Module):\n    probe(m)\n", "module", id="annotation"),
        pytest.param(HEAD + "def f(t: torch.Tensor):\n    probe(t)\n", "tensor", id="tensor-annotation"),
        pytest.param(HEAD + "def f(m):\n    probe(m)\n", None, id="bare-parameter"),
        pytest.param(HEAD + "class H(nn.Module):\n    def __init__(self):\n        self.register_buffer('grid', torch.zeros(2))\n"
                     "    def forward(self, x):\n        probe(self.grid)\n", "tensor", id="registered-buffer"),
        pytest.param(HEAD + "class H(nn.Module):\n    def __init__(self):\n"
                     "        self.register_parameter('scale', nn.Parameter(torch.ones(1)))\n"
                     "    def forward(self, x):\n        probe(self.scale)\n", "tensor+graph", id="registered-parameter"),
        pytest.param(HEAD + "class H:\n    def __init__(self):\n        self.register_buffer('other', torch.zeros(2))\n"
                     "        self.grid = make()\n    def forward(self, x):\n        probe(self.grid)\n", None,
                     id="registered-under-another-name"),
        pytest.param(NET + "class Agent:\n    def __init__(self):\n        self.net, self.target = Net(), Net()\n"
                     "    def act(self):\n        probe(self.target)\n", "module", id="attribute-in-a-tuple-target"),
        pytest.param(NET + "class Agent:\n    def __init__(self):\n        self.net = Net()\n    def load(self):\n"
                     "        self.net, self.step = restore()\n    def act(self):\n        probe(self.net)\n", None,
                     id="attribute-rebound-in-a-tuple-target"),
        pytest.param(NET + "class Agent:\n    def __init__(self):\n        self.net = Net()\n    def load(self):\n"
                     "        *self.net, last = parts\n    def act(self):\n        probe(self.net)\n", None,
                     id="attribute-rebound-starred"),
        pytest.param(HEAD + "def keep(grad):\n    probe(grad)\nt = torch.ones(2, requires_grad=True)\nt.register_hook(keep)\n",
                     "tensor", id="tensor-hook-gradient"),
        pytest.param(HEAD + "def keep(m, inputs, out):\n    probe(inputs[0])\nnn.Linear(2, 2).register_forward_hook(keep)\n",
                     "tensor", id="forward-hook-inputs"),
        pytest.param(HEAD + "def keep(m, inputs, out):\n    probe(out)\nnn.Linear(2, 2).register_forward_hook(keep)\n",
                     None, id="forward-hook-output-unknown"),
        pytest.param(HEAD + "class G:\n    def __init__(self, net: nn.Module):\n        net.register_full_backward_hook(self.keep)\n"
                     "    def keep(self, m, grad_in, grad_out):\n        probe(grad_out[0])\n", "tensor", id="bound-method-hook"),
        pytest.param(HEAD + "def keep(grad):\n    probe(grad)\nbus.register_hook(keep)\n", None, id="hook-on-unknown-receiver"),
        pytest.param(HEAD + "out = nn.Linear(2, 2)(x)\n_, pred = torch.max(out, 1)\nprobe(pred)\n", "tensor", id="max-indices"),
        pytest.param(HEAD + "out = nn.Linear(2, 2)(x)\nprobe(torch.max(out, 1)[1])\n", "tensor", id="max-indexed"),
        pytest.param(HEAD + "out = nn.Linear(2, 2)(x)\nvals, idx = out.topk(2, 1)\nprobe(vals)\n", "tensor", id="topk-values"),
        pytest.param(HEAD + "out = nn.Linear(2, 2)(x)\nprobe(out.max(1))\n", "container", id="max-with-dim-whole"),
        pytest.param(HEAD + "u, s, v = torch.svd(torch.randn(3, 3))\nprobe(s)\n", "tensor", id="svd-values"),
        pytest.param(HEAD + "def f(fo):\n    data = []\n    for line in fo:\n        data.append((torch.ones(1), torch.ones(1)))\n"
                     "    for x, y in data:\n        probe(x)\n", "tensor", id="grown-list-of-tuples"),
        pytest.param(HEAD + "data = [(torch.ones(1), 3), (torch.zeros(1), 4)]\nfor x, n in data:\n    probe(x)\n", "tensor",
                     id="list-of-tuples"),
        pytest.param(HEAD + "data = [(torch.ones(1), 3), (torch.zeros(1), 4)]\nfor x, n in data:\n    probe(n)\n", None,
                     id="list-of-tuples-number-place"),
        pytest.param(HEAD + "data = [(torch.ones(1), torch.ones(1)) for _ in range(3)]\nfor j, (x, y) in enumerate(data):\n"
                     "    probe(y)\n", "tensor", id="comprehension-of-tuples"),
        pytest.param(HEAD + "def f(fo):\n    data = []\n    for line in fo:\n        data.append([torch.ones(1), torch.ones(1)])\n"
                     "    for x, y in data:\n        probe(x)\n", None, id="grown-list-of-lists"),  # (a list may change)
        pytest.param(HEAD + "data = [(torch.ones(1), 3), ('a', 4)]\nfor x, n in data:\n    probe(x)\n", None,
                     id="list-of-tuples-disagreeing"),
        pytest.param(HEAD + "data = [(torch.ones(1), 3), (torch.zeros(1),)]\nfor x, *n in data:\n    probe(x)\n", None,
                     id="list-of-tuples-of-two-lengths"),
        pytest.param(HEAD + "def f(fo):\n    data = []\n    for line in fo:\n        data.append((torch.ones(1), 1))\n"
                     "    data[0] = ('a', 1)\n    for x, y in data:\n        probe(x)\n", None, id="list-of-tuples-stored-into"),
        pytest.param(HEAD + "def f(fo):\n    data = []\n    for line in fo:\n        data.append((torch.ones(1), 1))\n"
                     "    fill(data)\n    for x, y in data:\n        probe(x)\n", None, id="list-of-tuples-handed-on"),
        pytest.param(HEAD + "def f(fo):\n    data = []\n    for line in fo:\n        data.append((line, 1))\n"
                     "    for x, y in data:\n        probe(x)\n", None, id="list-of-tuples-of-unknowns"),
        pytest.param(HEAD + "q, r = torch.linalg.qr(torch.randn(3, 3))\nprobe(q)\n", "tensor", id="linalg-qr"),
        pytest.param(HEAD + "w, v = torch.linalg.eigh(torch.eye(3))\nprobe(torch.linalg.eigh(torch.eye(3)))\n", "container",
                     id="linalg-eigh-whole"),
        pytest.param(HEAD + "u, s, v = torch.randn(3, 3).svd()\nprobe(v)\n", "tensor", id="svd-method"),
        pytest.param(HEAD + "import numpy as np\nu, s, v = np.linalg.svd(a)\nprobe(s)\n", None, id="numpy-svd"),
        pytest.param(HEAD + "import scipy.linalg\nq, r = scipy.linalg.qr(a)\nprobe(q)\n", None, id="scipy-qr"),
        pytest.param(HEAD + "from mylib import svd\nu, s, v = svd(torch.randn(3, 3))\nprobe(s)\n", None, id="own-svd"),
        pytest.param(HEAD + "class M:\n    def svd(self):\n        return 1, 2, 3\nu, s, v = M().svd()\nprobe(s)\n", None,
                     id="own-svd-method"),
        pytest.param(HEAD + "out, inv = torch.unique(torch.randn(3), return_inverse=True)\nprobe(out)\n", None,
                     id="unique-tuple-by-flag"),
        pytest.param(HEAD + "out = nn.Linear(2, 2)(x)\nprobe(out == y)\n", "tensor", id="tensor-comparison"),
        pytest.param(HEAD + "probe(a == b)\n", None, id="comparison-of-unknowns"),
        pytest.param(HEAD + "out = nn.Linear(2, 2)(x)\nprobe(out is None)\n", None, id="identity-comparison"),
        pytest.param(HEAD + "a, b = pair\nprobe(a)\n", None, id="unpacked-unknown"),
        pytest.param(HEAD + "from apex import amp\nm, opt = amp.initialize(nn.Linear(2, 2), opt)\nprobe(m)\n", "module",
                     id="amp-initialize"),
        pytest.param(HEAD + "from accelerate import Accelerator\nacc = Accelerator()\n"
                     "m, opt = acc.prepare(nn.Linear(2, 2), opt)\nprobe(m)\n", "module", id="accelerator-prepare"),
        pytest.param(HEAD + "m, opt = helper.prepare(nn.Linear(2, 2), opt)\nprobe(m)\n", None, id="other-prepare"),
        pytest.param(HEAD + "from apex import amp\nm, opt = amp.initialize(*parts)\nprobe(m)\n", None,
                     id="amp-initialize-starred"),
        pytest.param(HEAD + "from apex import amp\nm, opt = amp.initialize(nn.Linear(2, 2), opt, opt_level='O1')\nprobe(m)\n",
                     "module", id="amp-initialize-options"),
        # one value comes back alone: unpacking it unpacks the module
        pytest.param(HEAD + "from apex import amp\nm, opt = amp.initialize(nn.Linear(2, 2), opt_level='O1')\nprobe(m)\n",
                     None, id="amp-initialize-one-value"),
        pytest.param(HEAD + "from apex.parallel import DistributedDataParallel as DDP\nprobe(DDP(nn.Linear(2, 2)))\n",
                     "module", id="apex-ddp"),
        pytest.param(HEAD + "import torchvision.models as models\nm = models.__dict__[arch]()\nprobe(m(x))\n", "tensor+graph",
                     id="namespace-model-output"),
        pytest.param(HEAD + "probe(nn.parallel.data_parallel(nn.Linear(2, 2), x, [0, 1]))\n", "tensor+graph",
                     id="functional-data-parallel"),
        pytest.param(HEAD + "probe(nn.parallel.data_parallel(body, x))\n", None, id="functional-data-parallel-unknown"),
        pytest.param(HEAD + "m = nn.Linear(2, 2)\n" + "def run(x):\n    return m(x)\nprobe(run(1))\n", "tensor+graph", id="function-of-the-file"),
        pytest.param(HEAD + "m = nn.Linear(2, 2)\n" + "def run(x):\n    return m(x), 0\nout, n = run(1)\nprobe(out)\n", "tensor+graph",
                     id="function-tuple-element"),
        pytest.param(HEAD + "m = nn.Linear(2, 2)\n" + "def run(x):\n    return m(x), 0\nout, n = run(1)\nprobe(n)\n", None, id="function-tuple-int"),
        pytest.param(HEAD + "m = nn.Linear(2, 2)\n" + "@torch.no_grad()\ndef run(x):\n    return m(x)\nprobe(run(1))\n", "tensor",
                     id="function-under-no-grad"),
        pytest.param(HEAD + "m = nn.Linear(2, 2)\n" + "def run(x):\n    with torch.no_grad():\n        return m(x), 0\nout, n = run(1)\nprobe(out)\n",
                     "tensor", id="returned-inside-no-grad"),
        pytest.param(HEAD + "m = nn.Linear(2, 2)\n" + "@cached\ndef run(x):\n    return m(x)\nprobe(run(1))\n", None, id="unknown-decorator"),
        pytest.param(HEAD + "m = nn.Linear(2, 2)\n" + "def run(x):\n    if x:\n        return None\n    return m(x)\nprobe(run(1))\n", None,
                     id="function-may-return-none"),
        pytest.param(HEAD + "m = nn.Linear(2, 2)\n" + "def run(x):\n    if x:\n        return m(x), 1\n    return stats\nout, n = run(1)\nprobe(out)\n", None,
                     id="function-not-always-a-tuple"),
        pytest.param(HEAD + "def run(x):\n    return run(x)\nprobe(run(1))\n", None, id="recursive-function"),
        pytest.param(HEAD + "from torch.utils.data import DataLoader\nloader = DataLoader(ds, batch_size=8)\n" + "for x, y in loader:\n    probe(x)\n", "tensor", id="batch-element"),
        pytest.param(HEAD + "from torch.utils.data import DataLoader\nloader = DataLoader(ds, batch_size=8)\n" + "for i, (x, y) in enumerate(loader):\n    probe(y)\n", "tensor", id="enumerated-batch-element"),
        pytest.param(HEAD + "from torch.utils.data import DataLoader\nloader = DataLoader(ds, batch_size=8)\n" + "from tqdm import tqdm\nfor x, y in tqdm(loader):\n    probe(x)\n", "tensor", id="tqdm-batch"),
        pytest.param(HEAD + "from torch.utils.data import DataLoader\nloader = DataLoader(ds, batch_size=8)\n" + "from tqdm import tqdm\nbar = tqdm(loader)\nfor x, y in bar:\n    probe(x)\n", "tensor",
                     id="tqdm-bound-to-a-name"),
        pytest.param(HEAD + "from tqdm import tqdm\nbar = tqdm(items)\nfor x, y in bar:\n    probe(x)\n", None,
                     id="tqdm-of-unknown"),
        pytest.param(HEAD + "from torch.utils.data import DataLoader\nloader = DataLoader(ds, batch_size=8)\n" + "for batch in loader:\n    x, y = batch\n    probe(x)\n", "tensor", id="batch-unpacked-later"),
        pytest.param(HEAD + "from torch.utils.data import DataLoader\nloader = DataLoader(ds, batch_size=8)\n" + "x, y = next(iter(loader))\nprobe(x)\n", "tensor", id="next-iter-loader"),
        pytest.param(HEAD + "from torch.utils.data import DataLoader\nloader = DataLoader(ds, batch_size=8)\n" + "for batch in loader:\n    probe(batch)\n", "container", id="whole-batch"),
        pytest.param(HEAD + "from torch.utils.data import DataLoader\nloader = DataLoader(ds, collate_fn=pad)\n" + "for x, y in loader:\n    probe(x)\n", None, id="custom-collate"),
        pytest.param(HEAD + "from torch.utils.data import DataLoader\nloader = DataLoader(ds, batch_size=8)\n" + "for x, (y, z) in loader:\n    probe(y)\n", None, id="nested-unpacking"),
        pytest.param(HEAD + "for x, y in loader:\n    probe(x)\n", None, id="unknown-loader"),
        pytest.param(HEAD + "from torch.utils.data import DataLoader\nloader = DataLoader(ds, batch_size=8, **options)\n" + "for x, y in loader:\n    probe(x)\n", None,
                     id="loader-given-a-keyword-mapping"),
        pytest.param(HEAD + "from torch.utils.data import DataLoader\nloader = DataLoader(ds, batch_size=None)\n" + "for x, y in loader:\n    probe(x)\n", None,
                     id="loader-without-batching"),
        pytest.param(HEAD + "from torch.utils.data import DataLoader\nloader = DataLoader(ds, 8, True, None, None, 0, pad)\n" + "for x, y in loader:\n    probe(x)\n", None,
                     id="loader-given-a-collate-function-by-position"),
        pytest.param(HEAD + "from torch.utils.data import DataLoader\ndef make(ds):\n    return DataLoader(ds)\nloader = make(ds)\nloader.collate_fn = pad\n" + "for x, y in loader:\n    probe(x)\n", None,
                     id="loader-from-a-function-given-a-collate-function-later"),
        pytest.param(HEAD + "from torch.utils.data import DataLoader\nloader = DataLoader(ds)\n" + "for x, y in loader:\n    probe(x)\n    print(x.mask)\n", None,
                     id="batch-element-with-an-attribute-no-tensor-has"),
        pytest.param(HEAD + "from torch.utils.data import DataLoader\nloader = DataLoader(ds)\n" + "for x, y in loader:\n    probe(x)\n    print(x.shape, x.device)\n", "tensor",
                     id="batch-element-with-a-tensor-s-attributes"),
        pytest.param(HEAD + "from torch.utils.data import DataLoader\nloaders = {'train': DataLoader(ds), 'val': DataLoader(vs)}\n" + "for x, y in loaders[phase]:\n    probe(y)\n",
                     "tensor", id="dict-of-loaders"),
        pytest.param(HEAD + "from torch.utils.data import DataLoader\nloaders = [DataLoader(ds), DataLoader(vs)]\n" + "for x, y in loaders[i]:\n    probe(y)\n",
                     "tensor", id="list-of-loaders"),
        pytest.param(HEAD + "from torch.utils.data import DataLoader\ndef make(ds):\n    return DataLoader(ds, batch_size=2)\n" + "for x, y in make(ds):\n    probe(y)\n",
                     "tensor", id="function-returning-a-loader"),
        pytest.param(HEAD + "from torch.utils.data import DataLoader\nloaders = {'train': DataLoader(ds), 'val': DataLoader(vs, collate_fn=pad)}\n" + "for x, y in loaders[phase]:\n    probe(y)\n",
                     None, id="dict-of-loaders-one-with-own-collate"),
        pytest.param(HEAD + "from torch.utils.data import DataLoader\nloaders = {'train': DataLoader(ds), 'val': vs}\n" + "for x, y in loaders[phase]:\n    probe(y)\n",
                     None, id="dict-of-a-loader-and-something-else"),
        pytest.param(HEAD + "from torch.utils.data import DataLoader\ndef make(ds):\n    if ds:\n        return DataLoader(ds)\n    return ds\n" + "for x, y in make(ds):\n    probe(y)\n",
                     None, id="function-returning-a-loader-or-else"),
        pytest.param(HEAD + "from torch.utils.data import DataLoader\nloaders = {'train': DataLoader(ds)}\nloaders['val'] = other\n" + "for x, y in loaders[phase]:\n    probe(y)\n",
                     None, id="dict-of-loaders-changed"),
        pytest.param(NET + "probe(next(Net().parameters()))\n", "tensor+graph", id="next-parameter"),
        pytest.param(NET + "probe(next(iter(Net().parameters())))\n", "tensor+graph", id="next-iter-parameter"),
        pytest.param(NET + "for p in filter(lambda p: p.requires_grad, Net().parameters()):\n    probe(p)\n", "tensor+graph",
                     id="filtered-parameters"),
        pytest.param(NET + "ps = list(Net().parameters())\nfor p in ps:\n    probe(p)\n", "tensor+graph", id="listed-parameters"),
        pytest.param(NET + "def list(x):\n    return shuffle(x)\nfor p in list(Net().parameters()):\n    probe(p)\n", None,
                     id="shadowed-builtin"),
        pytest.param(HEAD + "probe(next(batches))\n", None, id="next-of-unknown"),
        pytest.param(NET + "for p in filter(Net().parameters()):\n    probe(p)\n", None, id="filter-one-argument"),
        pytest.param(NET + "for k in sorted({'a': Net()}):\n    probe(k)\n", None, id="sorted-dict-keys"),
        pytest.param(NET + "m = Net()\nif x:\n    m = torch.load(f)\ndef g():\n    probe(m)\n", "module", id="reloaded-model"),
        pytest.param(NET + "m = Net()\nif x:\n    m, c = torch.load(f)\ndef g():\n    probe(m)\n", "module",
                     id="reloaded-model-tuple"),
        pytest.param(HEAD + "m = torch.load(f)\nprobe(m)\n", None, id="only-unpickled"),
        pytest.param(NET + "m = Net()\nm = torch.load(f)\nprobe(m)\n", None, id="unpickled-reaches-alone"),
        pytest.param(NET + "m = Net()\nif x:\n    m = load_model(f)\ndef g():\n    probe(m)\n", None,
                     id="other-loader-unknown"),
        pytest.param(AGENT + "a, b = Agent().act(x)\nprobe(a)\n", "tensor+graph", id="own-method-result-unpacked"),
        pytest.param(AGENT + "h, t = Agent()(x)\nprobe(t)\n", "tensor+graph", id="forward-tuple-unpacked"),
        pytest.param(AGENT + "probe(Agent()(x)[0])\n", "tensor+graph", id="forward-tuple-indexed"),
        pytest.param(AGENT + "probe(Agent().score(x))\n", "tensor+graph", id="own-method-tensor"),
        pytest.param(AGENT + "a, b = Agent().mixed(x)\nprobe(a)\n", "tensor+graph", id="own-method-tuple-element"),
        pytest.param(AGENT + "a, b = Agent().mixed(x)\nprobe(b)\n", None, id="own-method-tuple-int"),
        pytest.param(AGENT + "probe(Agent().maybe(x))\n", None, id="own-method-may-return-none"),
        pytest.param(AGENT + "probe(Agent().stats(x))\n", "container", id="own-method-dict"),
        pytest.param(AGENT + "probe(Agent().stats(x)['n'])\n", "tensor+graph", id="own-method-dict-value"),
        pytest.param(AGENT + "for k, v in Agent().stats(x).items():\n    probe(v)\n", "tensor+graph",
                     id="own-method-dict-items"),
        # iterating a dict gives its keys; a value of another kind, a `**` entry or a later store: unknown
        pytest.param(AGENT + "for k in Agent().stats(x):\n    probe(k)\n", None, id="dict-keys"),
        pytest.param(HEAD + "d = {'a': torch.ones(1), 'n': 3}\nprobe(d['a'])\n", "tensor", id="dict-mixed-by-key"),
        pytest.param(HEAD + "d = {'a': torch.ones(1), 'n': 3}\nprobe(d['n'])\n", None, id="dict-mixed-number"),
        pytest.param(HEAD + "d = {'a': torch.ones(1), 'n': 3}\nfor k, v in d.items():\n    probe(v)\n", None,
                     id="dict-mixed-values"),
        pytest.param(HEAD + "d = {'a': torch.ones(1), **extra}\nprobe(d['a'])\n", None, id="dict-starred"),
        pytest.param(HEAD + "d = {'a': torch.ones(1)}\nd['b'] = 3\nprobe(d['b'])\n", None, id="dict-stored-later"),
        pytest.param(AGENT + "probe(Agent().missing(x))\n", None, id="method-not-defined"),
        pytest.param(HEAD + "class Pair(nn.Module):\n    def forward(self, x):\n        return {'a': self.fc(x)}\n"
                     "probe(Pair()(x))\n", "object", id="forward-dict"),
        pytest.param(HEAD + "def f(m):\n    probe(m.bn.running_mean)\n", "tensor", id="guessed-layer-buffer"),
        pytest.param(HEAD + "def f(m):\n    probe(m.bn.num_batches_tracked)\n", "tensor", id="guessed-batch-count-buffer"),
        pytest.param(HEAD + "def f(m):\n    probe(m.rnn.weight_hh_l0)\n", "tensor+graph", id="guessed-rnn-parameter"),
        pytest.param(HEAD + "def f(m):\n    probe(m.cell.bias_ih)\n", "tensor+graph", id="guessed-rnn-cell-parameter"),
        pytest.param(HEAD + "def f(m):\n    probe(m.rnn.weight_hh_l0_reverse)\n", "tensor+graph", id="guessed-reverse"),
        pytest.param("import numpy as np\ndef f(m):\n    probe(m.bn.running_mean)\n", None, id="buffer-name-without-torch"),
        pytest.param(HEAD + "def f(m):\n    probe(m.stats.running_means)\n", None, id="other-name"),
        pytest.param(HEAD + "def f(m):\n    probe(m.rnn.weight_hh_l0x)\n", None, id="not-an-rnn-name"),
        pytest.param(HEAD + "class Stats:\n    def __init__(self):\n        self.running_mean = 0.0\n"
                     "probe(Stats().running_mean)\n", None, id="known-class-field"),
        pytest.param(HEAD + "class Head(nn.Module):\n    def forward(self, h):\n        h = self.proj(h)\n"
                     "        h = torch.relu(h)\n        return h\nprobe(Head()(x))\n", "tensor+graph",
                     id="forward-returns-last-binding"),
        pytest.param(HEAD + "class Head(nn.Module):\n    def forward(self, h):\n        h = torch.relu(h)\n"
                     "        h = helper(h)\n        return h\nprobe(Head()(x))\n", "object", id="forward-last-binding-unknown"),
        pytest.param(HEAD + "class Head(nn.Module):\n    def forward(self, h):\n        h = torch.relu(h)\n"
                     "        if h.sum() > 0:\n            h = helper(h)\n        return h\nprobe(Head()(x))\n", "object",
                     id="forward-branch-may-rebind"),
        pytest.param(HEAD + "from torch.autograd import Variable\ndef f(v):\n    if isinstance(v, Variable):\n"
                     "        probe(v)\n", "tensor", id="isinstance-variable"),
        pytest.param(HEAD + "def f(v):\n    if isinstance(v, torch.FloatTensor):\n        probe(v)\n", "tensor",
                     id="isinstance-typed-tensor"),
        pytest.param(HEAD + "def f(v):\n    if torch.is_tensor(v):\n        probe(v)\n", "tensor", id="is-tensor"),
        pytest.param(HEAD + "from torch.autograd import Variable\ndef f(h):\n    if type(h) == Variable:\n        probe(h)\n",
                     "tensor", id="type-equals-variable"),
        pytest.param(HEAD + "def f(h):\n    if type(h) is dict:\n        probe(h)\n", None, id="type-is-dict"),
        pytest.param(HEAD + "def f(h, g):\n    if type(g) == torch.Tensor:\n        probe(h)\n", None, id="type-of-another-name"),
        pytest.param(HEAD + "def f(v, w):\n    if torch.is_tensor(w):\n        probe(v)\n", None, id="is-tensor-other"),
        pytest.param(HEAD + "def f(v):\n    if torch.is_tensor(v):\n        pass\n    probe(v)\n", None,
                     id="is-tensor-outside"),
        # (said to be no tensor: some other object)
        pytest.param(HEAD + "def f(v):\n    if not torch.is_tensor(v):\n        probe(v)\n", "object",
                     id="not-is-tensor"),
        pytest.param(HEAD + "import numpy as np\ndef f(v):\n    if isinstance(v, np.ndarray):\n        probe(v)\n", None,
                     id="isinstance-ndarray"),
        # a class known to be no tensor, or not known to be one, says so against an annotation too
        pytest.param(HEAD + "class Affine:\n    pass\ndef f(v: torch.Tensor):\n    x = probe(v) if isinstance(v, Affine) else 0\n",
                     "object", id="isinstance-plain-class-against-annotation"),
        pytest.param(HEAD + "from lib import Box\ndef f(v: torch.Tensor):\n    if type(v) is Box:\n        probe(v)\n",
                     None, id="type-is-unknown-class-against-annotation"),  # (maybe no tensor: the annotation's claim drops)
        pytest.param(HEAD + "import numpy as np\ndef f(v: torch.Tensor):\n    if isinstance(v, np.ndarray):\n        probe(v)\n",
                     None, id="isinstance-ndarray-against-annotation"),
        pytest.param(HEAD + "class Affine:\n    pass\ndef f(v: torch.Tensor):\n    if isinstance(v, (Affine, torch.Tensor)):\n"
                     "        probe(v)\n", "object", id="isinstance-either-against-annotation"),
        pytest.param(HEAD + "def f(v: torch.Tensor):\n    if isinstance(v, torch.Tensor):\n        probe(v)\n", "tensor",
                     id="isinstance-tensor-with-annotation"),
        # classes not named as such (a tuple in a variable, a union, `type(b)`) say nothing
        pytest.param(HEAD + "TYPES = (torch.Tensor, nn.Parameter)\ndef f(v: torch.Tensor):\n    if isinstance(v, TYPES):\n"
                     "        probe(v)\n", "tensor", id="isinstance-tuple-variable-with-annotation"),
        pytest.param(HEAD + "def f(v: torch.Tensor):\n    if isinstance(v, torch.Tensor | None):\n        probe(v)\n", "tensor",
                     id="isinstance-union-with-annotation"),
        pytest.param(HEAD + "def f(v: torch.Tensor, w):\n    if type(v) is type(w):\n        probe(v)\n", "tensor",
                     id="type-is-type-of-another-with-annotation"),
        pytest.param(HEAD + "from timm.layers import StdConv2d\ndef f(m: nn.Module):\n    if isinstance(m, StdConv2d):\n"
                     "        probe(m)\n", "module", id="isinstance-unknown-class-of-a-module"),  # (a module stays one)
        pytest.param(HEAD + "def f(m):\n    m.named_parameters()\n    probe(m)\n", "module", id="usage-evidence"),
        pytest.param(NET + "net = Net()\nfor layer in net.modules():\n    probe(layer)\n", "module", id="modules"),
        pytest.param(NET + "net = Net()\nfor n, p in net.named_parameters():\n    probe(p)\n", "tensor+graph", id="params"),
        pytest.param(NET + "net = Net()\nx = [probe(c) for c in net.children()]\n", "module", id="comprehension"),
        pytest.param(NET + "c = Net()\nx = [probe(c) for c in range(3)]\n", None, id="comprehension-shadows"),
        pytest.param(HEAD + "import timm\nprobe(timm.create_model('resnet50'))\n", "module", id="timm"),
        pytest.param("import torchvision\nprobe(torchvision.models.resnet18())\n", "module", id="torchvision"),
        pytest.param("import torchvision\nprobe(torchvision.models.get_weight('x'))\n", None, id="tv-weights"),
        pytest.param("from transformers import AutoConfig\nprobe(AutoConfig.from_pretrained('x'))\n", None, id="config"),
        pytest.param("from diffusers import UNet2DModel\nprobe(UNet2DModel.from_pretrained('x'))\n", "module", id="unet"),
        pytest.param("from models import Net\nprobe(Net())\n", None, id="imported-unknown-class"),
        pytest.param(NET + "m = Net()\ndef f():\n    probe(m)\n", "module", id="enclosing-scope"),
        pytest.param(NET + "m = Net()\ndef f(m):\n    probe(m)\n", None, id="parameter-shadows-global"),
        pytest.param(NET + "probe(Net)\n", "class", id="class-object"),
        # tensors, and whether they carry an autograd graph
        pytest.param(HEAD + "probe(torch.randn(3))\n", "tensor", id="torch-op"),
        pytest.param(HEAD + "probe(torch.zeros(3, requires_grad=True))\n", "tensor+graph", id="requires-grad"),
        # a tuple of tensors, not a tensor
        pytest.param(HEAD + "probe(torch.chunk(x, 2))\n", "container", id="tuple-returning-op"),
        pytest.param(HEAD + "probe(torch.where(x > 0, x, 0.0))\n", "tensor", id="where-picking-elements"),
        pytest.param(HEAD + "probe(torch.where(x > 0, input=x, other=0.0))\n", "tensor", id="where-by-keywords"),
        pytest.param(HEAD + "probe(torch.where(x > 0))\n", None, id="where-giving-indices"),
        pytest.param(HEAD + "import numpy as np\nprobe(np.where(x > 0, x, 0.0))\n", None, id="numpy-where"),
        pytest.param(HEAD + "m = nn.Linear(2, 2)\nprobe(m(x))\n", "tensor+graph", id="module-call"),
        pytest.param(HEAD + "m = nn.Linear(2, 2)\nprobe(m.forward(x))\n", "tensor+graph", id="forward-call"),
        pytest.param(HEAD + "m = nn.LSTM(2, 2)\nprobe(m(x))\n", "container", id="lstm-returns-tuple"),
        pytest.param(NET + "probe(Net()(x))\n", "object", id="forward-returns-unknown-input"),
        pytest.param(
            HEAD + "class M(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
            "        self.fc = nn.Linear(2, 2)\n    def forward(self, x):\n        return self.fc(x)\n"
            "probe(M()(x))\n",
            "tensor+graph",
            id="forward-returns-tensor",
        ),
        pytest.param(
            HEAD + "import torch.nn.functional as F\nm = nn.Linear(2, 2)\nprobe(F.mse_loss(m(x), y))\n",
            "tensor+graph",
            id="functional-loss",
        ),
        pytest.param(HEAD + "c = nn.CrossEntropyLoss()\nm = nn.Linear(2, 2)\nprobe(c(m(x), y))\n", "tensor+graph", id="criterion"),
        pytest.param(HEAD + "m = nn.Linear(2, 2)\nl = m(x).sum()\nprobe(l.detach())\n", "tensor", id="detach"),
        pytest.param(HEAD + "m = nn.Linear(2, 2)\nl = m(x).sum()\nprobe(l.item())\n", None, id="item"),
        pytest.param(HEAD + "m = nn.Linear(2, 2)\nl = m(x).sum()\nprobe(l * 2 + 1)\n", "tensor+graph", id="arithmetic"),
        pytest.param(HEAD + "m = nn.Linear(2, 2)\nprobe(m.weight)\n", "tensor+graph", id="weight"),
        pytest.param(HEAD + "m = nn.Linear(2, 2)\nprobe(m.weight.grad)\n", "tensor", id="grad"),
        pytest.param(
            "from transformers import AutoModel\nm = AutoModel.from_pretrained('x')\nout = m(**b)\nprobe(out.loss)\n",
            "tensor+graph",
            id="model-output-loss",
        ),
        pytest.param(
            "from transformers import AutoModel\nm = AutoModel.from_pretrained('x')\nprobe(m(**b).hidden)\n",
            None,
            id="model-output-other-field",
        ),
        pytest.param("import numpy as np\nprobe(np.zeros(3))\n", None, id="numpy"),
        pytest.param(HEAD + "from torch.utils.data import DataLoader\nprobe(DataLoader(ds))\n", "object", id="loader"),
    ],
)
def test_kind(source, expected):
    assert kinds(source) == [expected]


# Evidence from how a value is used (`.backward()` on it, iterating its `.parameters()`) and annotations.
FROM_USE = {
    # a parameter rebound to a tensor in one branch: where it is not, its uses decide
    "param-rebound-under-if": (HEAD + "import torch.nn.functional as F\ndef f(x):\n    if x.dim() > 2:\n"
                               "        x = x.view(x.size(0), -1)\n    y = F.log_softmax(x)\n    probe(x)\n", "tensor"),
    "param-rebound-type-tested": (HEAD + "import numpy as np\ndef f(x):\n    if isinstance(x, np.ndarray):\n"
                                  "        x = torch.from_numpy(x)\n    n = x.size(0)\n    probe(x)\n", None),
    "param-rebound-no-tensor-use": (HEAD + "def f(x, c):\n    if c:\n        x = torch.tensor(x)\n    probe(x)\n", None),
    "param-rebound-to-an-object": (HEAD + "def f(x, c):\n    if c:\n        x = Box(x)\n    n = x.size(0)\n    probe(x)\n", None),
    "backpropagated-local": (HEAD + "def f(c, b):\n    loss = c.compute(b)\n    loss.backward()\n    probe(loss)\n",
                             "tensor+graph"),
    "backward-wrapper-receiver": (HEAD + "def f(accelerator, loss):\n    accelerator.backward(loss)\n    probe(accelerator)\n",
                                  None),
    "own-class-with-backward": ("class Value:\n    def backward(self):\n        pass\nv = Value()\nv.backward()\nprobe(v)\n",
                                "object"),
    "parameters-of-unknown": (HEAD + "def f(net):\n    for p in net.parameters():\n        probe(p)\n", "tensor+graph"),
    "zip-parameters": (HEAD + "def f(a, b):\n    for p, q in zip(a.parameters(), b.parameters()):\n        probe(q)\n",
                       "tensor+graph"),
    "named-parameters-of-attribute": (HEAD + "def f(s):\n    for n, p in s.model.named_parameters():\n        probe(p)\n",
                                      "tensor+graph"),
    "named-parameters-name": (HEAD + "def f(s):\n    for n, p in s.model.named_parameters():\n        probe(n)\n", None),
    "own-parameters-method": ("class Grid:\n    def parameters(self):\n        return [1]\nfor p in Grid().parameters():\n"
                              "    probe(p)\n", None),
    "chain-of-iterators": (HEAD + "import itertools\ndef f(m):\n    for n, p in itertools.chain(m.named_parameters(), m.named_buffers()):\n"
                           "        probe(p)\n", "tensor"),
    # iterables of parameters kept in a name first (EMA updates, Polyak averaging)
    "parameters-through-a-name": (HEAD + "def f(a, b):\n    pa = a.parameters()\n    for p, q in zip(pa, b.parameters()):\n"
                                  "        probe(p)\n", "tensor+graph"),
    "chain-through-a-name": (HEAD + "import itertools\ndef f(m):\n    both = itertools.chain(m.parameters(), m.buffers())\n"
                             "    for t in both:\n        probe(t)\n", "tensor"),
    "either-iterable": (HEAD + "import itertools\ndef f(m, every):\n    it = (itertools.chain(m.parameters(), m.buffers())"
                        " if every else m.parameters())\n    for t in it:\n        probe(t)\n", "tensor"),
    "own-parameters-method-through-a-name": ("class Grid:\n    def parameters(self):\n        return [1]\n"
                                             "ps = Grid().parameters()\nfor p in ps:\n    probe(p)\n", None),
    "chain-of-unknown-through-a-name": ("import itertools\ndef f(a, b):\n    both = itertools.chain(a, b)\n"
                                        "    for x in both:\n        probe(x)\n", None),
    "chain-of-unknown": ("from itertools import chain\ndef f(a, b):\n    for x in chain(a, b):\n        probe(x)\n", None),
    "optional-annotation": (HEAD + "from typing import Optional\ndef f(m: Optional[nn.Module]):\n    probe(m)\n", "module"),
    "or-none-annotation": (HEAD + "def f(t: torch.Tensor | None = None):\n    probe(t)\n", "tensor"),
    "union-annotation": (HEAD + "from typing import Union\ndef f(m: Union[nn.Module, str]):\n    probe(m)\n", None),
    "optional-unknown-annotation": ("from typing import Optional\ndef f(m: Optional[Foo]):\n    probe(m)\n", None),
    "grad-of-unknown": ("def f(x):\n    probe(x.grad)\n", "tensor"),
    # a read `.grad` (a custom optimizer's step): a Parameter, in a file that uses torch
    "grad-read-of-unknown": (HEAD + "def step(group):\n    for p in group['params']:\n        if p.grad is None:\n"
                             "            continue\n        probe(p)\n", "tensor+graph"),
    "grad-read-without-torch": ("import chainer\ndef step(params):\n    for p in params:\n        p.data -= p.grad\n"
                                "        probe(p)\n", None),
    "grad-method-call": (HEAD + "def f(param):\n    g = param.grad()\n    probe(param)\n", None),
    "grad-stored-on-unknown": (HEAD + "def f(n):\n    n.grad = 0\n    probe(n)\n", None),
    "grad-read-of-constructed-instance": (HEAD + "def f():\n    n = Node()\n    if n.grad:\n        probe(n)\n", None),
    # attributes a class never assigns come from its bases
    "attribute-of-local-base": (HEAD + "class Base(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
                                "        self.conv = nn.Conv2d(1, 1, 1)\nclass Child(Base):\n    def fuse(self):\n"
                                "        probe(self.conv)\n", "module"),
    "weight-of-torch-base": (HEAD + "class MyLinear(nn.Linear):\n    def reset(self):\n        probe(self.weight)\n",
                             "tensor+graph"),
    "attribute-behind-an-unknown-base": (HEAD + "class Base(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
                                         "        self.conv = nn.Conv2d(1, 1, 1)\nclass Child(Mixin, Base):\n    def fuse(self):\n"
                                         "        probe(self.conv)\n", None),
    "attribute-no-base-sets": (HEAD + "class Base(nn.Module):\n    pass\nclass Child(Base):\n    def f(self):\n"
                               "        probe(self.conv)\n", None),
    "attribute-set-by-the-class-itself": (HEAD + "class Base(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
                                          "        self.conv = nn.Conv2d(1, 1, 1)\nclass Child(Base):\n    def __init__(self):\n"
                                          "        super().__init__()\n        self.conv = 3\n    def f(self):\n"
                                          "        probe(self.conv)\n", None),
    "grad-of-own-class": ("class Node:\n    def __init__(self):\n        self.grad = 0.0\nn = Node()\nprobe(n.grad)\n", None),
    "built-elements": (HEAD + "heads = nn.ModuleList(nn.Sequential(nn.Conv2d(d, d, 3), nn.Conv2d(d, 4, 1)) for d in dims)\n"
                       "for h in heads:\n    probe(h[-1].bias)\n", "tensor+graph"),
    "built-elements-of-unknown": (HEAD + "heads = nn.ModuleList(make(d) for d in dims)\nfor h in heads:\n"
                                  "    probe(h[-1])\n", None),
    "children-of-unknown": ("def f(doc):\n    for c in doc.root.children():\n        probe(c)\n", None),
    # a torch distribution's parameters and moments are tensors
    "distribution-loc": (HEAD + "import torch.distributions as D\nd = D.MultivariateNormal(torch.zeros(2), torch.eye(2))\n"
                         "probe(d.loc)\n", "tensor"),
    "distribution-mean": (HEAD + "from torch.distributions import Normal\nprobe(Normal(0.0, 1.0).mean)\n", "tensor"),
    # look-alikes: what is not a tensor, or a distribution class of the file's own
    "distribution-event-shape": (HEAD + "import torch.distributions as D\nd = D.Normal(torch.zeros(2), 1.0)\n"
                                 "probe(d.event_shape)\n", None),
    "distribution-of-the-file": (HEAD + "class Normal:\n    def __init__(self):\n        self.loc = [0.0]\nprobe(Normal().loc)\n",
                                 None),
    # a value bound while autograd is off carries no graph where it is used after
    "bound-under-no-grad": (HEAD + "def f(model, x):\n    with torch.no_grad():\n        loss = nn.MSELoss()(model(x), x)\n"
                            "    probe(loss)\n", "tensor"),
    "bound-in-a-no-grad-function": (HEAD + "@torch.no_grad()\ndef f(model, x):\n    loss = nn.MSELoss()(model(x), x)\n"
                                    "    probe(loss)\n", "tensor"),
    # (`torch` only through a star import the index cannot read: its `no_grad` keeps no graph in)
    "bound-under-no-grad-of-unseen-torch": ("import torch.nn as nn\nfrom utils import *\ncrit = nn.MSELoss()\ndef f(model, x):\n"
                                            "    with torch.no_grad():\n        loss = crit(model(x), x)\n    probe(loss)\n", "tensor"),
    # look-alikes: bound before the block, or where grad is enabled again
    "bound-before-no-grad": (HEAD + "def f(model, x):\n    loss = nn.MSELoss()(model(x), x)\n    with torch.no_grad():\n"
                             "        probe(loss)\n", "tensor+graph"),
    "bound-under-enable-grad-in-no-grad": (HEAD + "def f(model, x):\n    with torch.no_grad():\n        with torch.enable_grad():\n"
                                           "            loss = nn.MSELoss()(model(x), x)\n    probe(loss)\n", "tensor+graph"),
    "bound-in-a-no-grad-function-under-enable-grad": (HEAD + "@torch.no_grad()\ndef f(model, x):\n    with torch.enable_grad():\n"
                                                      "        loss = nn.MSELoss()(model(x), x)\n    probe(loss)\n", "tensor+graph"),
    # look-alikes: a tensor made before, only named again under no_grad, keeps its graph
    "named-again-under-no-grad": (HEAD + "def f(model, x):\n    out = nn.MSELoss()(model(x), x)\n    with torch.no_grad():\n"
                                  "        loss = out\n    probe(loss)\n", "tensor+graph"),
    "chosen-under-no-grad": (HEAD + "def f(model, x, c):\n    out = nn.MSELoss()(model(x), x)\n    with torch.no_grad():\n"
                             "        loss = out if c else out * 1\n    probe(loss)\n", "tensor+graph"),
    # a model `torch.load` gave in one branch, a class of the file in the other: the class's tuple
    # output, each tensor a guess (the loaded one may be another model)
    "loaded-or-built-tuple-output": (HEAD + "class Net(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
                                     "        self.l = nn.Linear(4, 1)\n    def forward(self, x):\n        v = self.l(x)\n        return v.sum(1), v\n"
                                     "def f(p, x):\n    if p:\n        m = torch.load(p)\n    else:\n        m = Net()\n"
                                     "    R, v = m(x)\n    probe(R)\n", "tensor+graph"),
    "loaded-or-built-dict-output": (HEAD + "class Net(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
                                    "        self.l = nn.Linear(4, 1)\n    def forward(self, x):\n        return {'r': self.l(x)}\n"
                                    "def f(p, x):\n    if p:\n        m = torch.load(p)\n    else:\n        m = Net()\n"
                                    "    out = m(x)\n    probe(out['r'])\n", None),
    # what a generator of the file yields (its functions, its top-level classes' methods)
    "generator-function-of-the-file": (HEAD + "def gen():\n    for i in range(3):\n        yield torch.zeros(2), i\n"
                                       "for a, b in gen():\n    probe(a)\n", "tensor"),
    "generator-method-of-the-file": (HEAD + "class Batches:\n    def each(self):\n        yield torch.zeros(2)\n"
                                     "    def run(self):\n        for x in self.each():\n            probe(x)\n", "tensor"),
    "generator-yielding-a-name-too": (HEAD + "def gen(rows):\n    yield torch.zeros(2)\n    yield rows\n"
                                      "for a in gen([]):\n    probe(a)\n", None),
    "generator-yielding-from": (HEAD + "def gen(rows):\n    yield torch.zeros(2)\n    yield from rows\n"
                                "for a in gen([]):\n    probe(a)\n", None),
    "generator-nested-in-a-function": (HEAD + "def outer():\n    def gen():\n        yield torch.zeros(2)\n"
                                       "    for a in gen():\n        probe(a)\n", None),
    # a method returning an instance of a class of the file: what that class's attributes hold
    "instance-returned-by-a-method": (HEAD + "class Holder:\n    def __init__(self):\n        self.net = nn.Linear(2, 2)\n"
                                      "class Maker:\n    def make(self):\n        return Holder()\n"
                                      "probe(Maker().make().net)\n", "module"),
    "instance-or-none-returned-by-a-method": (HEAD + "class Holder:\n    def __init__(self):\n        self.net = nn.Linear(2, 2)\n"
                                              "class Maker:\n    def make(self, ok):\n        if not ok:\n            return None\n"
                                              "        return Holder()\nprobe(Maker().make(1).net)\n", None),
    "instance-of-a-class-with-an-unseen-base": (HEAD + "from lib import Base\nclass Holder(Base):\n    def __init__(self):\n"
                                                "        self.net = nn.Linear(2, 2)\nclass Maker:\n    def make(self):\n"
                                                "        return Holder()\nprobe(Maker().make().net)\n", None),
    # a tuple handed to one of torch's own layers is read, not changed: `out, hc = lstm(x, hc)`
    "hidden-fed-back-to-a-torch-layer": (HEAD + "lstm = nn.LSTM(4, 4)\ndef f(x):\n    hc = None\n"
                                         "    for _ in range(3):\n        out, hc = lstm(x, hc)\n        probe(hc[0])\n",
                                         "tensor+graph"),
    "hidden-fed-back-to-an-element": (HEAD + "cells = nn.ModuleList([nn.LSTM(4, 4) for _ in range(2)])\ndef f(x, i):\n"
                                      "    cell = cells[i]\n    hc = None\n    out, hc = cell(x, hc)\n    probe(hc[1])\n",
                                      "tensor+graph"),
    # look-alikes: a module that runs modules of any class, or one of the project's, may change it
    "hidden-fed-to-a-sequential": (HEAD + "lstm = nn.LSTM(4, 4)\nseq = nn.Sequential(Custom())\ndef f(x):\n    hc = None\n"
                                   "    out, hc = lstm(x, hc)\n    seq(hc)\n    probe(hc[0])\n", None),
    "hidden-fed-to-a-module-of-the-file": (HEAD + "class Cell(nn.Module):\n    def forward(self, x, hc):\n"
                                           "        return x, hc\nlstm = nn.LSTM(4, 4)\ncell = Cell()\ndef f(x):\n"
                                           "    hc = None\n    out, hc = lstm(x, hc)\n    cell(x, hc)\n    probe(hc[0])\n",
                                           None),
    "hidden-fed-to-a-wrapper": (HEAD + "lstm = nn.LSTM(4, 4)\nwrapped = nn.DataParallel(make())\ndef f(x):\n    hc = None\n"
                                "    out, hc = lstm(x, hc)\n    wrapped(x, hc)\n    probe(hc[0])\n", None),
    # a name whose other bindings move the same object (`c = c.cuda()`): their uses count for it
    "moved-then-parameters": (HEAD + "c = Split(4)\nc = c.cuda()\nparams = list(c.parameters())\n"
                              "def f():\n    probe(c)\n", "module"),
    "moved-to-device-then-parameters": (HEAD + "def f(d):\n    c = Split(4)\n    c = c.to(d)\n"
                                        "    opt = torch.optim.SGD(c.parameters(), lr=1)\n    probe(c)\n", "module"),
    "moved-twice-then-parameters": (HEAD + "c = Split(4)\nc = c.cuda()\nc = c.train()\nparams = list(c.parameters())\n"
                                    "def f():\n    probe(c)\n", "module"),
    # look-alikes: another binding that is not the same object moved
    "wrapped-then-parameters": (HEAD + "c = Split(4)\nc = wrap(c)\nparams = list(c.parameters())\n"
                                "def f():\n    probe(c)\n", None),
    "rebound-then-parameters": (HEAD + "c = Split(4)\nc = c.cuda()\nc = Other()\nparams = list(c.parameters())\n"
                                "def f():\n    probe(c)\n", None),
    "other-name-moved": (HEAD + "c = Split(4)\nd = c.cuda()\nparams = list(d.parameters())\n"
                         "def f():\n    probe(c)\n", None),
    "moved-but-declared-global": (HEAD + "c = Split(4)\nc = c.cuda()\nparams = list(c.parameters())\n"
                                  "def g():\n    global c\n    c = Other()\ndef f():\n    probe(c)\n", None),
    "named-list-elements": (HEAD + "def f(sizes, x):\n    layers = [nn.Linear(4, n) for n in sizes]\n"
                            "    heads = nn.ModuleList(layers)\n    probe(heads[0](x))\n", "tensor+graph"),
    # (a module-level list: another function may append to it after the ModuleList is built)
    "named-list-at-module-level": (HEAD + "layers = [nn.Linear(4, n) for n in sizes]\nheads = nn.ModuleList(layers)\n"
                                   "probe(heads[0](x))\n", "object"),
    # look-alikes: the named list may hold something else when the ModuleList is built (then an
    # element is a module of no known class, whose output is opaque)
    "named-list-appended": (HEAD + "layers = [nn.Linear(4, n) for n in sizes]\nlayers.append(Head())\n"
                            "heads = nn.ModuleList(layers)\nprobe(heads[0](x))\n", "object"),
    "named-list-handed-on": (HEAD + "layers = [nn.Linear(4, n) for n in sizes]\nextend(layers)\n"
                             "heads = nn.ModuleList(layers)\nprobe(heads[0](x))\n", "object"),
    "named-list-item-replaced": (HEAD + "layers = [nn.Linear(4, n) for n in sizes]\nlayers[0] = Head()\n"
                                 "heads = nn.ModuleList(layers)\nprobe(heads[0](x))\n", "object"),
    "named-list-of-unknown": (HEAD + "layers = [make(n) for n in sizes]\nheads = nn.ModuleList(layers)\n"
                              "probe(heads[0](x))\n", "object"),
    "parameter-by-module-path": (HEAD + "from torch.nn.parameter import Parameter\nprobe(Parameter(torch.zeros(2)))\n",
                                 "tensor+graph"),
    # what only a tensor answers to (`x.size(0)`, `x.permute(...)`), in a file that uses torch: a guess
    "size-of-forward-input": (HEAD + "class S(nn.Module):\n    def forward(self, src, trg):\n        n = trg.size(0)\n"
                              "        probe(trg)\n", "tensor"),
    "dim-of-parameter": (HEAD + "def f(x):\n    if x.dim() == 3:\n        probe(x)\n", "tensor"),
    "permute-result": (HEAD + "def f(x):\n    y = x.view(2, 3).permute(0, 2, 1).contiguous()\n    probe(y[..., 2])\n",
                       "tensor"),
    "view-of-module-output": (HEAD + "def f(net: nn.Module, z):\n    probe(net(z).view(-1, 3))\n", "tensor"),
    "size-attribute": (HEAD + "def f(a):\n    n = a.size\n    probe(a)\n", None),
    "size-without-dimension": (HEAD + "def f(memory):\n    n = memory.size()\n    probe(memory)\n", None),
    "size-by-name": (HEAD + "def f(img):\n    w = img.size('w')\n    probe(img)\n", None),
    "size-without-torch": ("import numpy as np\ndef f(x):\n    n = x.size(0)\n    probe(x)\n", None),
    "size-of-type-tested": (HEAD + "from torch.nn.utils.rnn import PackedSequence\ndef f(x):\n"
                            "    if isinstance(x, PackedSequence):\n        probe(x)\n    return x.size(0)\n", None),
    "size-and-a-method-tensors-lack": (HEAD + "def f(q):\n    n = q.size(0)\n    q.push(n)\n    probe(q)\n", None),
    "size-of-constructed-instance": (HEAD + "def f():\n    q = Queue()\n    n = q.size(0)\n    probe(q)\n", None),
    "bmm-result": (HEAD + "def f(keys, q):\n    probe(keys.bmm(q).squeeze(2))\n", "tensor"),
    "bmm-of-a-class-of-the-file": (HEAD + "class Keys:\n    def bmm(self, q):\n        return self\ndef f(keys, q):\n"
                                   "    probe(keys.bmm(q))\n", None),
    # `view` with a number only a tensor takes (numpy's takes a dtype)
    "view-int-of-unknown": (HEAD + "def f(a):\n    n = a.view(-1, 3)\n    probe(a)\n", "tensor"),
    "view-dtype-of-unknown": (HEAD + "def f(a):\n    n = a.view(np.float32)\n    probe(a)\n", None),
    "view-of-unknown": (HEAD + "def f(a, d):\n    probe(a.view(d))\n", None),
    "permute-without-torch": ("def f(x):\n    probe(x.permute(0, 1))\n", None),
    "view-of-module-output-without-torch-method": (HEAD + "def f(net: nn.Module, z):\n    probe(net(z).keys())\n", None),
    # a use says something of the bindings that reach it only
    "size-then-packed": (HEAD + "from torch.nn.utils.rnn import pack_padded_sequence\ndef f(inputs, lengths):\n"
                         "    bsz = inputs.size(1)\n    inputs = pack_padded_sequence(inputs, lengths)\n    probe(inputs)\n",
                         "object"),  # a PackedSequence, whatever the size query said of the argument
    "size-then-rebound-to-unknown": (HEAD + "import json\ndef f(x, fh):\n    n = x.size(0)\n    x = json.load(fh)\n"
                                     "    probe(x)\n", None),
    "size-before-rebinding": (HEAD + "import json\ndef f(x, fh):\n    n = x.size(0)\n    probe(x)\n    x = json.load(fh)\n",
                              "tensor"),
    "size-in-a-comprehension": (HEAD + "def f(batch, records):\n    n = [seq.size(0) for seq in batch]\n"
                                "    for seq in records:\n        probe(seq)\n", None),
    "backward-then-item": (HEAD + "def f(c, b):\n    loss = c(b)\n    loss.backward()\n    loss = loss.item()\n"
                           "    probe(loss)\n", None),
    "backward-before-item": (HEAD + "def f(c, b):\n    loss = c(b)\n    loss.backward()\n    probe(loss)\n"
                             "    loss = loss.item()\n", "tensor+graph"),
    "size-of-a-class-of-the-file": (HEAD + "class Boxes:\n    def size(self, dim):\n        return 1\ndef f(boxes):\n"
                                    "    n = boxes.size(0)\n    probe(boxes)\n", None),
    "clamp-of-a-class-of-the-file": (HEAD + "class Boxes:\n    def clamp(self, a):\n        return self\ndef f(boxes):\n"
                                     "    probe(boxes.clamp(0))\n", None),
    # a class of its own with a `backward` and methods tensors lack: not a tensor, nor what it gives
    "backward-and-a-method-tensors-lack": (HEAD + "def f(loss):\n    loss.reset()\n    loss.backward()\n    probe(loss)\n",
                                           None),
    "method-tensors-lack-on-backpropagated": (HEAD + "def f(c, b):\n    loss = c.compute(b)\n    loss.backward()\n"
                                              "    probe(loss.get_loss())\n", None),
    # augmented assignment: a tensor stays one, a sum of tensors started at 0 is one
    "augmented-tensor": (HEAD + "import torch.nn.functional as F\ndef f(out, y, n):\n    loss = F.cross_entropy(out, y)\n"
                         "    loss /= n\n    probe(loss)\n", "tensor"),
    "augmented-by-tensor": (HEAD + "def f(a, b):\n    loss = a.compute()\n    loss += torch.zeros(2)\n    probe(loss)\n",
                            None),
    "accumulated-from-zero": (HEAD + "crit = nn.MSELoss()\ndef f(model, xs):\n    loss = 0\n    for x in xs:\n"
                              "        loss += crit(model(x), x)\n    probe(loss)\n", "tensor+graph"),
    "accumulated-then-scaled": (HEAD + "crit = nn.MSELoss()\ndef f(model, xs, w):\n    loss = 0\n    for x in xs:\n"
                                "        loss += crit(model(x), x)\n    loss *= w\n    loss /= 2\n    probe(loss)\n", "tensor+graph"),
    # scaling alone does not make the number a tensor
    "scaled-number": (HEAD + "def f(xs, w):\n    loss = 0\n    loss *= w\n    probe(loss)\n", None),
    "accumulated-before-its-terms": (HEAD + "crit = nn.MSELoss()\ndef f(model, xs):\n    loss = 0\n    probe(loss)\n"
                                     "    for x in xs:\n        loss += crit(model(x), x)\n", None),
    "accumulated-unknown-from-zero": (HEAD + "def f(xs):\n    t = 0\n    for x in xs:\n        t += x\n    probe(t)\n",
                                      None),
    "accumulated-after-another-value": (HEAD + "crit = nn.MSELoss()\ndef f(model, xs, start):\n    loss = start\n"
                                        "    for x in xs:\n        loss += crit(model(x), x)\n    probe(loss)\n", None),
    "extended-list": (HEAD + "def f(xs):\n    c = [torch.zeros(1)]\n    c += xs\n    probe(c)\n", "container"),
    # passed first to a torch loss module: only a tensor goes there (a guess)
    "given-to-a-torch-loss": (HEAD + "def f(model, x, y):\n    crit = nn.CrossEntropyLoss()\n    out = model(x)\n"
                              "    loss = crit(out, y)\n    probe(out)\n", "tensor"),
    "given-to-a-loss-by-module-path": (HEAD + "def f(model, x, y):\n    crit = torch.nn.modules.loss.MSELoss()\n"
                                       "    out = model(x)\n    crit(out, y)\n    probe(out)\n", "tensor"),
    "given-to-a-torch-loss-built-there": (HEAD + "def f(model, x, y):\n    out = model(x)\n"
                                          "    loss = nn.CrossEntropyLoss()(out, y)\n    probe(out)\n", "tensor"),
    "given-second-to-a-torch-loss-built-there": (HEAD + "def f(model, x, y):\n    out = model(x)\n"
                                                 "    nn.MSELoss()(y, out)\n    probe(out)\n", None),
    "given-to-a-loss-of-its-own-built-there": (HEAD + "class FocalLoss(nn.Module):\n    def forward(self, a, b):\n"
                                               "        return a\ndef f(model, x, y):\n    out = model(x)\n"
                                               "    FocalLoss()(out, y)\n    probe(out)\n", None),
    "given-to-a-loss-of-a-shadowing-nn": (HEAD + "def f(nn, model, x, y):\n    out = model(x)\n"
                                          "    nn.CrossEntropyLoss()(out, y)\n    probe(out)\n", None),
    "given-to-a-function-of-a-shadowing-F": (HEAD + "def f(F, model, x):\n    out = model(x)\n"
                                             "    F.avg_pool2d(out, 2)\n    probe(out)\n", None),
    "given-to-a-torch-layer-built-there": (HEAD + "def f(model, x):\n    out = model(x)\n    nn.LSTM(2, 2)(out)\n"
                                           "    probe(out)\n", None),
    "given-to-a-torch-loss-built-there-in-a-branch": (HEAD + "def f(model, x, y):\n    out = model(x)\n    if y:\n"
                                                      "        nn.MSELoss()(out, y)\n    probe(out)\n", None),
    "given-second-to-a-torch-loss": (HEAD + "def f(model, x, y):\n    crit = nn.MSELoss()\n    out = model(x)\n"
                                     "    crit(y, out)\n    probe(out)\n", None),
    "given-to-a-torch-layer": (HEAD + "def f(model, x):\n    rnn = nn.LSTM(2, 2)\n    out = model(x)\n    rnn(out)\n"
                               "    probe(out)\n", None),  # an LSTM also takes a PackedSequence
    "given-to-a-loss-of-its-own": (HEAD + "class FocalLoss(nn.Module):\n    def forward(self, a, b):\n        return a\n"
                                   "def f(model, x, y):\n    crit = FocalLoss()\n    out = model(x)\n    crit(out, y)\n"
                                   "    probe(out)\n", None),
    "given-to-an-unknown-criterion": (HEAD + "def f(model, crit, x, y):\n    out = model(x)\n    crit(out, y)\n"
                                      "    probe(out)\n", None),
    "given-to-a-torch-loss-without-torch": ("import mylib.nn as nn\ndef f(model, x, y):\n    crit = nn.CrossEntropyLoss()\n"
                                            "    out = model(x)\n    crit(out, y)\n    probe(out)\n", None),
    "a-module-whose-functions-share-tensor-method-names": (HEAD + "def f(a, b):\n    c = torch.bmm(a, b)\n"
                                                          "    d = torch.sigmoid(c)\n    probe(torch)\n", None),
    # an attribute set to a tensor where a loss is on and to a number where it is off: a guess
    "attribute-tensor-or-number": (HEAD + "class M:\n    def __init__(self, w):\n        self.w = w\n"
                                   "        self.crit = nn.L1Loss()\n    def step(self, a, b):\n        if self.w:\n"
                                   "            self.loss = self.crit(a, b) * self.w\n        else:\n            self.loss = 0.0\n"
                                   "    def errors(self):\n        probe(self.loss)\n", "tensor+graph"),
    "attribute-number-or-unknown": (HEAD + "class M:\n    def step(self, a, b):\n        if a:\n"
                                    "            self.loss = b.compute()\n        else:\n            self.loss = 0\n"
                                    "    def errors(self):\n        probe(self.loss)\n", None),
    "attribute-number-or-string": (HEAD + "class M:\n    def step(self, a):\n        if a:\n"
                                   "            self.loss = 'off'\n        else:\n            self.loss = 0\n"
                                   "    def errors(self):\n        probe(self.loss)\n", None),
    "attribute-numbers-only": (HEAD + "class M:\n    def step(self, a):\n        self.loss = 1.0 if a else 0\n"
                               "    def reset(self):\n        self.loss = 0\n    def errors(self):\n        probe(self.loss)\n",
                               None),
    # a function that gives back the parameter it was passed: what this call passes
    "passed-back": (HEAD + "def freeze(m, flag):\n    for p in m.parameters():\n        p.requires_grad_(flag)\n"
                    "    return m\nprobe(freeze(nn.Linear(2, 2), False))\n", "module"),
    "passed-back-by-keyword": (HEAD + "def freeze(m, flag):\n    return m\nprobe(freeze(flag=False, m=torch.zeros(2)))\n",
                               "tensor"),
    "passed-back-unknown-here": (HEAD + "def freeze(m):\n    return m\nfreeze(nn.Linear(2, 2))\nprobe(freeze(make()))\n",
                                 None),
    "passed-back-in-one-branch-only": (HEAD + "def pick(m, other):\n    if other is not None:\n        return other\n"
                                       "    return m\nprobe(pick(nn.Linear(2, 2), load()))\n", None),
    "passed-back-after-rebinding": (HEAD + "def prep(m):\n    m = wrap(m)\n    return m\nprobe(prep(nn.Linear(2, 2)))\n",
                                    None),
    "passed-back-through-star-arguments": (HEAD + "def freeze(m, flag):\n    return m\nargs = (make(), False)\n"
                                           "probe(freeze(*args))\n", None),
    "returns-a-name-a-with-binds": (HEAD + "def opened(path):\n    with open(path) as f:\n        return f\n"
                                    "probe(opened(torch.zeros(1)))\n", None),
    "passed-back-after-a-walrus": (HEAD + "def choose(a, b, use_b):\n    if use_b and (a := b):\n        pass\n    return a\n"
                                   "probe(choose(torch.ones(3), make(), True))\n", None),
    "passed-back-after-a-nonlocal": (HEAD + "def choose(a, b):\n    def swap():\n        nonlocal a\n        a = b\n"
                                     "    swap()\n    return a\nprobe(choose(torch.ones(3), make()))\n", None),
    "passed-back-after-a-match-capture": (HEAD + "def choose(a, b):\n    match b:\n        case Batch() as a:\n"
                                          "            pass\n    return a\nprobe(choose(torch.ones(3), make()))\n", None),
    "passed-back-from-an-async-function": (HEAD + "async def keep(a):\n    return a\nprobe(keep(torch.ones(3)))\n", None),
    "passed-back-through-a-decorator": (HEAD + "@register\ndef freeze(m):\n    return m\nprobe(freeze(nn.Linear(2, 2)))\n",
                                        None),
    # a Sequential of `*layers`: what the list's last item returns, from the statement before it
    "sequential-of-a-list-ending-in-tanh": (HEAD + "model = [nn.ReflectionPad2d(3), make_block()]\nfor i in range(3):\n"
                                            "    model += [Residual()]\nmodel += [nn.Conv2d(8, 3, 7), nn.Tanh()]\n"
                                            "net = nn.Sequential(*model)\nprobe(net(x))\n", "tensor+graph"),
    "sequential-of-a-list-appended-last": (HEAD + "model = [make_block()]\nmodel.append(nn.Sigmoid())\n"
                                           "probe(nn.Sequential(*model)(x))\n", "tensor+graph"),
    "sequential-of-a-list-grown-last-in-a-loop": (HEAD + "model = [nn.Conv2d(3, 8, 3)]\nfor i in range(3):\n"
                                                  "    model += [Residual()]\nprobe(nn.Sequential(*model)(x))\n", "object"),
    "sequential-of-a-list-ending-in-an-unknown": (HEAD + "model = [nn.Conv2d(3, 8, 3)]\nmodel += [make_head()]\n"
                                                  "probe(nn.Sequential(*model)(x))\n", "object"),
    "sequential-of-a-list-changed-otherwise-last": (HEAD + "model = [nn.Conv2d(3, 8, 3), nn.Tanh()]\nmodel = patch(model)\n"
                                                    "probe(nn.Sequential(*model)(x))\n", "object"),
    "sequential-of-a-list-inserted-into-last": (HEAD + "model = [nn.Linear(2, 2), nn.Tanh()]\nmodel.insert(0, make_pack())\n"
                                                "probe(nn.Sequential(*model)(x))\n", "object"),  # (inserted first, not last)
    "sequential-of-a-list-grown-through-an-alias": (HEAD + "model = [nn.Linear(2, 2)]\ntail = model\n"
                                                    "model.append(nn.Tanh())\nif flag:\n    tail.append(make_pack())\n"
                                                    "probe(nn.Sequential(*model)(x))\n", "object"),
    "sequential-of-a-list-handed-on": (HEAD + "model = [nn.Linear(2, 2)]\nmodel.append(nn.Tanh())\nfinish(model)\n"
                                       "probe(nn.Sequential(*model)(x))\n", "object"),
    "list-filled-by-a-distributed-collective": (HEAD + "import torch.distributed as dist\ndef f(local):\n    gathered = []\n"
                                                "    for _ in range(4):\n        gathered.append(torch.zeros(1))\n"
                                                "    dist.all_gather_object(gathered, local)\n    probe(gathered)\n", None),
    "sequential-of-a-list-ending-in-an-lstm": (HEAD + "model = [nn.Linear(2, 2)]\nmodel += [nn.LSTM(2, 2)]\n"
                                               "probe(nn.Sequential(*model)(x))\n", "container"),  # (output, (h, c))
    # a Sequential built empty and filled by `add_module` statements: what the module added last returns
    "sequential-filled-by-add-module": (HEAD + "model = nn.Sequential()\nmodel.add_module('fc', nn.Linear(8, 3))\n"
                                        "model.add_module('act', nn.Tanh())\nprobe(model(x))\n", "tensor+graph"),
    "sequential-attribute-filled-by-add-module": (
        HEAD + "class G(nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.out = nn.Sequential()\n"
        "        if wide:\n            self.out.add_module('fc', make_block())\n"
        "        self.out.add_module('act', nn.Tanh())\n        self.init_weights()\n"
        "    def forward(self, z):\n        probe(self.out(z))\n", "tensor+graph"),
    # names computed before the last one that can never be it (`f'b{i}'` always starts with `b`)
    "sequential-filled-under-computed-names-first": (
        HEAD + "class G(nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.out = nn.Sequential()\n"
        "        for i in range(3):\n            self.out.add_module(f'b{i}', make_block())\n"
        "            self.out.add_module('relu_%d' % i, nn.ReLU())\n            self.out.add_module('{}_bn'.format(i), nn.ReLU())\n"
        "        self.out.add_module('act', nn.Tanh())\n"
        "    def forward(self, z):\n        probe(self.out(z))\n", "tensor+graph"),
    # a name computed before the last that may be it: that module is replaced in place
    "sequential-filled-under-a-computed-name-that-may-be-the-last": (
        HEAD + "class G(nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.out = nn.Sequential()\n"
        "        for i in range(3):\n            self.out.add_module(f'a{i}', make_block())\n"
        "        self.out.add_module('act', nn.Tanh())\n"
        "    def forward(self, z):\n        probe(self.out(z))\n", "object"),
    "sequential-filled-under-a-formatted-name-that-may-be-the-last": (
        HEAD + "model = nn.Sequential()\nmodel.add_module('%s' % name, make_block())\nmodel.add_module('{}t'.format(k), make_block())\n"
        "model.add_module('act', nn.Tanh())\nprobe(model(x))\n", "object"),
    "sequential-filled-under-an-f-string-with-no-field": (
        HEAD + "model = nn.Sequential()\nmodel.add_module(f'act', make_block())\nmodel.add_module('act', nn.Tanh())\n"
        "probe(model(x))\n", "object"),
    "sequential-added-to-through-another-name-after": (HEAD + "model = nn.Sequential()\nmodel.add_module('act', nn.Tanh())\n"
                                                       "head = model\nhead.add_module('rnn', nn.LSTM(2, 2))\n"
                                                       "probe(model(x))\n", "object"),
    "sequential-added-to-in-a-loop-last": (HEAD + "model = nn.Sequential()\nmodel.add_module('act', nn.Tanh())\n"
                                           "for i in range(3):\n    model.add_module(str(i), make_block())\n"
                                           "probe(model(x))\n", "object"),
    "sequential-added-last-under-a-name-given-before": (HEAD + "model = nn.Sequential()\nmodel.add_module('act', nn.Tanh())\n"
                                                        "model.add_module('rnn', nn.LSTM(2, 2))\n"
                                                        "model.add_module('act', nn.Sigmoid())\nprobe(model(x))\n",
                                                        "object"),  # (replaced in place: the LSTM ends it)
    "sequential-added-to-then-handed-on": (HEAD + "model = nn.Sequential()\nmodel.add_module('act', nn.Tanh())\n"
                                           "extend(model)\nprobe(model(x))\n", "object"),
    "sequential-added-to-then-grown-otherwise": (HEAD + "model = nn.Sequential()\nmodel.add_module('act', nn.Tanh())\n"
                                                 "model.append(make_head())\nprobe(model(x))\n", "object"),
    "sequential-read-before-its-last-module": (HEAD + "model = nn.Sequential()\nmodel.add_module('fc', nn.Linear(2, 2))\n"
                                               "model[0].weight.requires_grad_(False)\nmodel.add_module('act', nn.Tanh())\n"
                                               "probe(model(x))\n", "object"),
    "sequential-ending-in-an-lstm-by-add-module": (HEAD + "model = nn.Sequential()\nmodel.add_module('fc', nn.Linear(2, 2))\n"
                                                   "model.add_module('rnn', nn.LSTM(2, 2))\nprobe(model(x))\n", "container"),
    "sequential-with-a-computed-last-name": (HEAD + "model = nn.Sequential()\nmodel.add_module(name, nn.Tanh())\n"
                                             "probe(model(x))\n", "object"),
    # `.sigmoid()` is no evidence: autodiff libraries' values (micrograd's `Value`) have one too
    "sigmoid-of-unknown": (HEAD + "def f(net, x):\n    probe(net.refine(x).sigmoid().squeeze())\n", None),
    "sigmoid-of-a-class-of-the-file": (HEAD + "class Gate:\n    def sigmoid(self):\n        return self\ndef f(g):\n"
                                       "    probe(g.sigmoid())\n", None),
    "augmented-string": (HEAD + "def f(xs):\n    s = ''\n    s += xs\n    probe(s)\n", None),
}


@pytest.mark.parametrize(("source", "expected"), list(FROM_USE.values()), ids=list(FROM_USE))
def test_kind_from_use(source, expected):
    assert kinds(source) == [expected]


@pytest.mark.parametrize(("call", "expected"), [("F.interpolate(x, scale_factor=2)", "tensor"),
                                              ("F.resize_images(x, (8, 8))", None), ("torch.frobnicate(x)", None)])
def test_a_function_torch_lacks_returns_nothing_known(call, expected):
    assert kinds(HEAD + f"import torch.nn.functional as F\ndef f(x):\n    probe({call})\n") == [expected]


# A value that reads the name it rebinds (`t = t.cuda()`) reads what reaches its statement.
REBOUND = {
    "from-an-unknown-start": ("def f(row):\n    t = row\n    t = torch.tensor(t).long()\n    t = t.cuda()\n    probe(t)\n",
                              "tensor"),
    "through-another-name": ("def f(row):\n    a = row\n    b = torch.zeros(1)\n    a = b\n    a = a.cuda()\n    probe(a)\n",
                             "tensor"),
    "a-module": ("def f(m):\n    m = nn.Linear(2, 2)\n    m = m.cuda()\n    probe(m)\n", "module"),
    "in-a-loop-from-an-unknown-start": ("def f(row):\n    x = row\n    for i in range(3):\n        x = x.cuda()\n"
                                        "    probe(x)\n", None),
    "after-a-branch-that-may-not-bind": ("def f(row, c):\n    t = row\n    if c:\n        t = torch.tensor(t)\n"
                                         "    t = t.cuda()\n    probe(t)\n", None),
    "in-a-loop-from-a-tensor": ("def f(xs):\n    h = torch.zeros(3)\n    for x in xs:\n        h = h + x\n"
                                "        h = h * 2\n    probe(h)\n", "tensor"),
    "to-a-method-tensors-lack": ("def f(row):\n    t = torch.tensor(row)\n    t = t.to_list()\n    probe(t)\n", None),
    "to-a-number": ("def f(row):\n    t = torch.tensor(row)\n    t = t.item()\n    probe(t)\n", None),
    # another name's value reads what reaches its statement too
    "read-by-another-name": ("def f(logits):\n    logits = torch.sigmoid(logits)\n    scaled = logits * 2\n"
                             "    probe(scaled)\n", "tensor"),
    "read-before-the-rebinding": ("def f(x):\n    y = x * 2\n    x = torch.zeros(1)\n    probe(y)\n", None),
    "read-before-a-tensor-rebinding": ("import numpy as np\ndef f():\n    x = np.zeros(3)\n    y = x * 2\n"
                                       "    x = torch.zeros(1)\n    probe(y)\n", None),
    "read-after-a-branch-that-may-not-bind": ("def f(x, c):\n    if c:\n        x = torch.zeros(1)\n    y = x * 2\n"
                                              "    probe(y)\n", None),
    "read-by-another-name-in-a-loop": ("def f(xs):\n    for x in xs:\n        x = torch.relu(x)\n        y = x * 2\n"
                                       "        probe(y)\n", "tensor"),
    "the-loop-s-own-value-rebound": ("def f(maps):\n    for fm in maps:\n        fm = fm.view(2, -1)\n        fm = fm.permute(1, 0)\n"
                                     "        est = fm.clone()\n        probe(est)\n", "tensor"),
    "read-before-a-rebinding-in-a-loop": ("def f(h, xs):\n    for x in xs:\n        y = h * 2\n        h = torch.zeros(1)\n"
                                          "        probe(y)\n", None),
    "a-branch-in-a-loop-that-may-not-bind": ("def f(h, xs, c):\n    for x in xs:\n        if c:\n            h = torch.zeros(1)\n"
                                             "        y = h * 2\n        probe(y)\n", None),
}


@pytest.mark.parametrize(("source", "expected"), list(REBOUND.values()), ids=list(REBOUND))
def test_a_value_reading_the_name_it_rebinds(source, expected):
    assert kinds(HEAD + source) == [expected]


PROPERTY = HEAD + ("class Classifier(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
                   "        self._weights = nn.ParameterList([])\n    @property\n    def weights(self):\n"
                   "        return torch.cat([w for w in self._weights])\n    def imprint(self):\n        probe(self.weights)\n")


@pytest.mark.parametrize(("change", "expected"), [
    (("", ""), "tensor"),
    # a setter beside it; read through an instance outside the class
    (("    def imprint(self):\n", "    @weights.setter\n    def weights(self, value):\n        self._weights = value\n"
      "    def imprint(self):\n"), "tensor"),
    (("        probe(self.weights)\n", "        pass\nprobe(Classifier().weights)\n"), "tensor"),
    # another decorator under it, a `property` the file imports, a class reading attributes
    # its own way, a subclass defining it again, a getter returning what is not known, a call of it
    (("    @property\n", "    @property\n    @memoise\n"), None),
    (("import torch\n", "import torch\nfrom mylib import property\n"), None),
    (("    def imprint(self):\n", "    def __getattribute__(self, name):\n        return 0\n    def imprint(self):\n"), None),
    (("        probe(self.weights)\n", "        probe(self.weights)\nclass Sub(Classifier):\n    @property\n"
      "    def weights(self):\n        return load_weights()\n"), None),
    (("return torch.cat([w for w in self._weights])", "return self.store.get('w')"), None),
    (("probe(self.weights)", "probe(self.weights())"), None),
    (("    def imprint(self):\n", "    weights = other\n    def imprint(self):\n"), None),
])
def test_a_property_of_the_class_is_what_its_getter_returns(change, expected):
    assert kinds(PROPERTY.replace(*change)) == [expected]


# A parameter whose only caller passes a local each pass of a loop that rebinds it from the
# function's own return: the value bound just before the loop (a tensor, whatever the local held
# before it) reaches the first pass, and the body's values keep it a tensor (PGD's `linf_clamp`).
LOOP_ENTRY = ("from torch.autograd import Variable\ndef clampit(x, lo):\n    probe(x)\n    return x\n"
              "def attack(model, x):\n    x_adv = x.clone()\n    x_adv += 1\n    x_adv = torch.clamp(x_adv, 0, 1)\n"
              "    x_adv = Variable(x_adv.cuda(), requires_grad=True)\n    for t in range(3):\n        logits = model(x_adv)\n"
              "        x_adv = clampit(x_adv, x - 1)\n        x_adv = torch.clamp(x_adv, 0, 1)\n")


@pytest.mark.parametrize(("change", "expected"), [
    (("", ""), "tensor"),
    (("    for t in range(3):\n", "    while flag:\n"), "tensor"),
    # the body binds it to what is not known, as a loop target, by unpacking, or deletes it
    (("        x_adv = torch.clamp(x_adv, 0, 1)\n", "        x_adv = load(x_adv)\n"), None),
    (("        logits = model(x_adv)\n", "        for x_adv in model(x_adv):\n            pass\n"), None),
    (("        x_adv = torch.clamp(x_adv, 0, 1)\n", "        x_adv, y = step(x_adv)\n"), None),
    (("        x_adv = torch.clamp(x_adv, 0, 1)\n", "        del x_adv\n        x_adv = torch.zeros(3)\n"), None),
    # the value before the loop is not known, or not the one bound last in the same block
    (("x_adv = Variable(x_adv.cuda(), requires_grad=True)", "x_adv = make(x_adv)"), None),
    (("    for t in range(3):\n", "    if flag:\n        x_adv = make()\n    for t in range(3):\n"), None),
    # a nested function reads it (a call of it may see any value)
    (("    for t in range(3):\n", "    def show():\n        print(x_adv)\n    for t in range(3):\n"), None),
    # bound where no value is described: a `while` test's walrus, a `case` capture, an `except` name
    (("    for t in range(3):\n", "    while (x_adv := pending.pop()) is not None:\n"), None),
    (("        logits = model(x_adv)\n", "        match model:\n            case Box() as x_adv:\n                pass\n"), None),
    (("        logits = model(x_adv)\n", "        try:\n            logits = model(x_adv)\n        except ValueError as x_adv:\n"
      "            pass\n"), None),
    # the loop's own target (what it iterates is not known), and a value read from the name before
    # the loop handed back to it in the body (`y = x_adv` first: the caller's object on a later pass)
    (("    for t in range(3):\n", "    for x_adv in boxes or []:\n"), None),
])
def test_a_local_at_the_top_of_a_loop_that_binds_it_again(change, expected):
    assert kinds(HEAD + LOOP_ENTRY.replace(*change)) == [expected]


@pytest.mark.parametrize(("handed_back", "expected"), [("torch.ones(3)", "tensor"), ("y", None)])
def test_a_value_read_from_the_local_before_the_loop_is_not_its_loop_value(handed_back, expected):
    # `y = x` reads what the caller passed; handed back in the body, the next pass holds that
    source = ("def show(p):\n    probe(p)\ndef run(x):\n    y = x\n    x = torch.zeros(3, requires_grad=True)\n"
              f"    for i in range(2):\n        show(x)\n        x = {handed_back}\nrun(Box(1))\n")
    assert kinds(HEAD + source) == [expected]


def test_self_and_self_attributes():
    source = (
        NET
        + "class Model(nn.Module):\n"
        "    def __init__(self):\n"
        "        super().__init__()\n"
        "        self.body = Net()\n"
        "        self.scale = 2.0\n"
        "    def run(self, x):\n"
        "        probe(self)\n"
        "        probe(self.body)\n"
        "        probe(self.scale)\n"
        "    @staticmethod\n"
        "    def helper(x):\n"
        "        probe(x)\n"
        "class Plain:\n"
        "    def run(self):\n"
        "        probe(self)\n"
    )
    assert kinds(source) == ["module", "module", None, None, "object"]


def test_many_rebindings_are_evaluated_once_each(monkeypatch):
    # `h = layer(h)` down a long forward once took exponential time; each binding is now evaluated once.
    from torchlint.oracle import TypeOracle

    evaluations = []
    original = TypeOracle._evaluate_binding
    monkeypatch.setattr(TypeOracle, "_evaluate_binding", lambda self, b: evaluations.append(b) or original(self, b))
    body = "".join(f"    h = layers[{i}](h) + h\n" for i in range(60))
    assert kinds(HEAD + "def forward(h, layers):\n" + body + "    probe(h)\n") == [None]
    assert len(evaluations) <= 61 * 2


def test_the_table_of_tensor_attributes_is_torchs():
    """torchlint/data/tensor_methods.txt (read instead of importing torch) names what torch.Tensor
    has: regenerate it with bench/tensor_methods.py when the supported torch changes."""
    import torch
    from torchlint.torch_api import TENSOR_ATTRIBUTE_NAMES, TENSOR_ONLY_METHODS

    public = {name for name in dir(torch.Tensor) if not name.startswith("_")}
    assert TENSOR_ATTRIBUTE_NAMES <= public
    assert len(TENSOR_ATTRIBUTE_NAMES) > 0.95 * len(public)
    assert TENSOR_ONLY_METHODS <= TENSOR_ATTRIBUTE_NAMES
    assert {"get_loss", "reset", "push"}.isdisjoint(TENSOR_ATTRIBUTE_NAMES)


def test_the_table_of_module_attributes_is_torchs():
    """torchlint/data/module_methods.txt: what nn.Module's machinery may call on a subclass."""
    import torch
    from torchlint.torch_api import MODULE_ATTRIBUTE_NAMES

    assert MODULE_ATTRIBUTE_NAMES == {name for name in dir(torch.nn.Module) if not name.startswith("__")}
    assert {"forward", "train", "_load_from_state_dict", "extra_repr"} <= MODULE_ATTRIBUTE_NAMES


def test_the_table_of_torch_functions_is_torchs():
    """torchlint/data/torch_functions.txt: the functions a call of torch's namespaces may name."""
    import torch.nn.functional
    from torchlint.torch_api import TORCH_FUNCTION_NAMES

    assert {"torch.cat", "torch.nn.functional.softmax", "torch.linalg.norm", "torch.fft.fft"} <= TORCH_FUNCTION_NAMES
    assert all(callable(getattr(torch.nn.functional, q.rpartition(".")[2])) for q in TORCH_FUNCTION_NAMES
               if q.startswith("torch.nn.functional."))
    assert "torch.nn.functional.resize_images" not in TORCH_FUNCTION_NAMES


class _FreshBindings(Rule):
    """Asks the kind of bindings made and dropped one after another, as the oracle does for
    comprehension variables and `self.x` assignments."""

    code, name, summary = "TL997", "fresh-bindings", "asks about bindings made on the fly"
    trigger_tokens = ("torch",)
    answers: list = []

    def visit_Module(self, node: cst.Module) -> None:
        from torchlint.scopes import Binding

        oracle = self.ctx.oracle
        scope = oracle.scopes.module_scope()
        tensor = cst.parse_expression("torch.zeros(1)")
        for _ in range(50):
            _FreshBindings.answers.append(oracle._binding_kind(Binding("opaque", scope)))
            kind = oracle._binding_kind(Binding("value", scope, tensor))
            _FreshBindings.answers.append(kind and kind.base)


def test_a_binding_made_after_another_was_dropped_gets_its_own_kind():
    """The memo once keyed bindings by id: a binding made after another was freed could take its
    id, and its kind (results changed from run to run)."""
    _FreshBindings.answers = []
    lint_text(HEAD + "x = 1\n", "fresh.py", [_FreshBindings])
    assert _FreshBindings.answers == [None, "tensor"] * 50


COLLATED = HEAD + "from torch.utils.data import DataLoader\n{collate}\ndef show(ds):\n    loader = DataLoader(ds, collate_fn={name})\n    for xs, lens in loader:\n        probe(lens)\n"


@pytest.mark.parametrize(
    ("collate", "name", "expected"),
    [
        pytest.param("def pad(batch):\n    return torch.stack(batch), torch.LongTensor([len(b) for b in batch])\n",
                     "pad", "tensor", id="a-tuple-of-tensors"),
        pytest.param("def pad(batch):\n    return {'x': torch.stack(batch)}\n", "pad", None, id="a-dict"),
        pytest.param("def pad(batch):\n    return torch.stack(batch), [len(b) for b in batch]\n", "pad", None,
                     id="a-tensor-and-a-list"),
        pytest.param("def pad(batch):\n    if not batch:\n        return None\n    return torch.stack(batch), torch.zeros(1)\n",
                     "pad", None, id="may-return-none"),
        pytest.param("", "lambda b: (torch.stack(b), torch.zeros(1))", None, id="a-lambda"),
        pytest.param("from torch.utils.data import default_collate\n", "default_collate", None, id="torch-s-own"),
        pytest.param("def pad(batch):\n    return batch\n", "pad", None, id="hands-the-samples-back"),
    ],
)
def test_a_loader_with_a_collate_function_of_the_project_yields_what_it_returns(collate, name, expected):
    assert kinds(COLLATED.format(collate=collate, name=name)) == [expected]


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        pytest.param("d = OrderedDict(m.named_parameters())\nprobe(d['w'])\n", "tensor+graph", id="ordered-dict-of-parameters"),
        pytest.param("for n, p in dict(m.named_buffers()).items():\n    probe(p)\n", "tensor", id="dict-of-buffers-items"),
        pytest.param("probe(dict(m.named_children())['a'])\n", None, id="dict-of-modules"),
        pytest.param("probe(dict(zip(names, m.parameters()))['a'])\n", None, id="dict-of-a-zip"),
        pytest.param("dict = MyDict\nprobe(dict(m.named_parameters())['a'])\n", None, id="dict-rebound"),
        pytest.param("probe(OrderedDict(sorted(m.named_parameters()))['a'])\n", None, id="sorted-pairs"),
        pytest.param("ps = [p for p in m.parameters() if p.requires_grad]\nfor p in ps:\n    probe(p)\n",
                     "tensor+graph", id="filtered-parameters"),
        pytest.param("for x in [x for x in range(3) if x]:\n    probe(x)\n", None, id="filtered-numbers"),
        pytest.param("for p in [p for p in m.named_parameters()]:\n    probe(p)\n", None, id="filtered-pairs"),
        # the first loop's variable is what iterating its iterable gives; a later loop's is unknown
        pytest.param("for q in [p for p in m.parameters() for q in p]:\n    probe(q)\n", "tensor+graph", id="nested-for"),
        pytest.param("for q in [q for p in m.parameters() for q in p.shape]:\n    probe(q)\n", None, id="nested-for-inner"),
    ],
)
def test_parameters_kept_in_a_dict_or_a_filtered_list(source, expected):
    m = "m = nn.Linear(2, 2)\nfrom collections import OrderedDict\n"
    assert kinds(HEAD + m + source) == [expected]


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        pytest.param("from torch.distributions import Categorical\nprobe(Categorical(logits=x).sample())\n", "tensor",
                     id="a-sample"),
        pytest.param("import torch.distributions as D\nprobe(D.Normal(x, 1.0).log_prob(x))\n", "tensor+graph", id="log-prob"),
        pytest.param("import torch.distributions as D\nprobe(D.Normal(x, 1.0).support)\n", None, id="a-constraint"),
        pytest.param("import torch.distributions as D\nprobe(D.Normal(x, 1.0).expand([2]))\n", None, id="another-distribution"),
        pytest.param("from scipy.stats import norm\nprobe(norm(0, 1).rvs())\n", None, id="scipy"),
        pytest.param("class Categorical:\n    def sample(self):\n        return 1\nprobe(Categorical().sample())\n", None,
                     id="a-class-of-the-file"),
    ],
)
def test_what_a_distribution_gives(source, expected):
    assert kinds(HEAD + source) == [expected]


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        pytest.param("t = torch.ones(3)\nprobe(t.max())\n", "tensor", id="max"),
        pytest.param("t = torch.ones(3)\nprobe(t.median())\n", "tensor", id="median"),
        pytest.param("t = torch.ones(3)\nprobe(torch.min(t))\n", "tensor", id="torch-min"),
        pytest.param("def f(x):\n    probe(torch.max(x))\n", "tensor", id="torch-max-of-an-unknown"),
        pytest.param("def f(x):\n    probe(torch.sum(x))\n", "tensor", id="as-torch-sum-of-an-unknown"),
        pytest.param("def f(x):\n    probe(torch.max(x, 1))\n", "container", id="torch-max-dim-of-an-unknown"),
        pytest.param("def f(x):\n    probe(torch.max(x, dim=1))\n", "container", id="torch-max-dim-keyword-of-an-unknown"),
        pytest.param("def f(xs):\n    probe(torch.max(*xs))\n", None, id="torch-max-spread"),
        pytest.param("import torch.nn.functional as F\nt = torch.ones(1, 1, 4)\nprobe(F.max_pool1d(t, 2, return_indices=True))\n",
                     None, id="functional-pool-with-indices"),
        pytest.param("import torch.nn.functional as F\nt = torch.ones(1, 1, 4)\nprobe(F.max_pool1d(t, 2))\n", "tensor",
                     id="functional-pool-without"),
        pytest.param("a = torch.ones(3, 3)\nprobe(torch.lu_unpack(*torch.linalg.lu_factor(a)))\n", "container",
                     id="lu-unpack-gives-three"),
        pytest.param("probe(nn.MaxPool2d(2)(torch.ones(1, 1, 4, 4)))\n", "tensor+graph", id="pool-without-indices"),
        pytest.param("import numpy as np\ndef f(x):\n    probe(np.max(x))\n", None, id="numpy-max-of-an-unknown"),
        pytest.param("def f(x):\n    probe(x.max())\n", None, id="max-method-of-an-unknown"),
        pytest.param("def f(x):\n    probe(max(x))\n", None, id="builtin-max-of-an-unknown"),
        pytest.param("def f(x):\n    probe(torch.max(x, other=x))\n", "container", id="torch-max-keyword"),
        pytest.param("def f(xs):\n    probe(nn.MaxPool2d(*xs)(torch.ones(1, 1, 4, 4)))\n", "object", id="pool-spread-may-return-indices"),
        pytest.param("w = nn.Linear(2, 2).weight\nprobe(w.max())\n", "tensor+graph", id="keeps-the-graph"),
        # with a dimension, a named tuple; with another tensor, which syntax cannot tell from a dim
        pytest.param("t = torch.ones(3)\nprobe(t.max(0))\n", "container", id="max-dim"),
        pytest.param("t = torch.ones(3)\nprobe(t.max(dim=0))\n", "container", id="max-dim-keyword"),
        pytest.param("t = torch.ones(3)\nprobe(torch.max(t, 1))\n", "container", id="torch-max-dim"),
        pytest.param("t = torch.ones(3)\nprobe(t.mode())\n", "container", id="mode-has-a-default-dim"),
        pytest.param("t = torch.ones(3)\nprobe(t.type(torch.FloatTensor))\n", "tensor", id="type-given-a-type"),
        pytest.param("w = nn.Linear(2, 2).weight\nprobe(w.type(torch.float64))\n", "tensor+graph", id="type-keeps-the-graph"),
        pytest.param("t = torch.ones(3)\nprobe(t.type())\n", None, id="type-without-arguments-is-a-name"),
        pytest.param("def f(x):\n    probe(x.type(torch.FloatTensor))\n", None, id="type-of-an-unknown"),
        pytest.param("import numpy as np\na = np.ones(3)\nprobe(a.max())\n", None, id="numpy"),
        pytest.param("probe(max([1, 2]))\n", None, id="builtin"),
        pytest.param("w = nn.Linear(2, 2).weight\nprobe(torch.autograd.grad(w.sum(), w)[0])\n", "tensor", id="a-gradient"),
        pytest.param("from torch import autograd\nw = nn.Linear(2, 2).weight\ng, = autograd.grad(w.sum(), w)\nprobe(g)\n",
                     "tensor", id="a-gradient-unpacked"),
        pytest.param("import jax\nprobe(jax.grad(f)(x))\n", None, id="another-library"),
    ],
)
def test_what_reductions_and_gradients_give(source, expected):
    assert kinds(HEAD + source) == [expected]


NETS = ("class Enc(nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.scale = nn.Parameter(torch.ones(1))\n"
        "    def forward(self, x):\n        return x * self.scale\n"
        "class Net(nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.enc = Enc()\n"
        "    def forward(self, x):\n        return self.enc(x)\n")


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        pytest.param("w = nn.DataParallel(Net())\nprobe(w.module.enc.scale)\n", "tensor+graph", id="through-module"),
        pytest.param("w = nn.parallel.DistributedDataParallel(Net())\nprobe(w.module(torch.ones(1)))\n", "tensor+graph",
                     id="calling-module"),
        pytest.param("w = nn.DataParallel(build())\nprobe(w.module.enc)\n", None, id="an-unknown-wrapped-module"),
        pytest.param("class Holder:\n    def __init__(self):\n        self.module = 'name'\nprobe(Holder().module)\n", None,
                     id="not-a-wrapper"),
        pytest.param("n = Net()\nprobe(n.module)\n", "module", id="a-module-not-wrapped-here"),
    ],
)
def test_the_module_a_wrapper_holds(source, expected):
    assert kinds(HEAD + NETS + source) == [expected]


LOOP_AFTER_NUMBER = "m = nn.Linear(2, 2)\ngap = {start}\nfor _ in range(3):\n    gap = {value}\n"


@pytest.mark.parametrize(
    ("start", "value", "read", "expected"),
    [
        pytest.param("0", "m(torch.ones(2)).mean()", "probe(gap)\n", "tensor+graph", id="after-the-loop"),
        pytest.param("0.0", "m(torch.ones(2)).mean()", "probe(gap)\n", "tensor+graph", id="a-float"),
        pytest.param("-1", "torch.ones(2).max()", "probe(gap)\n", "tensor", id="a-negative-number"),
        # only the number reaches: still unknown
        pytest.param("0", "m(torch.ones(2)).mean()", "", None, id="before-the-loop"),
        # the other binding is not a tensor: unknown, as before
        pytest.param("0", "m", "probe(gap)\n", None, id="a-module"),
        pytest.param("0", "compute()", "probe(gap)\n", None, id="unknown"),
        pytest.param("'none'", "m(torch.ones(2)).mean()", "probe(gap)\n", None, id="a-string"),
    ],
)
def test_a_name_started_at_a_number_and_bound_to_a_tensor(start, value, read, expected):
    source = LOOP_AFTER_NUMBER.format(start=start, value=value)
    if not read:  # read where only the starting number reaches
        source = source.replace("gap = " + start + "\n", "gap = " + start + "\nprobe(gap)\n")
    assert kinds(HEAD + source + read) == [expected]


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        pytest.param("def f(s):\n    x = torch.ones(2)\n    try:\n        x = s.stats()\n    except ValueError:\n        return 0\n"
                     "    else:\n        y = x\n        probe(y)\n", None, id="try-else"),
        pytest.param("def f(s):\n    x = torch.ones(2)\n    try:\n        x = s.stats()\n    except ValueError:\n"
                     "        y = x\n        probe(y)\n", None, id="try-except"),
        pytest.param("def f(s):\n    x = torch.ones(2)\n    try:\n        x = s.stats()\n    finally:\n        y = x\n"
                     "        probe(y)\n", None, id="try-finally"),
        pytest.param("def f(s, xs):\n    x = torch.ones(2)\n    for i in xs:\n        x = s.stats()\n    else:\n        y = x\n"
                     "        probe(y)\n", None, id="for-else"),
        pytest.param("def f(s):\n    x = torch.ones(2)\n    try:\n        s.check()\n    except ValueError:\n        y = x\n"
                     "        probe(y)\n", "tensor", id="try-binding-nothing"),
        pytest.param("def f(m):\n    params = dict(m.named_parameters())\n    params['stats'] = m.stats\n"
                     "    probe(params['stats'])\n", None, id="an-item-stored-in-the-dict"),
        pytest.param("def f(m):\n    params = dict(m.named_parameters())\n    params.update(extra=1)\n    probe(params['extra'])\n",
                     None, id="the-dict-updated"),
        pytest.param("def f(m):\n    ps = [p for p in m.parameters() if p.requires_grad]\n    ps.append(m.stats)\n"
                     "    for p in ps:\n        probe(p)\n", None, id="the-list-appended-to"),
    ],
)
def test_what_may_reach_after_a_try_and_containers_filled_later(source, expected):
    assert kinds(HEAD + "m = nn.Linear(2, 2)\n" + source) == [expected]


@pytest.mark.parametrize(
    ("collate", "expected"),
    [
        pytest.param("def pad(b):\n    return torch.stack(b), torch.zeros(1)\npad = wrap(pad)\n", None, id="rebound"),
        pytest.param("@register\ndef pad(b):\n    return torch.stack(b), torch.zeros(1)\n", None, id="decorated"),
    ],
)
def test_a_collate_function_of_another_module_rebound_or_decorated_says_nothing(collate, expected, tmp_path):
    from torchlint.project.load import build_projects

    (tmp_path / "data.py").write_text("import torch\n" + collate)
    train = tmp_path / "train.py"
    source = (HEAD + "from torch.utils.data import DataLoader\nfrom data import pad\nloader = DataLoader([], collate_fn=pad)\n"
              "for xs, lens in loader:\n    probe(lens)\n")
    train.write_text(source)
    files = sorted(tmp_path.glob("*.py"))
    project = build_projects([train], lambda root: files, None, 1).for_file(train)
    _Probe.answers = []
    lint_text(source, str(train), [_Probe], project=project.for_file(str(train.resolve()), source))
    assert _Probe.answers == [expected]


def test_a_loader_whose_collate_fn_is_reassigned_says_nothing():
    source = (HEAD + "from torch.utils.data import DataLoader\ndef pad(b):\n    return torch.stack(b), torch.zeros(1)\n"
              "loader = DataLoader([], collate_fn=pad)\nloader.collate_fn = list\nfor xs, lens in loader:\n    probe(lens)\n")
    assert kinds(source) == [None]


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        pytest.param(NET + "def build():\n    return Net()\nprobe(build())\n", "module", id="returns-a-module"),
        # a generator's call gives a generator, whatever its `return` says
        pytest.param(NET + "def build():\n    yield 1\n    return Net()\nprobe(build())\n", None, id="generator"),
        pytest.param(NET + "def build():\n    x = yield\n    return Net(), x\nm, n = build()\nprobe(m)\n", None,
                     id="generator-element"),
        pytest.param(NET + "def build():\n    def inner():\n        yield 1\n    return Net()\nprobe(build())\n",
                     "module", id="nested-generator"),
        # a tuple assignment's names are the elements in their places
        pytest.param(NET + "m, n = Net(), 3\nprobe(m)\n", "module", id="tuple-element"),
    ],
)
def test_what_a_function_of_the_file_returns(source, expected):
    assert kinds(source) == [expected]


@pytest.mark.parametrize(
    "body",
    [
        # `.data` changed in place says nothing: a PackedSequence's `.data` is a tensor, and so is
        # the `.data` a user's class keeps (a meter's `self.data`)
        "    w.data.normal_(0, 0.02)\n",
        "    w.data.mul_(mask)\n",
        "    w.data.zero_()\n",
    ],
)
def test_data_changed_in_place_is_no_evidence(body):
    assert kinds(HEAD + "def init(w, mask):\n" + body + "    probe(w)\n") == [None]


@pytest.mark.parametrize("packing", ["pack_padded_sequence(x, lengths)", "pack_sequence(xs)"])
def test_a_packed_sequence_is_not_a_tensor_though_its_data_is_changed_in_place(packing):
    source = HEAD + f"from torch.nn.utils.rnn import pack_padded_sequence, pack_sequence\ndef pack(x, xs, lengths):\n" \
        f"    seq = {packing}\n    seq.data.requires_grad_(True)\n    probe(seq)\n    return seq\n"
    assert kinds(source) == ["object"]


GROWN = HEAD + "parts = []\nfor _ in range(3):\n    parts.append(nn.Linear(2, 2))\n"


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        pytest.param(GROWN + "probe(parts[0])\n", "module", id="appended-modules"),
        pytest.param(GROWN + "probe(nn.Sequential(*parts)(x))\n", "tensor+graph", id="sequential-of-grown-list"),
        pytest.param(GROWN + "parts.insert(0, nn.ReLU())\nparts.extend([nn.Tanh()])\nprobe(parts[-1])\n", "module",
                     id="inserted-and-extended"),
        # something else added, an item replaced, an unknown extension, a list from elsewhere
        pytest.param(GROWN + "parts.append(make())\nprobe(parts[0])\n", None, id="unknown-appended"),
        pytest.param(GROWN + "parts[0] = 3\nprobe(parts[0])\n", None, id="item-replaced"),
        pytest.param(GROWN + "parts.extend(more)\nprobe(parts[0])\n", None, id="unknown-extension"),
        pytest.param(HEAD + "parts = list()\nparts.append(nn.ReLU())\nprobe(parts[0])\n", "module", id="an-empty-list-call"),
        pytest.param(HEAD + "def f(layers):\n    ps = []\n    for layer in nn.ModuleList([nn.Linear(2, 2)]):\n"
                     "        ps += [layer.weight, layer.bias]\n    probe(ps[0])\n", "tensor+graph", id="grown-by-adding-a-display"),
        pytest.param(HEAD + "def f(more):\n    ps = []\n    ps += [nn.Linear(2, 2).weight]\n    ps += more\n    probe(ps[0])\n", None,
                     id="grown-by-adding-another-list"),
        pytest.param(HEAD + "def f(more):\n    ps = []\n    ps += [nn.Linear(2, 2).weight]\n    ps += [3]\n    probe(ps[0])\n", None,
                     id="grown-by-adding-a-number"),
        pytest.param(HEAD + "parts = list(more)\nparts.append(nn.ReLU())\nprobe(parts[0])\n", None, id="not-a-display"),
        pytest.param(HEAD + "list = lambda: [3]\nparts = list()\nparts.append(nn.ReLU())\nprobe(parts[0])\n", None,
                     id="a-list-of-the-file's-own"),
        pytest.param(HEAD + "parts = list()\nparts.append(nn.ReLU())\nparts.append(3)\nprobe(parts[0])\n", None,
                     id="an-empty-list-call-grown-by-a-number"),
        pytest.param(HEAD + "parts = []\nparts.append(parts)\nprobe(parts[0])\n", None, id="appends-itself"),
        # a Sequential of a grown list of tensors, or given a mapping: no output known
        pytest.param(HEAD + "ts = []\nts.append(torch.ones(1))\nprobe(nn.Sequential(*ts)(x))\n", "object",
                     id="sequential-of-tensors"),
    ],
)
def test_a_list_grown_by_appends(source, expected):
    assert kinds(source) == [expected]


@pytest.mark.parametrize(
    ("element", "expected"),
    [
        ("p", "tensor+graph"),
        ("p.clone()", "tensor+graph"),
        ("p.detach().cpu()", "tensor"),
        # the variable used elsewhere in the element: judged as a parameter there too
        ("p.add(p)", "tensor+graph"),
        # not a tensor, or what an unknown function makes of it: nothing said
        ("p.numel()", None),
        ("f(p)", None),
    ],
)
def test_a_comprehension_of_methods_called_on_parameters(element, expected):
    assert kinds(HEAD + f"conv = nn.Conv2d(1, 1, 3)\nprobe([{element} for p in conv.parameters()][0])\n") == [expected]


DETECTOR = HEAD + (
    "class Det(nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.fc = nn.Linear(4, 4)\n"
    "    def forward(self, x, train=True):\n        out = self.fc(x)\n        if train:\n"
    "            return out, other(out), out.sum(), None\n        return out, None, out.mean(), None\n"
    "det = Det()\n"
)


@pytest.mark.parametrize(
    ("use", "expected"),
    [
        # a tuple whose positions hold different things: each read in its place
        ("a, b, c, d = det(x)\nprobe(a)\n", "tensor+graph"),
        ("a, b, c, d = det(x)\nprobe(c)\n", "tensor+graph"),
        ("probe(det(x)[0])\n", "tensor+graph"),
        ("probe(det(x)[-2])\n", "tensor+graph"),
        # unknown in one return, None, out of range, iterated: nothing said
        ("a, b, c, d = det(x)\nprobe(b)\n", None),
        ("a, b, c, d = det(x)\nprobe(d)\n", None),
        ("probe(det(x)[7])\n", None),
        ("for t in det(x):\n    probe(t)\n", None),
    ],
)
def test_the_positions_of_a_returned_tuple(use, expected):
    assert kinds(DETECTOR + use) == [expected]


def test_tuples_of_different_lengths_have_no_positions():
    source = HEAD + "def f(x):\n    if x:\n        return torch.ones(1), None\n    return torch.ones(1), None, 3\n"
    assert kinds(source + "a = f(1)[0]\nprobe(a)\n") == [None]


@pytest.mark.parametrize(
    ("use", "expected"),
    [
        ("probe(state['model'])\n", "module"),
        ("probe(state['epoch'])\n", None),
        ("probe(state['other'])\n", None),
        ("state['model'] = 3\nprobe(state['model'])\n", None),  # stored into later
        ("if x:\n    state = {'net': Net(), 'epoch': 1}\nprobe(state['model'])\n", None),  # other keys
        ("if x:\n    state = {'model': Net(), 'epoch': 1}\nprobe(state['model'])\n", "module"),
    ],
)
def test_the_value_under_each_key_of_a_dict_display(use, expected):
    assert kinds(NET + "state = {'model': Net(), 'epoch': 0}\n" + use) == [expected]


def test_a_packed_sequence_moved_is_still_one():
    source = HEAD + "from torch.nn.utils.rnn import pack_sequence\npacked = pack_sequence(xs).to('cpu').cuda()\nprobe(packed)\n"
    assert kinds(source) == ["object"]


@pytest.mark.parametrize("change", ["items.pop(0)", "items.reverse()", "del items[0]", "items.remove(out)",
                                    "items.sort(key=len)"])
def test_a_list_reordered_or_shrunk_forgets_its_positions(change):
    source = NET + f"out = Net()(x)\nitems = [torch.ones(1), packed]\n{change}\nprobe(items[0])\n"
    assert kinds(source) == [None]


@pytest.mark.parametrize(
    ("assignment", "read", "expected"),
    [
        ("*_, s = torch.ones(1), Net(), None", "s", None),
        ("*_, s = torch.ones(1), None, Net()", "s", "module"),
        ("f, *_ = torch.ones(1), Net()", "f", "tensor"),
        ("x, *_, y = Net(), *others, torch.ones(1)", "y", "tensor"),
        # past a starred element of the value, places depend on its length
        ("x, y = *others, torch.ones(1)", "y", None),
        ("x, y = *others, torch.ones(1)", "x", None),
    ],
)
def test_a_starred_tuple_target_takes_places_from_the_end(assignment, read, expected):
    assert kinds(NET + assignment + f"\nprobe({read})\n") == [expected]


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        # an LSTM cell returns (h, c); an LSTM (out, (h, c)); a GRU or RNN (out, h)
        ("cell = nn.LSTMCell(4, 8)\nh, c = cell(x, (h0, c0))\nprobe(c)\n", "tensor+graph"),
        ("lstm = nn.LSTM(4, 8)\nout, (h, c) = lstm(x)\nprobe(h)\n", "tensor+graph"),
        ("gru = nn.GRU(4, 8)\nout, h = gru(x)\nprobe(h)\n", "tensor+graph"),
        ("rnn = nn.RNN(4, 8)\nout, h = rnn(x)\nprobe(h)\n", "tensor+graph"),
        ("cell = nn.GRUCell(4, 8)\nh = cell(x, h0)\nprobe(h)\n", "tensor+graph"),
        # the output may be a PackedSequence (whose `.data` is its own): not known
        ("lstm = nn.LSTM(4, 8)\nout, (h, c) = lstm(packed)\nprobe(out)\n", None),
        ("gru = nn.GRU(4, 8)\nout, h = gru(packed)\nprobe(out)\n", None),
        ("attn = nn.MultiheadAttention(8, 2)\nout, w = attn(q, k, v)\nprobe(w)\n", None),
    ],
)
def test_what_recurrent_layers_return(source, expected):
    assert kinds(HEAD + source) == [expected]


OPTIMIZER = HEAD + (
    "class Shared(BASE):\n    def __init__(self, params, lr=0.1):\n        super().__init__(params, lr)\n"
    "        for group in self.param_groups:\n            for p in group['params']:\n                probe(p)\n"
)


@pytest.mark.parametrize(("base", "expected"), [
    ("torch.optim.Adam", "tensor+graph"),
    ("torch.optim.Optimizer", "tensor+graph"),
    ("Sched", None),  # a scheduler's own attributes, not parameters
    ("Mine", None),  # a class of the file's own that is no optimizer
])
def test_an_optimizer_subclass_param_groups_hold_parameters(base, expected):
    source = OPTIMIZER.replace("BASE", base).replace(
        "class Shared", "from torch.optim.lr_scheduler import StepLR as Sched\nclass Mine:\n    pass\nclass Shared")
    assert kinds(source) == [expected]


UNKNOWN_MODEL = HEAD + "import torch.nn.functional as F\nfrom zoo import build\nnet = build()\nopt = torch.optim.SGD(net.parameters(), lr=0.1)\n"


@pytest.mark.parametrize(("use", "expected"), [
    ("loss = F.cross_entropy(out, y)\n", "tensor"),
    ("n = out.size(0)\n", "tensor"),
    ("loss = criterion(out, y)\n", "object"),  # a criterion may take a tuple or a dict
    ("if flag:\n    loss = F.cross_entropy(out, y)\n", "object"),  # not every run
    ("if isinstance(out, tuple):\n    out = out[0]\nn = out.size(0)\n", None),
])
def test_a_model_output_of_unknown_class_used_as_only_a_tensor_is_one(use, expected):
    """`net` is a module (its parameters go to an optimizer) of a class not seen: what it returns
    is not known, unless it is used as only a tensor is (a guess)."""
    assert kinds(UNKNOWN_MODEL + "out = net(x)\n" + use + "probe(out)\n") == [expected]


@pytest.mark.parametrize(("helper", "expected"), [
    ("def hits(s):\n    out = []\n    for k in (1, 5):\n        out.append(s * k)\n    return out\n", "tensor+graph"),
    ("def hits(s):\n    out = [s]\n    out.extend([s * 2])\n    return out\n", "tensor+graph"),
    ("def hits(s):\n    out = []\n    out.append(s)\n    out.append(3)\n    return out\n", None),
    ("def hits(s):\n    return [s, s * 2]\n", "tensor+graph"),
    # grown out of sight: by a helper it is handed to, or a closure
    ("def hits(s):\n    out = []\n    out.append(s)\n    more(out)\n    return out\n", None),
    ("def hits(s):\n    out = []\n    out.append(s)\n    def add(v):\n        out.append(v)\n    add(3)\n    return out\n", None),
    ("def hits(s):\n    out = []\n    out.append(s)\n    print(len(out), *out)\n    return out\n", "tensor+graph"),
])
def test_a_list_a_function_returns_unpacked(helper, expected):
    source = NET + helper + "scores = nn.Linear(2, 2)(torch.ones(2))\na, b = hits(scores)\nprobe(b)\n"
    assert kinds(source) == [expected]


@pytest.mark.parametrize(("loop", "expected"), [
    ("for row in w:\n    probe(row)\n", "tensor+graph"),
    ("for i, row in enumerate(w):\n    probe(row)\n", "tensor+graph"),
    ("for i, row in enumerate(w):\n    probe(i)\n", None),
    ("for a, b in w:\n    probe(a)\n", None),  # unpacked rows: not known
])
def test_iterating_a_tensor_gives_its_slices(loop, expected):
    assert kinds(HEAD + "w = nn.Linear(4, 4)(torch.ones(3, 4))\n" + loop) == [expected]


def test_iterating_what_the_class_own_forward_returns():
    source = HEAD + (
        "class Multi(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
        "        self.heads = nn.ModuleList([nn.Conv2d(3, 1, 1) for _ in range(2)])\n"
        "    def forward(self, x):\n        outs = []\n        for head in self.heads:\n            outs.append(head(x))\n"
        "        return outs\n"
        "    def loss(self, x):\n        for o in self.forward(x):\n            probe(o)\n        for o in self(x):\n            probe(o)\n"
    )
    assert kinds(source) == ["tensor+graph", "tensor+graph"]


@pytest.mark.parametrize(("body", "expected"), [
    ("    out = net(x)\n    loss = F.cross_entropy(out, y)\n    probe(out)\n", "tensor"),
    ("    out = net(x)\n    if flag:\n        loss = F.cross_entropy(out, y)\n    probe(out)\n", "object"),
    ("    out = net(x)\n    if flag:\n        continue\n    loss = F.cross_entropy(out, y)\n    probe(out)\n", "object"),
])
def test_a_loop_pass_reaching_a_functional_call_is_evidence_for_what_it_binds(body, expected):
    assert kinds(UNKNOWN_MODEL + "for x, y in loader:\n" + body) == [expected]


@pytest.mark.parametrize(("classes", "expected"), [
    ("class Head(nn.Module):\n    FORWARD", "tensor+graph"),
    ("class Head(nn.Module):\n    FORWARD    def __call__(self, x):\n        return {'out': self.forward(x)}\n", "object"),
    ("class Base(nn.Module):\n    def __call__(self, x):\n        return [self.forward(x)]\n"
     "class Head(Base):\n    FORWARD", "object"),
])
@pytest.mark.parametrize("call", ["Head()(torch.ones(2))", "Head().__call__(torch.ones(2))"], ids=["call", "dunder-call"])
def test_a_class_defining_call_returns_what_call_returns(classes, expected, call):
    forward = "def forward(self, x):\n        return nn.Linear(2, 2)(x)\n"
    source = HEAD + classes.replace("FORWARD", forward) + f"probe({call})\n"
    assert kinds(source) == [expected]


@pytest.mark.parametrize(("receiver", "expected"), [
    ("nn.Linear(2, 2)", "tensor+graph"),
    ("Scorer()", None),
    ("nn.Linear", None),
    ("Scorer", None),
    ("F.relu", None),  # a library function as a value is not judged
])
def test_calling_dunder_call_is_calling_the_value(receiver, expected):
    source = (HEAD + "import torch.nn.functional as F\nclass Scorer:\n    def __call__(self, x):\n        return x\n"
              f"probe({receiver}.__call__(torch.ones(2)))\n")
    assert kinds(source) == [expected]


EITHER = HEAD + (
    "class Disp(nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.a = nn.Linear(2, 2)\n"
    "    def forward(self, x):\n        d = self.a(x)\n        if self.training:\n            return TRAINING\n"
    "        return d\n"
    "out = Disp()(torch.ones(2))\n"
)


@pytest.mark.parametrize(("training", "use", "expected"), [
    ("d, d * 2", "for e in out:\n    probe(e)\n", "tensor+graph"),
    ("d, d * 2", "probe(out[0])\n", "tensor+graph"),
    ("[d, d * 2]", "a, b = out\nprobe(b)\n", "tensor+graph"),
    ("d, d * 2", "probe(out)\n", "container"),  # a tensor or a tuple: `.data` on it is not judged
    ("d, None", "probe(out[0])\n", None),
    ("d, 3", "for e in out:\n    probe(e)\n", None),
    ("{'d': d}", "probe(out[0])\n", None),
    ("d, self.a", "probe(out[1])\n", None),
])
def test_a_tensor_or_a_tuple_of_tensors_yields_tensors(training, use, expected):
    assert kinds(EITHER.replace("TRAINING", training) + use) == [expected]


STATIC = HEAD + (
    "class Gan(nn.Module):\n    def forward(self, x):\n        return x\n"
    "    DECORATOR\n    def loss(a, b):\n        return torch.mean((a - b) ** 2), nn.BCELoss()(a, b)\n"
)


@pytest.mark.parametrize(("decorator", "call", "expected"), [
    ("@staticmethod", "Gan.loss(x, y)", "tensor+graph"),
    ("@staticmethod", "Gan().loss(x, y)", "tensor+graph"),
    ("@classmethod", "Gan.loss(x, y)", None),  # its first parameter is the class
    ("", "Gan.loss(x, y)", None),  # `x` is handed in as the instance: not judged
    ("@staticmethod", "Other.loss(x, y)", None),
])
def test_a_static_method_called_through_its_class_returns_what_it_returns(decorator, call, expected):
    source = STATIC.replace("DECORATOR", decorator) + "class Other:\n    pass\nx = y = torch.ones(2)\n"
    assert kinds(source + f"nle, bce = {call}\nprobe(bce)\n") == [expected]


@pytest.mark.parametrize(("element", "iterated", "expected"), [
    ("p.grad", "net.parameters()", "tensor"),
    ("p.data", "net.parameters()", "tensor"),
    ("p.grad.clone()", "net.parameters()", "tensor"),
    # what `things` holds is not known, but only a tensor has a `.grad` code reads (as outside
    # a comprehension: `[v.grad for v in model.arch_parameters()]`, a twentieth-round miss)
    ("p.grad", "things", "tensor"),
    ("p.weight", "things", None),
    ("p.name", "net.parameters()", None),
    ("m.weight", "net.modules()", None),  # a module's attribute by name alone is not judged here
])
def test_a_comprehension_reading_an_attribute_of_its_variable(element, iterated, expected):
    source = HEAD + f"net = nn.Linear(2, 2)\nthings = load()\ngrads = [{element} for p in {iterated}]\n"
    assert kinds(source.replace("for p in net.modules()", "for m in net.modules()") + "for g in grads:\n    probe(g)\n") == [expected]


ARCH = HEAD + (
    "class Net(nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.alpha = nn.Parameter(torch.zeros(3))\n"
    "        self._arch = [self.alpha]\n        self._names = ['alpha']\n"
    "    def arch_parameters(self):\n        return self._arch\n    def arch_names(self):\n        return self._names\n"
    "    def forward(self, x):\n        return x\n"
)


@pytest.mark.parametrize(("loop", "expected"), [
    ("for a in Net().arch_parameters():\n    probe(a)\n", "tensor+graph"),
    ("for a, b in zip(Net().arch_parameters(), Net().arch_parameters()):\n    probe(b)\n", "tensor+graph"),
    ("for a in Net().arch_names():\n    probe(a)\n", None),
    ("for a in load().arch_parameters():\n    probe(a)\n", None),
])
def test_iterating_what_a_method_of_the_class_returns(loop, expected):
    assert kinds(ARCH + loop) == [expected]


LOOP_REBINDS = HEAD + "batches = load()\nfor epoch in range(3):\n    for batch in batches:\n        img = batch\nBODY    probe(img)\n"


@pytest.mark.parametrize(("body", "expected"), [
    ("        img = torch.ones(2) * img\n", "tensor"),  # every pass ends by rebinding it
    ("        if img is None:\n            continue\n        img = torch.ones(2) * img\n", None),  # a pass can end early
    ("        if img is None:\n            break\n        img = torch.ones(2) * img\n", None),
    ("        if flag:\n            img = torch.ones(2) * img\n", None),  # only some passes rebind it
    ("        try:\n            img = torch.ones(2) * img\n        except RuntimeError:\n            pass\n", None),
    ("        img = torch.ones(2) * img\n    else:\n        img = batches\n", None),
    ("        for _ in range(2):\n            img = torch.ones(2) * img\n", None),  # the inner loop may not run
    ("        for _ in range(2):\n            pass\n        img = torch.ones(2)\n", "tensor"),
])
def test_after_a_loop_what_every_pass_ends_with(body, expected):
    assert kinds(LOOP_REBINDS.replace("BODY", body)) == [expected]


def test_the_next_pass_of_a_loop_starts_with_what_the_last_one_ended_with():
    source = HEAD + "for batch in load():\n    probe(img)\n    img = batch\n    img = torch.ones(2) * img\n"
    assert kinds(source) == ["tensor"]
    assert kinds(source.replace("    img = torch.ones(2) * img\n", "    if flag:\n        img = torch.ones(2) * img\n")) == [None]


@pytest.mark.parametrize(("loop", "expected"), [
    # the `while` test runs again after the last pass: what it bound is what holds
    ("while (img := load()).size > 0:\n    img = torch.ones(2) * img\n", None),
    ("for batch in load():\n    img = batch\n    ok = flag and (img := torch.ones(2))\n", None),
    ("for batch in load():\n    img = batch\n    [img := torch.ones(2) for _ in range(n)]\n", None),
])
def test_a_walrus_is_never_a_sure_rebinding(loop, expected):
    assert kinds(HEAD + loop + "probe(img)\n") == [expected]


SEARCH = HEAD + (
    "import numpy as np\n"
    "class Search(nn.Module):\n"
    "    def __init__(self):\n        super().__init__()\n        self.alpha = nn.Parameter(torch.zeros(3))\n"
    "    def arch(self):\n        return [self.alpha]\n"
    "    def weights(self):\n        return self.alpha * 2\n"
    "    def report(self):\n        for a in self.arch():\n            probe(a)\n        probe(self.weights())\n"
)


@pytest.mark.parametrize(
    ("subclasses", "expected"),
    [
        pytest.param("", ["tensor+graph", "tensor+graph"], id="no-subclass"),
        pytest.param("class Wide(Search):\n    pass\n", ["tensor+graph", "tensor+graph"], id="subclass-not-overriding"),
        pytest.param("class Wide(Search):\n    def arch(self):\n        return [self.alpha, self.alpha]\n"
                     "    def weights(self):\n        return self.alpha * 3\n",
                     ["tensor+graph", "tensor+graph"], id="overrides-agree"),
        pytest.param("class Frozen(Search):\n    def arch(self):\n        return [np.zeros(3)]\n"
                     "    def weights(self):\n        return np.ones(3)\n", [None, None], id="overrides-return-arrays"),
        pytest.param("class Mid(Search):\n    pass\nclass Leaf(Mid):\n    def weights(self):\n        return load()\n",
                     ["tensor+graph", None], id="override-two-levels-down"),
        pytest.param("def make():\n    class Local(Search):\n        def arch(self):\n            return records()\n"
                     "    return Local()\n", [None, "tensor+graph"], id="override-in-a-function"),
        pytest.param("def other(self):\n    return [np.zeros(3)]\nclass Frozen(Search):\n    arch = other\n",
                     [None, "tensor+graph"], id="override-by-assignment"),
    ],
)
def test_a_method_called_on_self_answers_for_every_override_a_subclass_may_run(subclasses, expected):
    # `self.arch()` in Search's methods runs Frozen.arch when self is a Frozen: a `.data` the
    # base's own return would call a tensor's may be a numpy array's (`.detach()` then crashes).
    assert kinds(SEARCH + subclasses) == expected


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        pytest.param(HEAD + "def f(batch):\n    return [probe(x) if isinstance(x, torch.Tensor) else x for x in batch]\n",
                     "tensor", id="conditional-expression-isinstance"),
        pytest.param(HEAD + "from torch.autograd import Variable\ndef f(batch):\n"
                     "    return [probe(x) for x in batch if isinstance(x, Variable)]\n", "tensor", id="comprehension-if"),
        pytest.param(HEAD + "def f(batch):\n    return [x if isinstance(x, torch.Tensor) else probe(x) for x in batch]\n",
                     None, id="the-other-branch"),
        pytest.param(HEAD + "import numpy as np\ndef f(batch):\n"
                     "    return [probe(x) if isinstance(x, np.ndarray) else x for x in batch]\n", None, id="not-torch"),
        pytest.param(HEAD + "def f(batch, x):\n    return [probe(x) for x in batch if isinstance(x, float)]\n",
                     None, id="non-tensor-class"),
        pytest.param(HEAD + "def f(rows, x):\n    return [probe(x) for x in rows if isinstance(y, torch.Tensor) for y in x]\n",
                     None, id="test-on-another-name"),
        pytest.param(HEAD + "def f(rows):\n    return [probe(x) for x in rows if isinstance(x, torch.Tensor) for x in x.items]\n",
                     None, id="rebound-by-a-later-for"),
    ],
)
def test_type_tests_inside_conditional_expressions_and_comprehensions(source, expected):
    assert kinds(source) == [expected]


@pytest.mark.parametrize(
    ("use", "expected"),
    [
        pytest.param("for w in self.ws:\n            probe(w)\n", "tensor+graph", id="parameter-list-iterated"),
        pytest.param("probe(self.ws[0])\n", "tensor+graph", id="parameter-list-indexed"),
        pytest.param("probe(self.pd['scale'])\n", "tensor+graph", id="parameter-dict-indexed"),
        pytest.param("for name in self.pd:\n            probe(name)\n", None, id="parameter-dict-yields-names"),
        pytest.param("for w in self.pd.values():\n            probe(w)\n", "tensor+graph", id="parameter-dict-values"),
        pytest.param("probe(self.fc._parameters['weight'])\n", "tensor+graph", id="module-own-parameters"),
        pytest.param("probe(self.fc._buffers['running_mean'])\n", "tensor", id="module-own-buffers"),
        pytest.param("probe(self.meter._parameters['w'])\n", None, id="not-a-module"),
        pytest.param("probe(self.mixed[1])\n", None, id="parameter-list-given-a-non-tensor"),
        pytest.param("probe(self.empty[0])\n", "tensor+graph", id="parameter-list-filled-later"),
    ],
)
def test_parameters_a_module_keeps_in_its_containers(use, expected):
    source = HEAD + (
        "class Meter:\n    def __init__(self):\n        self._parameters = {'w': [1.0]}\n"
        "class Net(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
        "        self.ws = nn.ParameterList([nn.Parameter(torch.ones(2)) for _ in range(2)])\n"
        "        self.pd = nn.ParameterDict({'scale': nn.Parameter(torch.ones(1))})\n"
        "        self.fc = nn.Linear(2, 2)\n        self.meter = Meter()\n"
        "        self.mixed = nn.ParameterList([nn.Parameter(torch.ones(1)), Meter()])\n"
        "        self.empty = nn.ParameterList()\n"
        f"    def forward(self, x):\n        {use}"
    )
    assert kinds(source) == [expected]


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        pytest.param("losses = [torch.mean(v) for v in outputs]\nprobe(losses[0])\n", "tensor", id="torch-function-of-each"),
        pytest.param("losses = [torch.mean(v) for v in net.parameters()]\nprobe(losses[0])\n", "tensor+graph",
                     id="graph-from-what-is-iterated"),
        pytest.param("pairs = [torch.max(v, 1) for v in outputs]\nprobe(pairs[0])\n", None, id="a-tuple-per-element"),
        pytest.param("rows = [np.mean(v) for v in outputs]\nprobe(rows[0])\n", None, id="numpy-function"),
        pytest.param("rows = [mean(v) for v in outputs]\nprobe(rows[0])\n", None, id="unknown-function"),
    ],
)
def test_a_comprehension_of_a_torch_function_holds_tensors(source, expected):
    assert kinds(HEAD + "import numpy as np\nnet = nn.Linear(2, 2)\n" + source) == [expected]


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        pytest.param("    f = torch.relu(a)\n    return mse(f, target=f * 2)\n", ["tensor", "tensor"], id="every-call-a-tensor"),
        pytest.param("    f = torch.relu(a)\n    run(mse)\n    return mse(f, f)\n", [None, None], id="handed-on"),
        pytest.param("    return mse(torch.relu(a), 1), mse([1], 2)\n", [None, None], id="calls-disagree"),
        pytest.param("    pass\n", [None, None], id="never-called"),
        pytest.param("    return mse(*a)\n", [None, None], id="starred-call"),
        pytest.param("    mse = print\n    return mse(torch.relu(a), a)\n", [None, None], id="rebound"),
        pytest.param("    v = torch.relu(a)\n    return [mse(v, v) for v in a]\n", [None, None], id="called-in-a-comprehension"),
        pytest.param("    f = torch.relu(a)\n    mse(f, f)\n    return locals()['mse'](a, a)\n", [None, None],
                     id="reached-through-locals"),
    ],
)
def test_a_function_defined_inside_another_takes_what_its_calls_pass(body, expected):
    source = HEAD + "def outer(net, a):\n    def mse(input, target):\n        probe(input)\n        probe(target)\n" + body
    assert kinds(source) == expected


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        pytest.param(HEAD + "def swap(opt):\n    for g in opt.groups:\n        for p in g:\n"
                     "            if not p.requires_grad:\n                continue\n            probe(p)\n",
                     "tensor", id="requires-grad-read"),
        pytest.param(HEAD + "def freeze(p):\n    p.requires_grad = False\n    probe(p)\n", None, id="only-written"),
        pytest.param(HEAD + "class Value:\n    def __init__(self, data):\n        self.data = data\n"
                     "        self.requires_grad = True\n"
                     "def step(v):\n    if v.requires_grad:\n        probe(v)\n", None, id="a-class-of-the-file-keeps-one"),
        pytest.param("def step(v):\n    if v.requires_grad:\n        probe(v)\n", None, id="file-without-torch"),
        pytest.param(HEAD + "def step(v):\n    if hasattr(v, 'x'):\n        return\n    if v.requires_grad:\n        probe(v)\n",
                     None, id="type-tested"),
    ],
)
def test_a_read_requires_grad_is_a_guess_of_a_tensor(source, expected):
    assert kinds(source) == [expected]


@pytest.mark.parametrize(
    ("block", "expected"),
    [
        pytest.param("    with torch.no_grad():\n        out = net(x)\n        out = torch.clamp(out, 0, 1)\n", "tensor",
                     id="rebound-inside-no-grad"),
        pytest.param("    with open(path) as fh:\n        out = load(fh)\n        out = torch.zeros(2)\n", "tensor",
                     id="rebound-inside-open"),
        pytest.param("    with open(path) as out:\n        pass\n", None, id="the-as-target"),
        pytest.param("    out = torch.zeros(2)\n    with torch.no_grad():\n        if flag:\n            out = load(x)\n", None,
                     id="conditional-rebinding-inside"),
        pytest.param("    out = torch.zeros(2)\n    with contextlib.suppress(KeyError):\n        out = cache[key]\n"
                     "        out = torch.ones(2)\n", None, id="a-context-that-swallows-exceptions"),
        pytest.param("    with torch.no_grad():\n        out = torch.zeros(2)\n    out = load(x)\n", None, id="rebound-after"),
        pytest.param("    out = torch.zeros(2)\n    with ignored(KeyError):\n        out = cache[key]\n"
                     "        out = torch.ones(2)\n", None, id="a-context-of-unknown-behaviour"),
        pytest.param("    out = torch.zeros(2)\n    with self.subTest():\n        out = cache[key]\n"
                     "        out = torch.ones(2)\n", None, id="a-sub-test"),
        pytest.param("    out = torch.zeros(2)\n    with cache.open():\n        out = cache[key]\n"
                     "        out = torch.ones(2)\n", None, id="a-method-named-open"),
        pytest.param("    out = torch.zeros(2)\n    with amp.autocast():\n        out = cache[key]\n"
                     "        out = torch.ones(2)\n", "tensor", id="torch-s-amp-module"),
    ],
)
def test_a_with_block_runs_its_body_through(block, expected):
    source = HEAD + "import contextlib\nnet = load_model()\ndef f(x, path, flag, cache, key):\n" + block + "    probe(out)\n"
    assert kinds(source) == [expected]


@pytest.mark.parametrize(
    ("other", "expected"),
    [
        pytest.param("", "module", id="bound-in-one-function"),
        pytest.param("def reset():\n    global net\n    net = make()\n", None, id="bound-in-another-function-too"),
        pytest.param("def reset():\n    global net\n    net = make()\n    net.parameters()\n", "module",
                     id="each-function-s-own-uses"),
        pytest.param("net = make()\n", None, id="bound-at-module-level-too"),
        pytest.param("def step():\n    global net\n    net.parameters()\n    net = make()\n", None,
                     id="a-use-before-the-function-binds-it-reads-the-module-s"),
    ],
)
def test_a_name_declared_global_takes_the_uses_in_its_function(other, expected):
    source = HEAD + "from zoo import make\n" + other + "def main():\n    global net\n    net = make()\n" \
        "    opt = torch.optim.SGD(net.parameters(), lr=0.1)\n    probe(net)\n"
    assert kinds(source) == [expected]


@pytest.mark.parametrize(
    ("block", "expected"),
    [
        pytest.param("    if flag:\n        out = load(x)\n        out = torch.zeros(2)\n", "tensor", id="rebound-in-the-branch"),
        pytest.param("    if flag:\n        out = load(x)\n        out = torch.zeros(2)\n    elif key:\n        out = cache[key]\n"
                     "        out = torch.ones(2)\n    else:\n        out = torch.ones(1)\n", "tensor", id="every-branch-ends-so"),
        pytest.param("    if (out := load(x)) is not None:\n        out = torch.zeros(2)\n    else:\n        out = torch.ones(2)\n",
                     "tensor", id="a-walrus-every-branch-rebinds"),
        pytest.param("    if flag:\n        out = load(x)\n        if key:\n            out = torch.zeros(2)\n", None,
                     id="rebound-under-a-nested-if"),
        pytest.param("    out = load(x)\n    if flag:\n        out = torch.zeros(2)\n", None, id="the-branch-may-not-run"),
        pytest.param("    if flag:\n        out = torch.zeros(2)\n        out = load(x)\n", None, id="rebound-to-unknown-last"),
        pytest.param("    if flag:\n        out = torch.zeros(2)\n    elif key:\n        out = torch.ones(2)\n        out = cache[key]\n",
                     None, id="another-branch-ends-unknown"),
        pytest.param("    if (out := load(x)) is not None:\n        out = torch.zeros(2)\n", None, id="a-walrus-without-else"),
        pytest.param("    if flag:\n        out = torch.zeros(2)\n    elif (out := load(x)):\n        out = torch.ones(2)\n", None,
                     id="a-walrus-of-an-elif"),
        pytest.param("    try:\n        if flag:\n            out = torch.zeros(2)\n            out = cache[key]\n    except KeyError:\n"
                     "        pass\n", None, id="left-halfway-by-an-exception"),
        pytest.param("    for k in cache:\n        if flag:\n            out = torch.zeros(2)\n            if k:\n                continue\n"
                     "            out = load(k)\n", None, id="a-continue-before-the-last"),
    ],
)
def test_an_if_branch_runs_its_body_through(block, expected):
    source = HEAD + "def f(x, flag, cache, key):\n" + block + "    probe(out)\n"
    assert kinds(source) == [expected]


STORING = HEAD + (
    "class Net(nn.Module):\n"
    "    def __init__(self):\n        super().__init__()\n        self.fc = nn.Linear(2, 2)\n        self.losses = {}\n"
    "    def add_losses(self, x, y):\n        out = self.fc(x)\n"
    "        self.losses['ce'] = nn.functional.cross_entropy(out, y)\n        self.losses['total'] = self.losses['ce'] * 2\n"
    "{extra}"
    "    def report(self):\n        probe(self.losses['total'])\n"
)


@pytest.mark.parametrize(
    ("extra", "after", "expected"),
    [
        pytest.param("", "", "tensor+graph", id="filled-by-the-class"),
        pytest.param("    def clear(self):\n        for d in [self.losses]:\n            for k in list(d.keys()):\n"
                     "                del d[k]\n        return len(self.losses), self.losses.get('ce')\n", "", "tensor+graph",
                     id="read-cleared-and-counted"),
        pytest.param("    def more(self):\n        self.losses['n'] = np.zeros(2)\n", "", None, id="an-array-stored-too"),
        pytest.param("    def more(self):\n        log(self.losses)\n", "", None, id="handed-on"),
        pytest.param("    def more(self, extra):\n        self.losses.update(extra)\n", "", None, id="updated"),
        pytest.param("", "class Wide(Net):\n    pass\n", None, id="a-subclass-may-store"),
        pytest.param("", "net = Net()\nnet.losses['n'] = 'x'\n", None, id="stored-from-outside"),
        pytest.param("    def more(self, k):\n        a, self.losses[k] = load()\n", "", None, id="unpacked-into"),
        # a comment is no use; a string may be one (`exec`, `getattr(self, "losses")`)
        pytest.param("    # log(self.losses)\n", "", "tensor+graph", id="named-in-a-comment"),
        pytest.param("    NOTE = 'self.losses may be filled by exec'\n", "", None, id="named-in-a-string"),
    ],
)
def test_a_dict_kept_on_self_holds_what_the_class_stores(extra, after, expected):
    source = "import numpy as np\n" + STORING.replace("{extra}", extra) + after
    assert kinds(source) == [expected]


LOADERS = HEAD + (
    "from torch.utils.data import DataLoader\n\n\nclass Processor:\n"
    "    def load_data(self, ds):\n        self.data_loader = dict()\n"
    "        self.data_loader['train'] = DataLoader(ds, batch_size=4, shuffle=True)\n"
    "        self.data_loader['test'] = DataLoader(ds, batch_size=4)\n"
    "{extra}"
    "    def train(self):\n        for batch_idx, (data, label) in enumerate(self.data_loader['train']):\n"
    "            probe(label)\n"
)


@pytest.mark.parametrize(
    ("extra", "expected"),
    [
        pytest.param("", "tensor", id="loaders-stored-by-the-class"),
        pytest.param("    def more(self, ds):\n        self.data_loader['raw'] = ds\n", None, id="a-dataset-stored-too"),
        pytest.param("    def more(self, ds):\n        self.data_loader['aux'] = DataLoader(ds, collate_fn=pad)\n", None,
                     id="a-loader-with-its-own-collate"),
        pytest.param("    def more(self):\n        register(self.data_loader)\n", None, id="handed-on"),
    ],
)
def test_a_dict_of_data_loaders_kept_on_self_yields_batches(extra, expected):
    """`self.data_loader['train'] = DataLoader(...)` in one method, iterated in another: its batches
    are collated tensors (the guess any DataLoader's batch is)."""
    assert kinds(LOADERS.replace("{extra}", extra)) == [expected]


LISTING = HEAD + (
    "class Binarize:\n"
    "    def __init__(self, model):\n        self.saved = []\n        self.targets = list()\n"
    "        for m in model.modules():\n            if isinstance(m, nn.Conv2d):\n"
    "                self.saved.append(m.weight.data.clone())\n                self.targets.append(m.weight)\n"
    "{extra}"
    "    def restore(self):\n        for i in range(len(self.targets)):\n            probe(self.targets[i])\n"
)


@pytest.mark.parametrize(
    ("extra", "after", "expected"),
    [
        pytest.param("", "", "tensor+graph", id="appended-by-the-class"),
        pytest.param("    def more(self, w):\n        self.targets.insert(0, torch.zeros(2))\n        return self.targets.pop()\n",
                     "", "tensor", id="inserted-and-popped"),
        pytest.param("    def more(self):\n        self.targets.append(np.zeros(2))\n", "", None, id="an-array-appended-too"),
        pytest.param("    def more(self, ws):\n        self.targets.extend(ws)\n", "", None, id="extended"),
        pytest.param("    def more(self, ws):\n        self.targets = ws\n", "", None, id="rebound-to-a-parameter"),
        pytest.param("    def more(self):\n        log(self.targets)\n", "", None, id="handed-on"),
        pytest.param("    def more(self, w):\n        self.targets.append(w)\n", "", None, id="a-parameter-appended"),
        pytest.param("", "b = Binarize(net)\nb.targets.append('x')\n", None, id="appended-from-outside"),
        pytest.param("", "class Wide(Binarize):\n    pass\n", None, id="a-subclass-may-append"),
        pytest.param("    def more(self, w):\n        self.targets.append(w, 1)\n", "", None, id="an-append-of-another-signature"),
        pytest.param("    def more(self):\n        getattr(self, 'targets').append(np.zeros(2))\n", "", None, id="named-by-a-string"),
        pytest.param("    def more(self, kw):\n        self.__dict__.update(kw)\n", "", None, id="its-dict-updated"),
        pytest.param("    def more(self, kw):\n        vars(self).update(kw)\n", "", None, id="vars-updated"),
        pytest.param("    def more(self, path):\n        self.targets.append(torch.load(path))\n", "", None,
                     id="whatever-was-saved-appended"),
        pytest.param("    def more(self):\n        for self.targets[0] in [np.zeros(2)]:\n            pass\n", "", None,
                     id="an-item-bound-by-a-loop"),
        pytest.param("    def more(self, path):\n        with open(path) as self.targets[0]:\n            pass\n", "", None,
                     id="an-item-bound-by-with"),
    ],
)
def test_a_list_kept_on_self_holds_what_the_class_appends(extra, after, expected):
    source = "import numpy as np\nnet = nn.Linear(2, 2)\n" + LISTING.replace("{extra}", extra) + after
    assert kinds(source) == [expected]


@pytest.mark.parametrize(
    "use",
    ["x = self.losses['total'] if flag else torch.zeros(2)\n        return x.data",
     "return (self.losses['total'] + torch.zeros(2)).data"],
    ids=["merged-with-a-sure-tensor", "added-to-a-sure-tensor"],
)
def test_a_guess_combined_with_a_sure_tensor_stays_a_guess_for_fixes(use):
    rule = rule_by_code("TL001")
    source = "import numpy as np\n" + STORING.replace("{extra}", "").replace(
        "    def report(self):\n        probe(self.losses['total'])", "    def report(self, flag):\n        " + use)
    [finding] = lint_text(source, "net.py", [rule]).diagnostics
    assert finding.fix is not None and finding.fix.applicability == "unsafe"


def test_a_dict_kept_on_self_is_a_guess_for_fixes():
    rule = rule_by_code("TL001")
    source = "import numpy as np\n" + STORING.replace("{extra}", "").replace(
        "probe(self.losses['total'])", "return self.losses['total'].data")
    [finding] = lint_text(source, "net.py", [rule]).diagnostics
    assert finding.fix is not None and finding.fix.applicability == "unsafe"


@pytest.mark.parametrize(
    "source",
    [
        HEAD + "from dataclasses import dataclass\n@dataclass\nclass Desc:\n    requires_grad: bool = False\n"
        "    data: object = None\ndef step(v):\n    if v.requires_grad:\n        probe(v)\n",
        HEAD + "def step(v: 'Desc'):\n    if v.requires_grad:\n        probe(v)\n",
        HEAD + "def step(v: Desc):\n    if v.grad is not None:\n        probe(v)\n",
    ],
    ids=["a-dataclass-field", "annotated-string", "annotated-class"],
)
def test_no_usage_evidence_where_a_class_of_the_file_or_an_annotation_says_otherwise(source):
    assert kinds(source) == [None]


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        pytest.param("        probe(self.value(x))\n", "tensor+graph", id="own-method"),
        pytest.param("        probe(self.start())\n", None, id="a-base-method"),
    ],
)
def test_self_in_a_class_whose_base_cannot_be_read_still_runs_its_own_methods(body, expected):
    source = HEAD + (
        "import torch.multiprocessing as mp\nclass Worker(mp.Process):\n"
        "    def __init__(self):\n        super().__init__()\n        self.net = nn.Linear(2, 2)\n"
        "    def value(self, x):\n        return self.net(x)\n"
        f"    def run(self, x):\n{body}"
    )
    assert kinds(source) == [expected]


def test_an_instance_attribute_of_the_method_s_name_hides_the_method():
    source = SEARCH.replace("        self.alpha = nn.Parameter(torch.zeros(3))\n",
                            "        self.alpha = nn.Parameter(torch.zeros(3))\n        self.arch = lambda: [np.zeros(3)]\n")
    assert kinds(source) == [None, "tensor+graph"]


@pytest.mark.parametrize(
    "source",
    [
        HEAD + "from collections import UserList\ndef f(x):\n"
        "    return [(x := UserList([1])), probe(x)][1] if isinstance(x, torch.Tensor) else x\n",
        HEAD + "from collections import UserList\ndef f(m):\n    if isinstance(m, nn.Linear):\n"
        "        m = UserList([1])\n        probe(m)\n",
    ],
    ids=["walrus-in-the-branch", "assigned-in-the-branch"],
)
def test_a_type_test_says_nothing_where_the_branch_binds_the_name_again(source):
    assert kinds(source) == [None]


def test_a_type_tested_name_read_where_it_is_bound_again_is_still_narrowed():
    # `constant_val = constant_val.data` under `if isinstance(constant_val, nn.Parameter)`: the
    # value is read before the assignment binds the name
    source = HEAD + "def f(x):\n    if isinstance(x, nn.Parameter):\n        log(x)\n        x = probe(x)\n        probe(x)\n"
    assert kinds(source) == ["tensor", None]
    source = HEAD + "def f(x):\n    if isinstance(x, nn.Parameter):\n        with no_fake():\n            x = probe(x)\n"
    assert kinds(source) == ["tensor"]
    source = HEAD + "def f(x, p):\n    if isinstance(x, nn.Parameter):\n        with open(p) as x:\n            probe(x)\n"
    assert kinds(source) == [None]
    source = HEAD + ("def f(x):\n    if isinstance(x, torch.Tensor):\n        if x.dtype == torch.float16:\n"
                     "            x = x.float()\n        else:\n            x = probe(x)\n")
    assert kinds(source) == ["tensor"]


HOLDER = HEAD + (
    "class Holder:\n    def __init__(self):\n        self.actor = nn.Linear(2, 2)\n"
    "class Other:\n    def __init__(self):\n        self.actor = object()\n"
)


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        pytest.param("agents = [Holder(), Holder()]\nfor a in agents:\n    probe(a.actor)\n", "module", id="a-list-of-instances"),
        pytest.param("agents = [Holder() for _ in range(3)]\nfor a in agents:\n    probe(a.actor)\n", "module",
                     id="a-comprehension-of-instances"),
        pytest.param("agents = (Holder(), Holder())\nprobe(agents[1].actor)\n", "module", id="a-position"),
        pytest.param("agents = [Holder(), Holder()]\nif isinstance(agents, list):\n    probe(agents[0].actor)\n", "module",
                     id="a-type-test-changes-nothing"),
        # look-alikes: instances of two classes, or a list that may hold anything more
        pytest.param("agents = [Holder(), Other()]\nfor a in agents:\n    probe(a.actor)\n", None, id="two-classes"),
        pytest.param("agents = [Holder(), Holder()]\nagents.append(Other())\nfor a in agents:\n    probe(a.actor)\n", None,
                     id="appended-to"),
        pytest.param("agents = [Holder(), Holder()]\nagents += extra\nfor a in agents:\n    probe(a.actor)\n", None,
                     id="extended-by-an-unknown"),
        pytest.param("agents = [Holder(), Holder()]\nfill(agents)\nfor a in agents:\n    probe(a.actor)\n", None,
                     id="handed-to-a-call-that-may-fill-it"),
        pytest.param("agents = [Holder(), Holder()]\nkept = agents\nfor a in agents:\n    probe(a.actor)\n", None,
                     id="aliased"),
        pytest.param("probe([dict(), dict()][0])\n", None, id="library-instances-are-not-tracked"),
    ],
)
def test_lists_of_instances_of_a_class_of_the_file(source, expected):
    assert kinds(HOLDER + source) == [expected]


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        pytest.param("ts = [torch.zeros(1), torch.ones(1)]\nts += [torch.ones(2)]\nprobe(ts[0])\n", "tensor",
                     id="extended-by-tensors"),
        pytest.param("ts = [torch.zeros(1)]\nts += extra\nprobe(ts[0])\n", None, id="extended-by-an-unknown"),
        pytest.param("ts = [torch.zeros(1)]\nts += [3]\nprobe(ts[0])\n", None, id="extended-by-a-number"),
        pytest.param("ts = [torch.zeros(1)]\nfill(ts)\nprobe(ts[0])\n", None, id="handed-to-a-call-that-may-fill-it"),
        pytest.param("ts = {'a': torch.zeros(1)}\nfill(ts)\nprobe(ts['a'])\n", None, id="a-dict-handed-on"),
        pytest.param("ts = [torch.zeros(1, requires_grad=True)]\nopt = torch.optim.SGD(ts, lr=0.1)\nprobe(ts[0])\n",
                     "tensor+graph", id="torch-keeps-what-it-is-given"),
        pytest.param("ts = (torch.zeros(1), torch.ones(1))\nfill(ts)\nprobe(ts[0])\n", "tensor", id="a-tuple-cannot-change"),
        pytest.param("def f(ts):\n    x, y = ts\n    probe(x)\nf([torch.zeros(1)])\n", "tensor", id="unpacking-is-no-alias"),
        pytest.param("ts = [torch.zeros(1)]\nprint(len(ts), isinstance(ts, list), str(ts))\nprobe(ts[0])\n", "tensor",
                     id="reading-builtins"),
    ],
)
def test_a_container_the_scope_may_have_changed_out_of_sight(source, expected):
    assert kinds(HEAD + source) == [expected]


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        pytest.param("from torch.utils import data\nloader = data.DataLoader(ds)\nfor data in loader:\n    pass\nprobe(loader)\n",
                     "object", id="a-loop-variable-of-the-same-name"),
        pytest.param("from torch.utils import data\nloader = data.DataLoader(ds)\ndata = next(iter(loader))\nprobe(loader)\n",
                     "object", id="a-value-of-the-same-name"),
        pytest.param("from torch.utils import data\nclass data:\n    DataLoader = list\nloader = data.DataLoader(ds)\nprobe(loader)\n",
                     None, id="a-class-of-its-own"),
        pytest.param("from torch.utils import data\nimport mylib\ndata = mylib\nloader = data.DataLoader(ds)\nprobe(loader)\n",
                     None, id="another-module-under-that-name"),
    ],
)
def test_an_imported_name_bound_again_at_module_level(source, expected):
    assert kinds(source) == [expected]


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        pytest.param("    @property\n    def weight(self):\n        return [1, 2]\n", None, id="a-property"),
        pytest.param("    def __getattr__(self, name):\n        return getattr(self.stats, name)\n", None,
                     id="a-wrapper-handing-on-another-object-s"),
        pytest.param("    def weight(self):\n        return 1\n", None, id="a-method"),
        pytest.param("    pass\n", "tensor+graph", id="a-linear-s-own"),
    ],
)
def test_an_attribute_a_module_class_reads_through_code_of_its_own(body, expected):
    source = HEAD + f"class Layer(nn.Linear):\n{body}\nlayer = Layer(2, 2)\nprobe(layer.weight)\n"
    assert kinds(source) == [expected]


COERCE = HEAD + "from torch.autograd import Variable\nimport numpy as np\n"


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        # the test fails only for an instance: after it, the name is one, or the body's value
        (COERCE + "def f(x):\n    if not isinstance(x, Variable):\n        x = Variable(x)\n    probe(x)\n", ["tensor"]),
        (COERCE + "def f(x):\n    if not torch.is_tensor(x):\n        x = torch.tensor(x)\n    probe(x)\n", ["tensor"]),
        (COERCE + "def f(x):\n    if not isinstance(x, torch.Tensor):\n        raise TypeError(x)\n    probe(x)\n", ["tensor"]),
        (COERCE + "def f(xs):\n    for v in xs:\n        if not isinstance(v, Variable):\n            v = Variable(v)\n"
         "        probe(v)\n", ["tensor"]),
        (COERCE + "def f(m):\n    if not isinstance(m, nn.Module):\n        return None\n    probe(m)\n", ["module"]),
        # the body's value unknown, another class, the test in a branch, a binding after it,
        # an `else`, a test of another name, a loop's next pass binding it after the use
        (COERCE + "def f(x):\n    if not isinstance(x, torch.Tensor):\n        x = convert(x)\n    probe(x)\n", [None]),
        (COERCE + "def f(x):\n    if not isinstance(x, np.ndarray):\n        x = np.asarray(x)\n    probe(x)\n", [None]),
        (COERCE + "def f(x, c):\n    if c:\n        if not isinstance(x, Variable):\n            x = Variable(x)\n"
         "    probe(x)\n", [None]),
        (COERCE + "def f(x, c):\n    if not isinstance(x, Variable):\n        x = Variable(x)\n    if c:\n"
         "        x = load(x)\n    probe(x)\n", [None]),
        (COERCE + "def f(x):\n    if not isinstance(x, Variable):\n        x = Variable(x)\n    else:\n"
         "        x = load(x)\n    probe(x)\n", [None]),
        (COERCE + "def f(x, y):\n    if not isinstance(y, Variable):\n        x = Variable(y)\n    probe(x)\n", [None]),
        (COERCE + "def f(x):\n    if not isinstance(x, Variable):\n        log(x)\n    probe(x)\n", [None]),
        (COERCE + "def f(x):\n    for i in range(3):\n        if not isinstance(x, Variable):\n            x = Variable(x)\n"
         "        probe(x)\n        x = step(x)\n", [None]),
        # the block on the `if`'s line, an annotated assignment, module level
        (COERCE + "def f(x):\n    if not torch.is_tensor(x): x = torch.tensor(x)\n    probe(x)\n", ["tensor"]),
        (COERCE + "def f(x):\n    if not torch.is_tensor(x):\n        x: torch.Tensor = torch.tensor(x)\n    probe(x)\n",
         ["tensor"]),
        (COERCE + "x = [1.0]\nif not torch.is_tensor(x):\n    x = torch.tensor(x)\nprobe(x)\n", ["tensor"]),
        # what a file held beside the tested class: a tensor, as a guess (see test_fix_safety)
        (COERCE + "def f(x):\n    if not torch.is_tensor(x):\n        x = torch.load(x)\n    probe(x)\n", ["tensor"]),
    ],
    ids=["variable", "is-tensor", "raises", "loop-variable", "module", "unknown-body", "numpy", "in-a-branch",
         "bound-after", "with-else", "other-name", "body-binds-nothing", "loop-binds-after", "one-line", "annotated",
         "module-level", "loaded"],
)
def test_a_name_coerced_to_a_class_when_it_is_not_one(source, expected):
    """`if not isinstance(v, Variable): v = Variable(v)`: the idiom that coerces an argument (a
    nineteenth-round miss, ten instances in one repository)."""
    assert kinds(source) == expected


NESTED = HEAD + (
    "class Model(nn.Module):\n    class Head(nn.Module):\n        def forward(self, x):\n            return x\n"
    "    class Config:\n        size = 3\n"
)


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        (NESTED + "    def __init__(self):\n        super().__init__()\n        probe(Model.Head())\n", ["module"]),
        (NESTED + "    def __init__(self):\n        super().__init__()\n        probe(self.Head())\n", ["module"]),
        (NESTED + "probe(Model.Head())\n", ["module"]),
        # a plain class, a name the body binds again, an attribute a method assigns, a subclass
        # that may define its own
        (NESTED + "probe(Model.Config())\n", ["object"]),
        (NESTED + "    Head = make_head()\nprobe(Model.Head())\n", [None]),
        (NESTED + "    def __init__(self):\n        super().__init__()\n        self.Head = make_head\n"
         "        probe(self.Head())\n", [None]),
        (NESTED + "    def __init__(self):\n        super().__init__()\n        probe(self.Head())\n"
         "class Wide(Model):\n    class Head(Other):\n        pass\n", [None]),
        # replaced where the body is not read as a whole, decorated, or stored into from elsewhere
        (NESTED + "    try:\n        from fast import Head\n    except ImportError:\n        pass\nprobe(Model.Head())\n", [None]),
        (NESTED + "Model.Head = make_head()\nprobe(Model.Head())\n", [None]),
        (NESTED + "    def __init__(self, **kw):\n        super().__init__()\n        self.__dict__.update(kw)\n"
         "        probe(self.Head())\n", [None]),
        (HEAD + "class Model(nn.Module):\n    @register\n    class Head(nn.Module):\n        pass\nprobe(Model.Head())\n", [None]),
    ],
    ids=["through-the-class", "through-self", "module-level", "plain-class", "bound-again", "assigned-on-self", "subclass",
         "imported-in-a-try", "stored-on-the-class", "dict-updated", "decorated"],
)
def test_a_class_nested_in_a_class_body(source, expected):
    """`self.detection = Model.Detection()` (a twentieth-round miss: TL005 on its forward)."""
    assert kinds(source) == expected


@pytest.mark.parametrize(("choice", "expected"), [
    ("nn.Linear(2, 2) if flag else nn.Conv2d(1, 1, 1)", ["module", "tensor+graph"]),
    # a module in one branch and a class with a `parameters()` of its own in the other (micrograd):
    # known not to be a module for sure, so what its `parameters()` yields is no tensor either
    ("nn.Linear(2, 2) if flag else Neuron()", ["object", "object"]),
    ("Neuron()", ["object", None]),
])
def test_a_module_beside_a_known_non_module(choice, expected):
    source = (HEAD + "class Neuron:\n    def parameters(self):\n        return []\n"
              f"def f(flag):\n    net = {choice}\n    probe(net)\n    for p in net.parameters():\n        probe(p)\n")
    assert kinds(source) == expected


@pytest.mark.parametrize(("decorator", "expected"), [
    ("keep", ["module"]),  # returns the class it was given
    ("registry.register()", ["module"]),  # a factory's decorator: by convention the class itself
    ("make", [None]),  # returns an instance: `Net()` calls that instance
    ("Wrap", [None]),  # a class of the file: `Net` is an instance of it
])
def test_a_decorated_class_of_the_file(decorator, expected):
    source = (HEAD + "import registry\ndef keep(cls):\n    return cls\ndef make(cls):\n    return cls()\n"
              "class Wrap:\n    def __init__(self, cls):\n        self.cls = cls\n"
              f"@{decorator}\nclass Net(nn.Module):\n    def forward(self, x):\n        return x\nprobe(Net())\n")
    assert kinds(source) == expected


@pytest.mark.parametrize(("summed", "expected"), [
    ("sum([mse(f, t) for f, t in zip(feats, targets)])", "tensor+graph"),  # a loss module's outputs
    ("sum([torch.zeros(2), torch.ones(2)])", "tensor"),
    ("sum(net.parameters())", "tensor+graph"),
    ("sum([1, 2, 3])", None),
    ("sum(x.size(0) for x in feats)", None),
    ("sum(feats)", None),  # what the parameter holds is not known
])
def test_the_builtin_sum_of_tensors(summed, expected):
    source = (HEAD + "mse = nn.MSELoss()\nnet = nn.Linear(2, 2)\n"
              f"def f(feats, targets):\n    probe({summed})\n")
    assert kinds(source) == [expected]


def test_a_sum_shadowed_by_the_file_is_not_the_builtin():
    source = HEAD + "def sum(xs):\n    return len(xs)\nprobe(sum([torch.zeros(2)]))\n"
    assert kinds(source) == [None]


@pytest.mark.parametrize(("around", "expected"), [
    ("", "tensor+graph"),
    # calling an instance may run another `__call__`: a base the file cannot see, one assigned
    # later: what it returns is a module's output of unknown shape (no tensor)
    ("from mixins import SummaryMixin\nBASES = (SummaryMixin, nn.Module)\n", "object"),
    ("AFTER = 'Net.__call__ = lambda self, x: None'\n", "object"),
    ("AFTER = 'setattr(Net, \"__call__\", print)'\n", "object"),
])
def test_the_output_of_a_module_whose_call_may_be_another(around, expected):
    bases = "SummaryMixin, nn.Module" if "BASES" in around else "nn.Module"
    after = around.split("'")[1] + "\n" if "AFTER" in around else ""
    imports = around.split("\n")[0] + "\n" if "BASES" in around else ""
    source = (HEAD + imports + f"class Net({bases}):\n    def __init__(self):\n        super().__init__()\n"
              "        self.fc = nn.Linear(2, 2)\n    def forward(self, x):\n        return self.fc(x)\n"
              + after + "probe(Net()(torch.zeros(1, 2)))\n")
    assert kinds(source) == [expected]


@pytest.mark.parametrize(
    "source",
    [
        HEAD + "def score(net, x):\n    opt = torch.optim.SGD(net.parameters(), lr=0.1)\n    return net(x).data\n",
        HEAD + "def score(net: nn.Module, x):\n    return net(x).cpu().data\n",
        HEAD + "net = torch.load('m.pth')\nout = net(torch.zeros(1, 3))\nprint(out.data)\n",
        HEAD + "net = nn.DataParallel(torch.load('m.pth'))\nprint(net(x).data)\n",
    ],
    ids=["a-module-by-its-use", "annotated-nn-module", "a-loaded-model-called", "wrapped"],
)
def test_the_output_of_a_module_of_no_known_class_read_through_data_is_a_guess(source):
    [finding] = lint_text(source, "net.py", [rule_by_code("TL001")]).diagnostics
    assert finding.fix is not None and finding.fix.applicability == "unsafe"


OTHER_RESULTS = HEAD + (
    "from layers import masked_cross_entropy, helper\nfrom micro import Value\nfrom nets import Attention\n"
    "model = Attention()\n"
    "def train(loader):\n"
    "    for x, y in loader:\n"
    "        loss, n = masked_cross_entropy(model(x), y)\n        loss.backward()\n"
    "        objective, _ = model.calculate_objective(x, y)\n        objective.backward()\n"
    "        v = Value(3)\n        v.backward()\n"
    "        total = sum(t for t in x)\n        total.backward()\n"
    "        helper(x).backward()\n"
    "class A:\n    def step(self, x):\n        out = self.compute(x)\n        out.backward()\n"
    "def f(m, x):\n    r = m.run(x)\n    r.backward()\n"
    "def evaluate(loader, m):\n"
    "    for x, y in loader:\n"
    "        {use}\n"
    "class B:\n    def step(self, x):\n        {method_use}\n"
)


@pytest.mark.parametrize(
    ("use", "expected"),
    [
        ("loss, n = masked_cross_entropy(model(x), y); probe(loss)", "tensor+graph"),
        ("objective, weights = model.calculate_objective(x, y); probe(objective)", "tensor+graph"),
        ("out = helper(x); probe(out)", "tensor+graph"),
        # look-alikes: another element, an instance of a class, a builtin, another object's method
        ("loss, n = masked_cross_entropy(model(x), y); probe(n)", None),
        ("objective, weights = model.calculate_objective(x, y); probe(weights)", None),
        ("w = Value(4); probe(w)", None),
        ("s = sum(len(t) for t in x); probe(s)", None),
        ("r = m.run(x); probe(r)", None),
        ("loss, n = masked_cross_entropy(model(x), y)\n        if isinstance(loss, float): probe(loss)", None),
    ],
    ids=["function-element", "method-of-a-global", "direct-backward", "other-element", "other-element-of-method",
         "class-instance", "builtin", "another-parameter", "type-tested"],
)
def test_a_result_backpropagated_where_the_same_callee_is_called_elsewhere(use, expected):
    """`batch_loss, n = masked_cross_entropy(...)` is backpropagated in `train`: the same callee's
    result, at the same place, is a tensor in `evaluate` too."""
    assert kinds(OTHER_RESULTS.format(use=use, method_use="pass")) == [expected]


@pytest.mark.parametrize(("method_use", "expected"), [
    ("out = self.compute(x); probe(out)", None),  # `compute` of another class
])
def test_a_result_backpropagated_in_another_class_says_nothing(method_use, expected):
    assert kinds(OTHER_RESULTS.format(use="pass", method_use=method_use)) == [expected]


def test_a_result_backpropagated_elsewhere_needs_torch():
    source = OTHER_RESULTS.format(use="loss, n = masked_cross_entropy(model(x), y); probe(loss)", method_use="pass")
    assert kinds(source.replace(HEAD, "")) == [None]


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ("probe(getattr(lin, 'weight'))", "tensor+graph"),
        ("for name in ['weight', 'bias']:\n    probe(getattr(lin, name))", "tensor+graph"),
        # look-alikes: a default it may give, a name from elsewhere, a name no attribute agrees with,
        # a loop over something else, a getattr of the file's own
        ("probe(getattr(lin, 'bias', None))", None),
        ("probe(getattr(lin, name))", None),
        ("for name in ['weight', 'in_features']:\n    probe(getattr(lin, name))", None),
        ("for name in names:\n    probe(getattr(lin, name))", None),
        ("def getattr(obj, name):\n    return name\nprobe(getattr(lin, 'weight'))", None),
    ],
    ids=["literal", "loop-over-literals", "with-default", "unknown-name", "disagreeing-names", "loop-over-a-name",
         "shadowed-getattr"],
)
def test_getattr_with_names_the_code_spells(body, expected):
    assert kinds(HEAD + "lin = nn.Linear(2, 2)\n" + body + "\n") == [expected]


SUBCLASS_SETS = HEAD + (
    "import torch.nn.functional as F\n"
    "class Cascade(nn.Module):\n    def forward(self, x):\n        return F.log_softmax(x, dim=1)\n"
    "class Base({base}):\n    def __init__(self):\n        super().__init__()\n        self.fc = nn.Linear(8, 8)\n"
    "{extra}"
    "    def sample(self, x):\n        probe(self.core(self.fc(x)))\n"
    "class TopDown(Base):\n    def __init__(self):\n        super().__init__()\n        self.core = Cascade()\n"
    "{other}"
)


@pytest.mark.parametrize(
    ("base", "extra", "other", "expected"),
    [
        ("nn.Module", "", "", "tensor+graph"),
        ("nn.Module", "", "class Other(Base):\n    def __init__(self):\n        super().__init__()\n        self.core = Cascade()\n",
         "tensor+graph"),
        # look-alikes: a subclass setting something else, the class setting it itself, a base the
        # index cannot read, a property, nn.Module's own attribute
        ("nn.Module", "", "class Other(Base):\n    def __init__(self):\n        super().__init__()\n        self.core = make()\n",
         None),
        ("nn.Module", "    def reset(self):\n        self.core = make()\n", "", None),
        ("Unknown", "", "", None),
        ("nn.Module", "    @property\n    def core(self):\n        return make()\n", "", None),
    ],
    ids=["one-subclass", "subclasses-agree", "subclasses-disagree", "set-by-the-class", "unreadable-base", "property"],
)
def test_an_attribute_only_subclasses_set(base, extra, other, expected):
    source = SUBCLASS_SETS.format(base=base, extra=extra, other=other)
    if base == "Unknown":
        source = source.replace(HEAD, HEAD + "from lib import Unknown\n")
    assert kinds(source) == [expected]


REGISTERED = HEAD + (
    "class SpectralNorm(nn.Module):\n    def __init__(self, module, name='weight'):\n        super().__init__()\n"
    "        self.module = module\n        self.name = name\n        w = getattr(self.module, self.name)\n"
    "        {register}(self.name + '_u', nn.Parameter(w.new_zeros(3)))\n"
    "    def forward(self, x):\n        probe(getattr({receiver}, {named}))\n        return self.module(x)\n"
)


@pytest.mark.parametrize(
    ("register", "receiver", "named", "expected"),
    [
        ("self.module.register_parameter", "self.module", "self.name + '_u'", "tensor+graph"),
        ("self.module.register_buffer", "self.module", "self.name + '_u'", "tensor"),
        # look-alikes: another receiver, another name, nothing registered
        ("self.module.register_parameter", "self", "self.name + '_u'", None),
        ("other.module.register_parameter", "self.module", "self.name + '_u'", None),
        ("self.module.register_parameter", "self.module", "self.name + '_v'", None),
        ("self.module.keep", "self.module", "self.name + '_u'", None),
    ],
    ids=["parameter", "buffer", "other-receiver", "registered-on-another", "other-name", "not-registered"],
)
def test_getattr_of_a_name_the_file_registers(register, receiver, named, expected):
    assert kinds(REGISTERED.format(register=register, receiver=receiver, named=named)) == [expected]


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        pytest.param("nets = {k: nn.Linear(2, 2) for k in keys}\nprobe(nets[key])\n", "module", id="modules-by-key"),
        pytest.param("loaders = {p: DataLoader(ds, batch_size=4) for p in phases}\nfor x, y in loaders[phase]:\n"
                     "    probe(y)\n", "tensor", id="loaders-by-phase"),
        pytest.param("ps = {n: p for n, p in net.named_parameters()}\nprobe(ps[name])\n", "tensor+graph",
                     id="named-parameters"),
        pytest.param("counts = {k: 0 for k in keys}\nprobe(counts[key])\n", None, id="numbers"),
        pytest.param("cfg = {k: v for k, v in options.items()}\nprobe(cfg[key])\n", None, id="values-of-unknown-kind"),
        pytest.param("loaders = {p: DataLoader(ds, batch_size=4) for p in phases}\nfor name in loaders:\n"
                     "    probe(name)\n", None, id="iterating-gives-keys"),
        pytest.param("moved = {k: v.cuda() if torch.is_tensor(v) else v for k, v in batch.items()}\nprobe(moved[key])\n",
                     None, id="some-values-tensors"),
        pytest.param("nets = {k: nn.Linear(2, 2) if k else make(k) for k in keys}\nprobe(nets[key])\n", None,
                     id="some-values-unknown"),
        pytest.param("nets = {k: nn.Linear(2, 2) for k in keys}\nprobe(list(nets)[0])\n", None, id="listing-gives-keys"),
    ],
)
def test_a_dict_comprehension_maps_keys_to_what_its_value_is(source, expected):
    """`{phase: DataLoader(sets[phase]) for phase in phases}` (the transfer-learning tutorial's
    loaders): a mapping of what each value is, judged with the loop's variables bound."""
    head = HEAD + "from torch.utils.data import DataLoader\nnet = nn.Linear(2, 2)\n"
    assert kinds(head + source) == [expected]


DRAWN_LOADERS = HEAD + ("from itertools import cycle\nfrom torch.utils.data import DataLoader, TensorDataset\n"
                  "ds = TensorDataset(torch.zeros(4, 3), torch.zeros(4))\nlabelled = DataLoader(ds, batch_size=2)\n"
                  "unlabelled = DataLoader(ds, batch_size=2)\nnames = ['a', 'b']\n")


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        pytest.param(DRAWN_LOADERS + "it = iter(labelled)\nx, y = next(it)\nprobe(y)\n", "tensor", id="next-of-iter"),
        pytest.param(DRAWN_LOADERS + "it = iter(zip(cycle(labelled), unlabelled))\n(x, y), (u, _) = next(it)\nprobe(y)\nprobe(u)\n",
                     ["tensor", "tensor"], id="next-of-zipped-cycled-loaders"),
        pytest.param(DRAWN_LOADERS + "it = enumerate(labelled)\n_, batch = it.__next__()\nx, y = batch\nprobe(x)\n", "tensor",
                     id="dunder-next-of-enumerate"),
        pytest.param(DRAWN_LOADERS + "pairs = list(zip(names, labelled))\nprobe(pairs[0][1][0])\n", "tensor", id="list-of-zip"),
        # look-alikes: a default may come back, a callable is called, a position holds no tensor
        pytest.param(DRAWN_LOADERS + "it = iter(labelled)\nbatch = next(it, None)\nprobe(batch)\n", None, id="next-with-a-default"),
        pytest.param(DRAWN_LOADERS + "it = iter(read, b'')\nprobe(next(it))\n", None, id="iter-of-a-callable"),
        pytest.param(DRAWN_LOADERS + "it = iter(zip(names, labelled))\nname, batch = next(it)\nprobe(name)\n", None,
                     id="a-zipped-list-of-strings"),
        pytest.param(DRAWN_LOADERS + "it = enumerate(labelled)\ni, batch = next(it)\nprobe(i)\n", None, id="the-enumerated-index"),
        pytest.param(DRAWN_LOADERS + "it = iter(rows)\nprobe(next(it))\n", None, id="an-unknown-iterable"),
        pytest.param(DRAWN_LOADERS + "def zip(*a):\n    return a\nit = iter(zip(labelled, unlabelled))\nprobe(next(it)[0])\n", None,
                     id="a-zip-of-the-file's-own"),
    ],
)
def test_batches_drawn_with_next(source, expected):
    """CCT's `dataloader = iter(zip(cycle(self.supervised_loader), self.unsupervised_loader))`
    then `(input_l, target_l), (input_ul, target_ul) = next(dataloader)`."""
    assert kinds(source) == (expected if isinstance(expected, list) else [expected])


AUTOGRAD_FUNCTION = HEAD + "from torch.autograd import Function\n"


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        pytest.param(AUTOGRAD_FUNCTION + "class Scale(Function):\n    @staticmethod\n    def forward(ctx, x):\n        return x * 2\n"
                     "    @staticmethod\n    def backward(ctx, grad_output):\n        probe(grad_output)\n", "tensor",
                     id="the-gradient"),
        pytest.param(AUTOGRAD_FUNCTION + "class Reduce(torch.autograd.Function):\n    @staticmethod\n"
                     "    def backward(ctx, *grads):\n        probe(grads[0])\n", "tensor", id="star-gradients"),
        # look-alikes: the context, a forward's inputs, a backward of another class
        pytest.param(AUTOGRAD_FUNCTION + "class Scale(Function):\n    @staticmethod\n    def backward(ctx, g):\n        probe(ctx)\n",
                     None, id="the-context"),
        pytest.param(AUTOGRAD_FUNCTION + "class Scale(Function):\n    @staticmethod\n    def forward(ctx, x):\n        probe(x)\n",
                     None, id="a-forward-input"),
        pytest.param(HEAD + "class Function:\n    pass\nclass Step(Function):\n    @staticmethod\n"
                     "    def backward(ctx, g):\n        probe(g)\n", None, id="a-function-class-of-its-own"),
        pytest.param(HEAD + "class Net(nn.Module):\n    def backward(self, g):\n        probe(g)\n", None, id="a-module's-backward"),
    ],
)
def test_the_gradients_an_autograd_function_is_given(source, expected):
    assert kinds(source) == [expected]


APPLIED = AUTOGRAD_FUNCTION + (
    "class Hinge(Function):\n    @staticmethod\n    def forward(ctx, pred):\n        loss = torch.zeros(1)\n"
    "        loss += pred.sum()\n        return loss\n    @staticmethod\n    def backward(ctx, g):\n        return g\n"
    "class Pair(Function):\n    @staticmethod\n    def forward(ctx, a):\n        return torch.zeros(1), torch.ones(1)\n"
    "class Stats(Function):\n    @staticmethod\n    def forward(ctx, a):\n        return {'n': torch.zeros(1)}\n"
    "class Table:\n    @staticmethod\n    def forward(ctx, a):\n        return torch.zeros(1)\n"
    "    @classmethod\n    def apply(cls, a):\n        return [a]\n"
    "w = nn.Parameter(torch.zeros(3))\n"
)


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        pytest.param(APPLIED + "probe(Hinge.apply(w))\n", "tensor+graph", id="a-loss-of-a-parameter"),
        pytest.param(APPLIED + "probe(Hinge.apply(torch.zeros(3)))\n", "tensor", id="a-loss-of-plain-data"),
        pytest.param(APPLIED + "a, b = Pair.apply(w)\nprobe(b)\n", "tensor+graph", id="a-tuple-of-tensors"),
        # look-alikes: a dict returned, a class of its own with `apply`, called on its class or an instance
        pytest.param(APPLIED + "probe(Stats.apply(w))\n", None, id="a-dict"),
        pytest.param(APPLIED + "probe(Table.apply(w))\n", None, id="not-an-autograd-function"),
        pytest.param(APPLIED + "t = Table()\nprobe(t.apply(w))\n", None, id="an-instance's-apply"),
    ],
)
def test_what_an_autograd_function_applied_gives(source, expected):
    """SSN's `OHEMHingeLoss.apply(pos_prob, labels, ...)`: the loss its `forward` builds."""
    assert kinds(source) == [expected]


FILLED = HEAD + "class Box:\n    def __init__(self, data):\n        self.data = data\n"


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        pytest.param("    d = {}\n    d['l'] = nn.MSELoss()(model(x), x)\n    probe(d['l'])\n", "tensor+graph", id="one-store"),
        pytest.param("    grads = {}\n    for name, p in model.named_parameters():\n        grads[name] = p.grad\n"
                     "    for k, g in grads.items():\n        probe(g)\n", "tensor", id="stores-in-a-loop-read-by-items"),
        pytest.param("    d = dict()\n    d[0] = model(x)\n    for k, v in sorted(d.items()):\n        probe(v)\n", "tensor+graph",
                     id="an-empty-dict-call-read-sorted"),
        # look-alikes: something else is stored, or the dict is changed or reached another way
        pytest.param("    d = {}\n    d[0] = model(x)\n    d[1] = Box(1)\n    probe(d[0])\n", None, id="another-kind-stored"),
        pytest.param("    d = {}\n    d[0] = model(x)\n    d.update(other)\n    probe(d[0])\n", None, id="updated"),
        pytest.param("    d = {}\n    d[0] = model(x)\n    fill(d)\n    probe(d[0])\n", None, id="handed-to-a-helper"),
        pytest.param("    d = {}\n    d[0] = model(x)\n    d[0] += 1\n    probe(d[0])\n", None, id="an-augmented-store"),
        pytest.param("    d = {}\n    d[0] = model(x)\n    e = d if c else {}\n    e[0] = Box(1)\n    probe(d[0])\n", None,
                     id="aliased-by-a-choice"),
        pytest.param("    d = {}\n    d[0] = model(x)\n    e = (f := d)\n    e[0] = Box(1)\n    probe(d[0])\n", None,
                     id="aliased-by-a-walrus"),
        pytest.param("    d = {}\n    d[0] = model(x)\n    e = next(iter([]), d)\n    e[0] = Box(1)\n    probe(d[0])\n", None,
                     id="aliased-by-next's-default"),
        pytest.param("    d = {}\n    d[0] = model\n    probe(d[0])\n", None, id="a-dict-of-modules"),
    ],
)
def test_a_dict_filled_by_item_stores(body, expected):
    """SiamCAR's `grad = {}`, `grad[name] = param.grad` in a loop, then `for k, g in grad.items():
    g.data...`: the dict holds what every store puts in (tensors only: a dict of modules is read
    where it is saved, store by store)."""
    source = FILLED + "def f(model, x, c, other):\n    model = nn.Linear(2, 2)\n" + body
    assert kinds(source) == [expected]


GRID = HEAD + "class Meter:\n    data = 0\nclass Grid(nn.Module):\n    def __init__(self, more):\n        super().__init__()\n"


@pytest.mark.parametrize(
    ("build", "expected"),
    [
        pytest.param("        coefs = []\n        for i in range(3):\n            coefs.append(nn.Parameter(torch.randn(2)))\n"
                     "        self.line = nn.ParameterList(coefs)\n", "tensor+graph", id="a-grown-list-of-parameters"),
        pytest.param("        comp = [nn.Parameter(torch.randn(2)) for _ in range(3)]\n        self.line = nn.ParameterList(comp)\n",
                     "tensor+graph", id="a-comprehension-bound-first"),
        # look-alikes: the list holds something else, or is filled out of sight
        pytest.param("        coefs = []\n        coefs.append(nn.Parameter(torch.randn(2)))\n        coefs.append(Meter())\n"
                     "        self.line = nn.ParameterList(coefs)\n", None, id="a-non-tensor-added"),
        pytest.param("        coefs = []\n        more(coefs)\n        self.line = nn.ParameterList(coefs)\n", None,
                     id="filled-by-a-helper"),
        pytest.param("        coefs = more\n        self.line = nn.ParameterList(coefs)\n", None, id="a-parameter's-list"),
    ],
)
def test_a_parameter_list_of_a_named_list(build, expected):
    """TensoRF's `line_coef.append(torch.nn.Parameter(...))` in a loop, then
    `torch.nn.ParameterList(line_coef)`: its items are parameters (a guess, as for any
    ParameterList: later code may put anything in)."""
    assert kinds(GRID + build + "    def shrink(self):\n        probe(self.line[0])\n") == [expected]


KWARGS_CALLEE = HEAD + "def f(x, y, **kw):\n    probe(y)\n"


@pytest.mark.parametrize(
    ("calls", "expected"),
    [
        # a call that spreads keywords only: what it gives by position or by name stands
        ("f(torch.zeros(1), torch.ones(2), **opts)\n", "tensor"),
        ("f(torch.zeros(1), y=torch.ones(2), **opts)\n", "tensor"),
        ("f(torch.zeros(1), torch.ones(2), reduce=True, **opts)\n", "tensor"),
        # the parameter left to the spread, a spread of positions, another call passing something else
        ("f(torch.zeros(1), **opts)\n", None),
        ("f(*pair, **opts)\n", None),
        ("f(torch.zeros(1), *rest, **opts)\n", None),
        ("f(torch.zeros(1), torch.ones(2), **opts)\nf(1, 'labels')\n", None),
    ],
)
def test_a_call_spreading_keywords_passes_what_it_names(calls, expected):
    """convex_adversarial's `robust_loss_cascade(X.cuda(), y.cuda(), **kwargs)`."""
    assert kinds(KWARGS_CALLEE + calls) == [expected]


PLAIN_FORWARD = HEAD + "class Softmax:\n    def forward(self, x):\n        return F.log_softmax(x, dim=1)\n"


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        # a plain object's method named `forward` is a method like any other (few-shot-gnn)
        (PLAIN_FORWARD + "s = Softmax()\nprobe(s.forward(torch.zeros(2, 3)))\n", "tensor"),
        # one rebound on the instance, one a subclass overrides with something else, a class of
        # unknown bases, one returning a list: nothing (or the list) said
        (PLAIN_FORWARD.replace("class Softmax:\n", "class Softmax:\n    def __init__(self):\n        self.forward = print\n")
         + "s = Softmax()\nprobe(s.forward(torch.zeros(2, 3)))\n", None),
        (PLAIN_FORWARD + "class Other(Softmax):\n    def forward(self, x):\n        return 'x'\n"
         "def f(s: Softmax):\n    probe(s.forward(torch.zeros(2, 3)))\n", None),
        (HEAD + "from lib import Base\nclass Softmax(Base):\n    def forward(self, x):\n        return F.log_softmax(x, dim=1)\n"
         "s = Softmax()\nprobe(s.forward(torch.zeros(2, 3)))\n", None),
        (HEAD + "class Split:\n    def forward(self, x):\n        return [x, x]\ns = Split()\nprobe(s.forward(torch.zeros(2)))\n",
         "container"),
    ],
)
def test_a_plain_object_s_forward_returns_what_it_returns(source, expected):
    assert kinds("import torch.nn.functional as F\n" + source) == [expected]


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        # where a test has just said the name is no tensor (LaneGCN's `load_pretrain`)
        ("    if not isinstance(v, torch.Tensor):\n        probe(v)\n", "object"),
        ("    if not isinstance(v, (torch.Tensor, np.ndarray)):\n        probe(v)\n", "object"),
        ("    if not torch.is_tensor(v):\n        probe(v)\n", "object"),
        # a subclass tested (a plain tensor passes), the name bound again first, the other branch
        ("    v = torch.zeros(2)\n    if not isinstance(v, nn.Parameter):\n        probe(v)\n", "tensor"),
        ("    if not isinstance(v, torch.Tensor):\n        v = torch.tensor(v)\n        probe(v)\n", "tensor"),
        ("    v = torch.zeros(2)\n    if not isinstance(v, torch.Tensor):\n        pass\n    else:\n        probe(v)\n",
         "tensor"),
        # a module is no tensor either: it stays a module there
        ("    v = nn.Linear(2, 2)\n    if not isinstance(v, torch.Tensor):\n        probe(v)\n", "module"),
    ],
)
def test_a_name_a_test_says_is_no_tensor(body, expected):
    source = HEAD + "import numpy as np\ndef f(sd, k):\n    v = sd[k]\n    n = v.size(0)\n" + body
    assert kinds(source) == [expected]


BRANCHY = HEAD + (
    "class Net(nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.fc = nn.Linear(2, 2)\n"
    "        self.flag = True\n"
    "    def forward(self, x):\n        p = torch.softmax(self.fc(x), dim=1)\n        if self.flag:\n            return self.fc(x), p\n"
    "        OTHER\n"
    "net = Net()\nfut, p = net(torch.ones(4, 2))\nprobe(p)\n"
)


@pytest.mark.parametrize(("other", "expected"), [
    ("return self.fc(x)", "tensor"),  # unpacked, a tensor gives its rows
    ("return torch.cat([p, p])", "tensor"),
    ("return None", None),  # nothing to unpack: not known
    ("return", None),
    ("return {'out': p, 'aux': p}", None),  # a dict unpacks into its keys
    ("return 'skipped'", None),
    ("return x.tolist()", None),
    ("return [p for _ in range(2)]", "tensor+graph"),  # (a display: its element, as before)
    ("return self.unknown(x)", None),
])
def test_a_value_returned_whole_beside_a_tuple_is_unpacked_as_its_kind_is(other, expected):
    """`fut, p = net(x)` where `forward` returns `out, p` in one branch and a value whole in
    another: where that value unpacks at all, it unpacks as its kind does."""
    assert kinds(BRANCHY.replace("OTHER", other)) == [expected]


BOUND_COLLATE = HEAD + (
    "from torch.utils.data import DataLoader, Dataset\n"
    "class Pairs(BASE):\n    def __len__(self):\n        return 8\n    def __getitem__(self, i):\n        return i\n"
    "METHOD"
    "ds = Pairs()\nloader = DataLoader(ds, batch_size=4, collate_fn=ds.COLLATE)\nAFTER"
    "for x, y in loader:\n    probe(y)\n"
)
TUPLE_COLLATE = "    def collate_fn(self, samples):\n        return torch.zeros(len(samples), 2), torch.zeros(len(samples))\n"


@pytest.mark.parametrize(("base", "method", "collate", "after", "expected"), [
    ("Dataset", TUPLE_COLLATE, "collate_fn", "", "tensor"),
    ("Dataset", "    @staticmethod\n" + TUPLE_COLLATE.replace("self, ", ""), "collate_fn", "", "tensor"),
    # look-alikes: what else the method returns, where it is defined, the loader's collate_fn set later
    ("Dataset", "    def collate_fn(self, samples):\n        return {'x': torch.zeros(2)}\n", "collate_fn", "", None),
    ("Dataset", "    def collate_fn(self, samples):\n        return torch.zeros(2), [len(s) for s in samples]\n",
     "collate_fn", "", None),
    ("Dataset", "    def collate_fn(self, samples):\n        if not samples:\n            return None\n"
                "        return torch.zeros(2), torch.zeros(2)\n", "collate_fn", "", None),
    ("Dataset", TUPLE_COLLATE, "other", "", None),  # not a method the class defines
    ("Dataset", TUPLE_COLLATE, "collate_fn", "loader.collate_fn = list\n", None),
    ("Dataset", TUPLE_COLLATE, "collate_fn", "ds.collate_fn = list\n", None),
    ("Unseen", TUPLE_COLLATE, "collate_fn", "", None),  # a class with a base not seen is not known
    ("Dataset", "    def collate_fn(self, samples):\n        return samples\n", "collate_fn", "", None),
    # the name bound otherwise: in the class body, twice, on the instance; or a subclass overriding it
    ("Dataset", TUPLE_COLLATE + "    def packed(self, samples):\n        return samples\n    collate_fn = packed\n",
     "collate_fn", "", None),
    ("Dataset", TUPLE_COLLATE + "    def collate_fn(self, samples):\n        return samples\n", "collate_fn", "", None),
    ("Dataset", TUPLE_COLLATE, "collate_fn", "setattr(ds, 'collate_fn', list)\n", None),
    ("Dataset", TUPLE_COLLATE, "collate_fn",
     "class Packed(Pairs):\n    def collate_fn(self, samples):\n        return samples\n", None),
])
def test_a_loader_given_a_dataset_s_own_collate_method_yields_what_it_returns(base, method, collate, after, expected):
    """`DataLoader(ds, collate_fn=ds.collate_fn)` (conv-social-pooling): the batches are what the
    method defined by the instance's class returns, read as a collate function's are."""
    source = BOUND_COLLATE.replace("BASE", base).replace("METHOD", method).replace("COLLATE", collate).replace("AFTER", after)
    if base == "Unseen":
        source = source.replace("from torch.utils.data", "from elsewhere import Unseen\nfrom torch.utils.data")
    assert kinds(source) == [expected]


@pytest.mark.parametrize(("handler", "expected"), [
    # the code doubts it has `.size` (a PackedSequence has not): a model's output, no more known
    ("except AttributeError:", "object"),
    ("except (TypeError, AttributeError):", "object"),
    ("except builtins.AttributeError:", "object"),
    ("except RuntimeError:", "tensor"),  # (an OOM guard doubts nothing about the value)
    ("except Exception:", "tensor"),
])
def test_a_use_tried_for_a_missing_attribute_is_no_evidence(handler, expected):
    """`try: n = out.size(0)` `except AttributeError: n = None`: the use says nothing of `out`."""
    body = f"try:\n    n = out.size(0)\n{handler}\n    n = None\n"
    assert kinds(UNKNOWN_MODEL + "import builtins\nout = net(x)\n" + body + "probe(out)\n") == [expected]


def test_a_list_grown_inside_a_try_for_a_missing_attribute_is_still_grown():
    """`outs.append(cfg.extra)` in a `try` whose handler names AttributeError still changes `outs`:
    only what the use says of the value's kind is dropped there, not the container's changes."""
    source = (NET + "net = Net()\nouts = [net(torch.ones(2))]\ntry:\n    outs.append(cfg.extra)\n"
              "except AttributeError:\n    pass\nfor o in outs:\n    probe(o)\n")
    assert kinds(source) == [None]


@pytest.mark.parametrize(("bind", "expected"), [
    ("with torch.no_grad():\n    pair = m(x)\n", "tensor"),
    ("pair = m(x)\n", "tensor+graph"),
])
def test_a_tuple_bound_with_autograd_off_holds_no_graph(bind, expected):
    """A tuple of tensors computed under `no_grad` and unpacked later: its elements carry no graph."""
    source = AGENT + "m = Agent()\n" + bind + "loss, aux = pair\nprobe(loss)\n"
    assert kinds(source) == [expected]


@pytest.mark.parametrize(("subclass", "expected"), [
    ("", "tensor"),
    ("class Packed(DS):\n    def collate(self, batch):\n        return pack(batch), torch.stack(batch)\n", None),
])
def test_a_method_result_unpacked_in_a_base_reads_every_override(subclass, expected):
    """`x, y = self.collate(b)` in a method of the base: a subclass defining `collate` again may
    run instead (a PackedSequence there), so the element is what every definition agrees on."""
    source = HEAD + (
        "from torch.nn.utils.rnn import pack_sequence as pack\n"
        "class DS:\n    def collate(self, batch):\n        return torch.stack(batch), torch.stack(batch)\n"
        "    def show(self, b):\n        x, y = self.collate(b)\n        probe(x)\n") + subclass
    assert kinds(source) == [expected]
