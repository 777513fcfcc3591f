"""TL001 tensor-data-attribute: `.data` on a tensor where `.detach()` or `torch.no_grad()` is meant."""

from __future__ import annotations

import re

import libcst as cst

from torchlint.codemod import method_call, wrap_in_with
from torchlint.kinds import GUESSED, TENSOR
from torchlint.rule import Invalid, Rule
from torchlint.walk import path_to
from torchlint.rules.registry import register
from torchlint.walk import SCOPE_NODES, descendants

_READ_MESSAGE = "`.data` hides the tensor from autograd, so gradients can be silently wrong; use `.detach()`"
_IN_PLACE_MESSAGE = "An in-place update through `.data` is invisible to autograd; update the tensor under `no_grad`"
_ASSIGN_MESSAGE = "Assigning to `.data` swaps the tensor behind autograd's back; use `p.copy_(t)` under `no_grad`"
_CONVERT_MESSAGE = ("Assigning to `.data` swaps the tensor behind autograd's back; to change a parameter's dtype or "
                    "device, convert its module (`module.half()`, `module.to(device)`)")
# Methods that give a tensor of another dtype or device: `p.data = p.data.half()` converts `p`.
_CONVERSIONS = frozenset({"half", "float", "double", "bfloat16", "to", "cuda", "cpu", "type", "long", "int"})

T = "import torch\nimport torch.nn as nn\n"


@register
class TensorDataAttribute(Rule):
    """
    ## What it does
    Flags `.data` on an expression known to be a tensor or parameter: results of torch operations
    and module calls, losses, `.grad`, parameters from `parameters()`/`named_parameters()` loops, and
    `m.weight`/`m.bias` of a known module (`for m in self.modules()` included), and, in a file that
    uses torch, a layer parameter (`weight`, `bias`, `weight_g`, `weight_v`, `weight_orig`,
    `in_proj_weight`, `in_proj_bias`, an RNN's `weight_ih_l0`/`bias_hh_l1_reverse` and its cell's
    `weight_ih`) or a normalisation layer's buffer (`running_mean`, `running_var`,
    `num_batches_tracked`) of a submodule
    built where it cannot be read (`self.conv.weight.data` with `self.conv` from a factory,
    `self.head[-1].bias.data`, `m.bn.running_var.data`), and an element of a batch that a
    DataLoader with the default collate function yields (`for x, y in loader: x.data`; also a
    loader kept in a list or dict display or a dict comprehension, `dataloaders[phase]`, or
    returned by a function of the file; a batch passed to a function of another module, through
    `enumerate`, `zip` or a progress bar too) or with a `collate_fn` of the project whose every `return` is a tuple of tensors. A
    loader given a `**mapping`, `batch_size=None` or a collate function by position, or in a
    project that assigns some loader's `collate_fn`, has batches of unknown kind; and a batch
    element the scope reads an attribute of that no tensor has (`sample.mask`) is not one. What a module of no
    known class returns (one known to be a module only by its use, `net.parameters()`; a parameter
    annotated `nn.Module` that no caller says more of; what `torch.load` gave, called with a
    tensor; a DataParallel or DistributedDataParallel wrapper of a value of unknown kind), or that output moved with `.cpu()`/`.cuda()`, is taken for a tensor where `.data` is
    read on it, as a guess: a tuple or a dict has no `.data`, and a PackedSequence, which has, is
    seldom what a model returns. Not in a project that packs sequences (a module of it names
    `pack_padded_sequence`, `pack_sequence` or `PackedSequence`), nor where the scope asks what
    the output is (`isinstance(out, PackedSequence)`, `hasattr(out, "data")`), nor for the output
    of a class the linter reads (a project's, `nn.Identity`, a `Sequential` it cannot see the end
    of). A callable unpickled from a checkpoint that is not a model but is given a tensor and
    returns an object with a `.data` of its own (a pickled feature extractor's `BatchFeature`) is
    taken for one: such findings are reported with an unsafe fix only.

    ## Why is this bad?
    Since PyTorch 0.4, `.data` returns a tensor that shares storage with the original but is
    invisible to autograd: a change made through it is not recorded, so a backward pass that needs
    the old values computes silently wrong gradients. `.detach()` shares storage too, but autograd
    tracks its version counter and raises an error instead. For deliberate updates of parameters,
    `torch.no_grad()` is the supported way.

    ## Example
    ```python
    pred = model(x).data.cpu().numpy()
    for p in model.parameters():
        p.data.add_(p.grad, alpha=-lr)
    ```

    ## Use instead
    ```python
    pred = model(x).detach().cpu().numpy()
    for p in model.parameters():
        with torch.no_grad():
            p.add_(p.grad, alpha=-lr)
    ```

    ## Fix safety
    - A read (`out.data.cpu()`, `x = y.data`) becomes `.detach()`: **safe**. The values are the
      same; the only difference is that an in-place change which would corrupt a gradient now
      raises. It is **unsafe** when the receiver is taken for a tensor by a guess: a layer's
      parameter by its name alone (`self.conv.weight.data` with `self.conv` built where it cannot
      be read), an element of a DataLoader's batch, a value taken for a tensor because only
      tensors have what is called on it or what it is given to (`trg.size(0)`, `x.permute(0, 2, 1)`,
      `F.avg_pool2d(x, k)`, `criterion(out, y)` with `criterion` one of torch's loss modules), an instance's attribute
      its methods set to a tensor in one place and to a number in another (`self.loss_kl = 0`
      where that loss is off), a method's
      parameter typed by the calls of the method the project shows (a method may also be reached
      by a name computed at run time), the `.loss` or `.logits` (`out["loss"]`) of a model whose
      output is not known, read by transformers' convention (a model of the project may put a
      number there), the output of a module of no known class read through `.data`, the output
      of a model that may be one `torch.load` gave (`model = torch.load(p).cuda()` in one branch,
      `model = Net()` in another: the loaded one's class is not known), or a value
      computed from such guesses alone: were the
      object not a tensor, `.detach()` would not exist on it. It is also **unsafe** where the read
      is bound to a name the scope then changes in place (`w = layer.weight.data`, `w.add_(e)`,
      ..., `w.copy_(saved)`): `.detach()` shares the tensor's version counter, so a backward
      through a graph that saved the tensor raises even where the change was undone. And it is
      **unsafe** in a project that may build lazy modules (any of its files names `nn.LazyLinear`,
      `nn.LazyConv2d` or another lazy layer, as a call, a registry's value or a base class, or
      `UninitializedParameter`): until the module first runs its parameters are uninitialised,
      and `.detach()` raises on one where `.data` does not.
    - An in-place update (`p.data.add_(...)`, `p.data -= ...`, `p.data[i] = ...`,
      `p.data[i] += ...`, and an in-place method on an indexed view: `p.data[:, c:].zero_()`) becomes the same
      statement on the tensor itself under `with torch.no_grad():` (no new block inside an existing
      `no_grad`/`inference_mode` block or decorated function); in-place calls chained on it count
      (`p.data.mul_(a).add_(b)`), and the statement's other `.data` reads of tensors lose their
      `.data` too, in the same finding (`ema.data.mul_(d).add_(p.data)` is one finding, fixed to
      `ema.mul_(d).add_(p)`; a read on another line of the statement keeps a finding of its own
      there, without a fix: the statement's fix drops it): **unsafe**, because it changes which
      operations autograd sees (an update of a leaf that requires grad now needs `no_grad`, and
      version counters move), and torch refuses some in-place updates that `.data` allowed: on
      one of several views a call returned (an output of `.chunk()`/`.split()`/`.unbind()`) and
      on an inference tensor (made under `torch.inference_mode()`) the fixed statement raises. The fix needs a name for `torch` bound by an import visible where
      the statement stands (a `torch` imported only inside another function does not count);
      without one, and when the statement shares its line with others, there is no fix.
    - An in-place method that changes only the tensor object's flags or shape
      (`requires_grad_`, `detach_`, `set_`, `t_`, `resize_`, ...) acts on the alias `.data`
      returns, not on the tensor: it is a read, and `.detach()` (another alias) keeps that.
    - An assignment `p.data = t` has no fix: it can change the shape, dtype or device, which
      `p.copy_(t)` cannot. It is one finding for its line, the statement's `.data` reads on that
      line included (`p.data = p.data.half()`). The message suggests `p.copy_(t)` under `torch.no_grad()`, or
      converting the module when `t` is a conversion (`.half()`, `.to(...)`, `.cuda()`). The same
      holds for `.data` anywhere in what a statement binds or deletes: tuple targets
      (`a.data, b.data = x, y`), annotated assignments, `del p.data`, `p.data.attr = v`.

    Not flagged: a called `.data()` (MXNet's parameters: a tensor's `.data` is not callable); a
    `weight`/`bias` of a parameter annotated with another library's class (`ds: xr.Dataset`,
    `layer: keras.layers.Dense`); `.data` of anything not known to be a tensor (`self.data` in a Dataset,
    torchvision's `dataset.data`, ultralytics `boxes.data`, a PackedSequence's `.data`, numpy
    `arr.data`, `request.data`, dataclass fields), including the output of modules that pass
    their input through (`nn.Identity`, an `nn.Sequential` whose last module is not known to
    return one tensor) or return a tuple (`MaxPool*`/`AdaptiveMaxPool*`/`FractionalMaxPool*` with `return_indices=True`,
    RNNs, attention).

    ## References
    - [PyTorch 0.4 migration guide: what about .data?](https://pytorch.org/blog/pytorch-0_4_0-migration-guide/)
    - [torch.Tensor.detach](https://pytorch.org/docs/stable/generated/torch.Tensor.detach.html)
    - [torch.no_grad](https://pytorch.org/docs/stable/generated/torch.no_grad.html)
    """

    code = "TL001"
    preview = False  # released
    name = "tensor-data-attribute"
    summary = "`.data` on a tensor hides changes from autograd"
    severity = "warning"
    fix_safety = ("safe", "unsafe")
    trigger_tokens = (".data",)
    scope_tokens = (".data",)  # it visits only `.data` attributes
    trigger_attributes = frozenset({"data"})
    # not `torch.utils.data` nor `self.data`, which are never a tensor's `.data`
    trigger_patterns = (re.compile(r"\.data\b(?<!utils\.data)(?<!\bself\.data)"),)

    valid = (
        # a module of the file's own whose `forward` packs its rows: its output's `.data` is the
        # PackedSequence's field
        T + "from torch.nn.utils.rnn import pack_sequence\nclass Packer(nn.Module):\n    def forward(self, x):\n"
        "        return pack_sequence([x])\nflat = Packer()(x).data\n",
        # `nn.Identity` gives back what it is given; a Sequential ending in one too
        T + "from torch.nn.utils.rnn import pack_sequence\nseq = pack_sequence([x])\nrows = nn.Identity()(seq).data\n"
        "rows2 = nn.Sequential(nn.Identity())(seq).data\n",
        # a name used as a module nowhere: what calling it gives is not a model's output
        T + "def apply(fn, x):\n    return fn(x).data\n",
        # what torch.load gave, not called: a checkpoint's entries are anything
        T + "ckpt = torch.load('c.pt')\nstats = ckpt['stats'].data\n",
        # what torch.load gave, indexed after a call: a tuple's element is not the output itself
        T + "net = torch.load('model.pth')\nfirst = net(torch.ones(1, 3))[0].data\n",
        # what a checkpoint held, given text: a tokenizer, whose encoding keeps its dict in `.data`
        T + "ckpt = torch.load('bundle.pt')\ntokenizer = ckpt['tokenizer']\nenc = tokenizer(['a b', 'c'])\nbatch = enc.data\n",
        # a project that packs sequences: a model of it may return a PackedSequence
        T + "from torch.nn.utils.rnn import pack_padded_sequence\ndef feats(model, x, n):\n"
        "    opt = torch.optim.SGD(model.parameters(), lr=0.1)\n    return model(x, n).data\n",
        # the output's kind is asked before `.data` is read
        T + "from torch.nn.utils.rnn import PackedSequence\ndef flat(model: nn.Module, x):\n    out = model(x)\n"
        "    if isinstance(out, PackedSequence):\n        out = out.data\n    return out\n",
        # annotated as some module, but every call passes a class of the file that packs its rows
        T + "from torch.nn.utils.rnn import pack_sequence\nclass Packer(nn.Module):\n    def forward(self, x):\n"
        "        return pack_sequence([x])\ndef flat(model: nn.Module, x):\n    return model(x).data\nflat(Packer(), x)\n",
        # `torch.max(x, 1)`: values and indices, not one tensor
        T + "def top(x):\n    return torch.max(x, 1).data\n",
        # a wrapper of a module of unknown class: in a project that packs sequences, compiled (it
        # compiles functions too), or an element of its output
        T + "from torch.nn.utils.rnn import pack_sequence\nnet = nn.DataParallel(build(cfg))\nflat = net(x).data\n",
        T + "net = torch.compile(build(cfg))\nflat = net(x).data\n",
        T + "net = nn.DataParallel(build(cfg))\nfirst = net(x)[0].data\n",
        # the list put in a display the scope goes on using, then changed through it: its items
        # are not known
        "import torch\ndef prep(model):\n    params = [p for p in model.parameters()]\n    for group in [params]:\n"
        "        group[0] = group[0].tolist()\n    return params[0].data\n",
        # a distribution's `expand` takes one shape, sympy's keywords: no evidence of a tensor
        "import torch\ndef widen(d, n):\n    wide = d.expand((n,))\n    return d.data\n",
        "import torch\ndef simplify(e):\n    e.expand(deep=True)\n    return e.data\n",
        "import torch\ndef widen(d, n):\n    return d.expand(torch.Size([n])), d.data\n",
        # numpy's `view` takes a dtype (and a type); a name passed first to a function that is
        # not torch.nn.functional's, or only in a branch of a type test, or rebound since
        T + "import numpy as np\ndef raw(arr):\n    v = arr.view(np.uint8, np.ndarray)\n    return arr.data\n",
        T + "import numpy as np\ndef raw(arr):\n    m = np.mean(arr)\n    return arr.data\n",
        T + "import torch.nn.functional as F\nfrom torch.nn.utils.rnn import PackedSequence\ndef f(x):\n    if isinstance(x, PackedSequence):\n"
        "        return x.data\n    return F.relu(x)\n",
        T + "import torch.nn.functional as F\ndef f(x, load):\n    y = F.relu(x)\n    x = load()\n    return x.data\n",
        # a param group's other entries, a scheduler's, and an optimizer of the project's own
        T + "net = nn.Linear(3, 3)\nopt = torch.optim.SGD(net.parameters(), lr=0.1)\nfor group in opt.param_groups:\n"
        "    lr = group['lr'].data\n",
        T + "from .optim import Lookahead\nopt = Lookahead(inner)\nfor group in opt.param_groups:\n"
        "    for p in group['params']:\n        v = p.data\n",
        T + "sched = torch.optim.lr_scheduler.StepLR(opt, 10)\nfor group in sched.param_groups:\n"
        "    for p in group['params']:\n        v = p.data\n",
        # a module whose class (or a base of the file's) redefines `state_dict`, or one of a base
        # the file cannot see into
        T + "class Net(nn.Module):\n    def state_dict(self):\n        return {'w': Box()}\n"
        "sd = Net().state_dict()\nv = sd['w'].data\n",
        T + "class Base(nn.Module):\n    def state_dict(self):\n        return {'w': Box()}\nclass Net(Base):\n    pass\n"
        "sd = Net().state_dict()\nv = sd['w'].data\n",
        T + "from .lib import Wrapped\nclass Net(Wrapped, nn.Module):\n    pass\nsd = Net().state_dict()\nv = sd['w'].data\n",
        T + "def ema(src: nn.Module):\n    sd = src.state_dict()\n    return sd['w'].data\n",
        T + "from .lib import Detector\nnet = nn.SyncBatchNorm.convert_sync_batchnorm(Detector())\n"
        "sd = nn.DataParallel(net).state_dict()\nv = sd['w'].data\nout = net.forward(x)\n",
        # torch.nn.functional's argument only in a branch, after a return that may have handled
        # another kind, or after `torch.is_tensor`: a PackedSequence's `.data` elsewhere
        T + "import torch.nn.functional as F\nfrom torch.nn.utils.rnn import PackedSequence\ndef drop(x, packed):\n"
        "    if packed:\n        return PackedSequence(F.dropout(x.data), x.batch_sizes)\n    return F.dropout(x)\n",
        T + "import torch.nn.functional as F\nfrom torch.nn.utils.rnn import PackedSequence\ndef drop(x, packed):\n"
        "    if packed:\n        y = PackedSequence(F.relu(x.data), x.batch_sizes)\n    else:\n        y = F.relu(x)\n"
        "    return y\n",
        T + "import torch.nn.functional as F\ndef unpack(x):\n    if torch.is_tensor(x):\n        return F.pad(x, (0, 1))\n"
        "    return x.data\n",
        # an array (or a value of unknown kind) counted up in place is not a tensor
        T + "import numpy as np\nclass Scale(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
        "        self.step = np.zeros(1)\n    def forward(self, x):\n        self.step += 1\n        return x\n"
        "    def value(self):\n        return self.step.data\n",
        T + "class Scale(nn.Module):\n    def __init__(self, start):\n        super().__init__()\n"
        "        self.step = start\n    def forward(self, x):\n        self.step += x\n        return x\n"
        "    def value(self):\n        return self.step.data\n",
        # an in-place method on an indexed `.data` of something not known to be a tensor
        T + "class Grid:\n    def __init__(self):\n        self.data = [[0.0] * 3]\n"
        "def reset(grid: Grid):\n    grid.data[0].clear()\n    grid.data[0].zero_()\n",
        # a Dataset's own field
        "from torch.utils.data import Dataset\n"
        "class Points(Dataset):\n"
        "    def __init__(self, data):\n"
        "        self.data = data\n"
        "    def __getitem__(self, i):\n"
        "        return self.data[i]\n",
        # torchvision datasets
        "import torchvision\nds = torchvision.datasets.MNIST('.', download=True)\nimages = ds.data.float()\n",
        # ultralytics results
        "from ultralytics import YOLO\nmodel = YOLO('yolov8n.pt')\nresults = model('img.jpg')\n"
        "boxes = results[0].boxes.data\nmasks = results[0].masks.data\n",
        # PackedSequence
        T + "from torch.nn.utils.rnn import pack_padded_sequence\n"
        "packed = pack_padded_sequence(x, lengths, batch_first=True)\nflat = packed.data\n"
        "lstm = nn.LSTM(4, 4)\nout, _ = lstm(packed)\ny = out.data\n",
        # numpy, web requests, dataclasses, unknown
        "import numpy as np\narr = np.zeros(3)\nbuf = arr.data\n",
        "from flask import request\npayload = request.data\n",
        T + "from dataclasses import dataclass\n@dataclass\nclass Batch:\n    data: torch.Tensor\n"
        "batch = Batch(torch.zeros(2))\nx = batch.data\n",
        "def f(x):\n    return x.data\n",
        # a module attribute named data
        T + "class M(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
        "        self.data = torch.zeros(3)\n    def forward(self, x):\n        return x + self.data\n",
        # modules that pass their input through or return tuples: `.data` may be a PackedSequence's
        T + "from torch.nn.utils.rnn import pack_sequence\nseq = pack_sequence([torch.ones(2, 3)])\n"
        "out = nn.Identity()(seq)\nflat = out.data\nouts = nn.Sequential(nn.Linear(3, 3), nn.Identity())(seq).data\n",
        T + "pool = nn.MaxPool1d(2, return_indices=True)\nout = pool(x).data\n"
        "pool2 = nn.AdaptiveMaxPool2d(2, True)\nout2 = pool2(x).data\n",
        # .detach() is already right
        T + "m = nn.Linear(2, 2)\ny = m(x).detach().cpu()\n",
        # another framework's parameters have `.grad` and `.data` too (chainer): no torch here
        "import chainer\ndef step(params, lr):\n    for p in params:\n        if p.grad is not None:\n"
        "            p.data -= lr * p.grad\n",
        # an instance of a class not seen may have a `.grad` of its own
        T + "def f():\n    node = Node()\n    if node.grad is not None:\n        return node.data\n",
        # a `weight` of something not built by torch: no torch in the file
        "import chainer\nclass Block(chainer.Chain):\n    def reset(self):\n        self.conv.W.data[...] = 0\n"
        "        self.fc.weight.data[...] = 0\n",
        # a class of the file whose `weight` is its own plain field
        T + "class Edge:\n    def __init__(self, weight):\n        self.weight = weight\n"
        "def total(edges):\n    e = Edge(1.0)\n    return e.weight.data\n",
        # other attribute names: a `weights` list, a layer's `out_features`
        T + "def f(self):\n    w = self.layer.weights.data\n    n = self.layer.out_features.data\n",
        # a known module's child that is not a parameter name, and a sample weight of a batch
        T + "def f(batch):\n    return batch.sample_weight.data\n",
        # `.data()` is a call: MXNet's parameters, in a converter that also imports torch
        T + "import mxnet as mx\ndef convert(net):\n    w = net[0].weight.data().asnumpy()\n"
        "    return torch.from_numpy(w)\n",
        # a DataLoader with its own collate function yields whatever it builds; a whole batch
        T + "from torch.utils.data import DataLoader\nloader = DataLoader(ds, collate_fn=pack)\n"
        "for seqs, lengths in loader:\n    flat = seqs.data\n",
        T + "from torch.utils.data import DataLoader\nfor batch in DataLoader(ds, batch_size=4):\n    b = batch.data\n",
        # the receiver is annotated with another library's class: xarray's and keras's `weight`
        T + "import xarray as xr\ndef f(ds: xr.Dataset):\n    return ds.weight.data\n",
        T + "from keras import layers\ndef g(layer: layers.Dense):\n    return layer.bias.data\n",
    )

    invalid = (
        # what a module of no known class returns, read through `.data`: a tensor by a guess
        Invalid(
            T + "def score(net, x):\n    opt = torch.optim.SGD(net.parameters(), lr=0.1)\n    out = net(x)\n"
            "    return out.data.cpu()\n",
            T + "def score(net, x):\n    opt = torch.optim.SGD(net.parameters(), lr=0.1)\n    out = net(x)\n"
            "    return out.detach().cpu()\n",
        ),
        # a DataParallel wrapper of a module whose class is not known: its output, by a guess
        Invalid(
            T + "net = nn.DataParallel(build(cfg))\nprobs = net(x).data.numpy()\n",
            T + "net = nn.DataParallel(build(cfg))\nprobs = net(x).detach().numpy()\n",
        ),
        # a whole model that torch.load gave, given a tensor: its output, moved to the CPU
        Invalid(
            T + "net = torch.load('model.pth')\nprobs = net(torch.ones(1, 3)).cpu().data.numpy()\n",
            T + "net = torch.load('model.pth')\nprobs = net(torch.ones(1, 3)).cpu().detach().numpy()\n",
        ),
        # `torch.max(a, b)` with `b` a tensor: the elementwise maximum, one tensor
        Invalid(
            T + "def margin(v):\n    zero = torch.zeros(1)\n    return torch.max(0.9 - v, zero).data\n",
            T + "def margin(v):\n    zero = torch.zeros(1)\n    return torch.max(0.9 - v, zero).detach()\n",
        ),
        # a list of parameters returned beside what was made from it: returning it in a tuple
        # hands it on, but nothing in the scope can change it after that (fastai's prep_param_lists)
        Invalid(
            "import torch\ndef prep(model):\n    params = [p for p in model.parameters() if p.requires_grad]\n"
            "    flat = torch.cat([p.data.view(-1) for p in params])\n    return params, flat\n",
            "import torch\ndef prep(model):\n    params = [p for p in model.parameters() if p.requires_grad]\n"
            "    flat = torch.cat([p.detach().view(-1) for p in params])\n    return params, flat\n",
        ),
        # expanded to several sizes (DANN's `input_data.expand(input_data.data.shape[0], 3, 28,
        # 28)`): only a tensor's `expand` takes them (a guess: unsafe fix)
        Invalid(
            "import torch\ndef forward(self, x):\n    x = x.expand(x.data.shape[0], 3, 28, 28)\n    return x\n",
            "import torch\ndef forward(self, x):\n    x = x.expand(x.detach().shape[0], 3, 28, 28)\n    return x\n",
        ),
        # an augmented update of a slice: in place, like `p.data[i] = v`
        Invalid(
            T + "m = nn.Linear(2, 2)\nm.bias.data[0] += 1.0\n",
            T + "m = nn.Linear(2, 2)\nwith torch.no_grad():\n    m.bias[0] += 1.0\n",
        ),
        # an element of a batch a DataLoader collates by default: a tensor (a guess: unsafe fix)
        Invalid(
            T + "from torch.utils.data import DataLoader\nfor x, y in DataLoader(ds, batch_size=8):\n"
            "    arr = x.data.numpy()\n",
            T + "from torch.utils.data import DataLoader\nfor x, y in DataLoader(ds, batch_size=8):\n"
            "    arr = x.detach().numpy()\n",
        ),
        # a Sequential returns what its last module returns
        Invalid(
            T + "model = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 2))\npred = model(x).data\n",
            T + "model = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 2))\npred = model(x).detach()\n",
        ),
        Invalid(
            T + "model = nn.Linear(4, 2)\npred = model(x).data.cpu().numpy()\n",
            T + "model = nn.Linear(4, 2)\npred = model(x).detach().cpu().numpy()\n",
        ),
        Invalid(
            T + "criterion = nn.CrossEntropyLoss()\nm = nn.Linear(4, 2)\nloss = criterion(m(x), y)\n"
            "value = loss.data\n",
            T + "criterion = nn.CrossEntropyLoss()\nm = nn.Linear(4, 2)\nloss = criterion(m(x), y)\n"
            "value = loss.detach()\n",
        ),
        Invalid(
            T + "model = nn.Linear(4, 2)\nfor p in model.parameters():\n    g = p.grad.data\n",
            T + "model = nn.Linear(4, 2)\nfor p in model.parameters():\n    g = p.grad.detach()\n",
        ),
        Invalid(
            T + "def sgd(model, lr):\n"
            "    for p in model.parameters():\n"
            "        # plain SGD\n"
            "        p.data.add_(p.grad, alpha=-lr)  # step\n",
            T + "def sgd(model, lr):\n"
            "    for p in model.parameters():\n"
            "        # plain SGD\n"
            "        with torch.no_grad():\n"
            "            p.add_(p.grad, alpha=-lr)  # step\n",
        ),
        Invalid(
            T + "ema = nn.Parameter(torch.zeros(3))\nema.data.mul_(0.99)\n",
            T + "ema = nn.Parameter(torch.zeros(3))\nwith torch.no_grad():\n    ema.mul_(0.99)\n",
        ),
        Invalid(
            T + "class Net(nn.Module):\n"
            "    def init_weights(self):\n"
            "        for m in self.modules():\n"
            "            if isinstance(m, nn.Conv2d):\n"
            "                m.weight.data.normal_(0, 0.02)\n",
            T + "class Net(nn.Module):\n"
            "    def init_weights(self):\n"
            "        for m in self.modules():\n"
            "            if isinstance(m, nn.Conv2d):\n"
            "                with torch.no_grad():\n"
            "                    m.weight.normal_(0, 0.02)\n",
        ),
        Invalid(
            T + "m = nn.Linear(2, 2)\nwith torch.no_grad():\n    for p in m.parameters():\n        p.data.mul_(0.9)\n",
            T + "m = nn.Linear(2, 2)\nwith torch.no_grad():\n    for p in m.parameters():\n        p.mul_(0.9)\n",
        ),
        Invalid(
            T + "@torch.no_grad()\ndef reset(m: nn.Module):\n    for p in m.parameters():\n        p.data.zero_()\n",
            T + "@torch.no_grad()\ndef reset(m: nn.Module):\n    for p in m.parameters():\n        p.zero_()\n",
        ),
        Invalid(
            T + "m = nn.Linear(2, 2)\nfor p in m.parameters():\n    p.data -= 0.1 * p.grad\n    p.data[0] = 0\n",
            T + "m = nn.Linear(2, 2)\nfor p in m.parameters():\n    with torch.no_grad():\n        p -= 0.1 * p.grad\n"
            "    with torch.no_grad():\n        p[0] = 0\n",
        ),
        Invalid(
            "from torch import nn, no_grad\nm = nn.Linear(2, 2)\nm.weight.data.fill_(1.0)\n",
            "from torch import nn, no_grad\nm = nn.Linear(2, 2)\nwith no_grad():\n    m.weight.fill_(1.0)\n",
        ),
        # an in-place change of the alias's flags or shape, not of the values: a read of the alias
        Invalid(
            T + "m = nn.Linear(2, 2)\nm.weight.data.requires_grad_(False)\nm.bias.data.t_()\n",
            T + "m = nn.Linear(2, 2)\nm.weight.detach().requires_grad_(False)\nm.bias.detach().t_()\n",
        ),
        # a name passed first to torch.nn.functional, or viewed as a shape: a tensor (a guess)
        Invalid(
            T + "import torch.nn.functional as F\nclass Pool(nn.Module):\n    def forward(self, x):\n        n = x.data.size(0)\n"
            "        return F.avg_pool2d(x, 2)\n",
            T + "import torch.nn.functional as F\nclass Pool(nn.Module):\n    def forward(self, x):\n        n = x.detach().size(0)\n"
            "        return F.avg_pool2d(x, 2)\n",
        ),
        Invalid(
            T + "def up(x, B, C, H, W):\n    assert x.data.dim() == 4\n    return x.view(B, C, H, 1, W, 1)\n",
            T + "def up(x, B, C, H, W):\n    assert x.detach().dim() == 4\n    return x.view(B, C, H, 1, W, 1)\n",
        ),
        # the parameters a torch optimizer holds in its param groups
        Invalid(
            T + "net = nn.Linear(3, 3)\nopt = torch.optim.Adam(net.parameters())\nfor group in opt.param_groups:\n"
            "    for p in group['params']:\n        state = torch.zeros_like(p.data)\n",
            T + "net = nn.Linear(3, 3)\nopt = torch.optim.Adam(net.parameters())\nfor group in opt.param_groups:\n"
            "    for p in group['params']:\n        state = torch.zeros_like(p.detach())\n",
        ),
        # an EMA through state dicts: nn.Module.state_dict() maps names to tensors
        Invalid(
            T + "def ema(decay):\n    src, dst = nn.Linear(2, 2), nn.Linear(2, 2)\n    s, d = src.state_dict(), dst.state_dict()\n"
            "    for k in s:\n        d[k].data.mul_(decay)\n",
            T + "def ema(decay):\n    src, dst = nn.Linear(2, 2), nn.Linear(2, 2)\n    s, d = src.state_dict(), dst.state_dict()\n"
            "    for k in s:\n        with torch.no_grad():\n            d[k].mul_(decay)\n",
        ),
        # a tuple unpacked from a rebound name's method reads the value that reaches it
        Invalid(
            T + "import torch.nn.functional as F\ndef best(model, x, k):\n    out = model(x)\n"
            "    out = F.softmax(out, dim=-1)\n    probs, ix = out.topk(k)\n    return probs.data[0]\n",
            T + "import torch.nn.functional as F\ndef best(model, x, k):\n    out = model(x)\n"
            "    out = F.softmax(out, dim=-1)\n    probs, ix = out.topk(k)\n    return probs.detach()[0]\n",
        ),
        # `enable_grad()` inside a `no_grad` function: the update gets its own `no_grad` block
        Invalid(
            T + "@torch.no_grad()\ndef step(m: nn.Linear):\n    with torch.enable_grad():\n"
            "        m.weight.data[0].sub_(1.0)\n",
            T + "@torch.no_grad()\ndef step(m: nn.Linear):\n    with torch.enable_grad():\n"
            "        with torch.no_grad():\n            m.weight[0].sub_(1.0)\n",
        ),
        # a buffer counted up in `forward` is still a tensor in the other methods
        Invalid(
            T + "class Scale(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
            '        self.register_buffer("step", torch.zeros(1))\n    def forward(self, x):\n        self.step += 1\n'
            "        return x\n    def value(self):\n        return self.step.data.item()\n",
            T + "class Scale(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
            '        self.register_buffer("step", torch.zeros(1))\n    def forward(self, x):\n        self.step += 1\n'
            "        return x\n    def value(self):\n        return self.step.detach().item()\n",
        ),
        # an in-place method on an indexed view of `.data` updates the tensor: the update's fix
        Invalid(
            T + "m = nn.Linear(2, 2)\nfor p in m.parameters():\n    p.data[:, 1:].zero_()\n"
            "    p.data[0][1].add_(p.grad).clamp_(-1, 1)\n",
            T + "m = nn.Linear(2, 2)\nfor p in m.parameters():\n    with torch.no_grad():\n        p[:, 1:].zero_()\n"
            "    with torch.no_grad():\n        p[0][1].add_(p.grad).clamp_(-1, 1)\n",
        ),
        # an update spanning lines: a read on a line of its own keeps a finding there, which the
        # update's fix takes care of
        Invalid(
            T + "m = nn.Linear(2, 2)\nfor p in m.parameters():\n    p.data[0].copy_(\n        p.grad.data[0])\n",
            T + "m = nn.Linear(2, 2)\nfor p in m.parameters():\n    with torch.no_grad():\n        p[0].copy_(\n"
            "            p.grad[0])\n",
        ),
        # ... while a read of an indexed view, or a flag set on it, stays a read
        Invalid(
            T + "m = nn.Linear(2, 2)\nrow = m.weight.data[0].clone()\nm.weight.data[0].requires_grad_(False)\n"
            "m.weight.data[0].sum()\n",
            T + "m = nn.Linear(2, 2)\nrow = m.weight.detach()[0].clone()\nm.weight.detach()[0].requires_grad_(False)\n"
            "m.weight.detach()[0].sum()\n",
        ),
        # a timm/mean-teacher EMA: one finding for the statement, whose fix drops every `.data`
        Invalid(
            T + "def update(ema, model, d):\n"
            "    for e, p in zip(ema.parameters(), model.parameters()):\n"
            "        e.data.mul_(d).add_(p.data, alpha=1 - d)\n"
            "ema, model = nn.Linear(2, 2), nn.Linear(2, 2)\nupdate(ema, model, 0.9)\n",
            T + "def update(ema, model, d):\n"
            "    for e, p in zip(ema.parameters(), model.parameters()):\n"
            "        with torch.no_grad():\n"
            "            e.mul_(d).add_(p, alpha=1 - d)\n"
            "ema, model = nn.Linear(2, 2), nn.Linear(2, 2)\nupdate(ema, model, 0.9)\n",
        ),
        # without an in-place fix (the line holds two statements), the read keeps its own safe fix
        Invalid(
            T + "m = nn.Linear(2, 2)\nm.weight.data.copy_(m.bias.data[0]); n = 1\n",
            T + "m = nn.Linear(2, 2)\nm.weight.data.copy_(m.bias.detach()[0]); n = 1\n",
        ),
        # a submodule built by a factory: its `weight` is a layer's parameter
        Invalid(
            T + "from .factory import make_conv\nclass Block(nn.Module):\n    def __init__(self):\n"
            "        super().__init__()\n        self.conv = make_conv()\n"
            "    def reset(self):\n        self.conv.weight.data.zero_()\n",
            T + "from .factory import make_conv\nclass Block(nn.Module):\n    def __init__(self):\n"
            "        super().__init__()\n        self.conv = make_conv()\n"
            "    def reset(self):\n        with torch.no_grad():\n            self.conv.weight.zero_()\n",
        ),
        # an annotation that says nothing against torch keeps the guess
        Invalid(
            T + "from typing import Any\ndef scale(block: Any):\n    block.proj.weight.data *= 0.5\n",
            T + "from typing import Any\ndef scale(block: Any):\n    with torch.no_grad():\n"
            "        block.proj.weight *= 0.5\n",
        ),
        # assignment: flagged without a fix
        Invalid(T + "m = nn.Linear(2, 2)\nm.weight.data = torch.zeros(2, 2)\n", None),
        # in-place not at statement level, or sharing its line: no fix
        Invalid(T + "m = nn.Linear(2, 2)\nw = m.weight.data.mul_(2)\n", None),
        Invalid(T + "m = nn.Linear(2, 2)\nm.weight.data.zero_(); m.bias.data.zero_()\n", None),
        # `torch` imported only for type checkers
        Invalid(
            "from typing import TYPE_CHECKING\nfrom torch import nn\nif TYPE_CHECKING:\n    import torch\n"
            "m = nn.Linear(2, 2)\ndef reset():\n    m.bias.data.zero_()\n",
            None,
        ),
        # `torch` imported only inside another function, or later than module-level code runs
        Invalid(
            "from torch import nn\ndef seed():\n    import torch\n    torch.manual_seed(0)\n"
            "m = nn.Linear(2, 2)\nm.bias.data.zero_()\n",
            None,
        ),
        Invalid(
            "from torch import nn\nm = nn.Linear(2, 2)\nm.bias.data.zero_()\nimport torch\n"
            "def reset():\n    m.weight.data.zero_()\n",
            "from torch import nn\nm = nn.Linear(2, 2)\nm.bias.data.zero_()\nimport torch\n"
            "def reset():\n    with torch.no_grad():\n        m.weight.zero_()\n",
        ),
        # a custom optimizer's step: `p` has its `.grad` read, so it is a Parameter
        Invalid(
            T + "def step(groups):\n    for group in groups:\n        for p in group['params']:\n"
            "            if p.grad is None:\n                continue\n            state = torch.zeros_like(p.data)\n",
            T + "def step(groups):\n    for group in groups:\n        for p in group['params']:\n"
            "            if p.grad is None:\n                continue\n            state = torch.zeros_like(p.detach())\n",
        ),
        # no name for torch in the file: the read still gets .detach(), the update no fix
        Invalid(
            "from torch.nn import Linear\nm = Linear(2, 2)\nm.bias.data.zero_()\ny = m(x).data\n",
            "from torch.nn import Linear\nm = Linear(2, 2)\nm.bias.data.zero_()\ny = m(x).detach()\n",
        ),
    )

    def __init__(self, ctx):
        super().__init__(ctx)
        self._covered: set[int] = set()  # ids of `.data` reads an in-place fix already drops
        # ids of such reads on another line than the update: each keeps a finding of its own there,
        # with no fix (the statement's fix drops it)
        self._dropped_elsewhere: set[int] = set()
        self._changed_aliases: dict[tuple[int, str], bool] = {}  # (scope, name) -> changed in place there

    def visit_Attribute(self, node: cst.Attribute) -> None:
        if node.attr.value != "data":
            return
        receiver = self.ctx.data_receiver(node.value)
        if receiver is None:
            return
        parent, grandparent = self.ctx.stack[-2], self.ctx.stack[-3]
        if isinstance(parent, cst.Call) and parent.func is node:
            return  # `x.data()`: a tensor's `.data` is not callable, so `x` is something else's
        if id(node) in self._covered:
            return  # part of a finding already made for its statement or line
        if id(node) in self._dropped_elsewhere:
            self.report(node, _READ_MESSAGE, None)
            return
        if self._is_in_place_write(node, parent, grandparent) or self._is_in_place_through_subscript():
            self.report(node, _IN_PLACE_MESSAGE, self._in_place_fix(node))
        elif self._in_target():
            self.report(node, self._assignment_message(node))
        else:
            # A receiver taken for a tensor by a guess (a layer's parameter by its name alone, an
            # element of a DataLoader's batch): the fix is not proven.
            guessed = receiver.origin in GUESSED
            unproven = guessed or self._alias_changed_in_place(node, parent) or self.ctx.oracle.parameters_may_be_lazy()
            fix = self.replace(node, method_call(node.value, "detach"), "Replace `.data` with `.detach()`",
                               "unsafe" if unproven else "safe")
            self.report(node, _READ_MESSAGE, fix)

    def _alias_changed_in_place(self, node: cst.Attribute, parent: cst.CSTNode) -> bool:
        """`w = layer.weight.data`, then `w.add_(noise)` ... `w.copy_(saved)`: changed in place
        through the alias. `.detach()` shares the tensor's version counter, which `.data` does
        not, so a backward through a graph that saved the tensor raises even where the change was
        undone (a sharpness probe): the fix is not proven there."""
        if not (isinstance(parent, cst.Assign) and parent.value is node and len(parent.targets) == 1
                and isinstance(parent.targets[0].target, cst.Name)):
            return False
        alias = parent.targets[0].target.value
        function = self.ctx.enclosing(cst.FunctionDef)
        scope = function.body if function is not None else self.ctx.module
        key = (id(scope), alias)
        if key not in self._changed_aliases:
            self._changed_aliases[key] = any(_changes_in_place(inner, alias, self.ctx.qualify) for inner in descendants(scope))
        return self._changed_aliases[key]

    def _assignment_message(self, node: cst.Attribute) -> str:
        """One finding for the line: the statement's `.data` reads there (`p.data =
        p.data.half()`) are covered by it. Converting a parameter's dtype or device is what such an assignment
        usually does, which `copy_` cannot: the message says what can."""
        statement = self.ctx.enclosing(cst.Assign)
        if statement is None or not any(target.target is node for target in statement.targets):
            return _ASSIGN_MESSAGE
        line = self.ctx.line_of(node)  # (a read on a line of its own keeps a finding there)
        self._covered.update(id(read) for read in self._tensor_reads(statement, exclude=node)
                             if self.ctx.line_of(read) == line)
        value = statement.value
        converts = (isinstance(value, cst.Call) and isinstance(value.func, cst.Attribute)
                    and value.func.attr.value in _CONVERSIONS
                    and self._same_tensor(value.func.value, node))  # (`p.data = master.half()` copies)
        return _CONVERT_MESSAGE if converts else _ASSIGN_MESSAGE

    @staticmethod
    def _same_tensor(converted: cst.BaseExpression, target: cst.Attribute) -> bool:
        """`p.data = p.data.half()`, `p.data = p.half()`: the tensor converted is the target's own."""
        code = cst.Module([]).code_for_node
        own = code(target.value)
        return code(converted) in (own, own + ".data")

    def _in_target(self) -> bool:
        """Whether the `.data` node is (part of) what an assignment, `del`, `for` or `with ... as`
        binds: `a.data, b.data = ...`, `p.data: T = t`, `del p.data`, `p.data.x = 1`. Reading
        through it there is not a read, so `.detach()` would not even parse."""
        child = self.ctx.stack[-1]
        for parent in reversed(self.ctx.stack[:-1]):
            if isinstance(parent, (cst.AssignTarget, cst.Del)):
                return parent.target is child
            if isinstance(parent, cst.AsName):
                return True
            if isinstance(parent, (cst.AnnAssign, cst.AugAssign, cst.NamedExpr, cst.For, cst.CompFor)):
                return parent.target is child
            if isinstance(parent, (cst.Tuple, cst.List, cst.Element, cst.StarredElement)):
                child = parent
            elif isinstance(parent, (cst.Attribute, cst.Subscript)) and parent.value is child:
                child = parent
            else:
                return False
        return False

    @staticmethod
    def _is_in_place_write(node, parent, grandparent) -> bool:
        if isinstance(parent, cst.AugAssign) and parent.target is node:
            return True
        if isinstance(parent, cst.Subscript) and isinstance(grandparent, cst.AssignTarget):
            return True
        if isinstance(parent, cst.Subscript) and isinstance(grandparent, cst.AugAssign) and grandparent.target is parent:
            return True  # `b.data[:, 4] += x`
        return (
            isinstance(parent, cst.Attribute)
            and parent.value is node
            and _is_in_place_method(parent.attr.value)
            and isinstance(grandparent, cst.Call)
            and grandparent.func is parent
        )

    def _is_in_place_through_subscript(self) -> bool:
        """`p.data[:, c:].zero_()`, `p.data[i][j].add_(x)`: an in-place method on an indexed view
        of `.data` updates the tensor as much as `p.data[i] = v` does."""
        stack = self.ctx.stack
        child, at = stack[-1], len(stack) - 2
        while at >= 2 and isinstance(stack[at], cst.Subscript) and stack[at].value is child:
            child, at = stack[at], at - 1
        return child is not stack[-1] and self._is_in_place_write(child, stack[at], stack[at - 1])

    def _in_place_fix(self, node: cst.Attribute):
        """The whole statement, on the tensor itself, under `torch.no_grad()`."""
        line = self.ctx.enclosing(cst.SimpleStatementLine)
        statement = self._statement_of(node)
        if line is None or statement is None or len(line.body) != 1 or line.body[0] is not statement:
            return None
        if not isinstance(self.ctx.stack[self.ctx.stack.index(line) - 1], (cst.IndentedBlock, cst.Module)):
            return None  # a one-line suite (`for p in ps: p.data.zero_()`) cannot hold a block
        reads = self._tensor_reads(statement, exclude=node)
        updated = line.with_changes(body=[statement.visit(_DropData({id(node), *map(id, reads)}))])
        if self.ctx.grad_disabled():
            fix = self.replace(line, updated, "Update the tensor itself (already under no_grad)", "unsafe")
        elif (no_grad := self.ctx.torch_call("no_grad")) is not None:
            fix = self.replace(line, wrap_in_with(updated, no_grad), "Update the tensor itself under `torch.no_grad()`", "unsafe")
        else:
            return None
        written = self.ctx.line_of(node)
        for read in reads:
            (self._covered if self.ctx.line_of(read) == written else self._dropped_elsewhere).add(id(read))
        return fix

    def _tensor_reads(self, statement: cst.CSTNode, exclude: cst.Attribute) -> list[cst.Attribute]:
        """The other `.data` reads of known tensors in the statement (`.add_(param.data)`): under
        the fix's `no_grad` they are the tensor itself, so the fix drops their `.data` as well."""
        above = self.ctx.stack[: self.ctx.stack.index(statement)]
        reads = []
        for data in descendants(statement, lambda n: isinstance(n, SCOPE_NODES)):
            if isinstance(data, cst.Attribute) and data.attr.value == "data" and data is not exclude:
                path = path_to(statement, data)
                kind = self.ctx.oracle.kind(data.value, [*above, *path]) if path else None
                if kind is not None and kind.base == TENSOR:
                    reads.append(data)
        return reads

    def _statement_of(self, node: cst.CSTNode) -> cst.BaseSmallStatement | None:
        """The small statement that `node` is the write of: `expr`, `x op= y`, `x[i] op= y` or `x[i] = y`."""
        in_target = False
        for ancestor in reversed(self.ctx.stack[:-1]):
            if isinstance(ancestor, cst.Expr):
                return ancestor if _is_call_on(ancestor.value, node) else None
            if isinstance(ancestor, cst.AugAssign):
                target = ancestor.target
                written = target.value if isinstance(target, cst.Subscript) else target  # `x[i] op= y`
                return ancestor if written is node else None
            if isinstance(ancestor, cst.Assign):
                return ancestor if in_target else None
            in_target = in_target or isinstance(ancestor, cst.AssignTarget)
            if isinstance(ancestor, cst.BaseSmallStatement):
                return None
        return None


class _DropData(cst.CSTTransformer):
    """`x.data` -> `x` for the `.data` nodes named by id."""

    def __init__(self, ids: set[int]):
        super().__init__()
        self.ids = ids

    def leave_Attribute(self, original: cst.Attribute, updated: cst.Attribute) -> cst.BaseExpression:
        return updated.value if id(original) in self.ids else updated


# In-place methods that change the tensor object's metadata or flags, not its values: on `.data`
# they change only the alias `.data` returned (`p.data.requires_grad_(False)` leaves `p` as it
# was), so they are reads of that alias, fixed as `.detach()` (also a new alias), not updates.
_ALIAS_ONLY_METHODS = frozenset(
    {"requires_grad_", "detach_", "set_", "resize_", "resize_as_", "t_", "transpose_", "squeeze_", "unsqueeze_",
     "as_strided_", "swapdims_", "swapaxes_", "share_memory_", "rename_"}
)


def _changes_in_place(node: cst.CSTNode, name: str, qualify) -> bool:
    """`name.add_(...)`, `name += ...`, `name[i] = ...`, `nn.init.normal_(name)`, `out=name` (not
    `p.add_(name)`, which changes `p`)."""
    def named(expr) -> bool:
        while isinstance(expr, cst.Subscript):
            expr = expr.value
        return isinstance(expr, cst.Name) and expr.value == name

    if isinstance(node, cst.Call):
        func = node.func
        if isinstance(func, cst.Attribute) and _is_in_place_method(func.attr.value) and named(func.value):
            return True
        if any(arg.keyword is not None and arg.keyword.value == "out" and named(arg.value) for arg in node.args):
            return True
        qualified = qualify(func) or ""  # a torch function changing its first argument (`torch.nn.init.normal_(w)`)
        first = node.args[0] if node.args and node.args[0].keyword is None else None
        return (qualified.startswith("torch.") and _is_in_place_method(qualified.rsplit(".", 1)[-1])
                and first is not None and named(first.value))
    if isinstance(node, cst.AugAssign):
        return named(node.target)
    if isinstance(node, cst.Assign):
        return any(isinstance(target.target, cst.Subscript) and named(target.target) for target in node.targets)
    return False


def _is_in_place_method(name: str) -> bool:
    return name.endswith("_") and not name.startswith("_") and name not in _ALIAS_ONLY_METHODS


def _is_call_on(expr: cst.CSTNode, data_node: cst.CSTNode) -> bool:
    """`expr` is a method call on `data_node`, or an in-place one chained on such a call
    (`p.data.mul_(a).add_(b)`: an in-place method returns the tensor it updated)."""
    if not isinstance(expr, cst.Call) or not isinstance(expr.func, cst.Attribute):
        return False
    receiver = expr.func.value
    while isinstance(receiver, cst.Subscript) and receiver.value is not data_node:
        receiver = receiver.value
    if receiver is data_node or (isinstance(receiver, cst.Subscript) and receiver.value is data_node):
        return True
    return _is_in_place_method(expr.func.attr.value) and _is_call_on(receiver, data_node)
