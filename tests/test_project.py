"""Project-wide type knowledge: the model comes from another file of the repository."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

MODELS = '''import torch.nn as nn

class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 2)

    def forward(self, x):
        return self.fc(x)
'''

TRAIN = '''import torch
import torch.nn as nn
from pkg.models import Net

def weights_init(m):
    if isinstance(m, nn.Linear):
        m.weight.data.normal_(0.0, 0.02)

def train(model, loader, optimizer, criterion):
    total_loss = 0.0
    for x, y in loader:
        optimizer.zero_grad()
        loss = criterion(model.forward(x), y)
        loss.backward()
        optimizer.step()
        total_loss += loss
    return total_loss.item()

model = Net()
model.apply(weights_init)
loader = [(torch.randn(8, 4), torch.randint(0, 2, (8,))) for _ in range(3)]
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
print(train(model, loader, optimizer, nn.CrossEntropyLoss()))
torch.save(model, "model.pt")
'''
EXPECTED = [("TL001", 7), ("TL005", 13), ("TL003", 16), ("TL004", 24)]


def _project(tmp_path):
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("")
    (tmp_path / "pkg" / "models.py").write_text(MODELS)
    (tmp_path / "train.py").write_text(TRAIN)


def _findings(cli, *args):
    result = cli("check", "--no-cache", "--output-format", "json", *args)
    return sorted(((d["code"], d["line"]) for d in json.loads(result.output)), key=lambda f: f[1])


@pytest.mark.parametrize("named", [".", "train.py"], ids=["folder", "one-file"])
def test_the_issue_project_gives_exactly_its_findings(cli, tmp_path, named):
    _project(tmp_path)
    assert _findings(cli, named) == EXPECTED


def test_a_finding_says_where_its_evidence_came_from(cli, tmp_path):
    _project(tmp_path)
    result = cli("check", "--no-cache", "--output-format", "json", "train.py")
    forward = next(d for d in json.loads(result.output) if d["code"] == "TL005")
    assert "train.py:23" in forward["note"]


def test_a_non_torch_class_of_the_project_is_silent(cli, tmp_path):
    (tmp_path / "models.py").write_text("class Model:\n    def forward(self, x):\n        return x\n")
    (tmp_path / "run.py").write_text("from models import Model\nm = Model()\nm.forward(1)\n")
    assert _findings(cli, "run.py") == []


def test_a_project_class_with_a_non_torch_library_base_is_unknown(cli, tmp_path):
    (tmp_path / "models.py").write_text("from keras import Model\nclass Net(Model):\n    pass\n")
    (tmp_path / "run.py").write_text("from models import Net\nm = Net()\nm.forward(1)\n")
    assert _findings(cli, "run.py") == []


def test_a_factory_that_may_return_none_is_silent(cli, tmp_path):
    (tmp_path / "models.py").write_text(
        "import torch.nn as nn\ndef build(name):\n    if name == 'lin':\n        return nn.Linear(2, 2)\n    return None\n"
    )
    (tmp_path / "run.py").write_text("from models import build\nm = build('x')\nm.forward(1)\n")
    assert _findings(cli, "run.py") == []


def test_a_factory_returning_a_module(cli, tmp_path):
    (tmp_path / "models.py").write_text("import torch.nn as nn\ndef build(width):\n    return nn.Linear(width, 2)\n")
    (tmp_path / "run.py").write_text("from models import build\nm = build(4)\nm.forward(1)\n")
    assert _findings(cli, "run.py") == [("TL005", 3)]


GROWN_LIST_HELPER = (
    "def hits(scores, ks=(1,)):\n    out = []\n    for k in ks:\n        out.append(scores.topk(k, 1)[0].sum() * 100.0)\n"
    "    return out\n"
)


@pytest.mark.parametrize(("change", "expected"), [
    (("", ""), [("TL001", 6), ("TL001", 6), ("TL001", 7)]),
    (("        out.append(", "        out.append(0)\n        out.append("), []),  # a number among them
    (("    return out\n", "    out[0] = 1\n    return out\n"), []),  # changed otherwise
    (("    return out\n", "    out.extend(more)\n    return out\n"), []),
    # handed to a helper, aliased or grown by a closure: it may hold anything
    (("    return out\n", "    add_records(out)\n    return out\n"), []),
    (("    return out\n", "    rows = out\n    return out\n"), []),
    (("    return out\n", "    def more(v):\n        out.append(v)\n    return out\n"), []),
])
def test_a_list_a_function_of_another_module_grows_and_returns(cli, tmp_path, change, expected):
    (tmp_path / "helpers.py").write_text(GROWN_LIST_HELPER.replace(*change))
    (tmp_path / "run.py").write_text(
        "import torch\nimport torch.nn as nn\nimport helpers\nscores = nn.Linear(8, 5)(torch.randn(4, 8))\n"
        "h1, h5 = helpers.hits(scores, ks=(1, 5))\nprint(h1.data, h5.data)\nprint(helpers.hits(scores)[0].data)\n"
    )
    assert _findings(cli, "run.py") == expected


ACCURACY = (
    "import torch\n\n\ndef accuracy(output, target, topk=(1,)):\n    _, pred = output.topk(max(topk), 1, True, True)\n"
    "    pred = pred.t()\n    correct = pred.eq(target.view(1, -1).expand_as(pred))\n    res = []\n    for k in topk:\n"
    "        res.append(correct[:k].reshape(-1).float().sum(0).mul_(100.0 / target.size(0)))\n    return res\n"
)


@pytest.mark.parametrize(("change", "expected"), [
    (("", ""), [("TL001", 6)]),
    (("    pred = pred.t()\n", "    pred = pred.tolist()\n"), []),  # rebound to something else
])
def test_the_common_accuracy_helper_of_another_module_returns_tensors(cli, tmp_path, change, expected):
    """`_, pred = output.topk(...)`, `pred = pred.t()`: the rebinding reshapes what its other
    binding holds; `topk` is a tensor's method only (a guess)."""
    (tmp_path / "utils.py").write_text(ACCURACY.replace(*change))
    (tmp_path / "train.py").write_text(
        "import utils\n\n\ndef step(model, x, y):\n    prec1, prec5 = utils.accuracy(model(x), y, topk=(1, 5))\n"
        "    print(prec1.data[0])\n"
    )
    assert _findings(cli, "train.py") == expected


CHAINED_FORWARD = (
    "import torch.nn as nn\nclass Block(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
    "        self.conv = nn.Conv2d(4, 4, 3, padding=1)\n    def forward(self, x):\n        return x + self.conv(x)\n"
    "class Critic(nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.b1 = Block()\n"
    "        self.head = nn.Linear(64, 1)\n    def forward(self, x):\n        out = x.contiguous()\n"
    "        out = self.b1(out)\n        out = self.head(out.view(-1, 64))\n        return out.float()\n"
)


@pytest.mark.parametrize(("change", "expected"), [
    (("", ""), [("TL001", 5)]),
    (("        return out.float()\n", "        out = out.float()\n        return out\n"), [("TL001", 5)]),
    # a statement between that may rebind the name: the value returned is not known
    (("        return out.float()\n", "        for out in x:\n            pass\n        return out.float()\n"), []),
    (("        out = self.head(out.view(-1, 64))\n", "        out = self.head(out.view(-1, 64))\n        out = Plain()\n"), []),
])
def test_a_forward_of_another_module_returning_a_call_on_its_last_value(cli, tmp_path, change, expected):
    (tmp_path / "nets.py").write_text(CHAINED_FORWARD.replace(*change))
    (tmp_path / "run.py").write_text(
        "from nets import Critic\n\n\ndef step(x):\n    print(Critic()(x).cpu().data.numpy())\n"
    )
    assert _findings(cli, "run.py") == expected


GUARDED_FORWARD = (
    "import torch\nimport torch.nn as nn\nimport torch.nn.functional as F\nclass Dec(nn.Module):\n"
    "    def __init__(self):\n        super().__init__()\n        self.gru = nn.GRU(4, 4)\n        self.out = nn.Linear(4, 4)\n"
    "    def forward(self, x, hidden):\n        try:\n            output = torch.cat((x, x), 1)\n"
    "            output, hidden = self.gru(output, hidden)\n            output = F.log_softmax(self.out(output[0]))\n"
    "            return output, hidden\n        except Exception as err:\n            print(err)\n"
)


@pytest.mark.parametrize(("change", "expected"), [
    (("", ""), [("TL001", 6)]),
    (("        try:\n", "        with torch.no_grad():\n"), "no except"),
    # a `return` in the handler: the value there is not the try body's
    (("            print(err)\n", "            output = recover()\n            return output, hidden\n"), []),
    # the name bound again in a block of the try body before the return
    (("            return output, hidden\n", "            for output in x:\n                pass\n            return output, hidden\n"), []),
])
def test_a_forward_of_another_module_returning_from_a_try_or_with_body(cli, tmp_path, change, expected):
    source = GUARDED_FORWARD.replace(*change)
    if expected == "no except":
        source, expected = source.split("        except")[0], [("TL001", 6)]
    (tmp_path / "nets.py").write_text(source)
    (tmp_path / "run.py").write_text(
        "from nets import Dec\n\n\ndef step(x):\n    out, h = Dec()(x, None)\n    print(out.data)\n"
    )
    assert _findings(cli, "run.py") == expected


FILLED_SEQUENTIAL = (
    "import torch.nn as nn\nclass Generator(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
    "        self.model = self.build()\n    def build(self):\n        model = nn.Sequential()\n"
    "        model.add_module('fc', nn.Linear(8, 16))\n        model.add_module('act', nn.Tanh())\n        return model\n"
    "    def forward(self, x):\n        return self.model(x)\n"
)


@pytest.mark.parametrize(("change", "expected"), [
    (("", ""), [("TL001", 5)]),
    # the Sequential grows after its last `add_module`, or that one replaces an earlier module in place
    (("        return model\n", "        model.append(make_head())\n        return model\n"), []),
    (("        return model\n", "        grow(model)\n        return model\n"), []),
    (("('act', nn.Tanh())", "('fc', nn.Tanh())"), []),
    (("        model.add_module('fc', nn.Linear(8, 16))\n", "        for name in names:\n            model.add_module(name, make())\n"), []),
    (("        return model\n", "        head = model\n        head.add_module('out', make_head())\n        return model\n"), []),
    (("('act', nn.Tanh())", "('act', nn.LSTM(16, 16))"), []),
    # names computed before the last one: only those that can never be it
    (("        model.add_module('fc', nn.Linear(8, 16))\n",
      "        for i in range(2):\n            model.add_module('hidden_%d' % i, nn.Linear(8, 16))\n"), [("TL001", 5)]),
    (("        model.add_module('fc', nn.Linear(8, 16))\n",
      "        for i in range(2):\n            model.add_module('ac%s' % i, nn.Linear(8, 16))\n"), []),
    (("        model.add_module('fc', nn.Linear(8, 16))\n",
      "        for i in range(2):\n            model.add_module(f'{i}t', nn.Linear(8, 16))\n"), []),
    # not torch's Sequential
    (("        model = nn.Sequential()\n", "        from blocks import Sequential\n        model = Sequential()\n"), []),
    (("nn.Sequential()", "Sequential()"), []),
])
def test_a_sequential_of_another_module_filled_by_add_module(cli, tmp_path, change, expected):
    (tmp_path / "nets.py").write_text(FILLED_SEQUENTIAL.replace(*change))
    (tmp_path / "run.py").write_text(
        "from nets import Generator\n\n\ndef step(x):\n    print(Generator()(x).cpu().data.numpy())\n"
    )
    assert _findings(cli, "run.py") == expected


PROPERTY_CLASS = (
    "import torch\nimport torch.nn as nn\nclass Classifier(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
    "        self._weights = nn.ParameterList([])\n    @property\n    def weights(self):\n"
    "        return torch.cat([w for w in self._weights])\n"
)


@pytest.mark.parametrize(("change", "expected"), [
    (("", ""), [("TL001", 5)]),
    # another decorator, a `property` the module imports, a subclass defining it again, a getter
    # returning what is not known, `__getattribute__`
    (("    @property\n", "    @property\n    @memoise\n"), []),
    (("import torch\n", "import torch\nfrom mylib import property\n"), []),
    (("        return torch.cat([w for w in self._weights])\n", "        return torch.cat([w for w in self._weights])\n"
      "class Sub(Classifier):\n    @property\n    def weights(self):\n        return load()\n"), []),
    (("return torch.cat([w for w in self._weights])", "return self.store.get('w')"), []),
    (("    @property\n", "    def __getattribute__(self, name):\n        return 0\n    @property\n"), []),
])
def test_a_property_of_a_class_of_another_module(cli, tmp_path, change, expected):
    (tmp_path / "nets.py").write_text(PROPERTY_CLASS.replace(*change))
    (tmp_path / "run.py").write_text(
        "from nets import Classifier\n\n\ndef step(clf):\n    print(clf.weights.data.norm())\n\n\nstep(Classifier())\n"
    )
    assert _findings(cli, "run.py") == expected


SAMPLER = (
    "import torch\nimport torch.nn as nn\nclass Diffusion(nn.Module):\n    def p_sample(self, x, t):\n        return x * t\n"
    "    def p_sample_loop(self, shape, keep=False):\n        x = torch.randn(shape)\n        if keep: steps = [x]\n"
    "        for i in reversed(range(0, 5)):\n            x = self.p_sample(x, i)\n            if keep: steps.append(x)\n"
    "        if keep:\n            return x, torch.stack(steps, dim=1)\n        return x\n"
)


@pytest.mark.parametrize(("change", "expected"), [
    # a local judged by induction over its values, one of them a call passing it as the loop reads it
    # (its value at the top of the loop's body, judged by an induction of its own)
    (("", ""), []),  # (a tuple or a tensor comes back)
    (("        if keep:\n            return x, torch.stack(steps, dim=1)\n", ""), [("TL001", 6)]),
])
def test_a_sampling_loop_of_another_module(cli, tmp_path, change, expected):
    (tmp_path / "nets.py").write_text(SAMPLER.replace(*change))
    (tmp_path / "run.py").write_text(
        "from nets import Diffusion\n\n\ndef sample(shape):\n    out = Diffusion().p_sample_loop(shape)\n    return out.data\n"
    )
    result = cli("check", "--no-cache", "--output-format", "json", "run.py")
    assert "internal error" not in result.output + (result.stderr or "")
    assert sorted((d["code"], d["line"]) for d in json.loads(result.stdout)) == expected


def test_a_name_imported_in_a_with_body_is_not_its_earlier_value(cli, tmp_path):
    (tmp_path / "running.py").write_text("class Running:\n    data = 0\nRUNNING = Running()\n")
    (tmp_path / "lib.py").write_text(
        "import torch\nimport torch.nn as nn\nnet = nn.Linear(4, 4)\ndef forward_with_stats(x):\n"
        "    with torch.no_grad():\n        out = net(x)\n        stats = out.mean()\n"
        "        from running import RUNNING as stats\n        return out, stats\n"
    )
    (tmp_path / "main.py").write_text("import lib\nout, stats = lib.forward_with_stats(x)\nprint(stats.data)\n")
    assert _findings(cli, "main.py") == []


def test_a_name_a_with_statement_binds_is_not_its_earlier_value(cli, tmp_path):
    (tmp_path / "helpers.py").write_text(
        "import collections\nimport contextlib\nimport torch\n\n\n@contextlib.contextmanager\n"
        "def recording(name):\n    yield collections.UserList([name])\n\n\n"
        "def make(name):\n    log = torch.zeros(2)\n    scale = torch.ones(2)\n"
        "    with recording(name) as log:\n        return log, scale\n"
    )
    (tmp_path / "main.py").write_text("from helpers import make\n\nlog, scale = make('run')\nprint(log.data)\nprint(scale.data)\n")
    assert _findings(cli, "main.py") == [("TL001", 5)]


CHOOSING_FACTORY = (
    "import torch.nn as nn\nclass A(nn.Module):\n    pass\nclass B(A):\n    pass\nclass Plain:\n    pass\n"
    "def build(big):\n    Net = A if big else B\n    return Net()\n"
)


@pytest.mark.parametrize(("change", "expected"), [
    (("", ""), [("TL005", 3)]),
    (("    Net = A if big else B\n", "    if big:\n        Net = A\n    else:\n        Net = B\n"), [("TL005", 3)]),
    (("A if big else B", "A if big else Plain"), []),  # one choice is no module
    (("A if big else B", "A if big else big"), []),  # one choice is not known
    (("    return Net()\n", "    Net += 1\n    return Net()\n"), []),
])
def test_a_factory_choosing_among_module_classes(cli, tmp_path, change, expected):
    (tmp_path / "models.py").write_text(CHOOSING_FACTORY.replace(*change))
    (tmp_path / "run.py").write_text("from models import build\nm = build(True)\nm.forward(1)\n")
    assert _findings(cli, "run.py") == expected


ATTRIBUTE_SET_AGAIN = (
    "import torch.nn as nn\n\n\nclass Net(nn.Module):\n    def forward(self, x):\n        return x\n\n\n"
    "class Doubler:\n    def forward(self, x):\n        return x * 2\n\n\n"
    "def run(net, x):\n    return net.forward(x)\n\n\n"
    "class Trainer:\n    def __init__(self, model, aux):\n        self.model = model\n        self.aux = aux\n\n"
    "    def step(self, x):\n        return run(self.model, x) + run(self.aux, x)\n\n\n"
    "Trainer(Net(), Net()).step(1)\n"
)


@pytest.mark.parametrize(("change", "expected"), [
    (("", ""), [("TL005", 15)]),
    # a subclass's `__init__`, or a store after construction, puts a plain object there
    (("Trainer(Net(), Net()).step(1)\n", "class AuxTrainer(Trainer):\n    def __init__(self, model):\n"
      "        super().__init__(model, Net())\n        self.aux = Doubler()\n\n\nAuxTrainer(Net()).step(1)\n"), []),
    (("Trainer(Net(), Net()).step(1)\n", "t = Trainer(Net(), Net())\nt.aux = Doubler()\nt.step(1)\n"), []),
])
def test_an_attribute_a_subclass_or_an_outside_store_sets_again(cli, tmp_path, change, expected):
    """`run(self.aux, x)` in `Trainer.step`: `self` may be a subclass's instance that sets `aux`
    again, and any instance's `aux` may be set from outside; what the call hands `run` is all of it."""
    (tmp_path / "train.py").write_text(ATTRIBUTE_SET_AGAIN.replace(*change))
    (tmp_path / "pyproject.toml").write_text("")
    assert _findings(cli, "train.py") == expected


DISTRIBUTION_VAE = (
    "import torch.nn as nn\nfrom torch.distributions.bernoulli import Bernoulli\n\n\nclass VAE(nn.Module):\n"
    "    def __init__(self):\n        super().__init__()\n        self.decoder = nn.Linear(2, 4)\n\n"
    "    def decode(self, z):\n        return Bernoulli(logits=self.decoder(z))\n\n"
    "    def sample(self, z):\n        return self.decode(z).probs.view(-1, 2, 2)\n"
)


@pytest.mark.parametrize(("change", "expected"), [
    (("", ""), [("TL001", 5), ("TL001", 6)]),
    # another library's distribution, or a decode that may give None: nothing known
    (("from torch.distributions.bernoulli import Bernoulli", "from pyro.distributions import Bernoulli"), []),
    (("        return Bernoulli(logits=self.decoder(z))\n", "        if z is None:\n            return None\n"
      "        return Bernoulli(logits=self.decoder(z))\n"), []),
])
def test_a_method_of_another_module_returning_a_torch_distribution(cli, tmp_path, change, expected):
    (tmp_path / "vae.py").write_text(DISTRIBUTION_VAE.replace(*change))
    (tmp_path / "main.py").write_text(
        "import torch\nfrom vae import VAE\n\nmodel = VAE()\nprint(model.sample(torch.ones(1, 2)).data)\n"
        "print(model.decode(torch.ones(1, 2)).probs.data)\n"
    )
    assert _findings(cli, "main.py") == expected


TUPLE_BATCHES = (
    "import torch\n\n\ndef load_data(lines, size):\n    data = []\n    inputs = []\n    for line in lines:\n"
    "        inputs.append(line)\n        if len(inputs) == size:\n"
    "            data.append((torch.LongTensor(inputs), torch.zeros(size)))\n            inputs = []\n    return data\n"
)


@pytest.mark.parametrize(("change", "expected"), [
    (("", ""), [("TL001", 6)]),
    # a list given lists (which may change), a tuple holding something else at that place, a list
    # not made empty, or one changed otherwise: its elements' places are not known
    (("data.append((torch.LongTensor(inputs), torch.zeros(size)))", "data.append([torch.LongTensor(inputs), torch.zeros(size)])"), []),
    (("data.append((torch.LongTensor(inputs), torch.zeros(size)))", "data.append((inputs, torch.zeros(size)))"), []),
    (("    data = []\n", "    data = [(lines, size)]\n"), []),
    (("    return data\n", "    data.extend(more)\n    return data\n"), []),
    (("    return data\n", "    data[0] = (lines, size)\n    return data\n"), []),
])
def test_a_list_of_tuples_another_module_grows_and_returns(cli, tmp_path, change, expected):
    (tmp_path / "data.py").write_text(TUPLE_BATCHES.replace(*change))
    (tmp_path / "train.py").write_text(
        "from data import load_data\n\n\ndef train(model, lines):\n    for x, y in load_data(lines, 4):\n"
        "        model(x, x.data.gt(0))\n"
    )
    assert _findings(cli, "train.py") == expected


NEVER_PASSED = (
    "import torch.nn as nn\n\n\nclass Net(nn.Module):\n    def forward(self, x):\n        return x\n\n\n"
    "class Doubler:\n    def forward(self, x):\n        return x * 2\n\n\n"
    "def run(net, x):\n    return net.forward(x)\n\n\n"
    "class Trainer:\n    def __init__(self, model, aux=None):\n        self.model = model\n        self.aux = aux\n\n"
    "    def step(self, x):\n        out = run(self.model, x)\n        if self.aux is not None:\n"
    "            out = out + run(self.aux, x)\n        return out\n\n\n"
    "class AuxTrainer(Trainer):\n    def __init__(self, model):\n        super().__init__(model)\n        self.aux = Doubler()\n\n\n"
    "AuxTrainer(Net()).step(1)\n"
)


@pytest.mark.parametrize("change", [
    ("", ""),
    ("AuxTrainer(Net()).step(1)\n", "t = Trainer(Net())\nt.aux = Doubler()\nt.step(1)\n"),
    ("AuxTrainer(Net()).step(1)\n", "Trainer(Net()).step(1)\n"),
])
def test_a_parameter_no_call_passes_is_not_taken_for_none(cli, tmp_path, change):
    """`Trainer(model, aux=None)`, never given `aux`: where `self.aux` is set again (a subclass's
    `__init__`, after construction, a caller the index does not see), `run(self.aux, x)` may hand
    on anything; the parameter is not taken for None, and `run`'s `net` stays unknown."""
    (tmp_path / "train.py").write_text(NEVER_PASSED.replace(*change))
    assert _findings(cli, "train.py") == []


FED_BACK = (
    "import torch.nn as nn\n\n\nclass Decoder(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
    "        self.proj = nn.Linear(4, 4)\n\n    def first_frame(self, memory):\n        return memory.new_zeros(2, 4)\n\n"
    "    def step(self, x):\n        return self.proj(x), x.sum()\n\n    def run(self, memory):\n"
    "        x = self.first_frame(memory)\n        outs = []\n        while True:\n            x = self.proj(x)\n"
    "            out, gate = self.step(x)\n            outs.append(out)\n            if len(outs) > 3 or stop(out):\n"
    "                break\n            x = out\n        return outs\n\n\ndef stop(output):\n    return (output.data > 0).all()\n"
)


@pytest.mark.parametrize(("changes", "expected"), [
    ((), [("TL001", 29)]),
    ((("            x = self.proj(x)\n", ""),), [("TL001", 28)]),
    ((("        return memory.new_zeros(2, 4)", "        return memory.frames"),), [("TL001", 29)]),
    # what the loop feeds back decides, and nothing says what it is: the first frame is not known
    # (or is a list), and `step` hands back what it is given
    ((("        return memory.new_zeros(2, 4)", "        return memory.frames"), ("            x = self.proj(x)\n", ""),
      ("return self.proj(x), x.sum()", "return x, x")), []),
    ((("        return memory.new_zeros(2, 4)", "        return []"), ("            x = self.proj(x)\n", ""),
      ("return self.proj(x), x.sum()", "return x, x")), []),
])
def test_a_local_every_value_of_which_a_loop_feeds_back(cli, tmp_path, changes, expected):
    """`out, gate = self.step(self.proj(x))`, then `x = out` for the next pass: every value of
    `out` mentions it, through `x`; what it holds is what the values give while it is not known,
    when judging them again given that gives it back."""
    source = FED_BACK
    for old, new in changes:
        source = source.replace(old, new)
    (tmp_path / "models.py").write_text(source)
    assert _findings(cli, "models.py") == expected


TABLE_MODELS = (
    "import torch.nn as nn\nclass A(nn.Module):\n    pass\nclass B(A):\n    pass\n"
    "MODELS = {'a': A, 'b': B}\n\n\nclass Trainer:\n    def __init__(self, name):\n        self.net = MODELS[name]()\n\n"
    "    def step(self, x):\n        return self.net.forward(x)\n"
)


@pytest.mark.parametrize(("other", "package", "expected"), [
    ("from models import Trainer\nTrainer('a').step(1)\n", False, [("TL005", 14)]),
    # another module may fill the table: it names it (reads, stores, imports it under another name)
    ("from models import MODELS, Trainer\nMODELS['p'] = object\n", False, []),
    ("import models\nmodels.MODELS.update(p=object)\n", False, []),
    ("from models import MODELS as M\n", False, []),
    ("from models import *\nprint(MODELS)\n", False, []),
    # a public name of an installable package: code outside the project may register more
    ("from .models import Trainer\n", True, []),
])
def test_a_module_level_table_of_module_classes(cli, tmp_path, other, package, expected):
    folder = tmp_path / "pkg" if package else tmp_path
    folder.mkdir(exist_ok=True)
    if package:
        (tmp_path / "pyproject.toml").write_text("[project]\nname = 'pkg'\nversion = '1'\n")
        (folder / "__init__.py").write_text("")
    (folder / "models.py").write_text(TABLE_MODELS)
    (folder / "run.py").write_text(other)
    assert _findings(cli, str(folder / "models.py")) == expected


@pytest.mark.parametrize("body", ["    yield 1\n", "    yield from range(2)\n", "    x = yield\n"])
def test_a_generator_returning_a_module_gives_no_module(cli, tmp_path, body):
    # the call gives a generator; `return` only sets what StopIteration carries
    (tmp_path / "models.py").write_text(
        "import torch.nn as nn\ndef build(width):\n" + body + "    return nn.Linear(width, 2)\n")
    (tmp_path / "run.py").write_text("from models import build\nm = build(4)\nm.forward(1)\n")
    assert _findings(cli, "run.py") == []


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        # a tensor added to in place stays a tensor
        ("    err = crit(out, y)\n    if extra:\n        err += crit(out * 2, y)\n    return err\n", [("TL001", 3)]),
        # started at a number and only added to: the sum of its terms, by a guess (it may still be
        # the number where the additions are in a loop or a branch: no fix rests on it)
        ("    err = 0\n    err += crit(out, y)\n    return err\n", [("TL001", 3)]),
        # started at an unknown value: nothing said
        ("    err = start(out)\n    err += crit(out, y)\n    return err\n", []),
    ],
)
def test_a_returned_name_added_to_in_place(cli, tmp_path, body, expected):
    (tmp_path / "losses.py").write_text(
        "import torch.nn as nn\ncrit = nn.MSELoss()\ndef loss_of(out, y, extra=False):\n" + body)
    (tmp_path / "run.py").write_text("from losses import loss_of\nerr = loss_of(a, b)\nprint(err.data)\n")
    assert _findings(cli, "run.py") == expected


@pytest.mark.parametrize(
    ("returned", "expected"),
    [
        ("(torch.round(scores) == target).float().mean()", [("TL001", 3)]),
        ("(torch.sigmoid(scores) > 0.5).sum() / len(scores)", [("TL001", 3)]),
        # strings or unknown values compared: booleans, not tensors
        ("name == 'acc'", []),
        ("(scores == target)", []),
    ],
)
def test_a_comparison_returned_by_a_function_of_another_module(cli, tmp_path, returned, expected):
    (tmp_path / "metrics.py").write_text(
        "import torch\ndef hit_rate(scores, target, name='x'):\n    return " + returned + "\n")
    (tmp_path / "run.py").write_text("import metrics\nhr = metrics.hit_rate(s, t)\nprint(hr.data)\n")
    assert _findings(cli, "run.py") == expected


@pytest.mark.parametrize(
    ("loader", "expected"),
    [
        pytest.param("def load():\n    from models import VAE\n    return VAE()\n", [("TL005", 2)], id="a-function-s-own-import"),
        pytest.param("def load():\n    from models import VAE as V\n    vae = V()\n    return vae\n", [("TL005", 2)],
                     id="under-an-alias"),
        pytest.param("def load():\n    import models\n    return models.VAE()\n", [("TL005", 2)], id="an-import-statement"),
        pytest.param("def load():\n    from models import Plain\n    return Plain()\n", [], id="a-non-torch-class"),
        pytest.param("def load(big):\n    if big:\n        from models import VAE\n    else:\n        from models import Plain as VAE\n"
                     "    return VAE()\n", [], id="imported-twice"),
        pytest.param("def load():\n    from models import VAE\n    VAE = wrap(VAE)\n    return VAE()\n", [], id="rebound"),
    ],
)
def test_a_function_s_own_import(cli, tmp_path, loader, expected):
    (tmp_path / "models.py").write_text(
        "import torch.nn as nn\nclass VAE(nn.Module):\n    def forward(self, x):\n        return x\n"
        "class Plain:\n    def forward(self, x):\n        return x\n")
    (tmp_path / "loop.py").write_text("def run(vae, x):\n    return vae.forward(x)\n")
    (tmp_path / "main.py").write_text(f"from loop import run\n{loader}run(load(), 1)\n")
    assert _findings(cli, "loop.py") == expected


@pytest.mark.parametrize(
    ("caller", "expected"),
    [
        # the calls in a function that imports the helper itself count among its callers
        pytest.param("def other():\n    from helpers import show\n    show(np.zeros(2))\n", [], id="called-with-an-array"),
        pytest.param("def other():\n    from helpers import show as s\n    s(np.zeros(2))\n", [], id="under-an-alias"),
        pytest.param("def other():\n    import helpers\n    helpers.show(np.zeros(2))\n", [], id="through-the-module"),
        pytest.param("def other():\n    from helpers import show\n    hooks.append(show)\n", [], id="handed-on"),
        pytest.param("def other():\n    import helpers\n    getattr(helpers, name)(np.zeros(2))\n", [],
                     id="looked-up-by-a-computed-name"),
        pytest.param("def other():\n    from helpers import show\n    show(torch.ones(2))\n", [("TL001", 2)],
                     id="called-with-a-tensor"),
    ],
)
def test_calls_through_a_function_s_own_import_are_call_sites(cli, tmp_path, caller, expected):
    (tmp_path / "helpers.py").write_text("def show(t):\n    return t.data\n")
    (tmp_path / "main.py").write_text(f"import numpy as np\nimport torch\nfrom helpers import show\n{caller}"
                                      "show(torch.zeros(2))\n")
    assert _findings(cli, "helpers.py") == expected


TORCH_NET = "import torch.nn as nn\nclass {name}(nn.Module):\n    def forward(self, x):\n        return x\n"
PLAIN_NET = "class {name}:\n    def forward(self, x):\n        return x\n"


@pytest.mark.parametrize(
    ("folder", "sibling", "at_root", "expected"),
    [
        # `python net/main.py`: the script's folder is first on the path, so `net` is net/net.py
        # (a module, with no submodules), not the folder net/ the root holds
        pytest.param("net", TORCH_NET, None, [("TL005", 3)], id="the-sibling-module-in-a-folder-of-its-name"),
        pytest.param("net", PLAIN_NET, None, [], id="a-non-torch-sibling-in-a-folder-of-its-name"),
        pytest.param("scripts", TORCH_NET, None, [("TL005", 3)], id="the-sibling-module"),
        pytest.param("scripts", PLAIN_NET, TORCH_NET, [], id="a-non-torch-sibling-wins-over-a-root-package"),
        pytest.param("scripts", None, TORCH_NET, [], id="no-sibling-the-root-package-gives-its-submodule"),
    ],
)
def test_an_import_finds_the_first_module_of_its_first_name(cli, tmp_path, folder, sibling, at_root, expected):
    (tmp_path / folder).mkdir()
    if sibling is not None:
        (tmp_path / folder / "net.py").write_text(sibling.format(name="net"))
    if at_root is not None:
        (tmp_path / "net").mkdir()
        (tmp_path / "net" / "__init__.py").write_text("")
        (tmp_path / "net" / "net.py").write_text(at_root.format(name="net"))
    (tmp_path / folder / "main.py").write_text("from net import net\nm = net()\nm.forward(1)\n")
    assert _findings(cli, f"{folder}/main.py") == expected


@pytest.mark.parametrize("package", [True, False])
def test_a_sibling_module_named_torch_does_not_shadow_torch(cli, tmp_path, monkeypatch, package):
    # Python 3 imports are absolute: utils/math.py's `import torch` is the installed torch; run as
    # a script beside utils/torch.py it would import the sibling, and a program that did so would
    # not work (the sibling uses torch itself)
    (tmp_path / "pyproject.toml").write_text("")
    (tmp_path / "utils").mkdir()
    if package:
        (tmp_path / "utils" / "__init__.py").write_text("")
    (tmp_path / "utils" / "torch.py").write_text("import torch\ndef to_device(x):\n    return x.cuda()\n")
    (tmp_path / "utils" / "math.py").write_text("import torch\nimport math\n")
    # `torch` reaches the policy only through the star import
    (tmp_path / "policy.py").write_text(
        "from utils.math import *\ndef noise(mean, std):\n    sample = torch.normal(mean, std)\n    return sample.data\n")
    monkeypatch.chdir(tmp_path)
    assert _findings(cli, "policy.py") == [("TL001", 4)]


@pytest.mark.parametrize(
    ("use", "expected"),
    [
        ("rois, loss, extra = net(x)\nprint(rois.data)\n", [("TL001", 4)]),
        ("print(net(x)[0].data)\n", [("TL001", 3)]),
        ("rois, loss, extra = net(x)\nprint(extra.data)\n", []),
    ],
)
def test_the_positions_of_a_tuple_a_module_of_another_file_returns(cli, tmp_path, use, expected):
    (tmp_path / "models.py").write_text(
        "import torch.nn as nn\nimport torch.nn.functional as F\nclass Det(nn.Module):\n"
        "    def __init__(self):\n        super().__init__()\n        self.fc = nn.Linear(4, 4)\n"
        "    def forward(self, x, y=None):\n        rois = self.fc(x)\n        loss = 0\n        if y is not None:\n"
        "            loss = F.mse_loss(rois, y)\n        return rois, loss, None\n")
    (tmp_path / "run.py").write_text("from models import Det\nnet = Det()\n" + use)
    assert _findings(cli, "run.py") == expected


DICT_MODELS = (
    "import torch\nimport torch.nn as nn\nclass Tagger(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
    "        self.fc = nn.Linear(4, 2)\n    def forward(self, x):\n        out = self.fc(x)\n{body}"
)


@pytest.mark.parametrize(
    ("body", "use", "expected"),
    [
        # a dict display by string keys, returned in place or bound once and only returned
        ("        return {'clip': torch.sigmoid(out), 'emb': out}\n", "print(net(x)['clip'].data)\n", [("TL001", 4)]),
        ("        output_dict = {'clip': torch.sigmoid(out), 'emb': out}\n        return output_dict\n",
         "out = net(x)\nprint(out['emb'].data)\n", [("TL001", 5)]),
        ("        return {'clip': out, 'n': 3}\n", "out = net(x)\nprint(out['clip'].data)\nprint(out['n'].data)\n",
         [("TL001", 5)]),
        # an item stored, a method called, the name handed on, a `**` spread, a computed key, a
        # number's key: what a key holds is not known
        ("        output_dict = {'clip': out, 'emb': out}\n        output_dict['emb'] = None\n        return output_dict\n",
         "print(net(x)['emb'].data)\n", []),
        ("        output_dict = {'clip': out}\n        output_dict.update(clip=None)\n        return output_dict\n",
         "print(net(x)['clip'].data)\n", []),
        ("        output_dict = {'clip': out}\n        fill(output_dict)\n        return output_dict\n",
         "print(net(x)['clip'].data)\n", []),
        ("        return {'clip': out, **extra}\n", "print(net(x)['clip'].data)\n", []),
        ("        return {name: out}\n", "print(net(x)['clip'].data)\n", []),
        ("        return {'n': 3, 'path': 'a.pt'}\n", "print(net(x)['n'].data)\n", []),
        ("        return {'clip': out} if out is not None else {'clip': None}\n", "print(net(x)['clip'].data)\n", []),
    ],
)
def test_the_keys_of_a_dict_a_module_of_another_file_returns(cli, tmp_path, body, use, expected):
    (tmp_path / "models.py").write_text(DICT_MODELS.format(body=body))
    (tmp_path / "run.py").write_text("import torch\nfrom models import Tagger\nnet = Tagger()\n" + use)
    assert _findings(cli, "run.py") == expected


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ("        return {'clip': torch.sigmoid(out), 'emb': out}\n", [("TL001", 12)]),
        ("        d = {'clip': out}\n        d['clip'] = None\n        return d\n", []),
    ],
)
def test_the_keys_of_a_dict_a_module_of_the_file_returns(cli, tmp_path, body, expected):
    code = DICT_MODELS.format(body=body) + "net = Tagger()\nx = torch.randn(2, 4)\nprint(net(x)['clip'].data)\n"
    (tmp_path / "run.py").write_text(code)
    line = code.count("\n")
    assert _findings(cli, "run.py") == [(c, line) for c, _ in expected]


SAVE_HELPERS = (
    "import torch\ndef save_checkpoint(state, filename):\n    torch.save(state, filename)\n"
    "def save_converted(state, filename):\n    state['model'] = state['model'].state_dict()\n    torch.save(state, filename)\n"
    "def save_popped(state, filename):\n    state.pop('model')\n    torch.save(state, filename)\n"
    "def save_handed(state, filename):\n    convert(state)\n    torch.save(state, filename)\n"
)


@pytest.mark.parametrize(
    ("calls", "expected"),
    [
        # a dict display written in the call holds what it shows when the helper starts
        ("save_checkpoint({'epoch': 1, 'state_dict': net}, 'a.pt')\n", [("TL004", 3)]),
        ("save_checkpoint({'epoch': 1, 'state_dict': net}, 'a.pt')\nsave_checkpoint({'epoch': 2, 'state_dict': net}, 'b.pt')\n",
         [("TL004", 3)]),
        # the helper changes or hands on the dict first; another call saves a state_dict; a
        # computed key; a `**` spread; a dict built beforehand (not a display in the call)
        ("save_converted({'epoch': 1, 'model': net}, 'a.pt')\n", []),
        ("save_popped({'epoch': 1, 'model': net}, 'a.pt')\n", []),
        ("save_handed({'epoch': 1, 'model': net}, 'a.pt')\n", []),
        ("save_checkpoint({'epoch': 1, 'state_dict': net}, 'a.pt')\n"
         "save_checkpoint({'epoch': 2, 'state_dict': net.state_dict()}, 'b.pt')\n", []),
        ("save_checkpoint({name: net}, 'a.pt')\n", []),
        ("save_checkpoint({'epoch': 1, **extra}, 'a.pt')\n", []),
        ("save_checkpoint({'epoch': 1, 'optimizer': opt.state_dict()}, 'a.pt')\n", []),
    ],
)
def test_a_dict_display_passed_to_a_save_helper_of_another_module(cli, tmp_path, monkeypatch, calls, expected):
    (tmp_path / "pyproject.toml").write_text("")
    (tmp_path / "utils.py").write_text(SAVE_HELPERS)
    (tmp_path / "train.py").write_text("import torch.nn as nn\nfrom utils import *\nnet = nn.Linear(2, 2)\n" + calls)
    monkeypatch.chdir(tmp_path)
    assert _findings(cli, "utils.py") == expected


LOOPED = (
    "import torch\nimport torch.nn as nn\nclass Net(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
    "        self.lin = nn.Linear(4, 4)\n    def forward(self, x, steps):\n        x = self.lin(x)\n{loop}"
    "        return x\n"
)


@pytest.mark.parametrize(
    ("loop", "expected"),
    [
        # after a loop whose body ends binding it, a name holds its value from before the loop or
        # the body's (each pass gives that kind again)
        ("        for _ in range(steps):\n            x = torch.relu(x)\n", [("TL001", 4)]),
        ("        while steps:\n            x = self.lin(x)\n            steps -= 1\n", [("TL001", 4)]),
        # a pass may stop part-way (`break`, `continue`), the loop binds the name itself, an
        # `else` runs after it, the body binds it in a way not read, or the body's value is not a tensor
        ("        for _ in range(steps):\n            x = torch.relu(x)\n            if steps:\n                break\n"
         "            x = x.tolist()\n", []),
        ("        for x in range(steps):\n            x = x + 1\n", []),
        ("        for _ in range(steps):\n            x = torch.relu(x)\n        else:\n            x = x.tolist()\n", []),
        ("        for _ in range(steps):\n            x, n = x.tolist(), 1\n", []),
        ("        for _ in range(steps):\n            x = x.tolist()\n", []),
    ],
)
def test_a_value_rebound_in_a_loop_before_it_is_returned(cli, tmp_path, loop, expected):
    (tmp_path / "models.py").write_text(LOOPED.format(loop=loop))
    # (what the caller passes is not known: the lines before the loop decide)
    (tmp_path / "run.py").write_text("import torch\nfrom models import Net\nnet = Net()\nprint(net(batch, 3).data)\n")
    assert _findings(cli, "run.py") == expected


@pytest.mark.parametrize(
    ("loop", "expected"),
    [
        ("        for _ in range(steps):\n            x = torch.relu(x)\n", [("TL001", 13)]),
        ("        for _ in range(steps):\n            x = torch.relu(x)\n            if steps:\n                continue\n", []),
        ("        for _ in range(steps):\n            x = x.tolist()\n", []),
    ],
)
def test_a_value_rebound_in_a_loop_before_it_is_passed(cli, tmp_path, loop, expected):
    """cgcnn's `atom_fea = self.embedding(atom_fea)`, a loop rebinding it, then `self.pooling(atom_fea, idx)`."""
    code = (LOOPED.format(loop=loop).replace("        return x\n", "        return self.pool(x)\n")
            + "    def pool(self, fea):\n        return fea.data.sum()\n")
    (tmp_path / "models.py").write_text(code)
    assert _findings(cli, "models.py") == expected


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        # a function of a project module bound to a name first (mean-teacher's
        # `residual_logit_criterion = losses.symmetric_mse_loss`): its call gives what it returns
        ("    crit = losses.symmetric_mse_loss\n    return crit(a, b).data\n", [("TL001", 5)]),
        ("    crit = losses.symmetric_mse_loss if a else losses.symmetric_mse_loss\n    return crit(a, b).data\n",
         [("TL001", 5)]),
        # a function of it returning something else; bound to another value too; an attribute
        # of the module that is not a function; the name bound again before the call
        ("    crit = losses.report\n    return crit(a, b).data\n", []),
        ("    crit = losses.symmetric_mse_loss if a else other\n    return crit(a, b).data\n", []),
        ("    crit = losses.SCALE\n    return crit(a, b).data\n", []),
        ("    crit = losses.symmetric_mse_loss\n    crit = make()\n    return crit(a, b).data\n", []),
    ],
)
def test_a_function_of_a_project_module_bound_to_a_name(cli, tmp_path, body, expected):
    (tmp_path / "pyproject.toml").write_text("")
    (tmp_path / "losses.py").write_text(
        "import torch\nSCALE = 2\ndef symmetric_mse_loss(a, b):\n    return torch.sum((a - b) ** 2)\n"
        "def report(a, b):\n    return {'mse': float(a)}\n")
    (tmp_path / "train.py").write_text("import torch\nimport losses\ndef train(a, b):\n" + body)
    assert _findings(cli, "train.py") == expected


REVIEWED = Path(__file__).parent / "data" / "project_review"
# Projects of two hostile reviews: a module's dict output changed after it is made (an item
# stored by a wrapper's or function's caller of the module, a `global` a helper changes, a `case`
# capture, `locals()`, a forward hook), a `forward` a decorator wraps, the class body binds again
# or code assigns (`Net.forward = f`, `self.forward = ...`, `net.forward = MethodType(...)`), a
# `__call__` or forward pre-hook that changes what the instance's calls pass; a dict passed to a
# save helper that changes it (also through an alias, a chain of helpers, a subclass); a module's
# function replaced (`losses.f = g`, `setattr`, `globals()`, a second `def`); a loop rebinding
# through a walrus or an `import`; an `expand(rows, cols)` of the project's own; a list a returned
# dict holds by name, changed after. Each was reported,
# most with a fix that crashed the program; the baselines are the plain forms, still reported.
REVIEW_BASELINES = {
    "c00_baseline": [("run.py", "TL001", 5)], "t01_tl003_baseline": [("run.py", "TL003", 10)],
    "D_base": [("run.py", "TL001", 6)], "F2_base": [("main.py", "TL001", 5)], "E_base": [("main.py", "TL001", 4)],
    "S_base": [("utils.py", "TL004", 3)], "L_base": [("models.py", "TL001", 23)],
    "c2_baseline": [("run.py", "TL001", 5)],
}


def test_a_changed_star_parameter_that_is_returned(cli, tmp_path):
    """`*args` and `**kwargs` have no described value to mark as changed."""
    (tmp_path / "helpers.py").write_text(
        "def pack(*args, **kwargs):\n    args[0].append(1)\n    kwargs.update(a=1)\n    return args, kwargs\n")
    (tmp_path / "run.py").write_text("from helpers import pack\nprint(pack([1]))\n")
    assert _findings(cli, ".") == []


@pytest.mark.parametrize("case", sorted(p.name for p in REVIEWED.iterdir()))
def test_what_may_change_a_module_s_output_or_arguments(cli, tmp_path, monkeypatch, case):
    shutil.copytree(REVIEWED / case, tmp_path / case)
    monkeypatch.chdir(tmp_path / case)
    result = cli("check", "--no-cache", "--select", "TL001,TL003,TL004,TL006", "--output-format", "json", ".")
    found = sorted((Path(d["path"]).name, d["code"], d["line"]) for d in json.loads(result.output))
    assert found == REVIEW_BASELINES.get(case, [])


def test_a_model_output_field_read_by_convention_gets_no_safe_fix(cli, tmp_path, monkeypatch):
    """`out["loss"]` of a model whose output is not known is a tensor by transformers' convention,
    a guess: the model of this project puts `loss.item()` there, so `--fix` must leave it."""
    case = Path(__file__).parent / "data" / "project_review_fix" / "loss_item_under_key"
    shutil.copytree(case, tmp_path / "case")
    monkeypatch.chdir(tmp_path / "case")
    found = json.loads(cli("check", "--no-cache", "--select", "TL003", "--output-format", "json", ".").output)
    assert [(Path(d["path"]).name, d["code"], d["line"]) for d in found] == [("run.py", "TL003", 8)]
    cli("check", "--no-cache", "--select", "TL003", "--fix", ".")
    assert (tmp_path / "case" / "run.py").read_text() == (case / "run.py").read_text()


BLOCK = (
    "import torch\nimport torch.nn as nn\n{extra}class Block({base}):\n    def __init__(self):\n        super().__init__()\n"
    "        self.fc = nn.Linear(4, 4)\n    def forward(self, x, mask=None):\n        print(mask.data)\n"
    "        return self.fc(x)\n"
)


@pytest.mark.parametrize(
    ("models", "run", "expected"),
    [
        # a forward's parameter takes what the calls of the class's instances pass
        (BLOCK.format(extra="", base="nn.Module"), "blk = Block()\nblk(torch.ones(2, 4), torch.ones(2))\n",
         [("TL001", 8)]),
        (BLOCK.format(extra="", base="nn.Linear"),
         "def run():\n    blk = Block()\n    return blk(torch.ones(2, 4), mask=torch.ones(2))\n", [("TL001", 8)]),
        # a subclass that inherits forward as it is: its instances' calls run it too
        (BLOCK.format(extra="", base="nn.Module") + "class Deeper(Block):\n    pass\n",
         "blk = Block()\nblk(torch.ones(2, 4), torch.ones(2))\n", [("TL001", 8)]),
        (BLOCK.format(extra="", base="nn.Module") + "class Deeper(Block):\n    def __init__(self):\n"
         "        super().__init__()\n        self.extra = nn.Linear(4, 4)\n",
         "blk = Deeper()\nblk(torch.ones(2, 4), torch.ones(2))\n", [("TL001", 8)]),
        # a DataParallel wrapping the same name hands its inputs to the module
        (BLOCK.format(extra="", base="nn.Module"),
         "def run():\n    blk = Block()\n    blk = nn.DataParallel(blk)\n    return blk(torch.ones(2, 4), torch.ones(2))\n",
         [("TL001", 8)]),
        (BLOCK.format(extra="", base="nn.Module"),
         "def run():\n    blk = Block()\n    blk = nn.DataParallel(blk).cuda()\n    return blk(torch.ones(2, 4), torch.ones(2))\n",
         [("TL001", 8)]),
        # one call passes something else, or nothing known; a library base, forward handed on as
        # a value, a subclass's own forward passing something else on, a subclass with a
        # `__call__` of its own, a DataParallel of another name: nothing said
        (BLOCK.format(extra="", base="nn.Module"),
         "blk = Block()\nblk(torch.ones(2, 4), torch.ones(2))\nblk(torch.ones(2, 4), 'all')\n", []),
        (BLOCK.format(extra="", base="nn.Module"), "blk = Block()\nblk(torch.ones(2, 4), masks[0])\n", []),
        (BLOCK.format(extra="", base="nn.Module") + "class Deeper(Block):\n    def forward(self, x, mask=None):\n"
         "        return super().forward(x, [mask])\n",
         "blk = Block()\nblk(torch.ones(2, 4), torch.ones(2))\n", []),
        (BLOCK.format(extra="", base="nn.Module") + "class Calls:\n    def __call__(self, *args):\n"
         "        return self.forward(*[a.tolist() for a in args])\nclass Deeper(Calls, Block):\n    pass\n",
         "blk = Deeper()\nblk(torch.ones(2, 4), torch.ones(2))\n", []),
        (BLOCK.format(extra="", base="nn.Module"),
         "def run(other):\n    blk = Block()\n    blk = nn.DataParallel(other)\n    return blk(torch.ones(2, 4), torch.ones(2))\n",
         []),
        (BLOCK.format(extra="", base="nn.Module"),
         "def run(other):\n    blk = Block()\n    blk = nn.DataParallel(other).cuda()\n    return blk(torch.ones(2, 4), torch.ones(2))\n",
         []),
        (BLOCK.format(extra="from timm.layers import Mlp\n", base="Mlp"),
         "blk = Block()\nblk(torch.ones(2, 4), torch.ones(2))\n", []),
        (BLOCK.format(extra="", base="nn.Module"),
         "blk = Block()\nblk(torch.ones(2, 4), torch.ones(2))\nstep = blk.forward\n", []),
    ],
)
def test_a_forward_parameter_takes_what_the_instances_calls_pass(cli, tmp_path, monkeypatch, models, run, expected):
    (tmp_path / "pyproject.toml").write_text("")
    (tmp_path / "models.py").write_text(models)
    (tmp_path / "run.py").write_text("import torch\nimport torch.nn as nn\nfrom models import Block, Deeper\n" + run)
    monkeypatch.chdir(tmp_path)
    assert _findings(cli, "models.py") == expected


TRAIN_THROUGH_PARAMETER = "def train(net, x):\n    return net(x, torch.ones(2))\n"
WRAPPER_OF_PARAMETER = (
    "class Wrapper(nn.Module):\n    def __init__(self, block):\n        super().__init__()\n"
    "        self.block = block.cuda()\n    def forward(self, x):\n        return self.block(x, {mask})\n"
)


@pytest.mark.parametrize(
    ("run", "engine", "expected"),
    [
        # an instance handed to a function or a constructor is called there: its forward runs
        (TRAIN_THROUGH_PARAMETER + "train(Block(), torch.ones(2, 4))\n", "", [("TL001", 8)]),
        (TRAIN_THROUGH_PARAMETER + "blk = Block().cuda()\ntrain(blk, torch.ones(2, 4))\n", "", [("TL001", 8)]),
        (WRAPPER_OF_PARAMETER.format(mask="torch.ones(2)") + "w = Wrapper(Block())\n", "", [("TL001", 8)]),
        ("from engine import train\ndef main():\n    model = Block()\n    train(model, torch.ones(2, 4))\n",
         "import torch\n" + TRAIN_THROUGH_PARAMETER, [("TL001", 8)]),
        # another value at some call, a call that spreads its arguments, the function handed on as
        # a value, the parameter bound again, another instance beside it in the attribute, a
        # method's parameter (its callers are not followed), a call passing something else:
        # nothing said
        (TRAIN_THROUGH_PARAMETER + "train(Block(), torch.ones(2, 4))\ntrain(nn.Linear(4, 4), torch.ones(2, 4))\n", "", []),
        (TRAIN_THROUGH_PARAMETER + "train(Block(), torch.ones(2, 4))\ntrain(*sys.argv)\n", "", []),
        (TRAIN_THROUGH_PARAMETER + "train(Block(), torch.ones(2, 4))\nhooks = [train]\n", "", []),
        ("def train(net, x):\n    if x is None:\n        net = nn.Linear(4, 4)\n    return net(x, torch.ones(2))\n"
         "train(Block(), torch.ones(2, 4))\n", "", []),
        (WRAPPER_OF_PARAMETER.format(mask="torch.ones(2)") + "    def reset(self):\n        self.block = nn.Identity()\n"
         "w = Wrapper(Block())\n", "", []),
        (WRAPPER_OF_PARAMETER.format(mask="torch.ones(2)") + "w = Wrapper(Block())\nv = Wrapper(nn.Linear(4, 4))\n", "", []),
        ("class Trainer:\n    def fit(self, net, x):\n        return net(x, torch.ones(2))\n"
         "Trainer().fit(Block(), torch.ones(2, 4))\n", "", []),
        ("def deco(f):\n    def wrapper(net, x):\n        return f(nn.Linear(4, 4), x)\n    return wrapper\n"
         "@deco\n" + TRAIN_THROUGH_PARAMETER + "train(Block(), torch.ones(2, 4))\n", "", []),
        # an instance handed to a function a decorator wraps may be called unseen with anything,
        # even where another call of it is seen
        ("import functools\ndef timer(fn):\n    @functools.wraps(fn)\n    def wrapper(*a):\n        return fn(*a)\n"
         "    return wrapper\n@timer\ndef outer(m):\n    return m(torch.ones(2, 4), 'all')\n"
         "b = Block()\nb(torch.ones(2, 4), torch.ones(2))\nouter(b)\n", "", []),
        (WRAPPER_OF_PARAMETER.format(mask="'all'") + "w = Wrapper(Block())\nBlock()(torch.ones(2, 4), torch.ones(2))\n",
         "", []),
    ],
)
def test_a_forward_parameter_takes_what_calls_through_a_parameter_pass(cli, tmp_path, monkeypatch, run, engine, expected):
    """PhyDNet's `EncoderRNN(PhyCell(...))` keeping the cell as `self.phycell = phycell.to(device)`,
    SSN's `train(..., regression_criterion, ...)`: the call through the parameter runs the forward."""
    (tmp_path / "pyproject.toml").write_text("")
    (tmp_path / "models.py").write_text(BLOCK.format(extra="", base="nn.Module"))
    (tmp_path / "engine.py").write_text(engine)
    (tmp_path / "run.py").write_text("import sys\nimport torch\nimport torch.nn as nn\nfrom models import Block\n" + run)
    monkeypatch.chdir(tmp_path)
    assert _findings(cli, "models.py") == expected


@pytest.mark.parametrize(("target", "expected"), [("*_, m", [("TL005", 3)]), ("m, *_", []), ("*_, m, last", [])])
def test_a_starred_target_takes_places_from_the_end_across_files(cli, tmp_path, target, expected):
    (tmp_path / "models.py").write_text("import torch.nn as nn\ndef build():\n    return 3, 'x', nn.Linear(2, 2)\n")
    (tmp_path / "run.py").write_text(f"from models import build\n{target} = build()\nm.forward(1)\n")
    assert _findings(cli, "run.py") == expected


FACTORY_REBINDING_ITS_PARAMETER = (
    "import torch.nn as nn\nclass A(nn.Module):\n    def forward(self, x):\n        return x\n"
    "def define(net):\n    if net == 'a':\n        net = A()\n    elif net == 'b':\n        net = nn.Linear(2, 2)\n"
    "    else:\n        raise NotImplementedError(net)\n    net.apply(print)\n    return net\n"
)


def test_a_factory_rebinding_its_parameter_in_every_branch_returns_a_module(cli, tmp_path):
    """pix2pixHD's `define_G(..., netG, ...)`: the name string is rebound to the module."""
    (tmp_path / "networks.py").write_text(FACTORY_REBINDING_ITS_PARAMETER)
    (tmp_path / "run.py").write_text("from networks import define\nm = define('a')\nm.forward(1)\n")
    assert _findings(cli, "run.py") == [("TL005", 3)]


@pytest.mark.parametrize("change", [
    ("    else:\n        raise NotImplementedError(net)\n", ""),  # no else: the string may come back
    ("raise NotImplementedError(net)", "print(net)"),  # the else goes on with the string
    ("        net = A()\n", "        if net:\n            net = A()\n"),  # a branch binds only sometimes
])
def test_a_factory_that_may_return_its_parameter_is_silent(cli, tmp_path, change):
    (tmp_path / "networks.py").write_text(FACTORY_REBINDING_ITS_PARAMETER.replace(*change))
    (tmp_path / "run.py").write_text("from networks import define\nm = define('a')\nm.forward(1)\n")
    assert _findings(cli, "run.py") == []


def test_an_answer_judged_inside_a_cycle_of_asks_is_judged_again_from_outside(cli, tmp_path):
    """`h = model(x, h)` makes `h` ask `Net.forward`'s output, which asks its `h` parameter's call
    sites, which ask `h`: an answer given to an ask inside that cycle saw a provisional "being
    judged" and must not be kept for asks from elsewhere (`model` in `evaluate`, reached through
    `train`'s call sites; TimeSeries' `model.test(...)`)."""
    (tmp_path / "pyproject.toml").write_text("")
    (tmp_path / "net.py").write_text(
        "import torch\nfrom torch import nn\n\n\nclass Net(nn.Module):\n    def forward(self, x, h):\n        return h\n\n"
        "    def test(self):\n        return torch.ones(1)\n")
    (tmp_path / "evaluate.py").write_text("def evaluate(model):\n    model.test().data\n")
    (tmp_path / "train.py").write_text(
        "from net import Net\nfrom evaluate import evaluate\n\n\ndef train(model):\n    h = model(x, h)\n"
        "    evaluate(model)\n\n\ntrain(Net())\nevaluate(Net())\n")
    assert _findings(cli, ".") == [("TL001", 2)]


@pytest.mark.parametrize(
    ("call", "expected"),
    [
        ("robust_loss(X.cuda(), y.cuda(), **kwargs)", [("TL001", 5)]),
        ("robust_loss(X.cuda(), y=y.cuda(), **kwargs)", [("TL001", 5)]),
        ("robust_loss(X.cuda(), **kwargs)", []),
        ("robust_loss(*batch, **kwargs)", []),
        ("robust_loss(X.cuda(), *[y], **kwargs)", []),
    ],
)
def test_a_call_spreading_keywords_is_a_call_site_for_what_it_names(cli, tmp_path, call, expected):
    (tmp_path / "pyproject.toml").write_text("")
    (tmp_path / "losses.py").write_text(
        "import torch\n\n\ndef robust_loss(X, y, **kwargs):\n    return torch.arange(X.size(0)).type_as(y.data)\n")
    (tmp_path / "trainer.py").write_text(
        "import torch\nfrom losses import robust_loss\n\n\ndef train(dataset, **kwargs):\n"
        "    loader = torch.utils.data.DataLoader(dataset, batch_size=4)\n    for X, y in loader:\n"
        "        batch = (X, y)\n        " + call + "\n")
    assert _findings(cli, "losses.py") == expected


@pytest.mark.parametrize(
    ("models", "expected"),
    [
        ("class Softmax:\n    def forward(self, x):\n        return F.log_softmax(x, dim=1)\n", [("TL001", 4)]),
        ("class Softmax:\n    def forward(self, x):\n        return x.tolist()\n", []),
        ("from lib import Base\nclass Softmax(Base):\n    def forward(self, x):\n        return F.log_softmax(x, dim=1)\n", []),
    ],
)
def test_a_plain_object_s_forward_called_from_another_file(cli, tmp_path, models, expected):
    """few-shot-gnn's `softmax_module.forward(output)` on a `SoftmaxModule()` (no nn.Module base)."""
    (tmp_path / "pyproject.toml").write_text("")
    (tmp_path / "models.py").write_text("import torch.nn.functional as F\n" + models)
    (tmp_path / "test.py").write_text(
        "import torch\nfrom models import Softmax\ny_pred = Softmax().forward(torch.zeros(2, 3))\nprint(y_pred.data)\n")
    assert _findings(cli, "test.py") == expected


@pytest.mark.parametrize(
    ("normalised", "expected"),
    [
        # a model output turned into a tensor where it is a list: either way what a module returned
        ("        if type(output) == list:\n            output = torch.cat(output, dim=0)\n", [("TL001", 10)]),
        ("        if isinstance(output, (list, tuple)):\n            output = torch.stack(output)\n", [("TL001", 10)]),
        # a test that converts nothing, an element taken out, an `else` of its own, a string put in
        ("        if type(output) == list:\n            print(1)\n", []),
        ("        if isinstance(output, tuple):\n            output = output[0]\n", []),
        ("        if type(output) == list:\n            output = torch.cat(output)\n        else:\n"
         "            output = output['out']\n", []),
        ("        if type(output) == list:\n            output = 'skip'\n", []),
    ],
)
def test_a_model_output_converted_where_it_is_a_list(cli, tmp_path, normalised, expected):
    """CRAFT-Remade's `output = model(image)`, `if type(output) == list: output = torch.cat(output,
    dim=0)`, then `output.data`: the test only decides whether to convert (a guess, as for any
    model output)."""
    (tmp_path / "pyproject.toml").write_text("")
    (tmp_path / "run.py").write_text(
        "import torch\n\n\ndef test(model, loader):\n    opt = torch.optim.SGD(model.parameters(), lr=0.1)\n"
        "    for image in loader:\n        output = model(image)\n" + normalised + "        print(output.data)\n")
    assert _findings(cli, "run.py") == expected


@pytest.mark.parametrize(
    ("loop", "expected"),
    [
        # the value bound last before a loop or branch reaches the calls inside it
        ("    for epoch in range(2):\n        train(loader)\n", [("TL001", 6)]),
        ("    if flag:\n        train(loader)\n", [("TL001", 6)]),
        ("    try:\n        train(loader)\n    except OSError:\n        pass\n", [("TL001", 6)]),
        # bound again, deleted or imported anew inside: nothing said
        ("    for epoch in range(2):\n        train(loader)\n        loader = make()\n", []),
        ("    for epoch in range(2):\n        train(loader)\n        del loader\n        loader = make()\n", []),
        ("    for epoch in range(2):\n        from data import loader\n        train(loader)\n", []),
        ("    for loader in (make(), make()):\n        train(loader)\n", []),
    ],
)
def test_a_name_bound_twice_reaches_the_calls_in_a_block_after(cli, tmp_path, loop, expected):
    """CRAFT-Remade's `train_dataloader = DataLoaderSYNTH('train')`, then `train_dataloader =
    DataLoader(train_dataloader, ...)`, then `train(train_dataloader, ...)` inside the epoch loop."""
    (tmp_path / "pyproject.toml").write_text("")
    (tmp_path / "run.py").write_text(
        "import torch\nfrom data import make\n\n\ndef train(dataloader):\n    for x, y in dataloader: print(y.data)\n\n\n"
        "def main(flag):\n    loader = make()\n    loader = torch.utils.data.DataLoader(loader, batch_size=2)\n" + loop)
    assert _findings(cli, "run.py") == expected


@pytest.mark.parametrize(
    ("call", "expected"),
    [
        ("net = parallel_old.DataParallelModel(model)\n", [("TL002", 4)]),
        ("net = parallel_old.DataParallelHelper(model)\n", []),
        ("net = parallel_old.make_DataParallel(model)\n", []),
    ],
)
def test_a_data_parallel_subclass_reached_through_a_module_alias(cli, tmp_path, call, expected):
    """structure_knowledge_distillation's `parallel_old.DataParallelModel(model)`."""
    (tmp_path / "pyproject.toml").write_text("")
    (tmp_path / "parallel.py").write_text(
        "from torch.nn.parallel.data_parallel import DataParallel\n\n\nclass DataParallelModel(DataParallel):\n"
        "    def gather(self, outputs, output_device):\n        return outputs\n\n\nclass DataParallelHelper:\n"
        "    def __init__(self, model):\n        self.model = model\n\n\ndef make_DataParallel(model):\n    return model\n")
    (tmp_path / "run.py").write_text("import torch.nn as nn\nimport parallel as parallel_old\nmodel = nn.Linear(2, 2)\n" + call)
    assert _findings(cli, "run.py") == expected


SERVER_BASE = (
    "import torch\n\n\nclass Server:\n    def __init__(self, args, model):\n        self.model = model[0]\n\n"
    "    def save(self):\n        torch.save(self.model, 'server.pt')\n"
)
FEDAVG_INIT = "    def __init__(self, args, model, seed):\n        {call}\n        self.seed = seed\n"
BUILT = "(nn.Linear(2, 2), 'linear')"


@pytest.mark.parametrize(
    ("subclasses", "main", "expected"),
    [
        # a subclass's own `__init__` hands its parameter on to the base's
        ("class FedAvg(Server):\n" + FEDAVG_INIT.format(call="super().__init__(args, model)"),
         f"server = FedAvg(None, {BUILT}, 0)\n", [("TL004", 9)]),
        ("class FedAvg(Server):\n" + FEDAVG_INIT.format(call="super(FedAvg, self).__init__(args, model=model)"),
         f"server = FedAvg(None, {BUILT}, 0)\n", [("TL004", 9)]),
        ("class FedAvg(Server):\n" + FEDAVG_INIT.format(call="Server.__init__(self, args, model)"),
         f"server = FedAvg(None, {BUILT}, 0)\n", [("TL004", 9)]),
        ("class FedAvg(Server):\n" + FEDAVG_INIT.format(call="super().__init__(args, model)") + "class Prox(FedAvg):\n    pass\n",
         f"server = Prox(None, {BUILT}, 0)\n", [("TL004", 9)]),
        # another subclass passing something else, a call the index cannot read (spread, taken as a
        # value, through a mixin), a subclass defined in a function, a class between with its
        # own `__init__` passing something else: nothing said
        ("class FedAvg(Server):\n" + FEDAVG_INIT.format(call="super().__init__(args, model)")
         + "class Local(Server):\n    def __init__(self, args):\n        super().__init__(args, (object(), 'x'))\n",
         f"server = FedAvg(None, {BUILT}, 0)\nother = Local(None)\n", []),
        ("class FedAvg(Server):\n" + FEDAVG_INIT.format(call="super().__init__(*[args, model])"),
         f"server = FedAvg(None, {BUILT}, 0)\n", []),
        ("class FedAvg(Server):\n" + FEDAVG_INIT.format(call="init = super().__init__; init(args, model)"),
         f"server = FedAvg(None, {BUILT}, 0)\n", []),
        ("class Mixin:\n    def __init__(self, *args):\n        super().__init__(None, (object(), 'x'))\n"
         "class FedAvg(Mixin, Server):\n" + FEDAVG_INIT.format(call="super().__init__(args, model)"),
         f"server = FedAvg(None, {BUILT}, 0)\n", []),
        ("class FedAvg(Server):\n" + FEDAVG_INIT.format(call="super().__init__(args, model)"),
         f"server = FedAvg(None, {BUILT}, 0)\ndef make():\n    class Local(Server):\n        def __init__(self):\n"
         "            super().__init__(None, (object(), 'x'))\n    return Local()\n", []),
        ("class Mid(Server):\n    def __init__(self, args, model):\n        super().__init__(args, (object(), 'm'))\n"
         "class FedAvg(Mid):\n" + FEDAVG_INIT.format(call="super().__init__(args, model)"),
         f"server = FedAvg(None, {BUILT}, 0)\n", []),
        # a constructor run again from another method, with other values (also where the
        # subclass has no `__init__` of its own)
        ("class FedAvg(Server):\n" + FEDAVG_INIT.format(call="super().__init__(args, model)")
         + "    def reset(self):\n        super().__init__(None, ({'a': 1}, 'junk'))\n",
         f"server = FedAvg(None, {BUILT}, 0)\n", []),
        ("class FedAvg(Server):\n" + FEDAVG_INIT.format(call="super().__init__(args, model)")
         + "    def reset(self):\n        self.__init__(None, ({'a': 1}, 'junk'), 1)\n",
         f"server = FedAvg(None, {BUILT}, 0)\n", []),
        ("class FedAvg(Server):\n    def reset(self):\n        super().__init__(None, ({'a': 1}, 'junk'))\n",
         f"server = FedAvg(None, {BUILT})\n", []),
    ],
)
def test_a_subclass_init_calling_the_base_s_is_a_call_site(cli, tmp_path, subclasses, main, expected):
    """FedGen's servers: `class FedAvg(Server)` whose `__init__` does `super().__init__(args,
    model, ...)`; the base keeps `self.model = copy.deepcopy(model[0])` and saves it."""
    (tmp_path / "pyproject.toml").write_text("")
    (tmp_path / "base.py").write_text(SERVER_BASE)
    (tmp_path / "fedavg.py").write_text("from base import Server\n\n\n" + subclasses)
    (tmp_path / "main.py").write_text("import torch.nn as nn\nfrom base import Server\nfrom fedavg import *\n" + main)
    assert _findings(cli, "base.py") == expected


def test_a_parameter_called_with_a_module_and_something_else_is_silent(cli, tmp_path):
    (tmp_path / "run.py").write_text(
        "import torch.nn as nn\ndef run(m):\n    return m.forward(1)\nrun(nn.Linear(2, 2))\nrun(object())\n"
    )
    assert _findings(cli, "run.py") == []


SHADOWING_PROGRAM = """import torch

class Record:
    def __init__(self):
        self.data = [1, 2]

def show(item):
    return item.data

v = torch.ones(1)

def run(items):
    return [show(v) for v in items]

late = lambda v: show(v)
run([Record()])
"""


def test_a_comprehension_or_lambda_variable_is_not_the_module_name_it_shadows(cli, tmp_path):
    (tmp_path / "run.py").write_text(SHADOWING_PROGRAM)
    assert _findings(cli, "run.py") == []


def test_a_module_name_passed_inside_a_comprehension_is_still_evidence(cli, tmp_path):
    program = SHADOWING_PROGRAM.replace("[show(v) for v in items]", "[show(v) for _ in items]")
    (tmp_path / "run.py").write_text(program.replace("late = lambda v: show(v)\n", ""))
    assert _findings(cli, "run.py") == [("TL001", 8)]


def test_star_import_and_reexport(cli, tmp_path):
    (tmp_path / "lib").mkdir()
    (tmp_path / "lib" / "__init__.py").write_text("from .nets import *\n")
    (tmp_path / "lib" / "nets.py").write_text("import torch.nn as nn\n__all__ = ['Net']\nclass Net(nn.Linear):\n    pass\n")
    (tmp_path / "run.py").write_text("from lib import Net\nnet = Net(2, 2)\ny = net.forward(1)\n")
    assert _findings(cli, "run.py") == [("TL005", 3)]


@pytest.mark.parametrize(
    ("local", "expected"),
    [
        pytest.param("import torch\nfrom torch.nn.utils.rnn import pack_sequence\n"
                     "prior = pack_sequence([torch.ones(3), torch.ones(2)])\n", [], id="rebound-to-another-kind"),
        pytest.param("from torch.nn.utils.rnn import pack_sequence as prior\n", [], id="rebound-to-a-library-name"),
        pytest.param("import torch\nprior = torch.ones(4)\n", [("TL001", 8)], id="rebound-to-a-tensor-too"),
        pytest.param("import torch\n__all__ = ['scale']\nscale = 2\nprior = None\n", [("TL001", 8)], id="not-exported"),
        pytest.param("import torch\nscale = 2\n", [("TL001", 8)], id="not-defined-there"),
        pytest.param("import torch\n_prior = None\n", [("TL001", 8)], id="private-name"),
        pytest.param("if __name__ == '__main__':\n    prior = None\n", [("TL001", 8)], id="only-when-run-as-a-script"),
        pytest.param("if '__main__' == __name__:\n    for prior in range(3):\n        pass\n", [("TL001", 8)],
                     id="only-when-run-as-a-script-guard-reversed"),
        pytest.param("if __name__ == '__main__':\n    prior = None\nelse:\n    prior = None\n", [],
                     id="also-when-imported-else-branch"),
        pytest.param("if __name__ == '__main__':\n    prior = 1\nprior = None\n", [], id="also-bound-when-imported"),
        pytest.param("if __name__ != '__main__':\n    prior = None\n", [], id="bound-only-when-imported"),
        pytest.param("if __name__ == 'settings_local':\n    prior = None\n", [], id="another-name-test"),
        pytest.param("from torch.nn.utils.rnn import pack_sequence as prior\nif __name__ == '__main__':\n    prior = 1\n", [],
                     id="also-imported-at-the-top"),
        pytest.param("from helpers import *\nif __name__ == '__main__':\n    prior = None\n", [], id="its-own-star-import"),
        pytest.param("def setup():\n    global prior\n    prior = None\nif __name__ == '__main__':\n    prior = None\n", [],
                     id="also-bound-through-global"),
        pytest.param("if (prior := None) is None:\n    pass\nif __name__ == '__main__':\n    prior = None\n", [],
                     id="also-bound-by-a-walrus"),
    ],
)
def test_a_star_import_may_rebind_a_name_the_file_binds(cli, tmp_path, local, expected):
    """`prior = torch.zeros(4)`, then an optional `from settings_local import *` that defines
    `prior` again: the name may hold what the star-imported module gives it."""
    (tmp_path / "settings_local.py").write_text(local)
    (tmp_path / "train.py").write_text(
        "import torch\n\nprior = torch.zeros(4)\ntry:\n    from settings_local import *\nexcept ImportError:\n"
        "    pass\nprint(prior.data.numel())\n"
    )
    assert _findings(cli, "--select", "TL001", "train.py") == expected


STATE = "import torch\n\ncurrent = torch.zeros(0)\n\n\ndef total():\n    return current.data.numel()\n"


@pytest.mark.parametrize(
    ("train", "expected"),
    [
        pytest.param("import state\nstate.current = pack_sequence([torch.ones(3)])\n", [], id="packed-sequence"),
        pytest.param("from pkg import state\nstate.current = pack_sequence([torch.ones(3)])\n", [], id="from-package"),
        pytest.param("import pkg.state as st\nst.current = pack_sequence([torch.ones(3)])\n", [], id="aliased"),
        pytest.param("def reset():\n    from pkg import state\n    state.current = pack_sequence([torch.ones(3)])\n", [],
                     id="in-a-function-through-its-own-import"),
        pytest.param("import state\nstate.current = make_state()\n", [], id="value-of-unknown-kind"),
        pytest.param("import state\nstate.current = torch.ones(3)\n", [("TL001", 7)], id="another-tensor"),
        pytest.param("import other\nother.current = pack_sequence([torch.ones(3)])\n", [("TL001", 7)], id="another-module"),
        pytest.param("class Box:\n    pass\nbox = Box()\nbox.current = pack_sequence([torch.ones(3)])\n", [("TL001", 7)],
                     id="an-instance-not-the-module"),
    ],
)
def test_a_module_level_name_may_be_rebound_through_the_module_from_another_file(cli, tmp_path, train, expected):
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("")
    (tmp_path / "pkg" / "state.py").write_text(STATE)
    (tmp_path / "state.py").write_text(STATE)
    (tmp_path / "other.py").write_text("current = None\n")
    (tmp_path / "train.py").write_text(
        "import torch\nfrom torch.nn.utils.rnn import pack_sequence\nfrom helpers import make_state\n" + train)
    linted = "pkg/state.py" if "pkg" in train else "state.py"
    assert _findings(cli, "--select", "TL001", linted) == expected
    assert _findings(cli, "--select", "TL001", ".") == sorted(
        [(code, line) for code, line in expected] + [("TL001", 7)], key=lambda f: f[1])


@pytest.mark.parametrize(
    ("loop", "expected"),
    [
        pytest.param("        G = functions.reset_grads(G, False)\n        Gs.append(G)\n        torch.save(Gs, 'Gs.pth')\n",
                     [("TL004", 12)], id="appended-then-saved"),
        pytest.param("        Gs.append(G.state_dict())\n        torch.save(Gs, 'Gs.pth')\n        Gs.append(G)\n", [],
                     id="saved-before-the-module-is-appended"),
        pytest.param("        Gs.append(G)\n        Gs = []\n        torch.save(Gs, 'Gs.pth')\n", [], id="another-list-saved"),
        pytest.param("        Gs.append(functions.describe(G))\n        torch.save(Gs, 'Gs.pth')\n", [],
                     id="what-a-function-makes-of-it"),
        pytest.param("        Gs.append(G)\n        Gs.pop()\n        torch.save(Gs, 'Gs.pth')\n", [], id="taken-out-again"),
        pytest.param("        Gs.append(G)\n        Gs[-1] = G.state_dict()\n        torch.save(Gs, 'Gs.pth')\n", [],
                     id="replaced"),
        pytest.param("        Gs.append(G)\n        functions.describe(Gs)\n        torch.save(Gs, 'Gs.pth')\n", [],
                     id="handed-to-code-that-may-change-it"),
        pytest.param("        functions.describe(Gs)\n        Gs.append(G)\n        torch.save(Gs, 'Gs.pth')\n",
                     [("TL004", 12)], id="handed-on-before-the-append"),
    ],
)
def test_a_list_a_module_was_appended_to_holds_it_when_saved(cli, tmp_path, loop, expected):
    """SinGAN: `Gs` (a parameter) gets each scale's generator, and is saved whole each time; the
    generator comes back from a helper that returns the model it is given."""
    (tmp_path / "functions.py").write_text(
        "def reset_grads(model, require_grad):\n    for p in model.parameters():\n        p.requires_grad_(require_grad)\n"
        "    return model\n\n\ndef describe(model):\n    return str(model)\n")
    (tmp_path / "training.py").write_text(
        "import torch\nimport torch.nn as nn\n\nimport functions\n\n\ndef train(opt, Gs):\n"
        "    for scale in range(opt.scales):\n        G = nn.Linear(2, 2)\n" + loop)
    found = _findings(cli, "--select", "TL004", "training.py")
    assert found == [(code, line) for code, line in expected]
    if expected:
        line = (tmp_path / "training.py").read_text().splitlines()[expected[0][1] - 1]
        assert line.strip().startswith("torch.save(Gs")


@pytest.mark.parametrize(
    ("tail", "expected"),
    [
        pytest.param("        model += [nn.Conv2d(ngf, 3, 7), nn.Tanh()]\n", [("TL001", 4)], id="ends-in-tanh"),
        pytest.param("        model.append(nn.Sigmoid())\n", [("TL001", 4)], id="appended-last"),
        pytest.param("        model.extend([nn.Conv2d(ngf, 3, 7), nn.Tanh()])\n", [("TL001", 4)], id="extended-last"),
        pytest.param("        model += [make_head(ngf)]\n", [], id="ends-in-an-unknown"),
        pytest.param("        if ngf:\n            model += [nn.Tanh()]\n", [], id="grown-in-a-branch"),
        pytest.param("        model += [nn.Tanh()]\n        model = patch(model)\n", [], id="changed-after"),
        pytest.param("        model.insert(0, nn.Tanh())\n", [], id="inserted-first"),
        pytest.param("        tail = model\n        model += [nn.Tanh()]\n        if ngf:\n            tail.append(make_pack())\n",
                     [], id="grown-through-an-alias"),
        pytest.param("        model += [nn.Tanh()]\n        finish(model)\n", [], id="handed-on"),
    ],
)
def test_a_generator_built_from_a_list_returns_what_its_last_layer_returns(cli, tmp_path, tail, expected):
    """The pix2pix/CycleGAN generator: `model += [...]` layer by layer, then `nn.Sequential(*model)`
    in another module; its output is its last layer's."""
    (tmp_path / "networks.py").write_text(
        "import torch.nn as nn\n\n\nclass Gen(nn.Module):\n    def __init__(self, blocks, ngf=8):\n        super().__init__()\n"
        "        model = [nn.ReflectionPad2d(3), make_block(3, ngf)]\n        for i in range(blocks):\n"
        "            model += [Residual(ngf)]\n" + tail + "        self.model = nn.Sequential(*model)\n\n"
        "    def forward(self, x):\n        return self.model(x)\n")
    (tmp_path / "train.py").write_text(
        "import torch\nfrom networks import Gen\nfake = Gen(2)(torch.zeros(1, 3, 8, 8))\nprint(fake.cpu().data)\n")
    assert _findings(cli, "--select", "TL001", "train.py") == expected


@pytest.mark.parametrize(
    ("helper", "expected"),
    [
        pytest.param("def keep(model, flag):\n    return model\n", [("TL001", 3)], id="gives-back-its-parameter"),
        pytest.param("async def keep(model, flag):\n    return model\n", [], id="a-coroutine"),
        pytest.param("def keep(model, flag):\n    yield model\n    return model\n", [], id="a-generator"),
        pytest.param("def keep(model, flag):\n    if flag and (model := flag):\n        pass\n    return model\n", [],
                     id="rebound-by-a-walrus"),
        pytest.param("def keep(model, flag):\n    def swap():\n        nonlocal model\n        model = flag\n    swap()\n"
                     "    return model\n", [], id="rebound-by-a-nested-function"),
    ],
)
def test_a_helper_of_another_module_gives_back_what_it_is_passed(cli, tmp_path, helper, expected):
    (tmp_path / "helpers.py").write_text(helper)
    (tmp_path / "run.py").write_text("import torch\nfrom helpers import keep\nprint(keep(torch.ones(2), None).data)\n")
    assert _findings(cli, "--select", "TL001", "run.py") == expected


@pytest.mark.parametrize(
    ("other", "expected"),
    [
        pytest.param("class Batch:\n    data = [1]\n\n\ndef pick(a, b):\n    return b\n", [], id="defines-the-name-again"),
        pytest.param("import torch\nfrom utils import pick\n", [("TL001", 4)], id="brings-the-same-function"),
        pytest.param("import torch\nimport torch.nn as nn\n", [("TL001", 4)], id="brings-torch-again"),
    ],
)
def test_a_star_import_may_rebind_a_name_an_explicit_import_bound(cli, tmp_path, other, expected):
    (tmp_path / "utils.py").write_text("def pick(a, b):\n    return a\n")
    (tmp_path / "other.py").write_text(other)
    (tmp_path / "train.py").write_text(
        "import torch\nfrom utils import pick\nfrom other import *\nprint(pick(torch.ones(2), None).data)\n")
    assert _findings(cli, "--select", "TL001", "train.py") == expected


def test_names_the_linted_file_takes_from_a_star_import(cli, tmp_path):
    (tmp_path / "common.py").write_text(
        "import torch\nimport torch.nn as nn\n\nclass Net(nn.Module):\n    def forward(self, x):\n"
        "        return torch.relu(x)\n"
    )
    (tmp_path / "run.py").write_text(
        "from common import *\n\nclass Head(nn.Module):\n    def forward(self, x):\n        return x\n\n"
        "net = Net()\nnet.forward(1)\nprint(net(torch.ones(2)).data)\nHead().forward(1)\n"
    )
    assert _findings(cli, "run.py") == [("TL005", 8), ("TL001", 9), ("TL005", 10)]


@pytest.mark.parametrize(
    "common",
    [
        pytest.param("import torch.nn as nn\n__all__ = ['other']\nclass Net(nn.Module):\n    pass\n", id="not-exported"),
        pytest.param("import mylib.nn as nn\nclass Net(nn.Module):\n    pass\n", id="another-librarys-nn"),
        pytest.param("import torch.nn as _nn\nclass _Net(_nn.Module):\n    pass\nNet = None\n", id="private-and-none"),
    ],
)
def test_star_imports_that_do_not_bring_a_torch_name_stay_silent(cli, tmp_path, common):
    (tmp_path / "common.py").write_text(common)
    (tmp_path / "run.py").write_text(
        "from common import *\n\nclass Head(nn.Module):\n    def forward(self, x):\n        return x\n\n"
        "Head().forward(1)\nNet().forward(1)\n_Net().forward(1)\n"
    )
    assert _findings(cli, "run.py") == []


def test_a_name_the_file_binds_itself_is_not_taken_from_a_star_import(cli, tmp_path):
    (tmp_path / "common.py").write_text("import torch.nn as nn\nclass Net(nn.Module):\n    pass\n")
    (tmp_path / "run.py").write_text("from common import *\n\nclass Net:\n    def forward(self, x):\n"
                                      "        return x\n\nNet().forward(1)\n")
    assert _findings(cli, "run.py") == []


@pytest.mark.parametrize(
    ("forward", "expected"),
    [
        pytest.param("return self.head(x)", [("TL001", 3)], id="submodule-sequential"),
        pytest.param("return self.head(x) / 2", [("TL001", 3)], id="arithmetic"),
        pytest.param("return -self.fc(x)", [("TL001", 3)], id="unary"),
        pytest.param("return self.tail(x)", [], id="sequential-ending-in-unknown"),
        pytest.param("return self.head", [], id="a-module-not-its-output"),
        pytest.param("x = self.fc(x)\n        x = self.head(x)\n        return x", [("TL001", 3)], id="last-binding"),
        pytest.param("x = self.fc(x)\n        if x.sum() > 0:\n            x = self.tail(x)\n        return x", [],
                     id="rebound-in-a-block"),
        pytest.param("y = self.fc(x)\n        y, z = self.tail(y), 1\n        return y", [], id="rebound-by-a-tuple"),
        pytest.param("return x.shape + (1,)", [], id="arithmetic-on-no-tensor"),
    ],
)
def test_the_output_of_a_module_of_another_file(cli, tmp_path, forward, expected):
    (tmp_path / "nets.py").write_text(
        "import torch.nn as nn\nfrom helpers import Block\n\nclass Painter(nn.Module):\n    def __init__(self):\n"
        "        super().__init__()\n        self.fc = nn.Linear(4, 4)\n"
        "        self.head = nn.Sequential(nn.Linear(4, 4), nn.Tanh())\n"
        "        self.tail = nn.Sequential(nn.Linear(4, 4), Block())\n\n"
        f"    def forward(self, x):\n        {forward}\n"
    )
    (tmp_path / "run.py").write_text("import torch\nfrom nets import Painter\nprint(Painter()(torch.ones(4)).data)\n")
    assert _findings(cli, "run.py") == expected


AGENT_MODULE = (
    "import torch\nimport torch.nn as nn\n\nclass Agent(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
    "        self.body = nn.Linear(4, 2)\n\n    def forward(self, x):\n        y = self.body(x)\n        return y, y * 2\n\n"
    "    def act(self, x):\n        return self.body(x).sum(1), torch.zeros(1)\n\n"
    "    def maybe(self, x):\n        if x is None:\n            return None\n        return self.body(x)\n\n"
    "def rollout(agent, x):\n    return agent.act(x)\n"
)


@pytest.mark.parametrize(
    ("use", "expected"),
    [
        pytest.param("value, noise = agent.act(obs)\nprint(value.data)\n", [("TL001", 6)], id="method-result-unpacked"),
        pytest.param("head, tail = agent(obs)\nprint(tail.data)\n", [("TL001", 6)], id="forward-tuple-unpacked"),
        pytest.param("print(agent(obs)[0].data)\n", [("TL001", 5)], id="forward-tuple-indexed"),
        pytest.param("value, noise = rollout(agent, obs)\nprint(value.data)\n", [("TL001", 6)], id="helper-returns-method-result"),
        pytest.param("out = agent.maybe(obs)\nprint(out.data)\n", [], id="method-may-return-none"),
        pytest.param("a, *rest = agent(obs)\nprint(a.data, rest.data)\n", [("TL001", 6)], id="starred-rest-unknown"),
    ],
)
def test_what_a_module_of_another_file_returns_from_its_methods(cli, tmp_path, use, expected):
    (tmp_path / "agents.py").write_text(AGENT_MODULE)
    (tmp_path / "run.py").write_text(
        f"import torch\nfrom agents import Agent, rollout\nagent = Agent()\nobs = torch.ones(4)\n{use}"
    )
    assert _findings(cli, "run.py") == expected


HELPERS = (
    "import torch\nimport torch.nn as nn\n\nnet = nn.Linear(2, 2)\n\ndef evaluate(x):\n    return net(x), 0\n\n"
    "def either(x):\n    if x:\n        return net(x), 0\n    return cache\n\n@memoize\ndef wrapped(x):\n    return net(x), 0\n\n"
    "@torch.no_grad()\ndef frozen(x):\n    return net(x), 0\n"
)


@pytest.mark.parametrize(
    ("use", "expected"),
    [
        pytest.param("loss, n = evaluate(1)\nprint(loss.data)\n", [("TL001", 5)], id="tuple-element"),
        pytest.param("loss, n = either(1)\nprint(loss.data)\n", [], id="not-always-a-tuple"),
        pytest.param("loss, n = wrapped(1)\nprint(loss.data)\n", [], id="unknown-decorator"),
        pytest.param("total = 0\nfor x in range(3):\n    loss, n = evaluate(x)\n    total += loss\n", [("TL003", 7)],
                     id="graph-kept"),
        pytest.param("total = 0\nfor x in range(3):\n    loss, n = frozen(x)\n    total += loss\n", [],
                     id="no-graph-under-no-grad"),
    ],
)
def test_an_element_of_what_a_function_of_another_file_returns(cli, tmp_path, use, expected):
    (tmp_path / "helpers.py").write_text(HELPERS)
    (tmp_path / "run.py").write_text(f"import torch\nfrom helpers import evaluate, either, wrapped, frozen\n\n{use}")
    assert _findings(cli, "run.py") == expected


def test_a_module_written_for_python_3_6_still_tells_its_importers_what_it_defines(cli, tmp_path):
    (tmp_path / "models.py").write_text(
        "import torch.nn as nn\nclass Net(nn.Module):\n    def forward(self, x):\n        return x.cuda(async=True)\n"
    )
    (tmp_path / "run.py").write_text("from models import Net\nNet().forward(1)\n")
    assert _findings(cli, "run.py") == [("TL005", 2)]
    assert ("TL000", 4) in _findings(cli, ".")


def test_a_python2_module_still_tells_its_importers_what_it_defines(cli, tmp_path):
    (tmp_path / "models.py").write_text(
        "import torch.nn as nn\nclass Net(nn.Module):\n    def forward(self, x):\n        print 'x', x\n        return x\n"
    )
    (tmp_path / "run.py").write_text("from models import Net\nNet().forward(1)\n")
    assert _findings(cli, "run.py") == [("TL005", 2)]
    assert ("TL000", 4) in _findings(cli, ".")


@pytest.mark.parametrize(
    ("setup", "expected"),
    [
        pytest.param("criterion = nn.CrossEntropyLoss()\nif gpu:\n    criterion = criterion.cuda()\n", [("TL001", 3)],
                     id="rebound-to-its-own-cuda"),
        pytest.param("criterion = nn.CrossEntropyLoss()\nif gpu:\n    criterion = criterion.wrap()\n", [],
                     id="rebound-to-an-unknown-method"),
        pytest.param("ckpt = torch.load(path)\ncriterion = nn.CrossEntropyLoss()\nif resume:\n"
                     "    criterion = ckpt['criterion']\n", [("TL001", 3)], id="or-from-a-loaded-checkpoint"),
        # what a checkpoint held, called with no tensor (a pickled metric or tokenizer is called too)
        pytest.param("ckpt = torch.load(path)\ncriterion = ckpt['criterion']\n", [], id="only-from-a-checkpoint"),
    ],
)
def test_a_module_level_value_passed_to_a_function_of_another_file(cli, tmp_path, setup, expected):
    (tmp_path / "loop.py").write_text("def evaluate(criterion, x, y):\n    loss = criterion(x, y)\n    return loss.data\n")
    (tmp_path / "run.py").write_text(f"import torch\nimport torch.nn as nn\nfrom loop import evaluate\n{setup}"
                                     "evaluate(criterion, 1, 2)\n")
    assert _findings(cli, "loop.py") == expected


@pytest.mark.parametrize(
    ("setup", "expected"),
    [
        pytest.param("from model import model\nmodel = model.Predictor()\n", [("TL005", 2)], id="from-the-module-it-rebinds"),
        pytest.param("import model.model\nmodel = model.model.Predictor()\n", [("TL005", 2)], id="import-statement"),
        pytest.param("from model import model as m\nm = m.Predictor()\nmodel = m\n", [("TL005", 2)], id="an-alias"),
        pytest.param("from model import model\nmodel = model.Other()\n", [], id="a-non-torch-class-of-that-module"),
        pytest.param("from model import model\nmodel = model.make()\n", [], id="an-unknown-function-of-that-module"),
        pytest.param("from model import model\nmodel = model.Predictor()\nmodel = model.export()\n", [],
                     id="rebound-again-to-what-it-returns"),
        pytest.param("model = load()\nfrom model import model\nmodel = model.Predictor()\n", [],
                     id="bound-before-the-import"),
        pytest.param("from model import model\nif x:\n    model = model.Predictor()\n", [("TL005", 2)],
                     id="under-an-if-the-import-is-not-a-call-site-kind"),
    ],
)
def test_a_module_level_name_rebound_from_the_module_it_imported(cli, tmp_path, setup, expected):
    (tmp_path / "model").mkdir()
    (tmp_path / "model" / "model.py").write_text(
        "import torch.nn as nn\n\nclass Predictor(nn.Module):\n    def forward(self, x):\n        return x\n\n"
        "class Other:\n    def forward(self, x):\n        return x\n")
    (tmp_path / "loop.py").write_text("def train(model, x):\n    return model.forward(x)\n")
    (tmp_path / "run.py").write_text(f"from loop import train\n{setup}train(model, 1)\n")
    assert _findings(cli, "loop.py") == expected


@pytest.mark.parametrize(
    ("assignments", "expected"),
    [
        pytest.param("self.net, self.target = Net(), Net()", [("TL005", 3)], id="tuple-target"),
        pytest.param("self.target = Net()\n        self.target, self.n = restore()", [], id="rebound-by-a-tuple"),
        pytest.param("self.target = Net()\n        self.target += 1", [], id="augmented"),
    ],
)
def test_attributes_of_a_class_of_another_file(cli, tmp_path, assignments, expected):
    (tmp_path / "agents.py").write_text(
        "import torch.nn as nn\nclass Net(nn.Module):\n    pass\nclass Agent:\n    def __init__(self):\n"
        f"        {assignments}\n"
    )
    (tmp_path / "run.py").write_text("from agents import Agent\nagent = Agent()\nagent.target.forward(1)\n")
    assert _findings(cli, "run.py") == expected


@pytest.mark.parametrize(
    ("assignments", "expected"),
    [
        pytest.param('self.register_buffer("step", torch.zeros(1))\n        self.step += 1', [("TL001", 3)],
                     id="a-buffer-counted-up"),
        pytest.param("self.step = nn.Parameter(torch.zeros(1))\n        self.step += 1", [("TL001", 3)],
                     id="a-parameter-counted-up"),
        pytest.param("self.step = np.zeros(1)\n        self.step += 1", [], id="an-array-counted-up"),
        pytest.param("self.step = make()\n        self.step += torch.ones(1)", [], id="an-unknown-value-plus-a-tensor"),
    ],
)
def test_an_attribute_updated_in_place_keeps_its_kind(cli, tmp_path, assignments, expected):
    """`self.step += 1` (in any method) leaves a tensor attribute a tensor, as `x += 1` does a local."""
    (tmp_path / "counter.py").write_text(
        "import numpy as np\nimport torch\nimport torch.nn as nn\nclass Counter(nn.Module):\n"
        f"    def __init__(self):\n        super().__init__()\n        {assignments}\n"
    )
    (tmp_path / "run.py").write_text("from counter import Counter\nc = Counter()\nv = c.step.data\n")
    assert _findings(cli, "run.py") == expected


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        pytest.param("pass", [("TL001", 3)], id="torch-s-state-dict"),
        pytest.param("def state_dict(self):\n        return {'w': object()}", [], id="its-own-state-dict"),
    ],
)
def test_the_state_dict_of_a_module_of_another_file(cli, tmp_path, body, expected):
    (tmp_path / "models.py").write_text(f"import torch.nn as nn\nclass Net(nn.Module):\n    {body}\n")
    (tmp_path / "run.py").write_text("from models import Net\nsd = Net().state_dict()\nv = sd['w'].data\n")
    assert _findings(cli, "run.py") == expected


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        pytest.param("s = model(x)\n    s = F.softmax(s, -1)\n    return pick(s)", [("TL001", 2)], id="rebound-then-passed"),
        pytest.param("for b in x:\n        s = model(b)\n        s = F.softmax(s, -1)\n        pick(s)", [("TL001", 2)],
                     id="in-the-same-loop-body"),
        pytest.param("s = model(x)\n    if c:\n        s = F.softmax(s, -1)\n    return pick(s)", [], id="rebound-in-a-branch"),
        pytest.param("s = model(x)\n    r = pick(s)\n    s = F.softmax(s, -1)", [], id="rebound-after-the-call"),
        pytest.param("s = F.softmax(model(x), -1)\n    for b in x:\n        pick(s)\n        s = model(b)", [],
                     id="rebound-later-in-a-loop"),
        pytest.param("s = model(x)\n    s = F.softmax(s, -1); pick(s)", [], id="two-statements-on-a-line"),
        pytest.param("s = F.softmax(model(x), -1)\n    from beam import s\n    pick(s)", [],
                     id="rebound-by-an-import-between"),
        pytest.param("s = model(x)\n    s = F.softmax(s, -1)\n    def s():\n        pass\n    pick(s)", [],
                     id="rebound-by-a-def-between"),
    ],
)
def test_a_local_passed_after_its_rebinding_takes_the_value_that_reaches(cli, tmp_path, body, expected):
    """A function's call sites pass the value a plain assignment earlier in the same block gave
    the name, not every value it ever holds."""
    (tmp_path / "beam.py").write_text("def pick(scores):\n    return scores.data.topk(2)\n")
    (tmp_path / "search.py").write_text("import torch.nn.functional as F\nfrom beam import pick\n"
                                        f"def search(model, x, c):\n    {body}\n")
    assert _findings(cli, "beam.py") == expected


@pytest.mark.parametrize(
    ("built", "expected"),
    [
        pytest.param("[torch.as_tensor(a) for a in arrays]", [("TL001", 3)], id="tensors-made-from-each"),
        pytest.param("[a for a in arrays]", [], id="the-elements-themselves"),
        pytest.param("[a.cuda() for a in arrays]", [], id="a-method-modules-have-too"),
    ],
)
def test_a_list_built_by_a_comprehension_passed_to_another_file(cli, tmp_path, built, expected):
    """A comprehension's own variable is an unknown value, not the function's local of that name."""
    (tmp_path / "loss.py").write_text("def first_box(targets):\n    t = targets[0]\n    return t.data\n")
    (tmp_path / "run.py").write_text("import torch\nfrom loss import first_box\n"
                                     f"def step(arrays, a):\n    annos = {built}\n    return first_box(annos)\n")
    assert _findings(cli, "loss.py") == expected


POOL = "import torch\n\nclass Pool:\n    def __init__(self):\n        self.items = []\n\n    def query(self, images):\n        return images.data\n"
TRAINER = (
    "import torch\nfrom pool import Pool\n\nclass Trainer:\n    def __init__(self):\n        self.pool = Pool()\n\n"
    "    def step(self, batch):\n        return self.pool.query(torch.cat([batch, batch]))\n"
)


@pytest.mark.parametrize(
    ("loop", "expected"),
    [
        pytest.param("net = nn.Linear(4, 2)\nfor name, weight in net.named_parameters():\n", [("TL001", 2)],
                     id="named-parameters-of-a-module"),
        pytest.param("net = nn.Linear(4, 2)\nfor name, weight in net.named_children():\n", [], id="named-children"),
        pytest.param("net = {'w': [1.0]}\nfor name, weight in net.items():\n", [], id="items-of-a-dict"),
        pytest.param("from store import Store\nnet = Store()\nfor name, weight in net.named_parameters():\n", [],
                     id="a-non-module-class-s-method-of-that-name"),
    ],
)
def test_a_module_level_loop_variable_passed_to_a_helper(cli, tmp_path, loop, expected):
    (tmp_path / "helpers.py").write_text("def as_numpy(t):\n    return t.data.cpu().numpy()\n")
    (tmp_path / "store.py").write_text("class Store:\n    def named_parameters(self):\n        return [('a', [1])]\n")
    (tmp_path / "run.py").write_text(f"import torch.nn as nn\nfrom helpers import as_numpy\n{loop}    as_numpy(weight)\n")
    assert _findings(cli, ".") == [(code, line) for code, line in expected]
    assert _findings(cli, "helpers.py") == expected


ENCODER = (
    "import torch.nn as nn\nclass Mean(nn.Module):\n    def forward(self, x):\n        return x\n"
    "class Enc(nn.Module):\n    def __init__(self, pooler):\n        super(Enc, self).__init__()\n"
    "        self.pooler = pooler\n    def forward(self, x):\n        return self.pooler.forward(x) * 2\n"
)


@pytest.mark.parametrize(
    ("added", "expected"),
    [
        pytest.param("", [("TL005", 10)], id="named-in-its-own-super-call"),
        pytest.param("def is_enc(m):\n    return isinstance(m, (Enc, nn.Linear))\n", [("TL005", 10)], id="named-in-isinstance"),
        pytest.param("factory = Enc\n", [], id="handed-on-as-a-value"),
        pytest.param("import layers\ndef build(name):\n    return getattr(layers, name)(object())\n", [],
                     id="looked-up-by-a-computed-name"),
        pytest.param("class Sub(Enc):\n    def __init__(self):\n        super().__init__(object())\n", [],
                     id="a-subclass-passes-something-else"),
        pytest.param("def again(self, other):\n    return self.__class__(other)\nEnc.again = again\n", [],
                     id="made-from-the-class-of-an-instance"),
        pytest.param("class Sub(Enc):\n    @classmethod\n    def make(cls, pooler):\n        return cls(pooler)\n", [],
                     id="made-by-a-subclass-s-classmethod"),
        pytest.param("class Sub(Enc):\n    def again(self, pooler):\n        return type(self)(pooler)\n", [],
                     id="made-from-type-of-self"),
        pytest.param("def clone(obj, arg):\n    return type(obj)(arg)\n", [], id="made-from-type-of-anything"),
        pytest.param("class Other:\n    @classmethod\n    def make(cls, x):\n        return cls(x)\n    def again(self):\n"
                     "        return self.__class__(1)\n", [("TL005", 10)], id="another-class-made-so"),
        pytest.param("class Head(nn.Module):\n    def forward(self, x):\n        return x\n    def twice(self, x):\n"
                     "        return self(self(x))\n", [("TL005", 10)], id="a-module-calling-itself"),
    ],
)
def test_a_constructor_parameter_kept_on_self_takes_the_kind_its_callers_pass(cli, tmp_path, added, expected):
    (tmp_path / "layers.py").write_text(ENCODER + added)
    (tmp_path / "run.py").write_text("from layers import Enc, Mean\nenc = Enc(Mean())\n")
    assert _findings(cli, ".") == expected


STATS = (
    "import torch\nfrom collections import namedtuple\nStats = namedtuple('Stats', 'data count')\n"
    "def build(stats):\n    return stats.data\ndef warm(a, b):\n    return build(torch.cat([a, b]))\n"
)


@pytest.mark.parametrize(
    ("runner", "expected"),
    [
        pytest.param("import models\nmodels.build(torch.ones(2))\n", [("TL001", 5)], id="called-through-the-module"),
        pytest.param("mods = {'m': importlib.import_module('other')}\n", [("TL001", 5)], id="another-module-by-name"),
        pytest.param("def load(name):\n    return importlib.import_module(f'plugins.{name}')\n", [("TL001", 5)],
                     id="a-package-models-is-not-in"),
        pytest.param("print(sorted(globals()))\n", [("TL001", 5)], id="globals-of-a-module-without-it"),
        pytest.param("from models import *\nprint(locals().copy())\n", [("TL001", 5)], id="its-globals-printed"),
        pytest.param("from models import *\ndef main(name):\n    return table[name](Stats([0.0], 1))\ntable = locals()\n", [],
                     id="its-globals-kept-in-a-name"),
        pytest.param("import models\ndef main(name):\n    return getattr(models, 'build')(Stats([0.0], 1))\n", [],
                     id="getattr-with-a-literal-name"),
        pytest.param("from models import *\ndef main(name):\n    return globals()[name](Stats([0.0], 1))\n", [],
                     id="globals-holding-a-star-import"),
        pytest.param("from models import build\ndef main(name):\n    return globals()[name](Stats([0.0], 1))\n", [],
                     id="globals-holding-the-function"),
        pytest.param("def main(name):\n    return getattr(importlib.import_module('models'), name)(Stats([0.0], 1))\n",
                     [], id="importlib-by-a-literal-name"),
        pytest.param("def main(mod, name):\n    return getattr(importlib.import_module(mod), name)(Stats([0.0], 1))\n",
                     [], id="importlib-by-a-computed-name"),
        pytest.param("def main(mod):\n    m = importlib.import_module(mod)\n    return m.build(Stats([0.0], 1))\n", [],
                     id="importlib-by-a-computed-name-calling-it-by-attribute"),
        pytest.param("def main(mod):\n    m = importlib.import_module(mod)\n    return m.get_model(3)\n", [("TL001", 5)],
                     id="importlib-by-a-computed-name-calling-another-name"),
        pytest.param("def main(mod):\n    m = importlib.import_module(mod)\n    return m.get_model(3)\n"
                     "def pick(obj, name):\n    return getattr(obj, name)\n", [("TL001", 5)],
                     id="importlib-by-a-computed-name-and-getattr-elsewhere"),
        pytest.param("def main(name):\n    return getattr(sys.modules['models'], name)(Stats([0.0], 1))\n", [],
                     id="sys-modules"),
        pytest.param("import models\nmm = models\ndef main(name):\n    return getattr(mm, name)(Stats([0.0], 1))\n", [],
                     id="the-module-under-another-name"),
        pytest.param("def main(name):\n    return __import__('models').__dict__[name](Stats([0.0], 1))\n", [],
                     id="dunder-import"),
        pytest.param("MOD = importlib.import_module(sys.argv[1])\ndef main(name):\n    return getattr(MOD, name)(Stats([0.0], 1))\n",
                     [], id="held-at-module-level-looked-up-in-a-function"),
        pytest.param("class Loader:\n    def __init__(self, mod):\n        self.m = importlib.import_module(mod)\n"
                     "    def run(self, name):\n        return getattr(self.m, name)(Stats([0.0], 1))\n", [], id="held-on-self"),
        pytest.param("def load(mod):\n    return importlib.import_module(mod)\ndef main(mod, name):\n"
                     "    return getattr(load(mod), name)(Stats([0.0], 1))\n", [], id="returned-by-a-helper"),
        pytest.param("def load(mod):\n    return importlib.import_module(mod)\ndef main(mod, name):\n    m = load(mod)\n"
                     "    return m.__dict__[name](Stats([0.0], 1))\n", [], id="returned-by-a-helper-to-a-name"),
        pytest.param("load = lambda mod: importlib.import_module(mod)\ndef main(mod, name):\n"
                     "    return getattr(load(mod), name)(Stats([0.0], 1))\n", [], id="returned-by-a-lambda"),
        pytest.param("def main(mod):\n    fn = importlib.import_module(mod).build\n    return fn(Stats([0.0], 1))\n", [],
                     id="the-function-taken-by-attribute"),
        pytest.param("def main(mod, name):\n    return getattr(importlib.import_module(name=mod), name)(Stats([0.0], 1))\n", [],
                     id="named-by-keyword"),
        pytest.param("from importlib import import_module as load\ndef main(mod, name):\n"
                     "    return getattr(load(mod), name)(Stats([0.0], 1))\n", [], id="import-module-under-another-name"),
        pytest.param("def main(name):\n    return getattr(sys.modules.get('models'), name)(Stats([0.0], 1))\n", [],
                     id="sys-modules-get"),
        pytest.param("from models import *\nfn = locals()[sys.argv[1]]\nfn(Stats([0.0], 1))\n", [], id="module-level-locals"),
        pytest.param("def main(mod, name):\n    return getattr(__import__('models', fromlist=[name]), name)(Stats([0.0], 1))\n",
                     [], id="dunder-import-with-a-fromlist"),
    ],
)
def test_a_module_found_at_run_time_gives_its_functions_no_call_site_evidence(cli, tmp_path, runner, expected):
    (tmp_path / "models.py").write_text(STATS)
    (tmp_path / "run.py").write_text("import importlib, sys\nimport torch\nfrom models import Stats\n" + runner)
    assert _findings(cli, ".") == expected


@pytest.mark.parametrize(("looker", "expected"), [("", [("TL001", 5)]), ("__name__", []), ("'models'", [])],
                         ids=["no-lookup", "sys-modules-of-its-own-name", "its-own-name"])
def test_a_module_looking_up_its_own_names_gives_its_functions_no_call_site_evidence(cli, tmp_path, looker, expected):
    main = f"import sys\ndef main(name):\n    return getattr(sys.modules[{looker}], name)(Stats([0.0], 1))\n"
    (tmp_path / "models.py").write_text(STATS + (main if looker else ""))
    assert _findings(cli, ".") == expected


TWO_HEADS = (
    "import torch.nn as nn\nclass TwoHead(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
    "        self.body = nn.Linear(3, 3)\n    def forward(self, x):\n        feat = self.body(x)\n"
    "        return self.body(feat), feat\n"
    "def predict(detector, image):\n    score, feat = detector(image)\n    return score.data\n"
)


@pytest.mark.parametrize(
    ("rebinding", "expected"),
    [
        pytest.param("det = det.cuda()\n    det = torch.nn.DataParallel(det)", [("TL002", 7), ("TL001", 11)],
                     id="wrapped-on-one-branch"),
        pytest.param("det = torch.compile(det)", [], id="compiled-on-one-branch"),
        # a module of another class whose output is a tensor: `score` is a tensor either way (a
        # row of it, or the first of the pair)
        pytest.param("det = nn.Linear(3, 3)", [("TL001", 11)], id="another-module-returning-a-tensor-on-one-branch"),
        # look-alikes: what the other module returns is not known, or holds no tensor first
        pytest.param("det = torch.jit.load('m.pt')", [], id="a-loaded-module-on-one-branch"),
        pytest.param("det = nn.LSTM(3, 3)", [], id="an-lstm-on-one-branch"),
    ],
)
def test_a_module_wrapped_on_one_branch_keeps_its_outputs(cli, tmp_path, rebinding, expected):
    (tmp_path / "nets.py").write_text(TWO_HEADS)
    (tmp_path / "run.py").write_text(
        "import torch\nimport torch.nn as nn\nfrom nets import TwoHead, predict\ndet = TwoHead()\n"
        f"if torch.cuda.is_available():\n    {rebinding}\npredict(det, torch.ones(1, 3))\n"
    )
    assert _findings(cli, ".") == expected


_MODULE_POOL = ("class Pool:", "import torch.nn as nn\nclass Pool(nn.Module):")
_STATIC_QUERY = ("    def query(self, images)", "    @staticmethod\n    def query(images)")


@pytest.mark.parametrize(
    ("changes", "trainer_added", "expected"),
    [
        pytest.param([], "", [("TL001", 8)], id="every-call-passes-a-tensor"),
        # (a subclass may mix both classes in, an attribute may be reassigned from outside)
        pytest.param([], "class Cache:\n    def query(self, key):\n        return key\nCache().query('k')\n",
                     [], id="another-class-s-method-of-that-name"),
        pytest.param([_MODULE_POOL], "", [("TL001", 9)], id="a-module-s-own-method"),
        pytest.param([], "Pool().query([1, 2])\n", [], id="another-call-passes-a-list"),
        pytest.param([], "def ask(p):\n    return p.query('k')\n", [], id="a-receiver-of-unknown-kind-passes-a-string"),
        # a call whose arguments cannot bind to `query(self, images)` would raise: it calls another
        # (too many, or one twice, may be the class's method given its instance: kept)
        pytest.param([], "def ask(p):\n    return p.query('k', 'v')\n", [], id="a-call-with-too-many-arguments"),
        pytest.param([], "def ask(p):\n    t = type(p)\n    return t.query(p, 'v')\n", [], id="a-class-s-method-given-its-instance"),
        pytest.param([("    def query(self, images)", "    def query(self, images, limit=None)")],
                     "def ask(p):\n    return p.query(limit=3)\n", [("TL001", 8)], id="a-call-with-too-few-arguments"),
        pytest.param([], "def ask(p):\n    return p.query(key='k')\n", [("TL001", 8)], id="a-call-by-another-keyword"),
        pytest.param([], "def ask(p):\n    return p.query(images='k')\n", [], id="a-call-by-its-keyword-passes-a-string"),
        pytest.param([], "def ask(p):\n    return p.query('k', images='v')\n", [],
                     id="a-call-passing-one-parameter-twice"),
        pytest.param([("    def query(self, images)", "    def query(self, images, *rest)")],
                     "def ask(p):\n    return p.query('k', 'v')\n", [], id="a-method-taking-any-number"),
        # a flag of that name tested is not the method handed on; one chosen by a condition is
        pytest.param([], "import sys\nif sys.flags.query and not sys.flags.query:\n    print(1)\n", [("TL001", 8)],
                     id="an-attribute-of-that-name-tested"),
        pytest.param([], "def ask(p):\n    f = p.query if p else None\n    return f('k')\n", [],
                     id="a-method-of-that-name-chosen-by-a-condition"),
        pytest.param([], "hooks = [Pool().query]\n", [], id="the-method-escapes-as-a-value"),
        pytest.param([], "class Sub(Pool):\n    def query(self, images):\n        return super().query('k')\n", [],
                     id="super-passes-a-string"),
        pytest.param([], "Pool.query(Pool(), torch.ones(1))\n", [], id="called-through-the-class"),
        pytest.param([_MODULE_POOL, ("query", "train")], "", [], id="a-name-nn-module-calls"),
        pytest.param([("class Pool:", "from lightning.pytorch import Callback\nclass Pool(Callback):")], "", [],
                     id="a-library-base-may-call-it"),
        pytest.param([], "from lightning.pytorch import Callback\nclass Hooked(Pool, Callback):\n    pass\n", [],
                     id="a-subclass-with-a-library-base"),
        pytest.param([("    def query", "    @staticmethod\n    def query")], "", [],
                     id="a-static-method-whose-second-parameter-no-call-passes"),
        pytest.param([_STATIC_QUERY], "", [("TL001", 9)], id="a-static-method-every-call-passes-a-tensor"),
        pytest.param([_STATIC_QUERY], "Pool().query([1, 2])\n", [], id="a-static-method-another-call-passes-a-list"),
        pytest.param([_STATIC_QUERY], "Pool.query([1, 2])\n", [], id="a-static-method-called-through-the-class"),
        pytest.param([_STATIC_QUERY, ("class Pool:", "def wrap(f):\n    return f\nclass Pool:"),
                      ("    @staticmethod", "    @staticmethod\n    @wrap")], "", [], id="a-static-method-with-another-decorator"),
        pytest.param([], "class Mixin:\n    def ask(self):\n        return self.query('k')\nclass Both(Mixin, Pool):\n    pass\n",
                     [], id="a-call-from-a-mixin-of-a-subclass"),
        pytest.param([("        return images.data\n", "        return images.data\n\n    def on(self, name, x):\n"
                       "        return getattr(self, name)(x)\n")], "", [], id="reached-by-a-computed-name"),
        pytest.param([("        return images.data\n", "        return images.data\n\n    def run(self, x, step=query):\n"
                       "        return step(self, x)\n")], "", [], id="a-default-in-the-class-body"),
        pytest.param([("class Pool:", "def inject(f):\n    return f\nclass Pool:"), ("    def query", "    @inject\n    def query")],
                     "", [], id="a-decorator-that-may-change-the-call"),
        pytest.param([], "class Sub(Pool):\n    def again(self, x):\n        return type(self).query(self, x)\n", [],
                     id="called-through-type-of-self"),
        pytest.param([], "def make():\n    class Local(Pool):\n        pass\n    return Local()\n", [],
                     id="a-subclass-the-index-cannot-read"),
        pytest.param([], "def ask(p, b):\n    return getattr(p, 'query')(b)\n", [], id="named-by-a-string"),
        pytest.param([], "import operator\nask = operator.methodcaller('query', [1])\n", [], id="a-methodcaller"),
        pytest.param([], "class Sub(Pool):\n    def on(self, name, x):\n        return getattr(self, name)(x)\n", [],
                     id="a-subclass-dispatching-by-name"),
        pytest.param([], "import json\nfrom pool import Pool as P\nclass Enc(P, json.JSONEncoder):\n    pass\n", [],
                     id="imported-under-another-name"),
        pytest.param([("class Pool:", "def register(c):\n    return c\n@register\nclass Pool:")], "", [],
                     id="a-class-decorator"),
        pytest.param([("        self.items = []\n", "        self.items = []\n        self.inner = torch.nn.Identity()\n")],
                     "def swap(t, b):\n    t.pool.inner = Pool()\n    return t.pool.inner.query(b)\n", [],
                     id="called-on-an-attribute-reassigned-from-outside"),
        pytest.param([("        return images.data\n", "        return images.data\n\n    def has(self, name):\n"
                       "        return name in self.__dict__\n")], "", [("TL001", 8)], id="a-membership-test-of-its-dict"),
        pytest.param([("        return images.data\n", "        return images.data\n\n    def on(self, name, x):\n"
                       "        return self.__dict__[name](x)\n")], "", [], id="its-dict-read-by-a-computed-name"),
        pytest.param([("        return images.data\n", "        return images.data\n\n    def fill(self, kw):\n"
                       "        self.__dict__.update(kw)\n")], "", [], id="its-dict-updated"),
        pytest.param([], "print(Pool.__name__)\n", [("TL001", 8)], id="the-class-read-through"),
        pytest.param([("        return images.data\n", "        return images.data\n\n    @classmethod\n"
                       "    def mixed(cls, base):\n        return type('Mixed', (base, cls), {})\n")],
                     "Mixed = Pool.mixed(object)\n", [], id="read-through-to-a-classmethod-handing-on-cls"),
        pytest.param([("        return images.data\n", "        return images.data\n\n    def kind(self):\n"
                       "        return register(type(self))\n")], "", [], id="type-of-self-handed-on"),
        pytest.param([("        return images.data\n", "        return images.data\n\n    def kind(self):\n"
                       "        return register(self.__class__)\n")], "", [], id="the-class-of-self-handed-on"),
        pytest.param([("        return images.data\n", "        return images.data\n\n    def kind(self):\n"
                       "        return type(self).__name__, self.__class__.__qualname__\n")], "", [("TL001", 8)],
                     id="the-class-of-self-read-through"),
        pytest.param([], "REGISTRY = [Pool]\n", [], id="the-class-handed-on"),
        pytest.param([], "print(Pool.__name__)\nREGISTRY = {'pool': Pool}\n", [], id="read-through-and-handed-on"),
    ],
)
def test_a_method_parameter_takes_the_kind_every_call_of_the_method_passes(cli, tmp_path, changes, trainer_added,
                                                                          expected):
    pool, trainer = POOL, TRAINER + trainer_added
    for old, new in changes:
        pool, trainer = pool.replace(old, new), trainer.replace(f"pool.{old}", f"pool.{new}")
    (tmp_path / "pool.py").write_text(pool)
    (tmp_path / "run.py").write_text(trainer)
    assert _findings(cli, "pool.py") == expected
    assert _findings(cli, ".") == expected


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        # a tensor by a guess (with no mask it is still 0: `.data` fails there too, and no fix
        # rests on the guess)
        pytest.param("    loss = 0\n    for m in masks:\n        loss += F.binary_cross_entropy(m, m.detach())\n",
                     [("TL001", 6)], id="a-sum-started-at-zero"),
        pytest.param("    loss = 0\n    for m in masks:\n        loss += len(m)\n", [], id="a-count"),
        pytest.param("    loss = 0\n    for m in masks:\n        loss += F.mse_loss(m, m.detach())\n        loss += 1\n",
                     [], id="terms-of-two-kinds"),
        pytest.param("    loss = 0\n    for m in masks:\n        loss += weigh(m)\n", [], id="terms-of-unknown-kind"),
        pytest.param("    loss = []\n    for m in masks:\n        loss += [F.mse_loss(m, m.detach())]\n", [],
                     id="a-list-extended"),
        pytest.param("    loss = '0'\n    for m in masks:\n        loss += F.mse_loss(m, m.detach())\n", [],
                     id="started-at-a-string"),
    ],
)
def test_a_sum_a_function_of_another_module_starts_at_a_number_is_a_guess(cli, tmp_path, body, expected):
    (tmp_path / "penalties.py").write_text("import torch.nn.functional as F\n\ndef penalty(masks):\n" + body + "    return loss\n")
    (tmp_path / "fit.py").write_text(
        "import torch\nfrom penalties import penalty\n\nout = torch.sigmoid(torch.randn(2, 4, requires_grad=True))\n"
        "term = penalty([out])\nprint(term.data)\n"
    )
    assert _findings(cli, "fit.py") == expected
    before = (tmp_path / "fit.py").read_text()
    cli("check", "--no-cache", "--fix", "fit.py")
    assert (tmp_path / "fit.py").read_text() == before  # (a guess: no fix)


DETECTOR = (
    "import torch.nn as nn\n\nclass Detector(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
    "        self.head = nn.Linear(8, 4)\n\n    def forward(self, x):\n        return self.head(x).softmax(1), self.head(x)\n\n"
    "    def detect(self, x):\n        probs, boxes = CALL\n        return self.decode(probs)\n\n"
    "    def decode(self, probs):\n        return probs.data.max(1)\n"
)


@pytest.mark.parametrize(
    ("call", "expected"),
    [
        pytest.param("self(x)", [("TL001", 16)], id="called"),
        pytest.param("self.__call__(x)", [("TL001", 16)], id="dunder-call"),
        pytest.param("Detector.__call__(self, x)", [], id="through-the-class"),
        pytest.param("self.head.__call__(x), None", [("TL001", 16)], id="a-submodule-s-dunder-call"),
        pytest.param("str.__call__(x), None", [], id="a-builtin-class-s-dunder-call"),
        pytest.param("self.scorer.__call__(x)", [], id="an-attribute-of-unknown-kind"),
    ],
)
def test_calling_dunder_call_passes_what_calling_the_module_does(cli, tmp_path, call, expected):
    (tmp_path / "det.py").write_text(DETECTOR.replace("CALL", call))
    assert _findings(cli, ".") == expected


@pytest.mark.parametrize(("method", "expected"), [("query", []), ("_query", [("TL001", 8)])], ids=["public", "private"])
def test_in_an_installable_package_only_private_methods_take_their_callers_kinds(cli, tmp_path, method, expected):
    """Outside callers reach a public method through public subclasses and returned instances."""
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'pools'\nversion = '1'\n")
    (tmp_path / "pools").mkdir()
    (tmp_path / "pools" / "__init__.py").write_text("")
    (tmp_path / "pools" / "pool.py").write_text(POOL.replace("query", method))
    (tmp_path / "pools" / "run.py").write_text(TRAINER.replace("from pool", "from pools.pool").replace("query", method))
    assert _findings(cli, ".") == expected


@pytest.mark.parametrize(
    ("epoch", "expected"),
    [
        pytest.param("def epoch(step):\n    loss = step()\n    return loss\n", [("TL001", 3)], id="a-local-of-that-name"),
        pytest.param("def epoch(step):\n    global loss\n    keep = loss\n    loss = step()\n    return keep\n", [],
                     id="the-global-handed-on"),
    ],
)
def test_a_function_s_local_named_like_a_module_function_is_not_that_function(cli, tmp_path, epoch, expected):
    (tmp_path / "run.py").write_text(
        "import torch\ndef loss(p, crit):\n    return crit(p, p).data\ndef curve():\n"
        f"    return loss(torch.ones(1), torch.nn.MSELoss())\n{epoch}"
    )
    assert _findings(cli, ".") == expected


def test_a_data_parallel_subclass_of_another_file(cli, tmp_path):
    (tmp_path / "parallel.py").write_text(
        "from torch.nn.parallel import DataParallel\nclass BalancedDataParallel(DataParallel):\n    pass\n"
        "class DataParallelCriterion:\n    pass\n"
    )
    (tmp_path / "run.py").write_text(
        "import torch.nn as nn\nfrom parallel import BalancedDataParallel, DataParallelCriterion\n"
        "model = BalancedDataParallel(nn.Linear(2, 2))\ncriterion = DataParallelCriterion()\n"
    )
    assert _findings(cli, "run.py") == [("TL002", 3)]


def test_src_layout_and_relative_import(cli, tmp_path):
    (tmp_path / "pyproject.toml").write_text("")
    package = tmp_path / "src" / "proj"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "models.py").write_text("import torch.nn as nn\nclass Net(nn.Module):\n    pass\n")
    (package / "train.py").write_text("from .models import Net\nnet = Net()\nnet.forward(1)\n")
    (tmp_path / "main.py").write_text("from proj.models import Net\nnet = Net()\nnet.forward(1)\n")
    assert _findings(cli, ".") == [("TL005", 3), ("TL005", 3)]


def test_editing_the_imported_module_relints_the_importer(cli, tmp_path):
    _project(tmp_path)
    cache = ("--cache-dir", str(tmp_path / "cache"))
    first = cli("check", "--output-format", "json", *cache, "train.py")
    assert len(json.loads(first.output)) == 4
    (tmp_path / "pkg" / "models.py").write_text("class Net:\n    def forward(self, x):\n        return x\n")
    second = cli("check", "--output-format", "json", *cache, "train.py")
    assert {d["code"] for d in json.loads(second.output)} == {"TL001", "TL003"}  # no model: no TL004, no TL005


@pytest.mark.parametrize(
    "edit",
    [
        pytest.param("def other(): return build(Stats([0.0], 1))\n", id="a-new-call-passing-something-else"),
        pytest.param("def other(name): return globals()[name]\n", id="a-new-run-time-lookup"),
        pytest.param("hooks = [build]\n", id="the-function-handed-on"),
    ],
)
def test_a_call_site_added_in_another_file_relints_the_callee(cli, tmp_path, edit):
    """A finding resting on the calls of a function is stale once another file calls it too, even
    a file whose summary the finding did not read."""
    (tmp_path / "models.py").write_text(STATS)
    (tmp_path / "other.py").write_text("from models import build, Stats\n")
    cache = ("--cache-dir", str(tmp_path / "cache"))
    first = cli("check", "--output-format", "json", *cache, ".")
    assert [(d["code"], d["line"]) for d in json.loads(first.output)] == [("TL001", 5)]
    (tmp_path / "other.py").write_text("from models import build, Stats\n" + edit)
    second = cli("check", "--output-format", "json", *cache, ".")
    assert json.loads(second.output) == []


@pytest.mark.parametrize(
    ("init", "expected"),
    [
        pytest.param("", [("TL001", 5)], id="not-re-exported"),
        pytest.param("from .resnet import *\n", [], id="re-exported-by-a-star"),
        pytest.param("from .resnet import build\n", [], id="re-exported-by-name"),
    ],
)
def test_a_package_namespace_looked_up_by_name_reaches_what_it_re_exports(cli, tmp_path, init, expected):
    """`models.__dict__[arch](...)` on a package whose `__init__` re-exports its modules' names."""
    (tmp_path / "archs").mkdir()
    (tmp_path / "archs" / "__init__.py").write_text(init)
    (tmp_path / "archs" / "resnet.py").write_text(STATS)
    (tmp_path / "run.py").write_text(
        "import archs\nfrom archs.resnet import Stats\ndef main(name):\n    return archs.__dict__[name](Stats([0.0], 1))\n"
    )
    assert _findings(cli, ".") == expected


def test_a_cached_finding_resting_on_call_sites_is_checked_again_when_an_import_changes(cli, tmp_path):
    (tmp_path / "models.py").write_text(STATS)
    (tmp_path / "other.py").write_text("def build(s):\n    return s\n")
    (tmp_path / "caller.py").write_text("from models import Stats\nfrom other import build\nbuild(Stats([0.0], 1))\n")
    cache = ("--cache-dir", str(tmp_path / "cache"))
    first = cli("check", "--output-format", "json", *cache, ".")
    assert [(d["code"], d["line"]) for d in json.loads(first.output)] == [("TL001", 5)]
    (tmp_path / "caller.py").write_text("from models import Stats\nfrom models import build\nbuild(Stats([0.0], 1))\n")
    assert json.loads(cli("check", "--output-format", "json", *cache, ".").output) == []


def test_a_cached_finding_resting_on_call_sites_is_checked_again_when_the_project_becomes_installable(cli, tmp_path):
    """An installable package's public functions have callers the index cannot see."""
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("")
    (tmp_path / "pkg" / "models.py").write_text(STATS)
    cache = ("--cache-dir", str(tmp_path / "cache"))
    first = cli("check", "--output-format", "json", *cache, ".")
    assert [(d["code"], d["line"]) for d in json.loads(first.output)] == [("TL001", 5)]
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'pkg'\nversion = '1'\n")
    assert json.loads(cli("check", "--output-format", "json", *cache, ".").output) == []


def test_a_dataset_class_of_another_file_does_not_crash_the_rules_that_read_class_bodies(cli, tmp_path):
    (tmp_path / "data.py").write_text(
        "import numpy as np\nfrom torch.utils.data import Dataset\nclass DS(Dataset):\n"
        "    def __init__(self):\n        self.rng = np.random.RandomState(0)\n"
        "    def __getitem__(self, i):\n        return self.rng.rand()\n"
    )
    (tmp_path / "run.py").write_text("from torch.utils.data import DataLoader\nfrom data import DS\n"
                                     "loader = DataLoader(DS(), num_workers=4)\n")
    result = cli("check", "--no-cache", "--select", "ALL", "--preview", "--output-format", "json", "run.py")
    assert result.exit_code in (0, 1), result.output
    assert "internal error" not in result.output


def test_a_broken_configuration_in_another_folder_does_not_stop_the_run(cli, tmp_path):
    _project(tmp_path)
    (tmp_path / "scratch").mkdir()
    (tmp_path / "scratch" / "pyproject.toml").write_text("[tool.torchlint]\nselectt = ['TL001']\n")
    (tmp_path / "scratch" / "other.py").write_text("x = 1\n")
    # the index makes do with the named file: `Net` is unknown, `model` a module only by its use
    # (`.parameters()`), which reaches no call site of `train`
    assert _findings(cli, "train.py") == [("TL001", 7), ("TL003", 16), ("TL004", 24)]


def test_a_use_inside_a_match_case_is_judged(cli, tmp_path):
    (tmp_path / "save.py").write_text(
        "import torch\nimport torch.nn as nn\n\ndef save(mode):\n    model = nn.Linear(2, 2)\n"
        "    match mode:\n        case 'a':\n            torch.save(model, 'a.pt')\n"
        "        case _:\n            model.forward(torch.ones(1, 2))\n"
    )
    assert _findings(cli, "save.py") == [("TL004", 8), ("TL005", 10)]


def test_an_unchanged_project_reads_no_summary_until_one_is_needed(tmp_path):
    from torchlint.project.load import CACHED_FROM, build_projects

    project = tmp_path / "proj"
    (project / "pkg").mkdir(parents=True)
    (project / "pyproject.toml").write_text("")
    (project / "pkg" / "__init__.py").write_text("")
    (project / "pkg" / "models.py").write_text(MODELS)
    for n in range(CACHED_FROM):
        (project / f"m{n}.py").write_text(f"from pkg.models import Net\nnet{n} = Net()\n")
    files = sorted(project.rglob("*.py"))
    cache = tmp_path / "cache"

    def index():
        return next(iter(build_projects(files, lambda root: files, cache, 1).indexes.values()))

    first = index()
    second = index()
    assert second.digests == first.digests and second.files_digest == first.files_digest
    assert second.summaries._packed is None  # nothing read yet
    models = str((project / "pkg" / "models.py").resolve())
    assert second.summaries[models] == first.summaries[models]
    (project / "pkg" / "models.py").write_text(MODELS + "\nclass Other(nn.Module):\n    pass\n")
    third = index()
    assert "Other" in third.summaries[models].classes and third.digests[models] != first.digests[models]


def test_a_few_edited_files_go_to_a_journal_beside_the_index_cache(tmp_path, monkeypatch):
    """Editing a file of a large project rewrites a small journal, not the whole index cache; the
    journal is read with the cache, and folded into it once it grows past its limit."""
    from torchlint.project import load

    project = tmp_path / "proj"
    (project / "pkg").mkdir(parents=True)
    (project / "pyproject.toml").write_text("")
    (project / "pkg" / "models.py").write_text(MODELS)
    for n in range(load.CACHED_FROM):
        (project / f"m{n}.py").write_text(f"from pkg.models import Net\nnet{n} = Net()\n")
    files = sorted(project.rglob("*.py"))
    cache = tmp_path / "cache"

    def index():
        return next(iter(load.build_projects(files, lambda root: files, cache, 1).indexes.values()))

    index()
    cache_file = next(cache.rglob("index-*.pickle"))
    journal = cache_file.with_suffix(".journal")
    written = cache_file.read_bytes()
    models = str((project / "pkg" / "models.py").resolve())
    (project / "pkg" / "models.py").write_text(MODELS + "\nclass Other(nn.Module):\n    pass\n")
    assert "Other" in index().summaries[models].classes
    assert cache_file.read_bytes() == written and journal.exists()
    unchanged = index()  # nothing changed since: the edit is read from the journal
    assert unchanged.summaries._packed is None and "Other" in unchanged.summaries[models].classes
    monkeypatch.setattr(load, "JOURNAL_LIMIT", 1)
    (project / "m0.py").write_text("from pkg.models import Other\nnet = Other()\n")
    index()
    assert not journal.exists() and cache_file.read_bytes() != written
    folded = index()
    assert "Other" in folded.summaries[models].classes
    assert "Other" in folded.summaries[str((project / "m0.py").resolve())].imports


def test_index_paths_resolve_through_symlinked_folders_and_files(tmp_path):
    from torchlint.project.load import resolved_paths

    real = tmp_path / "real"
    (real / "pkg").mkdir(parents=True)
    (real / "pkg" / "models.py").write_text(MODELS)
    (tmp_path / "elsewhere.py").write_text("x = 1\n")
    (real / "linked.py").symlink_to(tmp_path / "elsewhere.py")
    (tmp_path / "view").symlink_to(real)
    paths = [tmp_path / "view" / "pkg" / "models.py", tmp_path / "view" / "linked.py", real / "pkg" / "models.py"]
    assert resolved_paths(paths) == {str(p.resolve()) for p in paths}
    assert resolved_paths(paths) == {str(real / "pkg" / "models.py"), str(tmp_path / "elsewhere.py")}


def test_a_symlinked_project_folder_lints_as_the_real_one(cli, tmp_path):
    real = tmp_path / "real"
    real.mkdir()
    _project(real)
    (tmp_path / "view").symlink_to(real)
    assert _findings(cli, "view") == EXPECTED
    assert _findings(cli, "view/train.py") == EXPECTED


def test_the_index_reuses_the_files_the_run_walked(tmp_path, monkeypatch):
    """A folder named on the command line is walked once: the index takes its files from that walk."""
    from torchlint.config import CliOverrides, ConfigResolver
    from torchlint.discovery import Discovery
    from torchlint.runner import build_run_projects

    _project(tmp_path)
    (tmp_path / "pyproject.toml").write_text("")
    monkeypatch.chdir(tmp_path)
    resolver = ConfigResolver(CliOverrides(), None, tmp_path)
    discovery = Discovery(resolver)
    files, _ = discovery.files([str(tmp_path)])
    walks = []
    monkeypatch.setattr(Discovery, "files", lambda self, arguments: walks.append(arguments) or ([], []))
    projects = build_run_projects(files, resolver, 1, None, tmp_path, discovery.walked)
    assert walks == []
    index = projects.for_file(tmp_path / "train.py")
    assert sorted(index.summaries) == sorted(str(p.resolve()) for p in (tmp_path / "pkg" / "__init__.py",
                                                                       tmp_path / "pkg" / "models.py", tmp_path / "train.py"))


def test_text_other_than_the_indexed_file_is_parsed_afresh(cli, tmp_path):
    """The index's outline of train.py describes the disk's text only: a different text under that
    name (an editor's buffer on stdin) is checked and outlined from itself, broken or not."""
    _project(tmp_path)
    broken = cli("check", "-", "--stdin-filename", "train.py", "--output-format", "json",
                 input=TRAIN.replace("import torch", "import torch(", 1))
    assert [d["code"] for d in json.loads(broken.output)] == ["TL000"]
    # Every line moved down by a function with a long body: the disk's outline would place the
    # bodies, and so the findings, wrongly.
    shifted = "def helper():\n" + "    value = 1\n" * 40 + "    return value\n\n\n" + TRAIN
    moved = cli("check", "-", "--stdin-filename", "train.py", "--output-format", "json", input=shifted)
    on_disk = _findings(cli, "train.py")
    assert sorted((d["code"], d["line"] - 44) for d in json.loads(moved.output)) == sorted(on_disk) != []


def test_a_file_is_parsed_by_cpython_once_by_the_index(cli, tmp_path, monkeypatch):
    """The index already parsed each module: the linter asks CPython again only for files the
    index found broken (still TL000); a file a rule may fire in is linted from the outline the
    index made of the same text."""
    import torchlint.engine

    _project(tmp_path)
    (tmp_path / "util.py").write_text("def add(a, b):\n    return a + b\n")
    (tmp_path / "broken.py").write_text("def f(:\n    pass\n")
    checked = []
    original = torchlint.engine._python_syntax_error
    monkeypatch.setattr(torchlint.engine, "_python_syntax_error",
                        lambda text, path: checked.append(Path(path).name) or original(text, path))
    result = cli("check", "--no-cache", "--output-format", "json", ".")
    found = sorted((Path(d["path"]).name, d["code"]) for d in json.loads(result.output))
    assert ("broken.py", "TL000") in found and ("train.py", "TL004") in found
    assert checked == ["broken.py"]


@pytest.mark.parametrize(("returned", "expected"), [("torch.stack(b), torch.zeros(1)", [("TL001", 6)]), ("b", [])],
                         ids=["tensors", "the-samples"])
def test_a_collate_function_of_another_module_types_the_batches(cli, tmp_path, returned, expected):
    (tmp_path / "data.py").write_text(f"import torch\ndef pad(b):\n    return {returned}\n")
    (tmp_path / "train.py").write_text(
        "from torch.utils.data import DataLoader\nfrom data import pad\ndef run(ds):\n"
        "    loader = DataLoader(ds, collate_fn=pad)\n    for xs, lens in loader:\n        print(lens.data)\n"
    )
    assert _findings(cli, ".") == expected


DECODER = (
    "import torch\nimport torch.nn as nn\nclass Decoder(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
    "        self.gru = nn.GRU(4, 4)\n        self.fc = nn.Linear(4, 4)\n    def forward(self, x, c=False):\n"
    "        out, h = self.gru(x)\n        out = out.squeeze(0)\n{last}        return out, h\n"
)


@pytest.mark.parametrize(
    ("last", "expected"),
    [
        pytest.param("        out = torch.log_softmax(self.fc(out), 1)\n", [("TL001", 8)], id="last-bound-to-a-tensor"),
        pytest.param("        out = torch.log_softmax(self.fc(out), 1)\n        if c:\n            out = out.tolist()\n", [],
                     id="rebound-on-a-branch"),
        pytest.param("", [], id="last-bound-to-a-gru-output-s-element"),
        pytest.param("        out = torch.log_softmax(self.fc(out), 1)\n        out, h = out, h\n", [], id="rebound-by-a-tuple-target"),
    ],
)
def test_a_submodule_s_tuple_output_is_its_last_values(cli, tmp_path, last, expected):
    """`return out, h`: each name by what it was last bound to before the return; `self.decoder(x)`
    on an attribute holding a project module is that module's forward."""
    (tmp_path / "decoder.py").write_text(DECODER.format(last=last))
    (tmp_path / "model.py").write_text(
        "import torch.nn as nn\nfrom decoder import Decoder\nclass Seq(nn.Module):\n    def __init__(self):\n"
        "        super().__init__()\n        self.decoder = Decoder()\n    def forward(self, x):\n"
        "        o, h = self.decoder(x)\n        return o.data\n"
    )
    assert _findings(cli, "model.py") == [(code, line + 1) for code, line in expected]


_INIT_PATHS = "import os.path as osp\nimport sys\nsys.path.insert(0, osp.join(osp.dirname(__file__), '..', 'lib'))\n"
_TRAIN_ON_LIB = "import _init_paths\nimport torch\nfrom model.nets.resnet import Net\nnet = Net(2, 2)\ny = net.forward(1)\n"


@pytest.mark.parametrize(
    ("layout", "expected"),
    [
        ({"lib/model/nets/resnet.py": "import torch.nn as nn\nclass Net(nn.Linear):\n    pass\n"}, [("TL005", 5)]),
        ({"lib/model/nets/resnet/__init__.py": "import torch.nn as nn\nclass Net(nn.Linear):\n    pass\n"}, [("TL005", 5)]),
        # two folders could be the one put on sys.path: which one is meant is not known
        ({"lib/model/nets/resnet.py": "import torch.nn as nn\nclass Net(nn.Linear):\n    pass\n",
          "old/model/nets/resnet.py": "class Net:\n    def forward(self, x):\n        return x\n"}, []),
        # the last names must match whole: `mymodel/nets` is not `model/nets`
        ({"lib/mymodel/nets/resnet.py": "import torch.nn as nn\nclass Net(nn.Linear):\n    pass\n"}, []),
        ({"lib/model/nets/resnet.py": "class Net:\n    def forward(self, x):\n        return x\n"}, []),
    ],
)
def test_a_module_found_on_a_folder_a_script_puts_on_sys_path(cli, tmp_path, layout, expected):
    """`import _init_paths` puts lib/ on sys.path, then `from model.nets.resnet import Net`: no
    standard folder resolves the import, and one project module's path ends with its names."""
    (tmp_path / "pyproject.toml").write_text("")
    (tmp_path / "tools").mkdir()
    (tmp_path / "tools" / "_init_paths.py").write_text(_INIT_PATHS)
    (tmp_path / "tools" / "train.py").write_text(_TRAIN_ON_LIB)
    for name, text in layout.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    assert _findings(cli, "tools/train.py") == expected


def test_a_single_name_is_not_looked_for_on_other_folders(cli, tmp_path):
    """`import config` could as well be an installed module: only the standard folders count."""
    (tmp_path / "pyproject.toml").write_text("")
    (tmp_path / "lib").mkdir()
    (tmp_path / "lib" / "resnet.py").write_text("import torch.nn as nn\nclass Net(nn.Linear):\n    pass\n")
    (tmp_path / "tools").mkdir()
    (tmp_path / "tools" / "train.py").write_text("import torch\nfrom resnet import Net\nnet = Net(2, 2)\ny = net.forward(1)\n")
    assert _findings(cli, "tools/train.py") == []


def test_a_function_rebinding_a_wide_value_keeps_its_summary_small():
    """`feats = [feats[0], ..., feats[7]]` again and again: read in order, the description would
    double in width each time; past a bound the assignment is described as written."""
    from torchlint.project.summary import summarize

    body = "".join("    feats = [" + ", ".join(f"feats[{i}]" for i in range(8)) + "]\n" for _ in range(12))
    summary = summarize("def f(feats):\n" + body + "    return feats\n", "f.py")
    [returned] = summary.functions["f"].returns
    assert len(repr(returned)) < 20_000


_DISP_MODELS = (
    "import torch.nn as nn\nclass DispNet(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
    "        self.a = nn.Conv2d(3, 1, 3)\n        self.b = nn.Conv2d(3, 1, 3)\n"
    "    def forward(self, x):\n        d1 = self.a(x)\n        if self.training:\n            return d1, SECOND\n"
    "        return d1\n"
)


@pytest.mark.parametrize(("second", "expected"), [
    ("self.b(x)", [("TL001", 5), ("TL001", 6)]),
    ("None", []),  # iterating may meet None
    ("self.b", []),
])
def test_a_model_of_another_module_returning_a_tensor_or_a_tuple_of_them(cli, tmp_path, second, expected):
    (tmp_path / "models.py").write_text(_DISP_MODELS.replace("SECOND", second))
    (tmp_path / "train.py").write_text(
        "import torch\nfrom models import DispNet\nnet = DispNet()\nfor d in net(torch.ones(1, 3, 8, 8)):\n"
        "    print(d.data)\n    print(d.data.abs())\n"
    )
    assert _findings(cli, "train.py") == expected


@pytest.mark.parametrize(("decorator", "call", "expected"), [
    ("@staticmethod", "Gan.loss(x, x)", [("TL001", 4)]),
    ("@staticmethod", "models.Gan.loss(x, x)", [("TL001", 4)]),
    ("", "Gan.loss(Gan(), x)", []),  # a method called through its class is handed its instance by the caller
    ("@classmethod", "Gan.loss(x)", []),
])
def test_a_static_method_of_another_module_called_through_its_class(cli, tmp_path, decorator, call, expected):
    (tmp_path / "models.py").write_text(
        "import torch\nimport torch.nn as nn\nclass Gan(nn.Module):\n    def forward(self, x):\n        return x\n"
        f"    {decorator}\n    def loss(a, b):\n        return torch.mean(b), nn.BCELoss()(b, b)\n"
    )
    (tmp_path / "train.py").write_text(
        f"import torch\nimport models\nfrom models import Gan\nx = torch.ones(2); nle, bce = {call}; print(bce.data)\n"
    )
    assert _findings(cli, "train.py") == expected


SEARCH_MODULE = (
    "import torch\nimport torch.nn as nn\n\nclass Search(nn.Module):\n"
    "    def __init__(self):\n        super().__init__()\n        self.alpha = nn.Parameter(torch.zeros(3))\n\n"
    "    def arch(self):\n        return [self.alpha]\n\n"
    "    def report(self):\n        for a in self.arch():\n            print(a.data)\n"
)


@pytest.mark.parametrize(
    ("subclass", "expected"),
    [
        pytest.param(None, [("TL001", 14)], id="no-subclass"),
        pytest.param("    def arch(self):\n        return [torch.ones(3, requires_grad=True)]\n", [("TL001", 14)],
                     id="override-returns-tensors"),
        pytest.param("    def arch(self):\n        return [np.zeros(3)]\n", [], id="override-returns-arrays"),
        pytest.param("    def arch(self):\n        return self.load()\n", [], id="override-returns-unknown"),
        pytest.param("    def step(self):\n        return 1\n", [("TL001", 14)], id="no-override"),
    ],
)
def test_a_method_on_self_answers_for_overrides_in_other_files(cli, tmp_path, subclass, expected):
    (tmp_path / "search.py").write_text(SEARCH_MODULE)
    if subclass is not None:
        (tmp_path / "frozen.py").write_text(
            f"import numpy as np\nimport torch\nfrom search import Search\n\nclass Frozen(Search):\n{subclass}"
        )
    assert _findings(cli, "search.py") == expected


def test_a_method_of_an_imported_class_answers_for_overrides_anywhere(cli, tmp_path):
    (tmp_path / "search.py").write_text(SEARCH_MODULE)
    (tmp_path / "run.py").write_text("from search import Search\n\nfor a in Search().arch():\n    print(a.data)\n")
    assert _findings(cli, "run.py") == [("TL001", 4)]
    (tmp_path / "frozen.py").write_text(
        "import numpy as np\nfrom search import Search\n\nclass Frozen(Search):\n"
        "    def arch(self):\n        return [np.zeros(3)]\n"
    )
    assert _findings(cli, "run.py") == []


def test_a_cached_result_is_redone_when_another_file_starts_overriding_the_method(cli, tmp_path):
    (tmp_path / "search.py").write_text(SEARCH_MODULE)
    frozen = tmp_path / "frozen.py"
    frozen.write_text("import numpy as np\nfrom search import Search\n\nclass Frozen(Search):\n    def step(self):\n        return 1\n")

    def cached_findings():
        result = cli("check", "--output-format", "json", "search.py")
        return [(d["code"], d["line"]) for d in json.loads(result.output)]

    assert cached_findings() == [("TL001", 14)]
    frozen.write_text("import numpy as np\nfrom search import Search\n\nclass Frozen(Search):\n"
                      "    def arch(self):\n        return [np.zeros(3)]\n")
    assert cached_findings() == []


@pytest.mark.parametrize(
    ("replicate", "call", "expected"),
    [
        pytest.param("from torch.nn.parallel.data_parallel import DataParallel\n\n"
                     "class DataParallelWithCallback(DataParallel):\n    pass\n",
                     "DataParallelWithCallback(model, device_ids=[0])", [("TL002", 5)], id="base-from-the-submodule"),
        pytest.param("import torch.nn as nn\n\nclass DataParallelWithCallback(nn.DataParallel):\n    pass\n",
                     "DataParallelWithCallback(model)", [("TL002", 5)], id="base-from-nn"),
        pytest.param("class DataParallelWithCallback:\n    def __init__(self, model):\n        self.model = model\n",
                     "DataParallelWithCallback(model)", [], id="not-a-data-parallel"),
        pytest.param("import torch.nn as nn\n\nclass DataParallelWithCallback(nn.DataParallel):\n    pass\n",
                     "isinstance(model, DataParallelWithCallback)", [], id="only-tested"),
    ],
)
def test_a_data_parallel_subclass_of_another_module(cli, tmp_path, replicate, call, expected):
    (tmp_path / "sync").mkdir()
    (tmp_path / "sync" / "__init__.py").write_text("from .replicate import DataParallelWithCallback\n")
    (tmp_path / "sync" / "replicate.py").write_text(replicate)
    (tmp_path / "train.py").write_text(
        f"import torch\nfrom sync import DataParallelWithCallback\n\ndef wrap(model):\n    return {call}\n"
    )
    assert _findings(cli, "train.py") == expected


TRAINER_MODULE = (
    "class Trainer:\n    def __init__(self, model, optimizer):\n        self.model = model\n        self.optimizer = optimizer\n\n"
    "    def step(self, x):\n        return self.model.forward(x)\n\n\n"
    "class SequenceTrainer(Trainer):\n    def train_step(self, x):\n        return self.model.forward(x)\n"
)


@pytest.mark.parametrize(
    ("more", "run", "expected"),
    [
        pytest.param("", "SequenceTrainer(model=model, optimizer=None)\nTrainer(model, None)\n",
                     [("TL005", 7), ("TL005", 12)], id="subclasses-inherit-the-constructor"),
        pytest.param("", "SequenceTrainer(model=model, optimizer=None)\nSequenceTrainer(model=[model], optimizer=None)\n",
                     [], id="one-call-passes-something-else"),
        pytest.param("\n\nclass Own(Trainer):\n    def __init__(self, model):\n        super().__init__(model.body, None)\n",
                     "SequenceTrainer(model=model, optimizer=None)\n", [], id="a-subclass-with-its-own-constructor"),
        pytest.param("\n\nclass Deeper(SequenceTrainer):\n    pass\n",
                     "SequenceTrainer(model, None)\nDeeper(model, None)\n", [("TL005", 7), ("TL005", 12)],
                     id="two-levels-down"),
        pytest.param("\n\nclass Deeper(SequenceTrainer):\n    pass\n",
                     "SequenceTrainer(model, None)\nmake(Deeper)\n", [], id="a-subclass-handed-on"),
        pytest.param("\n\nclass Mixin:\n    def __init__(self, model, optimizer):\n"
                     "        super().__init__([model], optimizer)\n\n\nclass Mixed(Mixin, Trainer):\n    pass\n",
                     "Mixed(model, None)\n", [], id="a-mixin-first"),
    ],
)
def test_a_constructor_inherited_by_subclasses_takes_what_their_calls_pass(cli, tmp_path, more, run, expected):
    (tmp_path / "trainer.py").write_text(TRAINER_MODULE + more)
    (tmp_path / "run.py").write_text(
        "import torch.nn as nn\nfrom trainer import *\n\nmodel = nn.Linear(2, 2)\n" + run
    )
    assert _findings(cli, "trainer.py") == expected


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        pytest.param("    mask = torch.zeros(2, 3)\n    mask = mask[idx]\n    if gpu:\n        mask = mask.cuda()\n",
                     [("TL001", 3)], id="rebound-from-itself-keeping-a-tensor"),
        pytest.param("    mask = torch.zeros(2, 3)\n    if gpu:\n        mask = mask.numpy()\n", [], id="rebound-to-an-array"),
        pytest.param("    mask = load(idx)\n    mask = mask[idx]\n", [], id="nothing-known-to-start-from"),
        pytest.param("    mask = torch.zeros(2, 3)\n    for i in idx:\n        mask = mask[i].tolist()\n", [],
                     id="made-into-a-list-in-a-loop"),
    ],
)
def test_a_local_of_another_module_rebound_from_itself(cli, tmp_path, body, expected):
    (tmp_path / "util.py").write_text(f"import torch\n\ndef batchify(gpu, idx):\n{body}    return mask, 1\n")
    (tmp_path / "run.py").write_text("from util import batchify\nm, n = batchify(True, 0)\nprint(m.data)\n")
    assert _findings(cli, "run.py") == expected


def test_require_grad_set_on_an_options_object_another_file_reads_is_not_a_typo(cli, tmp_path):
    (tmp_path / "config.py").write_text(
        "class Options:\n    def __init__(self):\n        self.require_grad = False\n\n"
        "def describe(opts):\n    return 'saliency' if opts.require_grad else 'plain'\n")
    (tmp_path / "train.py").write_text(
        "import torch\nfrom config import Options\nopts = Options()\nopts.require_grad = True\n"
        "labels = torch.tensor([0, 1])\nlabels.require_grad = False\n")
    assert _findings(cli, "--select", "TL729", "train.py") == [("TL729", 6)]



@pytest.mark.parametrize(
    ("default", "expected"),
    [
        pytest.param("None", [("TL001", 5)], id="none-is-neutral"),
        pytest.param("torch.zeros(1)", [("TL001", 5)], id="a-tensor"),
        pytest.param("EMPTY", [], id="another-kind-of-object"),
        pytest.param("0.0", [], id="a-number"),
    ],
)
def test_a_default_counts_where_a_caller_leaves_the_argument_out(cli, tmp_path, default, expected):
    (tmp_path / "utils.py").write_text(
        "import torch\nfrom torch.nn.utils.rnn import pack_sequence\nEMPTY = pack_sequence([torch.zeros(1)])\n"
        f"def count(seq={default}):\n    return seq.data\n")
    (tmp_path / "train.py").write_text("import torch\nfrom utils import count\ncount(torch.ones(4))\ncount()\n")
    assert _findings(cli, "--select", "TL001", "utils.py") == expected


STORE = ("import torch\nfrom torch.nn.utils.rnn import pack_sequence\n\nclass Store:\n    def __init__(self):\n"
         "        self.feats = torch.zeros(0)\n\n    def size(self):\n        return self.feats.data.numel()\n")


@pytest.mark.parametrize(
    ("subclass", "expected"),
    [
        pytest.param("    def __init__(self, seqs):\n        super().__init__()\n        self.feats = pack_sequence(seqs)\n",
                     [], id="assigned-another-kind"),
        pytest.param("    def __init__(self):\n        super().__init__()\n        self.feats = torch.ones(2)\n",
                     [("TL001", 9)], id="assigned-a-tensor-too"),
        pytest.param("    def other(self):\n        return 1\n", [("TL001", 9)], id="not-assigned"),
    ],
)
@pytest.mark.parametrize("elsewhere", [False, True], ids=["same-file", "another-file"])
def test_self_attributes_a_subclass_assigns_again(cli, tmp_path, subclass, expected, elsewhere):
    _after_a_module(tmp_path, "store", STORE, "from store import Store\n", "class Packed(Store):\n" + subclass, elsewhere)
    assert _findings(cli, "--select", "TL001", "store.py") == expected


def _after_a_module(tmp_path, name: str, module: str, importing: str, code: str, elsewhere: bool) -> None:
    """`code` after `module` in `<name>.py`, or in a module of its own that imports from it."""
    if elsewhere:
        (tmp_path / f"{name}.py").write_text(module)
        (tmp_path / "other.py").write_text("import torch\nfrom torch.nn.utils.rnn import pack_sequence\n" + importing + code)
    else:
        (tmp_path / f"{name}.py").write_text(module + "\n" + code)


SELF_CALLING_ENCODER = ("import torch.nn as nn\n\nclass Encoder(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
           "        self.fc = nn.Linear(3, 3)\n\n    def forward(self, x):\n        return self.fc(x)\n\n"
           "    def size(self, x):\n        return self(x).data.numel() + self.forward(x).data.numel()\n")


@pytest.mark.parametrize(
    ("forward", "expected"),
    [
        pytest.param("        return pack_sequence([self.fc(x)])\n", [], id="returning-another-kind"),
        pytest.param("        return torch.relu(x)\n", [("TL001", 12)], id="returning-a-tensor-too"),
    ],
)
def test_a_base_class_calling_itself_where_a_subclass_overrides_forward(cli, tmp_path, forward, expected):
    (tmp_path / "models.py").write_text(SELF_CALLING_ENCODER)
    (tmp_path / "packed.py").write_text("import torch\nfrom torch.nn.utils.rnn import pack_sequence\nfrom models import Encoder\n"
                                        "class PackedEncoder(Encoder):\n    def forward(self, x):\n" + forward)
    (tmp_path / "utils.py").write_text("from models import Encoder\ndef flat(model: Encoder, x):\n"
                                       "    return model(x).data\n")
    found = _findings(cli, "--select", "TL001", "models.py", "utils.py")
    assert sorted({f for f in found if f[1] == 12}) == expected
    assert [f for f in found if f[1] == 3] == []  # annotated: an instance of any subclass


@pytest.mark.parametrize(
    ("decorator", "expected"),
    [
        pytest.param("packed", [], id="a-decorator-of-the-project"),
        pytest.param("torch.no_grad()", [("TL001", 13)], id="torch-no-grad-passes-them-on"),
        pytest.param("functools.lru_cache", [("TL001", 13)], id="a-cache-passes-them-on"),
    ],
)
def test_a_decorated_function_takes_its_callers_kinds_only_through_known_decorators(cli, tmp_path, decorator, expected):
    (tmp_path / "utils.py").write_text(
        "import functools\nimport torch\nfrom torch.nn.utils.rnn import pack_sequence\n\n"
        "def packed(fn):\n    @functools.wraps(fn)\n    def inner(batch):\n        return fn(pack_sequence([batch]))\n    return inner\n\n"
        f"@{decorator}\ndef count(seq):\n    return seq.data.shape[0]\n")
    (tmp_path / "train.py").write_text("import torch\nfrom utils import count\ncount(torch.randn(3, 5))\n")
    assert _findings(cli, "--select", "TL001", "utils.py") == expected


def _notebook(*cells: str) -> str:
    return json.dumps({"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": [
        {"cell_type": "code", "id": f"c{i}", "metadata": {}, "execution_count": None, "outputs": [], "source": cell}
        for i, cell in enumerate(cells)]})


@pytest.mark.parametrize(
    ("caller", "expected"),
    [
        pytest.param(("analysis.ipynb", _notebook("%matplotlib inline\nimport numpy as np\nfrom utils import show",
                                                  "show(np.zeros(2))")), [], id="a-notebook-passing-an-array"),
        pytest.param(("analysis.ipynb", _notebook("import torch\nfrom utils import show", "show(torch.ones(2))")),
                     [("TL001", 2)], id="a-notebook-passing-a-tensor"),
        pytest.param(("evaluate", "#!/usr/bin/env python3\nimport numpy as np\nfrom utils import show\nshow(np.zeros(2))\n"),
                     [], id="a-script-without-a-suffix"),
    ],
)
def test_notebooks_and_scripts_without_a_suffix_are_callers_too(cli, tmp_path, caller, expected):
    (tmp_path / "pyproject.toml").write_text("")
    (tmp_path / "utils.py").write_text("def show(t):\n    return t.data\n")
    (tmp_path / "train.py").write_text("import torch\nfrom utils import show\nshow(torch.zeros(2))\n")
    name, text = caller
    (tmp_path / name).write_text(text)
    assert _findings(cli, "--select", "TL001", "utils.py") == expected
    assert _findings(cli, "--select", "TL001", ".") == expected  # (the notebook itself has nothing to report)


CACHE = ("import torch\nfrom torch.nn.utils.rnn import pack_sequence\n\nclass FeatureCache:\n    def __init__(self):\n"
         "        self.feats = torch.zeros(0)\n\n    def numel(self):\n        return self.feats.data.numel()\n")


@pytest.mark.parametrize(
    ("store", "expected"),
    [
        pytest.param("cache.feats = pack_sequence([torch.ones(3)])\n", [], id="another-kind-of-object"),
        pytest.param("cache.feats, n = pack_sequence([torch.ones(3)]), 1\n", [], id="in-a-tuple-target"),
        pytest.param("cache.feats = torch.ones(3)\n", [("TL001", 9)], id="a-tensor-too"),
        pytest.param("cache.other = pack_sequence([torch.ones(3)])\n", [("TL001", 9)], id="another-attribute"),
        pytest.param("cache.feats += 1\n", [("TL001", 9)], id="updated-in-place"),
    ],
)
@pytest.mark.parametrize("elsewhere", [False, True], ids=["same-file", "another-file"])
def test_an_attribute_assigned_from_outside_its_class(cli, tmp_path, store, expected, elsewhere):
    _after_a_module(tmp_path, "cache", CACHE, "from cache import FeatureCache\n", "cache = FeatureCache()\n" + store,
                    elsewhere)
    found = _findings(cli, "--select", "TL001", ".")
    assert [f for f in found if f[1] == 9] == expected


@pytest.mark.parametrize("body", [
    "if full:\n    ckpt['arch'] = model\n    torch.save(ckpt, 'f.pt')\nelse:\n    ckpt['state'] = model.state_dict()\n"
    "    torch.save(ckpt, 'l.pt')\n",
    "def save(full):\n    ckpt = {}\n    if full:\n        ckpt['arch'] = model\n        torch.save(ckpt, 'f.pt')\n"
    "        return\n    torch.save(ckpt, 'l.pt')\n",
])
def test_a_module_stored_in_a_dict_counts_only_for_the_saves_it_reaches(cli, tmp_path, body):
    """TL004: the save in the branch that stored the module, not the other one."""
    (tmp_path / "save.py").write_text(
        "import torch\nimport torch.nn as nn\nmodel = nn.Linear(2, 2)\nfull = True\nckpt = {}\n" + body
    )
    assert _findings(cli, "save.py") == [("TL004", 8 if body.startswith("if") else 10)]


CHOSEN_FUNCTION = (
    "import torch\nimport torch.nn as nn\n"
    "def generate(model, x):\n    out = model(x)\n    return out.data\n"
    "def acrostic(model, x):\n    out = model(x)\n    return out.data\n"
    "def run(kind):\n    model = nn.Linear(2, 2)\n    gen = acrostic if kind else generate\n    gen(model, torch.zeros(1, 1, 2))\n"
)


@pytest.mark.parametrize(("change", "expected"), [
    (("", ""), [("TL001", 5), ("TL001", 8)]),
    (("if kind else generate", "if kind else (generate)"), [("TL001", 5), ("TL001", 8)]),
    # the same name in another function is another variable
    (("def run(kind):", "def other():\n    gen = 'text'\n    return gen\ndef run(kind):"), [("TL001", 5), ("TL001", 8)]),
    # the alias handed on, bound again, or read other than as a callee: its callers are unknown
    (("    gen(model", "    hooks.append(gen)\n    gen(model"), []),
    (("    gen(model", "    gen = other\n    gen(model"), []),
    (("    gen(model, torch.zeros(1, 1, 2))\n", "    gen(model, torch.zeros(1, 1, 2))\n    return gen\n"), []),
    # read in a nested function too: that call is not seen as one of theirs
    (("    gen(model, torch.zeros(1, 1, 2))\n", "    gen(model, torch.zeros(1, 1, 2))\n    def again():\n"
      "        return gen(other)\n    again()\n"), []),
    # at module level, any function may read it
    (("def run(kind):\n    model = nn.Linear(2, 2)\n    gen =", "kind = 1\nmodel = nn.Linear(2, 2)\ngen ="), []),
])
def test_a_function_chosen_into_a_local_name_and_called(cli, tmp_path, change, expected):
    """`gen = acrostic if kind else generate; gen(model, x)`: a call of each (a nineteenth-round miss)."""
    source = CHOSEN_FUNCTION.replace(*change)
    if "gen = other" not in source and "kind = 1" in source:
        source = source.replace("    gen(model", "gen(model")
    (tmp_path / "poetry.py").write_text(source)
    assert _findings(cli, "poetry.py") == expected


COERCING_HELPERS = '''import numpy as np
import torch
from torch.autograd import Variable


def to_variable(var=(), cuda=True):
    out = []
    for v in var:
        if isinstance(v, np.ndarray):
            v = torch.from_numpy(v)
        if not isinstance(v, Variable):
            v = Variable(v)
        out.append(v)
    return out


def as_tensor(x):
    if not torch.is_tensor(x):
        x = torch.tensor(x)
    return x


def as_array(x):
    if not isinstance(x, np.ndarray):
        x = np.asarray(x)
    return x


def converted(x):
    if not isinstance(x, torch.Tensor):
        x = convert(x)
    return x


def own_test(x):
    if not tu.is_tensor(x):
        x = torch.tensor(x)
    return x


def loaded(x):
    if not torch.is_tensor(x):
        x = torch.load(x)
    return x
'''


@pytest.mark.parametrize(("use", "expected"), [
    ("x, y = to_variable((a, b))\n    return y.data\n", [("TL001", 4)]),
    ("t = as_tensor(a)\n    return t.data\n", [("TL001", 4)]),
    ("n = as_array(a)\n    return n.data\n", []),
    ("c = converted(a)\n    return c.data\n", []),
    # a test of the project's own (`tu.is_tensor` may accept anything): no narrowing
    ("o = own_test(a)\n    return o.data\n", []),
    # what a file held: a guess (the fix is not applied without asking)
    ("t = loaded(a)\n    return t.data\n", [("TL001", 4)]),
])
def test_a_helper_coercing_its_argument_to_a_tensor(cli, tmp_path, use, expected):
    """`if not isinstance(v, Variable): v = Variable(v)` in a helper of another file: what it
    returns (or appends to the list it returns) is a tensor (a nineteenth-round miss)."""
    (tmp_path / "helpers.py").write_text(COERCING_HELPERS)
    (tmp_path / "train.py").write_text("from helpers import *\ndef step(a, b):\n    " + use)
    assert _findings(cli, "--select", "TL001", "train.py") == expected


OPTIONAL_LAYERS = '''import torch.nn as nn


class Conv2d(nn.Module):
    def __init__(self, relu=True, bn=False):
        super().__init__()
        self.conv = nn.Conv2d(3, 1, 1)
        self.bn = nn.BatchNorm2d(1) if bn else None
        self.relu = nn.ReLU() if relu else None

    def forward(self, x):
        x = self.conv(x)
        if self.bn is not None:
            x = self.bn(x)
        if self.relu is not None:
            x = self.relu(x)
        return x


class Fused(nn.Module):
    def __init__(self):
        super().__init__()
        self.fuse = nn.Sequential(Conv2d())

    def forward(self, x):
        return self.fuse(x)


class Odd(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 1, 1)

    def forward(self, x):
        y = self.conv(x)
        if x is None:
            y = {"skipped": True}
        return y


class Packed(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 1, 1)

    def forward(self, x, lengths=None):
        y = self.conv(x)
        if lengths is not None:
            y = nn.utils.rnn.pack_padded_sequence(y, lengths)
            y = y.to(x.device)
        return y
'''


@pytest.mark.parametrize(("net", "expected"), [
    ("Fused", [("TL001", 3)]),
    ("Conv2d", [("TL001", 3)]),
    # one branch binds something else: what the module returns is not known
    ("Odd", []),
    # the block's last value reads what the block bound first (a PackedSequence)
    ("Packed", []),
])
def test_a_returned_name_an_if_without_else_may_bind_again(cli, tmp_path, net, expected):
    """`x = self.conv(x)`, `if self.bn is not None: x = self.bn(x)`, `return x` in another module:
    either value (a twentieth-round miss: a Sequential ending in such a layer)."""
    (tmp_path / "layers.py").write_text(OPTIONAL_LAYERS)
    (tmp_path / "train.py").write_text(f"from layers import {net}\nout = {net}()(None)\nprint(out.data)\n")
    assert _findings(cli, "--select", "TL001", "train.py") == expected


CLOSURE_EXTRACTOR = '''class ExtractFeature(object):
    def __init__(self, model):
        self.model = model

    def __call__(self, ims):
        feat = self.model(ims)
        return feat.data
'''

CLOSURE_MAIN = '''import torch
import torch.nn as nn
from extract import ExtractFeature


def main(flag):
    model_w = nn.DataParallel(nn.Linear(4, 2))
    OTHER

    def test():
        extractor = ExtractFeature(model_w)
        return extractor(torch.zeros(1, 4))

    return test()
'''


@pytest.mark.parametrize(("other", "expected"), [
    ("pass", [("TL001", 7)]),
    # the enclosing function binds it to something else too: not known
    ("if flag:\n        model_w = 'cpu'", []),
    # a `nonlocal` may rebind it out of sight: not read
    ("def reset():\n        nonlocal model_w\n        model_w = None", []),
])
def test_a_nested_function_passes_a_local_of_the_function_around_it(cli, tmp_path, other, expected):
    """`def main(): model_w = DataParallel(model)`, `def test(): ExtractFeature(model_w)`: the
    constructor's callers pass the enclosing function's local (a twentieth-round miss)."""
    (tmp_path / "extract.py").write_text(CLOSURE_EXTRACTOR)
    (tmp_path / "train.py").write_text(CLOSURE_MAIN.replace("OTHER", other))
    assert _findings(cli, "--select", "TL001", ".") == expected


DECORATORS = '''import torch.nn as nn
REGISTRY = {}


def register(cls):
    REGISTRY[cls.__name__] = cls
    return cls


def singleton(cls):
    return cls()


def register_as(name):
    def keep(cls):
        REGISTRY[name] = cls
        return cls
    return keep


def instantiate(*args):
    def build(cls):
        return cls(*args)
    return build


@DECORATOR
class Net(nn.Module):
    def forward(self, x):
        return x
'''

DECORATED_MAIN = '''import torch
from models import Net

x = torch.randn(2)
net = Net()
print(net.forward(x))
'''


@pytest.mark.parametrize(("decorator", "fix"), [
    ("register", "safe"),  # gives the class back: its instances are modules, the fix proven
    ("dataclasses.dataclass", "safe"),
    ("register_as('net')", "safe"),  # the decorator its factory returns gives the class back
    ("instantiate(3)", "silent"),  # the decorator its factory returns builds an instance
    ("patched", None),  # gives the class back, but the project assigns a `__call__`: no fix
    ("REGISTRY.setdefault", None),  # not a function of the project: reported, no fix
    ("singleton", "silent"),  # `Net` is the instance: `Net()` is what its forward returns
])
def test_a_decorated_class_of_another_module(cli, tmp_path, decorator, fix):
    """`@singleton class Net(nn.Module)` binds `Net` to what the decorator returns: calling it is
    not building a module; a decorator the index cannot read may have replaced the class."""
    models = DECORATORS.replace("DECORATOR", decorator)
    if decorator == "patched":
        models = models.replace("\n\n@patched", "\n\ndef patched(cls):\n    setattr(cls, '__call__', lambda self, x: x)\n"
                                "    return cls\n\n\n@patched")
    if decorator.startswith("dataclasses"):
        models = "import dataclasses\n" + models
    (tmp_path / "models.py").write_text(models)
    (tmp_path / "train.py").write_text(DECORATED_MAIN)
    result = cli("check", "--no-cache", "--select", "TL005", "--output-format", "json", "train.py")
    found = json.loads(result.output)
    if fix == "silent":
        assert found == []
    else:
        assert [(d["line"], (d.get("fix") or {}).get("applicability")) for d in found] == [(6, fix)]


MICROGRAD_ENGINE = '''class Value:
    def __init__(self, data):
        self.data = data
        self.grad = 0.0


class Neuron:
    def __init__(self, n):
        self.w = [Value(1.0) for _ in range(n)]

    def parameters(self):
        return self.w
'''

MICROGRAD_MAIN = '''import torch.nn as nn
from engine import Neuron


def snapshot(model):
    return [p.data for p in model.parameters()]


def step(model):
    for p in model.parameters():
        p.data -= 0.1 * p.grad


snapshot(FIRST)
step(FIRST)
snapshot(nn.Linear(3, 1))
step(nn.Linear(3, 1))
'''


@pytest.mark.parametrize(("first", "expected"), [
    ("nn.Linear(2, 1)", [("TL001", 6), ("TL001", 11)]),
    # a micrograd-style class of the project with a `parameters()` of its own at one call site:
    # what the loops yield may be its values, whose `.data` is a float and `.grad` its own
    ("Neuron(3)", []),
])
def test_parameters_of_a_non_module_beside_a_module(cli, tmp_path, first, expected):
    (tmp_path / "engine.py").write_text(MICROGRAD_ENGINE)
    (tmp_path / "train.py").write_text(MICROGRAD_MAIN.replace("FIRST", first))
    assert _findings(cli, "--select", "TL001", ".") == expected


NAMESPACE_RESNET = '''import torch.nn as nn

__all__ = ["ResNet", "resnet18"]


def conv3x3(a, b):
    return nn.Conv2d(a, b, 3)


class ResNet(nn.Module):
    def __init__(self, n=10):
        super().__init__()
        self.fc = nn.Linear(4, n)

    def forward(self, x):
        return self.fc(x)


def resnet18(**kw):
    return ResNet(**kw)
'''

NAMESPACE_MAIN = '''import torch
import models


def train(model, x):
    out = model(x)
    print(out.data)
    return model.forward(x)


def main(arch):
    model = LOOKUP()
    train(model, torch.randn(2, 4))
'''


@pytest.mark.parametrize(("lookup", "other", "expected"), [
    ("models.__dict__[arch]", "", [("TL001", 7), ("TL005", 8)]),
    ("getattr(models, arch)", "", [("TL001", 7), ("TL005", 8)]),
    # a helper function offering something else is not what the name picks
    ("getattr(models, arch)", "def load_url(url):\n    return {}\n", [("TL001", 7), ("TL005", 8)]),
    # a class of the namespace that is no module, or of a base not seen: any may be built
    ("getattr(models, arch)", "class Config:\n    pass\n", []),
    ("getattr(models, arch)", "import somelib\nclass Wrapped(somelib.Base):\n    pass\n", []),
    # a module of the project offering no class: nothing known
    ("getattr(models.helpers, arch)", "", []),
    # a star import of a module the project does not hold: it may offer anything
    ("getattr(models, arch)", "from somelib.models import *\n", []),
    # a function known to build something else, or a non-module class bound to a name
    ("getattr(models, arch)", "class KNN:\n    def forward(self, x):\n        return x\ndef knn():\n    return KNN()\n"
     "__all__ = ['knn']\n", []),
    ("getattr(models, arch)", "class Mean:\n    def forward(self, x):\n        return x\nmean_baseline = Mean\n"
     "del Mean\n", []),
    # a fallback the name may give instead
    ("getattr(models, arch, torch.nn.Identity)", "", []),
])
def test_a_model_built_by_a_name_looked_up_in_a_module_of_the_project(cli, tmp_path, lookup, other, expected):
    """`models.__dict__[args.arch]()` and `getattr(models, args.arch)()` over a models package
    (star imports, `__all__`): a module when every class it offers is one (fixes withheld where
    they rest on the class: TL005 unsafe); its output when their forwards agree."""
    (tmp_path / "models").mkdir()
    (tmp_path / "models" / "__init__.py").write_text("from .resnet import *\nfrom .vgg import *\n")
    (tmp_path / "models" / "resnet.py").write_text(NAMESPACE_RESNET)
    (tmp_path / "models" / "vgg.py").write_text("import torch.nn as nn\n" + other)
    (tmp_path / "models" / "helpers.py").write_text("def load_url(url):\n    return {}\n")
    (tmp_path / "train.py").write_text(NAMESPACE_MAIN.replace("LOOKUP", lookup))
    assert _findings(cli, "--select", "TL001,TL005", ".") == expected
    found = json.loads(cli("check", "--no-cache", "--select", "TL005", "--output-format", "json", ".").output)
    assert all(d["fix"]["applicability"] == "unsafe" for d in found)


def _resnet_package(tmp_path):
    """A models package whose `__init__` star-imports a module of one nn.Module class and its factory."""
    (tmp_path / "models").mkdir()
    (tmp_path / "models" / "__init__.py").write_text("from .resnet import *\n")
    (tmp_path / "models" / "resnet.py").write_text(NAMESPACE_RESNET)


@pytest.mark.parametrize("lookup", ["models.__dict__[arch]", "getattr(models, arch)"])
def test_a_class_looked_up_in_a_module_of_the_project_then_called(cli, tmp_path, lookup):
    """`model = models.__dict__[args.model]`, then `model = model(**cfg)`: the call builds one of
    the namespace's modules (BinaryNet's main)."""
    _resnet_package(tmp_path)
    main = NAMESPACE_MAIN.replace("    model = LOOKUP()\n", f"    model = {lookup}\n    model = model(n=3)\n")
    (tmp_path / "train.py").write_text(main)
    assert _findings(cli, "--select", "TL001,TL005", ".") == [("TL001", 7), ("TL005", 8)]


def test_a_class_looked_up_in_a_module_of_the_project_is_called_in_the_same_function(cli, tmp_path):
    _resnet_package(tmp_path)
    (tmp_path / "train.py").write_text(
        "import torch\nimport models\n\n\ndef main(arch, x):\n    cls = models.__dict__[arch]\n    net = cls(n=3)\n"
        "    print(net.forward(x).data)\n    other = getattr(models, arch)\n    print(other().forward(x))\n"
        "    print(models.__dict__[arch].forward(net, x))\n")
    assert _findings(cli, "--select", "TL001,TL005", ".") == [("TL001", 8), ("TL005", 8), ("TL005", 10)]


@pytest.mark.parametrize(("returned", "expected"), [
    ("sum([MSE(x, y) for x, y in zip(a, b)])", [("TL001", 5)]),
    ("sum(len(x) for x in a)", []),
])
def test_a_helper_returning_the_builtin_sum_of_loss_outputs(cli, tmp_path, returned, expected):
    (tmp_path / "losses.py").write_text(
        f"import torch.nn as nn\nMSE = nn.MSELoss()\n\n\ndef perceptual(a, b):\n    return {returned}\n")
    (tmp_path / "train.py").write_text(
        "import torch\nfrom losses import perceptual\n\nloss = perceptual([torch.ones(2)], [torch.zeros(2)])\n"
        "print(loss.data)\n")
    assert _findings(cli, "--select", "TL001", ".") == expected


def test_a_parameter_named_like_a_models_module_is_not_that_module(cli, tmp_path):
    _resnet_package(tmp_path)
    (tmp_path / "train.py").write_text(
        "import torch\nimport models\n\n\ndef build(models, name, x):\n    net = getattr(models, name)()\n"
        "    return net(x).data\n")
    assert _findings(cli, "--select", "TL001", ".") == []


@pytest.mark.parametrize(("signature", "imported", "expected"), [
    # micrograd's, imported here: the unknown `model` may be one of these
    ("def parameters(self):", "from engine import Neuron", []),
    # a callback's, given the net: not nn.Module's shape
    ("def parameters(self, net):", "from engine import Neuron", [("TL001", 5)]),
    # defined far away and not known to this file (a framework's other corner): not taken to be
    ("def parameters(self):", "import os", [("TL001", 5)]),
])
def test_parameters_of_unknown_kind_where_the_project_defines_its_own(cli, tmp_path, signature, imported, expected):
    (tmp_path / "engine.py").write_text(MICROGRAD_ENGINE.replace("def parameters(self):", signature))
    (tmp_path / "train.py").write_text(
        f"import torch\n{imported}\n\ndef snapshot(model):\n    return [p.data for p in model.parameters()]\n")
    assert _findings(cli, "--select", "TL001", ".") == expected


@pytest.mark.parametrize(
    ("returned", "expected"),
    [
        pytest.param("torch.max(0.9 - v, zero)", [("TL001", 3)], id="against-a-tensor"),
        pytest.param("torch.min(v, other=zero)", [("TL001", 3)], id="other-by-keyword"),
        pytest.param("torch.max(v, 1)", [], id="along-a-dim"),
        pytest.param("torch.max(v, scale)", [], id="against-a-parameter"),
    ],
)
def test_torch_max_of_two_tensors_returned_from_another_module(cli, tmp_path, returned, expected):
    (tmp_path / "losses.py").write_text("import torch\n\ndef margin(x, scale):\n    v = torch.sqrt(x)\n"
                                        f"    zero = torch.zeros(1)\n    return {returned}\n")
    (tmp_path / "train.py").write_text("from losses import margin\ndef log(x):\n    print(margin(x, 2).data)\n")
    assert _findings(cli, "--select", "TL001", "train.py") == expected


@pytest.mark.parametrize(
    ("models", "expected"),
    [
        pytest.param("class Encoder(nn.Module):\n    def forward(self, x):\n        return torch.tanh(x)\n",
                     [("TL001", 4)], id="no-module-packs"),
        pytest.param("from torch.nn.utils.rnn import pack_sequence\n"
                     "class Encoder(nn.Module):\n    def forward(self, x):\n        return pack_sequence([x])\n",
                     [], id="a-module-packs-sequences"),
    ],
)
def test_the_output_of_a_module_known_by_its_use_where_the_project_packs_sequences(cli, tmp_path, models, expected):
    (tmp_path / "models.py").write_text("import torch\nimport torch.nn as nn\n" + models)
    (tmp_path / "engine.py").write_text("import torch\ndef feats(model, x):\n"
                                        "    opt = torch.optim.SGD(model.parameters(), lr=0.1)\n    return model(x).data\n")
    (tmp_path / "train.py").write_text("import functools\nimport torch\nfrom models import Encoder\nfrom engine import feats\n"
                                       "hooks = {'feats': functools.partial(feats, Encoder())}\n")
    assert _findings(cli, "--select", "TL001", "engine.py") == expected


SUM_FROM_A_NUMBER = (
    "import torch\nfrom torch.nn.modules.loss import _Loss\n\n\ndef l1(a, b, mask):\n    loss = 0\n"
    "    for i in range(a.shape[0]):\n        if mask[i].sum() > 0:\n            loss = GROWTH\n"
    "    loss = loss / a.shape[0]\n    return loss\n\n\nclass L1(_Loss):\n    def forward(self, a, b, mask):\n"
    "        return l1(a, b, mask)\n"
)


@pytest.mark.parametrize(("growth", "expected"), [
    ("loss + torch.sum(torch.abs(a[i] - b[i]))", [(4, "unsafe"), (5, "unsafe")]),
    ("torch.sum(a[i]) + loss", [(4, "unsafe"), (5, "unsafe")]),
    ("loss + 1", []),  # only numbers: never a tensor
    ("loss + helper(a[i])", []),  # grown by what the linter cannot read
    ("loss + a[i].sum().item()", []),  # grown by numbers taken out of tensors
])
def test_a_sum_started_at_a_number_in_another_module(cli, tmp_path, growth, expected):
    """`loss = 0`, then `loss = loss + torch.sum(d)` under a condition, returned: a tensor where
    `.data` is read on what the function (or a loss module's forward calling it) returns, but a
    guess, since the sum may still be the number (a twenty-fourth-round miss: Background-Matting's
    `alL += al_loss.data`)."""
    (tmp_path / "losses.py").write_text(SUM_FROM_A_NUMBER.replace("GROWTH", growth))
    (tmp_path / "train.py").write_text(
        "import torch\nfrom losses import L1, l1\na = torch.randn(2, 3)\nprint(l1(a, a, a).data)\n"
        "print(L1()(a, a, a).data)\n")
    result = cli("check", "--no-cache", "--select", "TL001", "--output-format", "json", "train.py")
    found = json.loads(result.output)
    assert [(d["line"], (d.get("fix") or {}).get("applicability")) for d in found] == expected


METER = ("class AverageMeter:\n    def __init__(self):\n        self.sum, self.count = 0, 0\n\n"
         "    def update(self, val, n=1):\n        self.val = val\n        self.sum += KEPT * n\n        self.count += n\n")


@pytest.mark.parametrize(("kept", "expected"), [
    ("val", [(12, "unsafe")]),
    ("val.item()", []),
    ("float(val)", []),
])
def test_a_meter_of_another_module_keeping_the_loss(cli, tmp_path, kept, expected):
    """`losses.update(loss, n)` with the project's `AverageMeter.update` summing what it is given
    (twenty-fourth-round misses: ProxylessNAS's meters)."""
    (tmp_path / "utils.py").write_text(METER.replace("KEPT", kept))
    (tmp_path / "train.py").write_text(
        "import torch\nimport torch.nn as nn\nfrom utils import AverageMeter\n\nmodel = nn.Linear(4, 2)\n"
        "criterion = nn.CrossEntropyLoss()\nlosses = AverageMeter()\nfor x, y in [(torch.randn(8, 4), torch.zeros(8).long())]:\n"
        "    loss = criterion(model(x), y)\n    loss.backward()\n    print(loss)\n    losses.update(loss, x.size(0))\n")
    result = cli("check", "--no-cache", "--select", "TL003", "--output-format", "json", "train.py")
    assert [(d["line"], (d.get("fix") or {}).get("applicability")) for d in json.loads(result.output)] == expected


@pytest.mark.parametrize(("base", "expected"), [
    ("import torch.nn as nn\n\n\nclass MyModule(nn.Module):\n    pass\n", [("TL005", 7)]),
    ("class MyModule:\n    def forward(self, x):\n        return x\n", []),  # not a module
])
def test_a_base_class_star_imported_from_a_package_in_a_folder_above(cli, tmp_path, base, expected):
    """search/modules/layers.py does `from utils import *`, search/utils/ re-exports by star
    imports: the scripts run from search/, which Python puts on its path (twenty-fourth-round
    misses: ProxylessNAS's layers)."""
    (tmp_path / "search" / "utils").mkdir(parents=True)
    (tmp_path / "search" / "modules").mkdir()
    (tmp_path / "search" / "utils" / "__init__.py").write_text("from utils.missing import *\nfrom utils.my_modules import *\n")
    (tmp_path / "search" / "utils" / "my_modules.py").write_text(base)
    (tmp_path / "search" / "modules" / "layers.py").write_text(
        "from utils import *\n\n\nclass Layer(MyModule):\n    def flops(self, x):\n"
        "        y = 2\n        return y, self.forward(x)\n")
    assert _findings(cli, "--select", "TL005", ".") == expected


@pytest.mark.parametrize(("name", "expected"), [
    ("helpers", [("TL005", 3)]),
    ("logging", []),  # the standard library's, even where the project has a module of that name
    ("torch", []),
    ("lib", []),
])
def test_an_import_found_in_a_folder_above_the_module(cli, tmp_path, name, expected):
    (tmp_path / "app" / "jobs").mkdir(parents=True)
    (tmp_path / "app" / f"{name}.py").write_text("import torch.nn as nn\nnet = nn.Linear(2, 2)\n")
    if name == "lib":  # a second module of that name: which one a `sys.path` entry picks is not known
        (tmp_path / "vendor").mkdir()
        (tmp_path / "vendor" / "lib.py").write_text("net = None\n")
    (tmp_path / "app" / "jobs" / "run.py").write_text(f"from {name} import net\n\nout = net.forward(1)\n")
    assert _findings(cli, "--select", "TL005", ".") == expected


@pytest.mark.parametrize(("order", "expected"), [
    ("from layers import *\nfrom compat import *\n", []),  # the last star import's plain class
    ("from compat import *\nfrom layers import *\n", [("TL005", 7)]),
])
def test_the_last_star_import_binding_a_name_wins(cli, tmp_path, order, expected):
    (tmp_path / "layers.py").write_text("import torch.nn as nn\n\n\nclass MyModule(nn.Module):\n    pass\n")
    (tmp_path / "compat.py").write_text("class MyModule:\n    def forward(self, x):\n        return x\n")
    (tmp_path / "model.py").write_text(order + "\n\nclass Edge(MyModule):\n    def extra(self, x):\n"
                                       "        return self.forward(x)\n")
    assert _findings(cli, "--select", "TL005", "model.py") == expected


@pytest.mark.parametrize(("base_file", "expected"), [
    ("import torch.nn as nn\nclass CaptionModel(nn.Module):\n    pass\n", [("TL001", 10)]),
    # the base of another file sets it, or cannot be read: nothing said
    ("import torch.nn as nn\nclass CaptionModel(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
     "        self.core = make_core()\n", []),
    ("from lib import Base\nclass CaptionModel(Base):\n    pass\n", []),
])
def test_an_attribute_only_subclasses_of_another_file_set(cli, tmp_path, monkeypatch, base_file, expected):
    (tmp_path / "pyproject.toml").write_text("")
    (tmp_path / "caption.py").write_text(base_file)
    (tmp_path / "model.py").write_text(
        "import torch\nimport torch.nn as nn\nfrom caption import CaptionModel\n\n"
        "class AttModel(CaptionModel):\n    def __init__(self):\n        super().__init__()\n        self.fc = nn.Linear(8, 8)\n"
        "    def sample(self, x):\n        return torch.max(self.core(self.fc(x)).data, 1)\n")
    (tmp_path / "topdown.py").write_text(
        "import torch\nimport torch.nn as nn\nfrom model import AttModel\n\n"
        "class Core(nn.Module):\n    def forward(self, x):\n        return torch.relu(x)\n\n"
        "class TopDown(AttModel):\n    def __init__(self):\n        super().__init__()\n        self.core = Core()\n")
    monkeypatch.chdir(tmp_path)
    assert _findings(cli, "model.py") == expected


BATCH_HELPER = "def psnr(img, clean):\n    return clean.data.cpu().numpy()\n"
BATCH_LOOP = (
    "import torch\nfrom torch.utils.data import DataLoader\nfrom tqdm import tqdm\nimport utils\n\n\n"
    "def run(ds, masks, phase, names):\n    loader = DataLoader(ds, batch_size=4)\n"
)


@pytest.mark.parametrize(("loop", "expected"), [
    pytest.param("    for i, (x, y) in enumerate(loader):\n        utils.psnr(x, y)\n", [("TL001", 2)], id="enumerate"),
    pytest.param("    for (x, y), m in zip(loader, masks):\n        utils.psnr(x, y)\n", [("TL001", 2)], id="zip-first"),
    pytest.param("    for m, (x, y) in zip(masks, loader):\n        utils.psnr(x, y)\n", [("TL001", 2)], id="zip-later-iterable"),
    pytest.param("    for batch in tqdm(loader):\n        x, y = batch\n        utils.psnr(x, y)\n", [("TL001", 2)],
                 id="progress-bar"),
    pytest.param("    for i, batch in enumerate(loader):\n        x, y = [t.cuda() for t in batch]\n        utils.psnr(x, y)\n",
                 [("TL001", 2)], id="comprehension-unpacked"),
    pytest.param("    loaders = {p: DataLoader(ds, batch_size=4) for p in ('train', 'val')}\n"
                 "    for x, y in loaders[phase]:\n        utils.psnr(x, y)\n", [("TL001", 2)], id="loaders-by-phase"),
    # look-alikes: what the loop does not show stays unknown
    pytest.param("    for (x, y), b in zip(masks, loader):\n        utils.psnr(x, y)\n", [], id="zip-unknown-first-iterable"),
    pytest.param("    for i, (x, y) in enumerate(loader):\n        utils.psnr(y, i)\n", [], id="enumerate-counter"),
    pytest.param("    for i, batch in enumerate(loader):\n        x, y = [float(t) for t in batch]\n        utils.psnr(x, y)\n",
                 [], id="comprehension-of-numbers"),
    pytest.param("    for batch in loader:\n        x, y = [t for n in names for t in n]\n        utils.psnr(x, y)\n",
                 [], id="comprehension-over-a-later-loop"),
    pytest.param("    for batch in loader:\n        x, y = [t for t in batch for t in names]\n        utils.psnr(x, y)\n",
                 [], id="loop-variable-bound-again"),
    pytest.param("    loaders = {p: 0 for p in ('train', 'val')}\n    utils.psnr(1, loaders[phase])\n", [],
                 id="dict-comprehension-of-numbers"),
    pytest.param("    loaders = {p: DataLoader(ds, batch_size=4) for p in ('train', 'val')}\n"
                 "    for name in loaders:\n        utils.psnr(name, name)\n", [], id="dict-comprehension-iterated"),
])
def test_a_batch_passed_to_a_function_of_another_module(cli, tmp_path, loop, expected):
    """The index reads loops over `enumerate`, `zip` (its first iterable) and progress bars as
    the file's own oracle does, comprehensions' first loop variables as elements of their
    iterable, and dict comprehensions as mappings of their value."""
    (tmp_path / "utils.py").write_text(BATCH_HELPER)
    (tmp_path / "train.py").write_text(BATCH_LOOP + loop)
    assert _findings(cli, ".") == expected


def test_a_project_function_named_enumerate_is_not_the_builtin(cli, tmp_path):
    (tmp_path / "utils.py").write_text(BATCH_HELPER)
    (tmp_path / "train.py").write_text(
        BATCH_LOOP.replace("import utils\n", "import utils\n\n\ndef enumerate(items):\n    return [(0, len(b)) for b in items]\n")
        + "    for i, (x, y) in enumerate(loader):\n        utils.psnr(x, y)\n"
    )
    assert _findings(cli, ".") == []



def _saved_decoder_findings(cli, tmp_path, train):
    """The findings of `train` beside a `save_checkpoint` that saves what it is given in a dict."""
    (tmp_path / "utils.py").write_text(
        "import torch\n\n\ndef save_checkpoint(decoder):\n    torch.save({'decoder': decoder}, 'ckpt.pt')\n")
    (tmp_path / "train.py").write_text(train)
    return _findings(cli, ".")


RESUMED_SAVE = (
    "import torch\nimport torch.nn as nn\nfrom utils import save_checkpoint\n\n\n"
    "class Decoder(nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.fc = nn.Linear(4, 4)\n\n\n"
    "def main(checkpoint):\n    if checkpoint is None:\n        decoder = Decoder()\n    else:\n"
    "        checkpoint = torch.load(checkpoint)\n        decoder = checkpoint['decoder']\n"
    "    save_checkpoint(decoder)\n"
)


@pytest.mark.parametrize(("change", "expected"), [
    pytest.param(("", ""), [("TL004", 5)], id="built-or-loaded"),
    # look-alikes: what the other branch holds decides
    pytest.param(("decoder = Decoder()\n", "decoder = Decoder().state_dict()\n"), [], id="a-state-dict-or-loaded"),
    pytest.param(("checkpoint['decoder']", "checkpoint['decoder'].state_dict()"), [], id="built-or-a-loaded-state"),
    pytest.param(("        checkpoint = torch.load(checkpoint)\n", ""), [], id="a-parameter-of-unknown-kind"),
])
def test_a_local_read_from_a_name_bound_again_before_it(cli, tmp_path, change, expected):
    """`checkpoint = torch.load(checkpoint)`, then `decoder = checkpoint['decoder']`: the index
    reads `checkpoint` there as what was loaded (the statement before it in the same block), not
    as every value the name takes (the parameter too), as the file's own oracle does."""
    assert _saved_decoder_findings(cli, tmp_path, RESUMED_SAVE.replace(*change)) == expected


GLOBAL_RESUMED_SAVE = (
    "import torch\nimport torch.nn as nn\nfrom utils import save_checkpoint\n\ncheckpoint = None\n\n\n"
    "class Decoder(nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.fc = nn.Linear(4, 4)\n\n\n"
    "def main():\n    global checkpoint\n    if checkpoint is None:\n        decoder = Decoder()\n    else:\n"
    "        checkpoint = torch.load(checkpoint)\n        decoder = checkpoint['decoder']\n"
    "    save_checkpoint(decoder)\n"
)


@pytest.mark.parametrize(("change", "expected"), [
    pytest.param(("", ""), [("TL004", 5)], id="a-global-loaded-in-the-function"),
    pytest.param(("torch.load(checkpoint)", "restore(checkpoint)"), [], id="a-global-set-to-something-unknown"),
    pytest.param(("torch.load(checkpoint)", "{'decoder': Decoder().state_dict()}"), [], id="a-global-set-to-a-state"),
])
def test_a_module_level_name_a_function_stores_into(cli, tmp_path, change, expected):
    """`checkpoint = None` at module level, `global checkpoint; checkpoint = torch.load(...)` in
    `main`: the module-level name holds what the function stores too (it was taken for None
    alone), so `checkpoint['decoder']` is what was loaded."""
    assert _saved_decoder_findings(cli, tmp_path, GLOBAL_RESUMED_SAVE.replace(*change)) == expected


SPECTRAL_NORM = (
    "import torch\nfrom torch import nn\nfrom torch.nn import Parameter\n\n\n"
    "class SpectralNorm(nn.Module):\n    def __init__(self, module, name='weight', power_iterations=1):\n"
    "        super().__init__()\n        self.module = module\n        self.name = name\n        self._make_params()\n\n"
    "    def _make_params(self):\n        w = getattr(self.module, self.name)\n        height = w.data.shape[0]\n"
    "        del self.module._parameters[self.name]\n        self.module.register_parameter(self.name + '_bar', Parameter(w))\n"
)
SPECTRAL_NETWORK = (
    "import torch.nn as nn\nfrom sn import SpectralNorm\n\n\nclass D(nn.Module):\n    def __init__(self):\n"
    "        super().__init__()\n        self.conv = SpectralNorm(nn.Conv2d(3, 8, 3))\n"
    "        self.fc = SpectralNorm(nn.Linear(8, 1), power_iterations=2)\n"
)


@pytest.mark.parametrize(("network", "wrapper", "expected"), [
    pytest.param(("", ""), ("", ""), [("TL001", 15)], id="the-default-always"),
    pytest.param(("", ""), ("        del self", "        setattr(self.module, self.name, w)\n        del self"), [("TL001", 15)],
                 id="setattr-on-the-wrapped-module"),
    # look-alikes: the name may be another, or something else may set the attribute
    pytest.param(("power_iterations=2", "name='bias'"), ("", ""), [], id="a-call-passes-the-name"),
    pytest.param(("nn.Linear(8, 1), power_iterations=2", "nn.Linear(8, 1), 'bias'"), ("", ""), [],
                 id="a-call-passes-it-by-position"),
    pytest.param(("power_iterations=2", "**options"), ("", ""), [], id="a-call-spreads-a-mapping"),
    pytest.param(("power_iterations=2)\n", "power_iterations=2)\n\n\nclass Lazy(SpectralNorm):\n    pass\n"), ("", ""), [],
                 id="a-subclass"),
    pytest.param(("", ""), ("name='weight'", "name=None"), [], id="a-default-that-is-no-name"),
    pytest.param(("", ""), ("        self.name = name\n", "        self.name = name\n        setattr(self, 'name', 'bias')\n"),
                 [], id="setattr-in-the-class"),
    pytest.param(("", ""), ("        self.name = name\n", "        self.name = name + '_orig'\n"), [],
                 id="made-from-the-default"),
])
def test_getattr_with_an_attribute_that_always_holds_its_default(cli, tmp_path, network, wrapper, expected):
    """`getattr(self.module, self.name)` where `self.name = name` in `__init__`, `name='weight'`,
    and no call of the class in the project passes `name`: `self.module.weight`."""
    (tmp_path / "sn.py").write_text(SPECTRAL_NORM.replace(*wrapper))
    (tmp_path / "net.py").write_text(SPECTRAL_NETWORK.replace(*network))
    assert _findings(cli, ".") == expected


CATEGORICAL = "import torch\n\n\ndef to_categorical(y, n):\n    return torch.eye(n)[y.cpu().data.numpy(),]\n"
LABEL_LOOPS = (
    "import torch\nfrom utils import to_categorical\n\nseg_classes = {'a': [0, 1]}\n\n\n"
    "def main(ds):\n    loader = torch.utils.data.DataLoader(ds, batch_size=4)\n"
    "    for points, label in loader:\n        points, label = points.float().cuda(), label.long().cuda()\n"
    "        to_categorical(label, 16)\n"
    "    for cat in seg_classes:\n        for label in seg_classes[cat]:\n            print(label)\n"
)


@pytest.mark.parametrize(("change", "expected"), [
    pytest.param(("", ""), [("TL001", 5)], id="the-loop-s-own-label"),
    pytest.param(("        to_categorical(label, 16)\n", "        label = label.long()\n        to_categorical(label, 16)\n"),
                 [("TL001", 5)], id="rebound-from-itself-first"),
    # look-alikes: what reaches the call is something else
    pytest.param(("print(label)", "to_categorical(label, 16)"), [], id="another-call-passes-an-int"),
    pytest.param(("label.long().cuda()", "len(label)"), [], id="rebound-to-a-length"),
    pytest.param(("        to_categorical(label, 16)\n", "        label = lookup(label)\n        to_categorical(label, 16)\n"),
                 [], id="rebound-to-something-unknown"),
])
def test_a_call_passes_what_reaches_it_in_its_loop(cli, tmp_path, change, expected):
    """`for points, label in loader:` then `points, label = points.float().cuda(),
    label.long().cuda()` and `to_categorical(label, 16)`: the call passes the batch's element,
    whatever else the function binds to `label` (a later loop over ints)."""
    (tmp_path / "utils.py").write_text(CATEGORICAL)
    (tmp_path / "train.py").write_text(LABEL_LOOPS.replace(*change))
    assert _findings(cli, ".") == expected


@pytest.mark.parametrize(("model", "expected"), [
    pytest.param("build()", [("TL001", 2)], id="a-module-of-unknown-class"),
    # look-alikes: a class the linter reads, whose output is a tuple; a value that is no module
    pytest.param("Pair()", [], id="a-class-returning-a-tuple"),
])
def test_an_argument_read_at_the_names_that_reach_it(cli, tmp_path, model, expected):
    """`evaluate(net.eval(), x)` after `net = nn.DataParallel(net)`: the argument reads `net`
    as the wrapper (the statement before it), not as every value the name takes."""
    (tmp_path / "utils.py").write_text("def evaluate(model, x):\n    return model(x).data\n")
    (tmp_path / "train.py").write_text(
        "import torch.nn as nn\nfrom factory import build\nfrom utils import evaluate\n\n\nclass Pair(nn.Module):\n"
        "    def forward(self, x):\n        return x, x\n\n\n"
        f"def main(x):\n    net = {model}\n    net = nn.DataParallel(net)\n    opt = make(net)\n"
        "    evaluate(net.eval(), x)\n"
    )
    assert [f for f in _findings(cli, ".") if f[0] == "TL001"] == expected


MAYBE_PARALLEL = (
    "import torch\nfrom torch.nn import DataParallel\n\n\n"
    "def maybe_parallel(model, cuda, parallel=True):\n    if cuda:\n        model.cuda()\n"
    "    if parallel and torch.cuda.device_count() > 1:\n        model = DataParallel(model)\n    return model\n"
)
TWO_MODELS = (
    "import torch\nimport torch.nn as nn\nfrom helpers import maybe_parallel\n\n\n"
    "class Net(nn.Module):\n    def forward(self, x):\n        return x.sum(1), torch.log_softmax(x, 0)\n\n\n"
    "class Critic(nn.Module):\n    def forward(self, x):\n        return x.mean()\n\n\n"
    "def step(model, x):\n    cost, log_p = model(x)\n    print(log_p.data)\n\n\n"
    "model = maybe_parallel(Net(), True)\ncritic = maybe_parallel(Critic(), True)\nstep(model, torch.zeros(2, 2))\n"
)


@pytest.mark.parametrize(("helper", "expected"), [
    pytest.param(("", ""), [("TL001", 18)], id="given-back-or-wrapped"),
    pytest.param(("        model.cuda()\n", "        model = model.cuda()\n"), [("TL001", 18)], id="moved-and-rebound"),
    # look-alikes: the helper may give back something else than what it is given
    pytest.param(("    return model\n", "    if not cuda:\n        return None\n    return model\n"), [], id="or-none"),
    pytest.param(("    return model\n", "    return model.module\n"), [], id="the-wrapped-module"),
    pytest.param(("        model.cuda()\n", "        model = patch(model)\n"), [], id="rebound-by-a-project-call"),
    pytest.param(("def maybe_parallel(model, cuda", "def maybe_parallel(model, other"),
                 [], id="one-of-two-parameters"),
    pytest.param(("    return model\n", "    for model in registry:\n        pass\n    return model\n"), [],
                 id="rebound-by-a-loop"),
    pytest.param(("DataParallel(model)", "DataParallel(build())"), [], id="wraps-something-else"),
])
def test_a_helper_giving_back_its_argument_maybe_wrapped_keeps_the_class(cli, tmp_path, helper, expected):
    """`model = maybe_parallel(Net(), cuda)` where the helper returns the model it is given, maybe
    as `DataParallel(model)`; called with two classes, the call still gives the class it was
    passed (so `cost, log_p = model(x)` unpacks Net's tuple)."""
    text = MAYBE_PARALLEL.replace(*helper)
    if "other" in helper[1]:
        text = text.replace("    return model\n", "    return model if cuda else other\n")
    (tmp_path / "helpers.py").write_text(text)
    (tmp_path / "train.py").write_text(TWO_MODELS)
    assert _findings(cli, "--select", "TL001", ".") == expected
    own = "from torch.nn import DataParallel\n" + text.split("\n", 2)[2]  # (the helper in train.py itself)
    (tmp_path / "train.py").write_text(TWO_MODELS.replace("from helpers import maybe_parallel\n", own))
    same_file = [(code, line + own.count("\n") - 1) for code, line in expected]
    assert _findings(cli, "--select", "TL001", "train.py") == same_file


OWN_ITERATOR = (
    "import torch\n\n\nclass Batches:\n    def __init__(self, rows, size):\n        self.rows, self.size, self.at = rows, size, 0\n\n"
    "    def _to_tensor(self, rows):\n        return torch.LongTensor([r[0] for r in rows]), torch.LongTensor([r[1] for r in rows])\n\n"
    "    def __next__(self):\n        if self.at >= len(self.rows):\n            raise StopIteration\n"
    "        batch = self._to_tensor(self.rows[self.at:self.at + self.size])\n        self.at += self.size\n        return batch\n\n"
    "    def __iter__(self):\n        return self\n"
)


@pytest.mark.parametrize(("change", "expected"), [
    pytest.param(("", ""), [("TL001", 6)], id="its-own-iterator"),
    pytest.param(("        batch = self._to_tensor(self.rows[self.at:self.at + self.size])\n        self.at += self.size\n"
                  "        return batch\n",
                  "        self.at += self.size\n        if self.at < 8:\n            batch = self.rows[:self.at]\n"
                  "            batch = self._to_tensor(batch)\n            return batch\n        else:\n"
                  "            batch = self.rows[self.at:]\n            batch = self._to_tensor(batch)\n            return batch\n"),
                 [("TL001", 6)], id="returned-in-branches-after-a-rebinding"),
    # look-alikes: what iterating it gives is something else, or not known
    pytest.param(("        return self\n", "        return iter(self.rows)\n"), [], id="iterates-something-else"),
    pytest.param(("        return batch\n", "        return batch if batch else self.rows\n"), [], id="next-may-give-the-rows"),
    pytest.param(("        return batch\n", "        return self.at\n"), [], id="next-gives-a-number"),
    pytest.param(("    def __iter__(self):\n        return self\n", "    def __iter__(self):\n        yield from self.rows\n"),
                 [], id="a-generator-of-rows"),
    pytest.param(("    def __iter__(self):\n        return self\n", ""), [], id="no-iter-of-its-own"),
])
def test_a_class_of_the_project_that_is_its_own_iterator_yields_what_next_returns(cli, tmp_path, change, expected):
    """`for i, (x, y) in enumerate(train_iter)` where the caller passes `Batches(data, 8)`, whose
    `__iter__` returns itself and `__next__` a tuple of LongTensors."""
    (tmp_path / "batches.py").write_text(OWN_ITERATOR.replace(*change))
    (tmp_path / "train.py").write_text(
        "from batches import Batches\n\n\ndef train(model, train_iter):\n    for i, (x, labels) in enumerate(train_iter):\n"
        "        print(labels.data.cpu(), model(x))\n\n\ndef main(model, data):\n    train(model, Batches(data, 8))\n")
    assert _findings(cli, "--select", "TL001", ".") == expected


HOLDER = "class PPO:\n    def __init__(self, actor_critic, lr=None):\n        self.actor_critic = actor_critic\n"
LEARNER = (
    "import torch\nimport torch.nn as nn\n\nfrom algo import PPO\n\n\n"
    "class Policy(nn.Module):\n    def forward(self, x):\n        return x\n\n\n"
    "class Learner:\n    def __init__(self):\n        self.policy = self.initialise_policy()\n\n"
    "    def initialise_policy(self):\n        policy_net = Policy()\n        policy = PPO(policy_net, lr=1e-3)\n        return policy\n\n"
    "    def save(self, path):\n        torch.save(self.policy.actor_critic, path)\n"
)


@pytest.mark.parametrize(("holder", "learner", "expected"), [
    pytest.param(("", ""), ("", ""), [("TL004", 22)], id="an-instance-of-a-class-of-the-project"),
    # look-alikes: the method may give something else, or the attribute holds no module
    pytest.param(("", ""), ("        return policy\n", "        if lr:\n            return None\n        return policy\n"), [],
                 id="or-none"),
    pytest.param(("", ""), ("policy_net = Policy()", "policy_net = {'lr': 1}"), [], id="holding-no-module"),
    pytest.param(("class PPO:", "from rl_lib import Agent\n\n\nclass PPO(Agent):"), ("", ""), [], id="a-base-not-seen"),
    pytest.param(("", ""), ("    def save(self, path):\n", "\nclass Other(Learner):\n    def initialise_policy(self):\n"
                            "        return make()\n\n    def save(self, path):\n"), [], id="a-subclass-gives-another"),
])
def test_a_method_returning_an_instance_of_a_class_of_the_project(cli, tmp_path, holder, learner, expected):
    """`self.policy = self.initialise_policy()`, a method returning `PPO(policy_net)`, then
    `torch.save(self.policy.actor_critic, p)`: the attribute the instance's class assigns."""
    (tmp_path / "algo.py").write_text(HOLDER.replace(*holder))
    (tmp_path / "learner.py").write_text(LEARNER.replace(*learner))
    assert _findings(cli, "--select", "TL004", ".") == expected


@pytest.mark.parametrize(("helper", "expected"), [
    pytest.param("def keep(layers):\n    print(len(layers))\n    return layers\n", [("TL001", 3)], id="read-and-given-back"),
    pytest.param("def keep(layers):\n    return [x for x in layers]\n", [("TL001", 3)], id="copied"),
    # look-alikes: the helper changes the list it gives back, or gives back something else
    pytest.param("def keep(layers):\n    layers.append(Head())\n    return layers\n", [], id="grown-and-given-back"),
    pytest.param("def keep(layers):\n    layers[0] = Head()\n    return layers\n", [], id="item-replaced-and-given-back"),
    pytest.param("def keep(layers):\n    return make(layers)\n", [], id="something-else"),
])
def test_a_returned_name_rebound_from_a_call_it_was_passed_to(cli, tmp_path, helper, expected):
    """`layers = keep(layers)` in a branch, then `return layers`: the name holds what the call
    gave (the list it was passed may have been changed, not the result), read at the `return`
    in its block."""
    (tmp_path / "helpers.py").write_text(helper)
    (tmp_path / "net.py").write_text(
        "import torch.nn as nn\nfrom helpers import keep\n\n\ndef build(deep):\n    layers = [nn.Linear(2, 2)]\n"
        "    if deep:\n        layers = keep(layers)\n        return layers\n    return layers\n")
    (tmp_path / "use.py").write_text("from net import build\ndef f(x):\n    print(build(True)[0](x).data)\n")
    assert _findings(cli, "--select", "TL001", ".") == expected


GENERATORS = (
    "import torch\nfrom torch.autograd import Variable\n\n\n"
    "def batches(inputs, targets, size):\n    at = 0\n    while at < len(inputs):\n"
    "        X = inputs[at:at + size]\n        Y = targets[at:at + size]\n        yield Variable(X), Variable(Y)\n        at += size\n\n\n"
    "class Loader:\n    def get_batches(self, inputs, targets, size):\n        for X, Y in batches(inputs, targets, size):\n"
    "            yield X, torch.as_tensor(Y)\n\n    def __iter__(self):\n        for i in range(3):\n"
    "            yield torch.zeros(2), torch.ones(2)\n"
)


@pytest.mark.parametrize(("change", "loop", "expected"), [
    pytest.param(("", ""), "batches(X, Y, 8)", [("TL001", 6)], id="a-generator-function"),
    pytest.param(("", ""), "Loader().get_batches(X, Y, 8)", [("TL001", 6)], id="a-generator-method"),
    pytest.param(("", ""), "Loader()", [("TL001", 6)], id="a-generator-iter"),
    # look-alikes: what the generator yields is something else, or not known
    pytest.param(("yield Variable(X), Variable(Y)", "yield X, Y"), "batches(X, Y, 8)", [], id="yields-slices-of-unknowns"),
    pytest.param(("        at += size\n", "        yield {'x': X}\n        at += size\n"), "batches(X, Y, 8)", [],
                 id="yields-a-dict-too"),
    pytest.param(("def batches(", "@contextmanager\ndef batches("), "batches(X, Y, 8)", [], id="decorated"),
    pytest.param(("            yield X, torch.as_tensor(Y)\n", "            yield X, torch.as_tensor(Y)\n        yield from extra()\n"),
                 "Loader().get_batches(X, Y, 8)", [], id="yields-from-another"),
    pytest.param(("", "\n\nclass Other(Loader):\n    def get_batches(self, inputs, targets, size):\n        yield inputs\n"),
                 "Loader().get_batches(X, Y, 8)", [], id="overridden-in-a-subclass"),
    pytest.param(("", ""), "Loader().__iter__", [], id="the-method-itself"),
])
def test_what_a_generator_of_the_project_yields(cli, tmp_path, change, loop, expected):
    """`for X, Y in data.get_batches(X, Y, 32)` where the method `yield`s `Variable(X),
    Variable(Y)`: the loop's targets are what every `yield` agrees on."""
    text = GENERATORS.replace(*change) if change[0] else GENERATORS + change[1]
    (tmp_path / "util.py").write_text(text)
    (tmp_path / "train.py").write_text(
        f"from util import Loader, batches\n\n\ndef evaluate(X, Y):\n    for x, y in {loop}:\n        print(y.data)\n")
    assert _findings(cli, "--select", "TL001", ".") == expected


REVIEW_LOOPS = (
    "import torch\nimport torch.nn as nn\nfrom torch.utils.data import DataLoader\nfrom tqdm import tqdm\n"
    "from tqdm.contrib import tenumerate, tzip\nfrom utils import peek, save_checkpoint\n\n\n"
    "class Net(nn.Module):\n    def forward(self, x):\n        return x\n\n\n"
    "def main(ds, records, path, ms):\n    loader = DataLoader(ds, batch_size=4)\n{body}"
)


@pytest.mark.parametrize(("body", "expected"), [
    pytest.param("    for x, y in tqdm(loader):\n        peek(x)\n", [("TL001", 5)], id="a-progress-bar"),
    # look-alikes: the value reaching the callee is not the batch's tensor, or not the module
    pytest.param("    for (x, y), rec in tzip(loader, records):\n        peek(rec)\n", [], id="tzip-pairs"),
    pytest.param("    for i, batch in tenumerate(loader):\n        peek(i)\n", [], id="tenumerate-counts"),
    pytest.param("    for batch in loader:\n        arrs = [t.cpu() for t in batch]\n        for i, a in enumerate(arrs):\n"
                 "            arrs[i] = a.numpy()\n        for a in arrs:\n            peek(a)\n", [], id="items-replaced"),
    pytest.param("    ms = [Net()]\n    ms[0] = ms[0].state_dict()\n    save_checkpoint(ms[0], path)\n", [],
                 id="rebound-then-item-replaced"),
    pytest.param("    net = Net()\n    gen = (net for _ in range(1))\n    net = net.state_dict()\n"
                 "    for s in gen:\n        save_checkpoint(s, path)\n", [], id="a-generator-read-later"),
])
def test_loops_and_lists_the_index_must_not_misread(cli, tmp_path, body, expected):
    """A hostile review's look-alikes: `tzip`/`tenumerate` pair and count what they wrap (only
    `tqdm(x)` yields what `x` yields); a list whose items are replaced holds what was stored; a
    generator expression's body runs when it is consumed."""
    (tmp_path / "utils.py").write_text(
        "import torch\n\n\ndef peek(x):\n    return x.data\n\n\ndef save_checkpoint(obj, path):\n    torch.save({'model': obj}, path)\n")
    (tmp_path / "train.py").write_text(REVIEW_LOOPS.format(body=body))
    assert _findings(cli, "--select", "TL001,TL004", ".") == expected


@pytest.mark.parametrize(("layout", "expected"), [
    pytest.param({"pkg/__init__.py": "", "pkg/pkg.py": "from pkg import losses\n"}, [("TL001", 6)], id="a-package"),
    pytest.param({"pkg/pkg.py": "from pkg import losses\n"}, [("TL001", 6)], id="a-folder-without-init"),
    pytest.param({"pkg/__init__.py": "", "pkg/pkg.py": "from . import losses\n"}, [("TL001", 6)], id="relative"),
    # look-alike: the module of that name beside it is another one (a script's sibling)
    pytest.param({"pkg/core.py": "from losses import losses\n", "pkg/losses.py": "losses = None\n"}, [], id="a-sibling-module"),
])
def test_a_module_importing_its_own_name_means_the_package(cli, tmp_path, layout, expected):
    """`from uisrnn import loss_func` in uisrnn/uisrnn.py: the package uisrnn (the module itself,
    which a script run from its folder would import, has no `loss_func`)."""
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "losses.py").write_text("import torch\n\n\ndef weighted(a, w):\n    return torch.mean(a * w)\n")
    for name, text in layout.items():
        (tmp_path / name).write_text(text)
    module = next(name for name in layout if name.endswith((".py",)) and "__init__" not in name and "losses" not in name)
    (tmp_path / module).write_text(layout[module] + "\n\ndef fit(net, x, w):\n    loss1 = losses.weighted(net(x), w)\n"
                                   "    print(float(loss1.data))\n")
    assert _findings(cli, "--select", "TL001", ".") == expected


@pytest.mark.parametrize(("term", "expected", "fixed"), [
    pytest.param("torch.norm(param)", [("TL001", 9)], False, id="norms-of-parameters"),
    # look-alikes: the terms are numbers, or not known
    pytest.param("param.numel()", [], False, id="counts"),
    pytest.param("penalty(param)", [], False, id="unknown-terms"),
])
def test_a_total_started_at_zero_in_another_module(cli, tmp_path, term, expected, fixed):
    """`l2 = 0`, then `l2 += torch.norm(param)` in a loop, `return weight * l2` in another
    module: a tensor, by a guess (the loop may not run): reported, its fix withheld."""
    (tmp_path / "losses.py").write_text(
        f"import torch\n\n\ndef regularization(params, weight):\n    l2 = 0\n    for param in params:\n        l2 += {term}\n"
        "    return weight * l2\n")
    (tmp_path / "model.py").write_text(
        "import torch\nimport losses\n\n\ndef fit(net, x, args):\n    mse = torch.mean(net(x) ** 2)\n"
        "    reg = losses.regularization(net.parameters(), args.reg)\n    (mse + reg).backward()\n    print(float(reg.data))\n")
    assert _findings(cli, "--select", "TL001", "model.py") == expected
    cli("check", "--no-cache", "--select", "TL001", "--fix", "model.py")
    assert ("reg.detach()" in (tmp_path / "model.py").read_text()) is fixed


@pytest.mark.parametrize(("imports", "expected"), [
    pytest.param("if sys.argv[1] == 'a':\n    from pkg import appr_a as approach\nelse:\n    from pkg import appr_b as approach\n",
                 [("TL005", 6)], id="the-first-branch"),
    pytest.param("if sys.argv[1] == 'b':\n    from pkg import appr_b as approach\nelse:\n    from pkg import appr_a as approach\n",
                 [("TL005", 6)], id="the-last-branch"),
    # look-alike: only the other module is ever imported under that name
    pytest.param("from pkg import appr_b as approach\n", [], id="one-import"),
])
def test_a_class_called_through_an_alias_imported_in_several_branches(cli, tmp_path, imports, expected):
    """hat's run.py: `from approaches import hat as approach` in one branch, `ewc` in another,
    then `approach.Appr(net)`: each branch's `Appr.__init__` is called with the module."""
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("")
    for name, call in (("appr_a", "self.model.forward(x)"), ("appr_b", "self.model(x)")):
        (tmp_path / "pkg" / f"{name}.py").write_text(
            f"class Appr(object):\n    def __init__(self, model):\n        self.model = model\n\n    def step(self, x):\n"
            f"        return {call}\n")
    (tmp_path / "run.py").write_text(
        "import sys\nimport torch\n" + imports + "\n\nclass Net(torch.nn.Module):\n    def forward(self, x):\n"
        "        return x * 2\n\n\nappr = approach.Appr(Net())\nappr.step(torch.zeros(1))\n")
    assert _findings(cli, "--select", "TL005", ".") == expected


def test_a_total_accumulating_a_guessed_sum_gets_no_fix(cli, tmp_path):
    """TL003 on `total += penalty(masks)` where `penalty` returns a sum started at 0 (a tensor by a
    guess): with no mask it returns the number, whose `.item()` would break; no fix is written."""
    (tmp_path / "penalties.py").write_text(
        "import torch.nn.functional as F\n\ndef penalty(masks):\n    loss = 0\n    for m in masks:\n"
        "        loss += F.binary_cross_entropy(m, m.detach())\n    return loss\n")
    (tmp_path / "fit.py").write_text(
        "from penalties import penalty\n\n\ndef train(out, opt):\n    total = 0\n    for step in range(3):\n"
        "        loss = penalty([out])\n        loss.backward()\n        opt.step()\n        total += loss\n    return total\n")
    assert _findings(cli, "--select", "TL003", "fit.py") == [("TL003", 10)]
    before = (tmp_path / "fit.py").read_text()
    cli("check", "--no-cache", "--select", "TL003", "--fix", "fit.py")
    assert (tmp_path / "fit.py").read_text() == before


@pytest.mark.parametrize(("between", "expected"), [
    pytest.param("", [("TL001", 7)], id="the-list-reaching-the-call"),
    # look-alikes: code that may change the list runs between its display and the call
    pytest.param("        shuffle(targets)\n", [], id="handed-to-a-helper-first"),
    pytest.param("        targets[0] = targets[0].numpy()\n", [], id="an-item-replaced-first"),
])
def test_a_forward_input_a_rebound_list_display_reaches(cli, tmp_path, between, expected):
    """`targets = [Variable(anno.cuda()) for anno in targets]`, then `criterion(out, targets)`:
    the loss module's `forward` is given the display's tensors (its `targets[idx][:, :-1].data`),
    unless something that may change the list runs between."""
    (tmp_path / "crit.py").write_text(
        "import torch.nn as nn\n\n\nclass Crit(nn.Module):\n    def forward(self, preds, targets):\n"
        "        t = targets[0]\n        return t[:, :-1].data\n")
    (tmp_path / "train.py").write_text(
        "from torch.autograd import Variable\nfrom crit import Crit\n\ncriterion = Crit()\n\n\n"
        "def train(net, batches):\n    for images, targets in batches:\n"
        "        targets = [Variable(anno.cuda()) for anno in targets]\n" + between +
        "        loss = criterion(net(images), targets)\n        loss.backward()\n")
    assert _findings(cli, "--select", "TL001", ".") == expected


@pytest.mark.parametrize(("between", "expected"), [
    pytest.param("", [("TL001", 6)], id="returned-in-a-tuple"),
    # look-alikes: the list may hold something else by the time it is returned
    pytest.param("        record(saved)\n", [], id="handed-to-a-helper"),
    pytest.param("        saved.append(self.describe())\n", [], id="something-unknown-appended"),
    pytest.param("        saved[0] = out.shape\n", [], id="an-item-replaced"),
])
def test_a_grown_list_returned_in_a_tuple(cli, tmp_path, between, expected):
    """`saved_for_loss = []`, `saved_for_loss.append(out)` per stage, `return (out1, out2),
    saved_for_loss` in a module's forward: the caller's `saved_for_loss[-1]` is a tensor."""
    (tmp_path / "net.py").write_text(
        "import torch.nn as nn\n\n\nclass Pose(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
        "        self.a = nn.Conv2d(3, 3, 1)\n\n    def forward(self, x):\n        saved = []\n        out = self.a(x)\n"
        "        saved.append(out)\n" + between + "        return (out, out), saved\n")
    (tmp_path / "train.py").write_text(
        "from net import Pose\n\n\ndef main(model: Pose, img):\n    _, saved = model(img)\n    print(saved[-1].data)\n")
    assert _findings(cli, "--select", "TL001", ".") == expected


@pytest.mark.parametrize(("body", "expected"), [
    pytest.param("    loss = bce + kl\n    loss /= float(x.size(0))\n    return loss, bce, kl\n", [("TL001", 3)],
                 id="divided-in-place"),
    pytest.param("    loss = bce * 1.0\n    loss[0] = kl\n    loss *= 2\n    return loss, bce, kl\n", [("TL001", 3)],
                 id="an-item-stored-then-scaled"),
    # look-alikes: the in-place operation leaves something else, or the start is not known
    pytest.param("    loss = start(bce)\n    loss /= 2\n    return loss, bce, kl\n", [], id="started-unknown"),
    pytest.param("    loss = [bce]\n    loss += [kl]\n    return loss, bce, kl\n", [], id="a-list-extended"),
])
def test_a_returned_name_changed_in_place_in_another_module(cli, tmp_path, body, expected):
    """`loss = bce + beta * kl`, `loss /= float(n)`, `return loss, bce, kl` in another module:
    the caller's `loss` is a tensor (the in-place operation beside a name handed on was unread)."""
    (tmp_path / "lossmod.py").write_text(
        "import torch\nimport torch.nn as nn\n\n\ndef loss_fn(out, x):\n    bce = nn.BCELoss()(out, x)\n"
        "    kl = torch.sum(out)\n" + body)
    (tmp_path / "train.py").write_text(
        "from lossmod import loss_fn\ndef run(out, x):\n    loss, rec, kl = loss_fn(out, x)\n    print(loss.data)\n")
    assert [(code, line - 1) for code, line in _findings(cli, "--select", "TL001", "train.py")] == expected


REVIEW_UTIL = (
    "import torch\nimport torch.nn as nn\n\nnet = nn.Linear(4, 1)\ncrit = nn.MSELoss()\n\n\n"
    "@torch.no_grad()\ndef eval_losses(data):\n    for x, y in data:\n        yield crit(net(x), y)\n\n\n"
    "def eval_losses2(data):\n    for x, y in data:\n        with torch.no_grad():\n            loss = crit(net(x), y)\n        yield loss\n\n\n"
    "def train_losses(data):\n    for x, y in data:\n        yield crit(net(x), y)\n\n\n"
    "def l2_nograd(model):\n    l2 = 0\n    with torch.no_grad():\n        for p in model.parameters():\n            l2 += p.norm()\n"
    "    return l2\n\n\ndef norm_nograd(model):\n    with torch.no_grad():\n        n = model.weight.norm()\n    return n\n\n\n"
    "def norm(model):\n    n = model.weight.norm()\n    return n\n"
)


@pytest.mark.parametrize(("source", "expected"), [
    pytest.param("train_losses(data)", [("TL003", 7)], id="a-generator-with-grad"),
    pytest.param("norm(net) for _ in data", [("TL003", 7)], id="a-function-with-grad"),
    # look-alikes: what the generator or function gives is made with autograd off
    pytest.param("eval_losses(data)", [], id="a-generator-decorated-no-grad"),
    pytest.param("eval_losses2(data)", [], id="a-generator-yielding-from-a-no-grad-block"),
    pytest.param("l2_nograd(net) for _ in data", [], id="a-sum-made-under-no-grad"),
    pytest.param("norm_nograd(net) for _ in data", [], id="a-value-made-under-no-grad"),
])
def test_what_another_module_makes_with_autograd_off_carries_no_graph(cli, tmp_path, source, expected):
    """A hostile review's look-alikes: values yielded or returned from `no_grad` code are added
    to a total without keeping any graph."""
    (tmp_path / "util.py").write_text(REVIEW_UTIL)
    (tmp_path / "main.py").write_text(
        "import torch\nfrom util import eval_losses, eval_losses2, train_losses, l2_nograd, norm_nograd, norm, net\n\n"
        f"data = [(torch.randn(2, 4), torch.randn(2, 1)) for _ in range(3)]\ntotal = 0\nfor loss in ({source}):\n"
        "    total += loss\nprint(total)\n")
    assert _findings(cli, "--select", "TL003", "main.py") == expected


@pytest.mark.parametrize(("make", "use", "expected"), [
    pytest.param("        h = Holder()\n        return h\n", "print(h.w.data)", [("TL001", 7)], id="as-the-class-made-it"),
    # look-alikes: the attribute may hold something else by the time it is read
    pytest.param("        h = Holder()\n        h.w = bytearray(b'ab')\n        return h\n", "print(h.w.data)", [],
                 id="replaced-by-the-method"),
    pytest.param("        h = Holder()\n        setattr(h, 'w', bytearray(b'ab'))\n        return h\n", "print(h.w.data)", [],
                 id="setattr-in-the-method"),
    pytest.param("        h = Holder()\n        configure(h)\n        return h\n", "print(h.w.data)", [],
                 id="handed-to-code-that-may-set-it"),
    pytest.param("        return Holder()\n", "h.w = memoryview(b'abc')\nprint(h.w.data)", [], id="replaced-by-the-caller"),
])
def test_an_instance_returned_by_a_method_holds_what_its_class_assigns(cli, tmp_path, make, use, expected):
    """A hostile review's look-alikes for `return Holder()`: the method, or the caller, may set
    the instance's attribute to something else."""
    (tmp_path / "holder.py").write_text(
        "import torch\n\n\nclass Holder:\n    def __init__(self):\n        self.w = torch.zeros(3, requires_grad=True)\n\n\n"
        "class Factory:\n    def make(self):\n" + make)
    (tmp_path / "main.py").write_text(f"from holder import Factory\n\nf = Factory()\nh = f.make()\n\n\n{use}\n")
    assert _findings(cli, "--select", "TL001", "main.py") == [
        (code, line + use.count("\n")) for code, line in expected]


@pytest.mark.parametrize(("body", "expected"), [
    pytest.param("    out, hc = lstm(x, hc)\n", [("TL001", 10)], id="an-lstm"),
    # look-alikes: a layer that hands back what it is given, or a pre-hook that may change it
    pytest.param("    alias = nn.Identity()(hc)\n    alias[0] = [1]\n", [], id="an-identity"),
    pytest.param("    out, hc = lstm(x, hc)\n    lstm.register_forward_pre_hook(hook)\n", [], id="a-pre-hook"),
])
def test_a_tuple_passed_to_a_torch_layer(cli, tmp_path, body, expected):
    """`out, hc = lstm(x, hc)` keeps the layer's (h, c); not through a layer that hands back the
    list it is given (`nn.Identity`), nor where a forward pre-hook may change what it is given."""
    (tmp_path / "m.py").write_text(
        "import torch\nimport torch.nn as nn\n\nlstm = nn.LSTM(4, 4)\n\n\ndef step(x, hook):\n"
        "    hc = [torch.zeros(1, 1, 4), torch.zeros(1, 1, 4)]\n" + body + "    print(hc[0].data)\n")
    assert _findings(cli, "--select", "TL001", "m.py") == [(code, line + body.count("\n") - 1) for code, line in expected]


def test_an_alias_imported_again_at_the_top_level_is_that_module_only(cli, tmp_path):
    """`from approaches import a as approach`, later `from approaches import b as approach` at the
    top level: calls after run only b's class (a's gets no call site)."""
    (tmp_path / "approaches").mkdir()
    (tmp_path / "approaches" / "__init__.py").write_text("")
    for name, call in (("a", "self.model.forward(x)"), ("b", "self.model(x)")):
        (tmp_path / "approaches" / f"{name}.py").write_text(
            f"class Appr(object):\n    def __init__(self, model):\n        self.model = model\n\n    def step(self, x):\n"
            f"        return {call}\n")
    (tmp_path / "run.py").write_text(
        "import torch.nn as nn\nfrom approaches import a as approach\n\nprint(approach.__name__)\n\n"
        "from approaches import b as approach\n\n\ndef main():\n    return approach.Appr(nn.Linear(2, 2))\n")
    assert _findings(cli, "--select", "TL005", ".") == []


@pytest.mark.parametrize(("branches", "expected"), [
    pytest.param("        if cuda:\n            targets = [Variable(a.cuda()) for a in targets]\n"
                 "        else:\n            targets = [Variable(a) for a in targets]\n", [("TL001", 7)], id="both-branches"),
    # look-alikes: a branch that leaves the batch's own value, or binds something else
    pytest.param("        if cuda:\n            targets = [Variable(a.cuda()) for a in targets]\n", [], id="one-branch"),
    pytest.param("        if cuda:\n            targets = [Variable(a.cuda()) for a in targets]\n"
                 "        else:\n            targets = load(targets)\n", [], id="the-other-unknown"),
])
def test_a_forward_input_bound_in_each_branch_before_the_call(cli, tmp_path, branches, expected):
    """PytorchSSD: `if args.cuda: targets = [Variable(anno.cuda()) ...]` `else: targets =
    [Variable(anno) ...]`, then `criterion(out, priors, targets)`: either display reaches."""
    (tmp_path / "crit.py").write_text(
        "import torch.nn as nn\n\n\nclass Crit(nn.Module):\n    def forward(self, preds, targets):\n"
        "        t = targets[0]\n        return t[:, :-1].data\n")
    (tmp_path / "train.py").write_text(
        "from torch.autograd import Variable\nfrom crit import Crit\n\ncriterion = Crit()\n\n\n"
        "def train(net, batches, cuda):\n    for images, targets in batches:\n" + branches +
        "        loss = criterion(net(images), targets)\n        loss.backward()\n")
    assert _findings(cli, "--select", "TL001", ".") == expected


INHERITED_BASE = '''import torch.nn as nn


class Base(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Linear(4, 4)

    def forward(self, x):
        return self.head(self.body(x))

    def head(self, h):
        return h * 2


class Plain(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Linear(4, 4)

    def forward(self, x):
        return self.body(x)


class Packer(nn.Module):
    def forward(self, x):
        return nn.utils.rnn.pack_sequence([x])


class Calling(nn.Module):
    def __call__(self, x):
        return x.tolist()

    def forward(self, x):
        return x
'''


@pytest.mark.parametrize(("subclass", "expected"), [
    pytest.param("class Small(Base):\n    pass\n", [("TL001", 6)], id="no-code-of-its-own"),
    pytest.param("class Small(Base):\n    def __init__(self):\n        super().__init__()\n        self.tag = 'small'\n",
                 [("TL001", 6)], id="an-init-setting-other-attributes"),
    pytest.param("class Mid(Base):\n    pass\n\n\nclass Small(Mid):\n    pass\n", [("TL001", 6)], id="two-levels"),
    pytest.param("class Small(Base):\n    def forward(self, x):\n        return self.body(x) + 1\n", [("TL001", 6)],
                 id="its-own-forward-reading-the-base-attribute"),
    # look-alikes: the subclass changes what the base's forward computes, or calling it runs other code
    pytest.param("class Small(Plain):\n    pass\n", [("TL001", 6)], id="a-plain-base"),
    pytest.param("class Small(Plain):\n    def __init__(self):\n        super().__init__()\n"
                 "        self.body = Packer()\n", [], id="replacing-an-attribute-the-base-reads"),
    pytest.param("class Small(Base):\n    def head(self, h):\n        return h.tolist()\n", [],
                 id="overriding-a-method-the-base-calls"),
    pytest.param("class Small(Base):\n    def __call__(self, x):\n        return [x]\n", [], id="its-own-call"),
    pytest.param("class Small(Calling):\n    pass\n", [], id="a-base-defining-call"),
    pytest.param("class Small(Calling):\n    def forward(self, x):\n        return x * 2\n", [],
                 id="its-forward-under-a-base-defining-call"),
    pytest.param("class Small(Base, dict):\n    pass\n", [], id="two-bases"),
    pytest.param("class Small(Base):\n    pass\n\n\nSmall.forward = lambda self, x: [x]\n", [], id="forward-assigned-on-it"),
    pytest.param("class Small(Plain):\n    def __init__(self):\n        super().__init__()\n        self.add_module('body', Packer())\n",
                 [], id="a-module-added-by-name"),
    pytest.param("class Small(Plain):\n    def __init__(self):\n        super().__init__()\n        setattr(self, 'body', Packer())\n",
                 [], id="an-attribute-set-by-setattr"),
    pytest.param("class Small(Plain):\n    body = Packer()\n", [], id="a-class-level-attribute"),
    pytest.param("class Small(Plain):\n    @property\n    def body(self):\n        return Packer()\n", [], id="a-property"),
    pytest.param("class Small(Plain, metaclass=type):\n    pass\n", [], id="a-metaclass"),
])
@pytest.mark.parametrize("where", ["models", "train"])
def test_a_subclass_runs_its_project_base_forward(cli, tmp_path, subclass, expected, where):
    """`class ResNet18(ResNet)` with no `forward` of its own: calling it runs the base's, which
    holds where the subclass changes nothing the base's code reads (defined beside the base's
    module, or in the linted file itself)."""
    (tmp_path / "base.py").write_text(INHERITED_BASE)
    header = "import torch.nn as nn\nfrom base import Base, Calling, Packer, Plain\n\n\n"
    if where == "models":
        (tmp_path / "models.py").write_text(header + subclass)
        (tmp_path / "train.py").write_text("import torch\nfrom models import Small\n\n\nout = Small()(torch.randn(2, 4))\nprint(out.data)\n")
    else:
        (tmp_path / "train.py").write_text("import torch\n" + header + subclass + "\n\nout = Small()(torch.randn(2, 4))\nprint(out.data)\n")
    found = _findings(cli, "--select", "TL001", "train.py")
    line = (tmp_path / "train.py").read_text().splitlines().index("print(out.data)") + 1
    assert found == [(code, line) for code, _ in expected]


@pytest.mark.parametrize(("subclass", "expected"), [
    pytest.param("class Small(Plain):\n    pass\n", True, id="no-code-of-its-own"),
    # look-alike: the subclass's assignment is merged into what the base's forward reads (its
    # PackedSequence has a `.data` of its own)
    pytest.param("class Small(Plain):\n    def __init__(self):\n        super().__init__()\n"
                 "        self.body = Packer()\n", False, id="replacing-an-attribute-the-base-reads"),
])
def test_a_subclass_runs_its_base_forward_in_one_file(cli, tmp_path, subclass, expected):
    (tmp_path / "train.py").write_text("import torch\n" + INHERITED_BASE + "\n\n" + subclass +
                                        "\n\nout = Small()(torch.randn(2, 4))\nprint(out.data)\n")
    assert bool(_findings(cli, "--select", "TL001", "train.py")) is expected


CHOSEN_MODELS = '''import torch
import torch.nn as nn


class Flow(nn.Module):
    def __init__(self):
        super().__init__()
        self.l = nn.Linear(2, 2)

    def forward(self, x):
        return self.l(x), x.sum()


class Coupling(nn.Module):
    def __init__(self):
        super().__init__()
        self.l = nn.Linear(2, 2)

    def forward(self, x):
        return torch.tanh(self.l(x)), x.mean()


class Listing(nn.Module):
    def forward(self, x):
        return [x.tolist()], 0


class Opaque(nn.Module):
    def __init__(self, inner):
        super().__init__()
        self.inner = inner

    def forward(self, x):
        return self.inner(x)
'''


@pytest.mark.parametrize(("other", "expected"), [
    pytest.param("Coupling()", [("TL001", 15)], id="both-return-a-tensor-first"),
    # look-alikes: one choice returns something else there, or nothing known
    pytest.param("Listing()", [], id="one-returns-a-list-first"),
    pytest.param("Opaque(make())", [], id="one-returns-what-its-inner-module-does"),
])
def test_a_model_chosen_among_classes_gives_what_their_outputs_agree_on(cli, tmp_path, other, expected):
    """maf.py: `model` is one of several flow classes picked by `if args.model == ...`; `u, _ =
    model(data)` then `u.data`."""
    (tmp_path / "flows.py").write_text(CHOSEN_MODELS)
    (tmp_path / "main.py").write_text(
        "import sys\nimport torch\nfrom flows import Flow, Coupling, Listing, Opaque\n\n\ndef make():\n    return sys.modules\n\n\n"
        f"model = Flow() if sys.argv[1] == 'flow' else {other}\n\n\ndef show(x):\n    u, _ = model(x)\n"
        "    print(u.data)\n\n\nshow(torch.zeros(3, 2))\n")
    assert _findings(cli, "--select", "TL001", "main.py") == expected


@pytest.mark.parametrize(("draw", "expected"), [
    pytest.param("    it = iter(loader)\n    x, y = next(it)\n", [("TL001", 6)], id="next-of-iter"),
    pytest.param("    it = enumerate(loader)\n    _, (x, y) = it.__next__()\n", [("TL001", 6)], id="dunder-next-of-enumerate"),
    pytest.param("    it = iter(zip(cycle(loader), names))\n    (x, y), _ = next(it)\n", [("TL001", 6)], id="next-of-zip"),
    # look-alikes: what reaches the helper is no batch element
    pytest.param("    it = iter(loader)\n    x = next(it, None)\n", [], id="next-with-a-default"),
    pytest.param("    it = iter(zip(names, loader))\n    x, _ = next(it)\n", [], id="a-zipped-string"),
    pytest.param("    it = enumerate(loader)\n    x, _ = next(it)\n", [], id="the-enumerated-index"),
])
def test_a_batch_drawn_with_next_and_handed_to_a_helper(cli, tmp_path, draw, expected):
    """ADVENT's `_, batch = trainloader_iter.__next__()`, CCT's `next(dataloader)`: the batch's
    tensors are what a helper of another module is given."""
    (tmp_path / "show.py").write_text("import torch\n\n\ndef show(x):\n    print(x)\n    return x.data\n")
    (tmp_path / "train.py").write_text(
        "from itertools import cycle\nimport torch\nfrom torch.utils.data import DataLoader, TensorDataset\nfrom show import show\n\n"
        "names = ['a', 'b']\n\n\ndef epoch(loader):\n" + draw + "    show(x)\n\n\n"
        "epoch(DataLoader(TensorDataset(torch.zeros(4, 3), torch.zeros(4)), batch_size=2))\n")
    assert _findings(cli, "--select", "TL001", ".") == expected


@pytest.mark.parametrize(("returned", "expected"), [
    pytest.param("torch.zeros(1) + pred.sum()", [("TL001", 8)], id="a-tensor"),
    # look-alike: the forward gives a number
    pytest.param("float(pred.sum())", [], id="a-number"),
])
def test_a_loss_module_returning_an_applied_autograd_function(cli, tmp_path, returned, expected):
    """SSN: `CompletenessLoss.forward` returns `OHEMHingeLoss.apply(...) / n`, and the training
    script reads `loss.data` of what the criterion (imported) gives."""
    (tmp_path / "ops.py").write_text(
        "import torch\n\n\nclass Hinge(torch.autograd.Function):\n    @staticmethod\n    def forward(ctx, pred):\n"
        f"        return {returned}\n\n\nclass HingeLoss(torch.nn.Module):\n    def forward(self, pred):\n"
        "        return Hinge.apply(pred) / 2.0\n")
    (tmp_path / "train.py").write_text(
        "import torch\nfrom ops import HingeLoss\n\ncriterion = HingeLoss()\nw = torch.nn.Parameter(torch.zeros(3))\n\n"
        "loss = criterion(w)\nprint(loss.data)\n")
    assert _findings(cli, "--select", "TL001", "train.py") == expected


CONSUME = "def consume(items):\n    out = []\n    for item in items:\n        out.append(item.data)\n    return out\n"
RECORD_HEAD = ("import torch\nfrom consume import consume\n\n\nclass Record:\n    def __init__(self, data):\n"
               "        self.data = data\n\n\ndef run(batch, use_cuda, extra):\n")


@pytest.mark.parametrize(("body", "expected"), [
    pytest.param("    feats = [t.float() for t in batch]\n    feats = [t * 2 for t in feats]\n", [("TL001", 4)],
                 id="a-rebuilt-list-of-tensors"),
    pytest.param("    if use_cuda:\n        feats = [t.cuda() for t in batch]\n    else:\n        feats = [t.float() for t in batch]\n",
                 [("TL001", 4)], id="either-branch's-list"),
    # look-alikes (a hostile review's): something else is put into the list before it is handed on
    pytest.param("    if use_cuda:\n        feats = [t.cuda() for t in batch]\n    else:\n        feats = [t.float() for t in batch]\n"
                 "    feats[0] = Record([1, 2, 3])\n", [], id="either-branch's-list-then-an-item-stored"),
    pytest.param("    if use_cuda:\n        feats = [t.cuda() for t in batch]\n    else:\n        feats = [t.float() for t in batch]\n"
                 "    feats.insert(0, Record([1, 2, 3]))\n", [], id="either-branch's-list-then-an-item-inserted"),
    pytest.param("    def tag():\n        feats[0] = Record([1, 2, 3])\n    feats = [t.float() for t in batch]\n"
                 "    feats = [t * 2 for t in feats]\n    tag()\n", [], id="a-closure-storing-an-item"),
    pytest.param("    feats = [t.float() for t in batch]\n\n    def tag():\n        feats[0] = Record([1, 2, 3])\n    tag()\n", [],
                 id="a-closure-storing-into-a-list-built-once"),
    pytest.param("    feats = [t.float() for t in batch]\n    [feats.append(Record(e)) for e in extra]\n", [],
                 id="appended-in-a-comprehension"),
    pytest.param("    feats = None\n    t = [x.float() for x in batch]\n    t = [x * 2 for x in t]\n    feats = t\n"
                 "    t[0] = Record([1, 2, 3])\n", [], id="changed-through-another-name"),
])
def test_a_list_handed_on_holds_what_was_put_in_last(cli, tmp_path, body, expected):
    (tmp_path / "consume.py").write_text(CONSUME)
    (tmp_path / "main.py").write_text(RECORD_HEAD + body + "    return consume(feats)\n\n\n"
                                      "print(run([torch.ones(2), torch.ones(2)], False, [[1], [2]]))\n")
    assert _findings(cli, "--select", "TL001", ".") == expected


@pytest.mark.parametrize(("steps", "expected"), [
    pytest.param("def losses(loader):\n    # (an EMA update elsewhere runs under no_grad; this loss does not)\n"
                 "    for x, y in loader:\n        loss = criterion(model(x), y)\n        yield loss\n",
                 [("TL003", 6)], id="a-generator-naming-no-grad-in-a-comment"),
    pytest.param("def losses(loader):\n    for x, y in loader:\n        out = criterion(model(x), y)\n"
                 "        with torch.no_grad():\n            loss = out\n        yield loss\n",
                 [("TL003", 6)], id="a-loss-named-again-under-no-grad"),
    pytest.param("def losses(loader):\n    for x, y in loader:\n        with torch.no_grad():\n"
                 "            with torch.enable_grad():\n                loss = criterion(model(x), y)\n        yield loss\n",
                 [("TL003", 6)], id="enable-grad-inside-no-grad"),
    # look-alike: made with autograd off
    pytest.param("def losses(loader):\n    for x, y in loader:\n        with torch.no_grad():\n"
                 "            loss = criterion(model(x), y)\n            yield loss\n", [], id="yielded-under-no-grad"),
])
def test_what_a_generator_yields_keeps_its_graph_unless_made_with_autograd_off(cli, tmp_path, steps, expected):
    (tmp_path / "steps.py").write_text("import torch\nimport torch.nn as nn\nmodel = nn.Linear(4, 1)\n"
                                       "criterion = nn.MSELoss()\n\n\n" + steps)
    (tmp_path / "train.py").write_text(
        "import torch\nfrom steps import losses\nloader = [(torch.randn(2, 4), torch.randn(2, 1)) for _ in range(3)]\n"
        "total = 0\nfor loss in losses(loader):\n    total += loss\nprint(total)\n")
    assert _findings(cli, "--select", "TL003", "train.py") == expected


@pytest.mark.parametrize(("read", "expected"), [
    pytest.param("outputs['pred']", [("TL001", 7)], id="the-dict's-tensor"),
    # look-alikes: a number under another key, a key the dict lacks
    pytest.param("outputs['n']", [], id="the-dict's-number"),
    pytest.param("outputs['other']", [], id="a-key-it-lacks"),
])
def test_a_dict_display_in_a_returned_tuple(cli, tmp_path, read, expected):
    """CCT's `forward` returns `total_loss, curr_losses, {'sup_pred': output_l}`: the dict's
    tensors at their keys, for the caller that unpacks it."""
    (tmp_path / "models.py").write_text(
        "import torch\nfrom torch import nn\n\n\nclass Net(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
        "        self.dec = nn.Conv2d(3, 2, 1)\n\n    def forward(self, x):\n        out = self.dec(x)\n"
        "        return out.sum(), {'pred': out, 'n': 3}\n")
    (tmp_path / "train.py").write_text(
        "import torch\nfrom models import Net\n\n\ndef train_step(model, x):\n    total, outputs = model(x)\n"
        f"    print({read}.data)\n\n\ntrain_step(Net(), torch.zeros(1, 3, 4, 4))\n")
    assert _findings(cli, "--select", "TL001", ".") == expected


@pytest.mark.parametrize(("other", "name", "expected"), [
    pytest.param("import torch.nn as nn\n\n\nclass Graph(nn.Module):\n    def forward(self, x):\n        return x\n",
                 '"model.{}".format(opt.model)', [("TL005", 9)], id="every-graph-a-module"),
    pytest.param("import torch.nn as nn\n\n\nclass Graph(nn.Module):\n    def forward(self, x):\n        return x\n",
                 'f"model.{opt.model}"', [("TL005", 9)], id="an-f-string"),
    pytest.param("def helper():\n    return 1\n", '"model." + opt.model', [("TL005", 9)], id="a-module-without-the-class"),
    # look-alikes: one module's class is no module, or the name is not under one package
    pytest.param("class Graph:\n    def forward(self, x):\n        return x\n", '"model.{}".format(opt.model)', [],
                 id="a-graph-of-another-kind"),
    pytest.param("def Graph(opt):\n    return None\n", '"model.{}".format(opt.model)', [], id="a-function-of-that-name"),
    pytest.param("import torch.nn as nn\n\n\nclass Graph(nn.Module):\n    pass\n", '"{}.{}".format(opt.pkg, opt.model)', [],
                 id="a-package-chosen-too"),
])
@pytest.mark.parametrize("init", [True, False], ids=["package", "namespace-package"])
def test_a_class_of_a_module_picked_by_name_in_a_package(cli, tmp_path, other, name, expected, init):
    """BARF: `graph = importlib.import_module("model.{}".format(opt.model))`, then `self.graph =
    graph.Graph(opt).to(opt.device)` and `self.graph.forward(opt, var)` (TL005)."""
    (tmp_path / "model").mkdir()
    if init:
        (tmp_path / "model" / "__init__.py").write_text("")
    (tmp_path / "model" / "nerf.py").write_text(
        "import torch.nn as nn\n\n\nclass Graph(nn.Module):\n    def __init__(self, opt):\n        super().__init__()\n\n"
        "    def forward(self, x):\n        return x\n")
    (tmp_path / "model" / "other.py").write_text(other)
    (tmp_path / "train.py").write_text(
        "import importlib\n\n\nclass Model:\n    def build(self, opt):\n"
        f"        graph = importlib.import_module({name})\n        self.graph = graph.Graph(opt).to(opt.device)\n\n"
        "        return self.graph.forward(opt.x)\n")
    assert _findings(cli, "--select", "TL005", ".") == expected


@pytest.mark.parametrize(("added", "expected"), [
    pytest.param("params += [layer.weight, layer.bias]", [("TL001", 6)], id="a-display-of-parameters"),
    # look-alikes: what is added is not known, or holds no tensor
    pytest.param("params += extra", [], id="another-list"),
    pytest.param("params += [name]", [], id="names"),
])
def test_a_method_returning_a_list_grown_by_adding_displays(cli, tmp_path, added, expected):
    """FedGen's `get_parameters_by_keyword`: `params += [layer.weight, layer.bias]` in a loop,
    `return params`; the caller's `for p in ...: p.data = ...`."""
    (tmp_path / "models.py").write_text(
        "import torch.nn as nn\n\n\nclass Net(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
        "        self.layers = nn.ModuleList([nn.Linear(4, 4), nn.Linear(4, 2)])\n        self.names = ['enc', 'dec']\n\n"
        "    def by_keyword(self, keyword, extra):\n        params = []\n"
        "        for name, layer in zip(self.names, self.layers):\n            if keyword in name:\n"
        f"                {added}\n        return params\n")
    (tmp_path / "train.py").write_text(
        "import torch\nfrom models import Net\n\nnet = Net()\nfor p in net.by_keyword('dec', []):\n    print(p.data)\n")
    assert _findings(cli, "--select", "TL001", "train.py") == expected


@pytest.mark.parametrize(("extra", "expected"), [
    pytest.param({}, [("TL005", 9)], id="only-the-module-in-the-package"),
    # look-alikes (a hostile review's): a module further down defines a function of that name, or
    # a candidate runs its own `__call__`
    pytest.param({"model/planar/__init__.py": "def Graph(opt):\n    return {}\n"}, [], id="a-subpackage's-function"),
    pytest.param({"model/deep/warp.py": "Graph = dict\n"}, [], id="a-module-further-down"),
    pytest.param({"model/other.py": "import torch.nn as nn\n\n\nclass Graph(nn.Module):\n    def __call__(self, x):\n"
                                    "        return self.forward(x) * 3\n\n    def forward(self, x):\n        return x\n"},
                 [], id="a-class-with-its-own-call"),
])
def test_a_class_picked_by_name_in_a_package_at_any_depth(cli, tmp_path, extra, expected):
    (tmp_path / "model").mkdir()
    (tmp_path / "model" / "__init__.py").write_text("")
    (tmp_path / "model" / "nerf.py").write_text(
        "import torch.nn as nn\n\n\nclass Graph(nn.Module):\n    def forward(self, x):\n        return x\n")
    for relative, text in extra.items():
        (tmp_path / relative).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / relative).write_text(text)
    (tmp_path / "train.py").write_text(
        "import importlib\n\n\nclass Model:\n    def build(self, opt):\n"
        "        graph = importlib.import_module('model.' + opt.model)\n        self.graph = graph.Graph(opt)\n\n"
        "        return self.graph.forward(opt.x)\n")
    assert _findings(cli, "--select", "TL005", ".") == expected


def test_a_value_returned_whole_and_marked_changed_is_unpacked_as_its_kind_is(cli, tmp_path):
    """conv-social-pooling's pattern across files: `forward` returns `fut, lat` in two branches (a
    list grown by `append` in one, so the name is marked changed) and `fut` whole in a third; the
    caller's `fut, lat = net(x)` gets `lat` a tensor. A list returned whole instead stays silent."""
    (tmp_path / "model.py").write_text(
        "import torch\nimport torch.nn as nn\n\n\nclass Net(nn.Module):\n"
        "    def __init__(self):\n        super().__init__()\n        self.fc = nn.Linear(2, 2)\n"
        "        self.flag, self.train_flag = True, True\n\n"
        "    def forward(self, x):\n        if self.flag:\n            lat = torch.softmax(self.fc(x), dim=1)\n"
        "            if self.train_flag:\n                fut = self.fc(x)\n                return fut, lat\n"
        "            else:\n                fut = []\n                for k in range(3):\n"
        "                    fut.append(self.fc(x) * k)\n                return fut, lat\n"
        "        else:\n            fut = WHOLE\n            return fut\n")
    (tmp_path / "train.py").write_text(
        "import torch\nfrom model import Net\n\nnet = Net()\nfut, lat = net(torch.ones(4, 2))\nprint(lat.data)\n")
    model = (tmp_path / "model.py").read_text()
    (tmp_path / "model.py").write_text(model.replace("WHOLE", "self.fc(x)"))
    found = cli("check", "--select", "TL001", "--no-cache", "--output-format", "json", str(tmp_path))
    assert [(Path(d["path"]).name, d["line"]) for d in json.loads(found.output)] == [("train.py", 6)]
    (tmp_path / "model.py").write_text(model.replace("WHOLE", "[1.0, 2.0]"))
    assert _findings(cli, "--select", "TL001", str(tmp_path)) == []


def test_a_loader_given_the_collate_method_of_a_dataset_of_another_module(cli, tmp_path):
    """conv-social-pooling: `trSet = ngsimDataset(...)` from utils.py, `DataLoader(trSet, ...,
    collate_fn=trSet.collate_fn)`: the batch's elements are the tensors the method returns."""
    (tmp_path / "utils.py").write_text(
        "import torch\nfrom torch.utils.data import Dataset\n\n\nclass Pairs(Dataset):\n"
        "    def __len__(self):\n        return 8\n\n    def __getitem__(self, i):\n        return i\n\n"
        "    def collate_fn(self, samples):\n        x = torch.zeros(len(samples), 2)\n        RETURN\n")
    (tmp_path / "train.py").write_text(
        "from torch.utils.data import DataLoader\nfrom utils import Pairs\n\nds = Pairs()\n"
        "loader = DataLoader(ds, batch_size=4, collate_fn=ds.collate_fn)\nfor x, y in loader:\n    print(y.data)\n")
    utils = (tmp_path / "utils.py").read_text()
    (tmp_path / "utils.py").write_text(utils.replace("RETURN", "return x, torch.zeros(len(samples))"))
    assert _findings(cli, "--select", "TL001", str(tmp_path)) == [("TL001", 7)]
    (tmp_path / "utils.py").write_text(utils.replace("RETURN", "return x, [len(s) for s in samples]"))
    assert _findings(cli, "--select", "TL001", str(tmp_path)) == []


def test_a_dataset_s_collate_method_replaced_from_another_module_says_nothing(cli, tmp_path):
    """`ds.collate_fn = ds.packed` in a helper module: the loader's batches are not the method's."""
    (tmp_path / "data.py").write_text(
        "import torch\nfrom torch.utils.data import Dataset\n\n\nclass Pairs(Dataset):\n"
        "    def __len__(self):\n        return 8\n\n    def __getitem__(self, i):\n        return i\n\n"
        "    def collate_fn(self, samples):\n        return torch.zeros(2), torch.zeros(2)\n\n"
        "    def packed(self, samples):\n        return samples\n")
    (tmp_path / "setup_data.py").write_text("def pack(ds):\n    ds.collate_fn = ds.packed\n")
    (tmp_path / "train.py").write_text(
        "from torch.utils.data import DataLoader\nfrom data import Pairs\nfrom setup_data import pack\n\nds = Pairs()\n"
        "pack(ds)\nloader = DataLoader(ds, collate_fn=ds.collate_fn)\nfor x, y in loader:\n    print(y.data)\n")
    assert _findings(cli, "--select", "TL001", str(tmp_path)) == []


@pytest.mark.parametrize(("frozen", "expected"), [
    ("        with torch.no_grad():\n            out = self.backbone(x)\n", []),
    ("        out = self.backbone(x)\n", [("TL003", 9)]),
])
def test_a_tuple_computed_with_autograd_off_has_no_graph_in_its_elements(cli, tmp_path, frozen, expected):
    """`with torch.no_grad(): out = self.backbone(x)`, `return out` (a tuple of losses): what the
    caller unpacks from it carries no graph, so summing it keeps none (a review's program)."""
    (tmp_path / "lib.py").write_text(
        "import torch\nimport torch.nn as nn\n\n\nclass Backbone(nn.Module):\n    def __init__(self):\n"
        "        super().__init__()\n        self.fc = nn.Linear(4, 1)\n\n    def forward(self, x):\n"
        "        return self.fc(x).sum(), self.fc(x).mean()\n\n\nclass Frozen(nn.Module):\n    def __init__(self):\n"
        "        super().__init__()\n        self.backbone = Backbone()\n\n    def forward(self, x):\n" + frozen +
        "        return out\n")
    (tmp_path / "main.py").write_text(
        "import torch\nfrom lib import Frozen\n\nm = Frozen()\ntotal_loss = 0\nfor i in range(3):\n"
        "    x = torch.randn(2, 4)\n    loss, aux = m(x)\n    total_loss += loss\nprint(total_loss)\n")
    assert _findings(cli, "--select", "TL003", str(tmp_path)) == expected


def test_a_method_of_another_module_overridden_by_a_subclass_unpacks_to_nothing_known(cli, tmp_path):
    """`x, y = ds.collate(b)` with `ds` a base's instance in the caller's reading, where a project
    subclass defines `collate` again: which one runs is not known where `ds` may be either."""
    (tmp_path / "data.py").write_text(
        "import torch\nfrom torch.nn.utils.rnn import pack_sequence\n\n\nclass DS:\n"
        "    def collate(self, batch):\n        return torch.stack(batch), torch.stack(batch)\n\n"
        "    def show(self, b):\n        x, y = self.collate(b)\n        print(x.data)\n\n\n"
        "class Packed(DS):\n    def collate(self, batch):\n        return pack_sequence(batch), torch.stack(batch)\n")
    (tmp_path / "main.py").write_text("import torch\nfrom data import Packed\n\nPacked().show([torch.ones(2)])\n")
    assert _findings(cli, "--select", "TL001", str(tmp_path)) == []


@pytest.mark.parametrize(("elsewhere", "expected"), [
    ("def reset(h, state):\n    h.__init__(state)\n", []),  # any class's constructor may run there
    ("import os\n\nINIT = os.path.join('pkg', '__init__.py')\n", [("TL004", 9)]),  # a word, not a call
    ("class Other:\n    def __init__(self):\n        super().__init__()\n", [("TL004", 9)]),
    ("import inspect\n\ndef arity(cls):\n    return len(inspect.signature(cls.__init__).parameters)\n", [("TL004", 9)]),
    # in another class's method, on a receiver that is not its own instance
    ("class Resetter:\n    def reset(self, h, state):\n        h.__init__(state)\n", []),
    ("import sys\n\n\nclass Resetter:\n    if sys.version_info >= (3,):\n        def reset(self, h, state):\n"
     "            h.__init__(state)\n", []),
    ("class Resetter:\n    def reset(self, state):\n        self.h.__init__(state)\n", []),
    # its own instance's constructor, or a base's on its own instance
    ("class Other:\n    def reset(self):\n        self.__init__()\n", [("TL004", 9)]),
    ("class Base:\n    pass\n\n\nclass Sub(Base):\n    def __init__(self):\n        Base.__init__(self)\n", [("TL004", 9)]),
    ("class Sub(object):\n    def __init__(self):\n        super(Sub, self).__init__()\n", [("TL004", 9)]),
])
def test_a_constructor_run_again_on_another_object_leaves_its_parameters_unknown(cli, tmp_path, elsewhere, expected):
    """`def reset(h, s): h.__init__(s)` in any module, or in another class's method: the instance
    it is given may be of any class, its constructor run with values no call shows (a review's program: `Holder(net)`, then
    `reset(h, state_dict)`, then `torch.save(self.m)` saves the dict)."""
    (tmp_path / "holder.py").write_text(
        "import torch\n\n\nclass Holder:\n    def __init__(self, m):\n        self.m = m\n\n"
        "    def dump(self, path):\n        torch.save(self.m, path)\n")
    (tmp_path / "tools.py").write_text(elsewhere)
    (tmp_path / "main.py").write_text(
        "import torch.nn as nn\nfrom holder import Holder\n\nh = Holder(nn.Linear(2, 2))\nh.dump('h.pt')\n")
    assert [(code, line) for code, line in _findings(cli, "--select", "TL004", str(tmp_path))] == expected


def test_an_attribute_bound_to_a_nested_function_beside_an_instance_does_not_break_the_rule(cli, tmp_path):
    """`self.log = log` with `log` a function defined in `__init__`, in the class whose other
    attribute holds the module: asking who calls the module's `forward` read the nested
    function's binding (which has no description) as a parameter's (an internal error in TL001
    on BEGAN-pytorch's models.py)."""
    (tmp_path / "models.py").write_text(
        "import torch\nfrom torch import nn\n\n\nclass Net(nn.Module):\n    def __init__(self):\n"
        "        super().__init__()\n        self.fc = nn.Linear(4, 4)\n\n    def forward(self, x):\n"
        "        if isinstance(x.data, torch.cuda.FloatTensor):\n            pass\n        return self.fc(x)\n")
    (tmp_path / "trainer.py").write_text(
        "import torch\nfrom models import Net\n\n\nclass Trainer:\n    def __init__(self):\n        self.net = Net()\n\n"
        "        def log(tag, value):\n            print(tag, value)\n\n        self.log = log\n\n"
        "    def train(self, x):\n        self.log('step', 0)\n        return self.net(torch.randn(2, 4))\n")
    result = cli("check", "--no-cache", "--select", "TL001", "--output-format", "json", ".")
    assert "internal error" not in result.output
    assert [(d["path"], d["line"]) for d in json.loads(result.stdout)] == [("models.py", 11)]


@pytest.mark.parametrize(("annotation", "passed", "expected"), [
    ("Dict", "{'loss': loss, 'other': loss + loss}", [("TL001", 10)]),
    ("dict", "{'loss': loss}", [("TL001", 10)]),
    ("Mapping[str, float]", "{'loss': loss}", [("TL001", 10)]),
    # what the callers pass says nothing of tensors, or is not the container annotated
    ("Dict", "{'loss': loss.item()}", []),
    ("List", "{'loss': loss}", []),
    ("Dict", "dict(loss=loss)", []),
    ("Dict", "stats", []),
])
def test_a_bare_container_annotation_keeps_what_the_callers_pass(cli, tmp_path, annotation, passed, expected):
    """`def log(self, losses: Dict = None)`: the annotation says a dict and nothing of its values;
    the call sites say the rest (PyTorch-CycleGAN's Logger.log)."""
    (tmp_path / "utils.py").write_text(
        "from typing import Dict, List, Mapping\n\n\nclass Logger:\n    def __init__(self):\n        self.losses = {}\n\n"
        f"    def log(self, losses: {annotation} = None):\n"
        "        for name in losses.keys():\n            self.losses[name] = losses[name].data.item()\n")
    (tmp_path / "train.py").write_text(
        "import torch\nfrom utils import Logger\n\nnet = torch.nn.Linear(4, 4)\nlogger = Logger()\nstats = load()\n"
        "for step in range(3):\n    loss = torch.nn.functional.mse_loss(net(torch.randn(2, 4)), torch.randn(2, 4))\n"
        f"    loss.backward()\n    logger.log({passed})\n")
    assert _findings(cli, "--select", "TL001", str(tmp_path)) == expected


_TEMPLATE_BASE = (
    "import torch\nfrom torch import nn\n\n\nclass BaseModel(nn.Module):\n    def forward(self, x):\n"
    "        return self.main(x)\n\n\n")
_TEMPLATE_NET = (
    "class Net(BaseModel):\n    def __init__(self):\n        super().__init__()\n"
    "        self.fc = nn.Linear(4, 4)\n\n    def main(self, x):\n        return self.fc(x)\n")


@pytest.mark.parametrize(("models", "expected"), [
    (_TEMPLATE_BASE + _TEMPLATE_NET, [("TL001", 5)]),
    # two subclasses agreeing on a tensor
    (_TEMPLATE_BASE + _TEMPLATE_NET + "\n\nclass Other(BaseModel):\n    def main(self, x):\n        return torch.tanh(x)\n",
     [("TL001", 5)]),
    # look-alikes: a subclass returning a pair; the name given by a decorator, a binding, a mixin
    # or `__getattr__`; a base outside the project that may define it
    (_TEMPLATE_BASE + _TEMPLATE_NET + "\n\nclass Pair(BaseModel):\n    def main(self, x):\n        return x, x\n", []),
    (_TEMPLATE_BASE + _TEMPLATE_NET + "\n\nclass Prop(BaseModel):\n    @property\n    def main(self):\n        return len\n", []),
    (_TEMPLATE_BASE + _TEMPLATE_NET + "\n\nclass Bound(BaseModel):\n    def __init__(self):\n        super().__init__()\n"
     "        self.main = print\n", []),
    (_TEMPLATE_BASE + _TEMPLATE_NET + "\n\nclass Mixed(Helpers, BaseModel):\n    pass\n", []),
    (_TEMPLATE_BASE + _TEMPLATE_NET + "\n\nclass Proxy(BaseModel):\n    def __getattr__(self, name):\n        return print\n", []),
    (_TEMPLATE_BASE.replace("class BaseModel(nn.Module)", "class BaseModel(Helpers, nn.Module)") + _TEMPLATE_NET, []),
])
def test_a_method_only_subclasses_define_returns_what_they_agree_on(cli, tmp_path, models, expected):
    """`BaseModel.forward` returning `self.main(x)`, with `main` defined only by the subclasses
    (BEGAN-pytorch): calling a subclass's instance runs one of their `main`s."""
    (tmp_path / "models.py").write_text("from helpers import Helpers\n" + models)
    (tmp_path / "helpers.py").write_text("from somewhere import Helpers\n")
    (tmp_path / "train.py").write_text(
        "import torch\nfrom models import Net\n\nout = Net()(torch.randn(2, 4))\nprint(out.data)\n")
    assert _findings(cli, "--select", "TL001", str(tmp_path)) == expected


def test_a_method_only_subclasses_define_is_read_in_the_file_too(cli, tmp_path):
    (tmp_path / "models.py").write_text(
        _TEMPLATE_BASE + _TEMPLATE_NET + "\n\nout = Net()(torch.randn(2, 4))\nprint(out.data)\n")
    assert _findings(cli, "--select", "TL001", str(tmp_path)) == [("TL001", 20)]


@pytest.mark.parametrize(("own", "expected"), [
    # a method named as the submodule the base's `forward` calls: it wins over `_modules`
    ("    def crit(self, out, y):\n        return float(((out - y) ** 2).mean())\n", []),
    # what calling an instance runs
    ("    def _call_impl(self, *args, **kwargs):\n        return 1.0\n", []),
    ("    def __getattribute__(self, name):\n        return super().__getattribute__(name)\n", []),
    # a method changing the submodule the base reads through `_modules` or `vars()`
    ("    def swap(self):\n        self._modules['crit'] = abs\n", []),
    ("    def swap(self):\n        vars(self)['crit'] = abs\n", []),
    # the look-alike that stays found: a helper method the base's code never reads
    ("    def describe(self):\n        return 'scored'\n", [("TL003", 9)]),
])
def test_a_subclass_inheriting_forward_is_read_as_its_base_only_without_a_method_the_base_reads(cli, tmp_path, own, expected):
    """`class Scored(Base)` inheriting `forward`, with a method of its own named as what the
    base's code reads (a review's program: `total += model(x, y)` was a false TL003 whose safe
    fix broke the program); across files and in one."""
    base = ("import torch.nn as nn\n\n\nclass Base(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
            "        self.fc = nn.Linear(4, 1)\n        self.crit = nn.MSELoss()\n\n    def forward(self, x, y):\n"
            "        return self.crit(self.fc(x), y)\n")
    loop = "total = 0\nfor x, y in loader:\n    loss = model(x, y)\n    total += loss\nprint(total)\n"
    (tmp_path / "base.py").write_text(base)
    (tmp_path / "a.py").write_text("from base import Base\n\n\nclass Scored(Base):\n" + own)
    (tmp_path / "train.py").write_text("import torch\nfrom a import Scored\n\n\nmodel = Scored()\n" + loop)
    assert _findings(cli, "--select", "TL003", "train.py") == expected
    lines = (base + "\n\nclass Scored(Base):\n" + own + "\n\nmodel = Scored()\n").count("\n")
    (tmp_path / "one.py").write_text(base + "\n\nclass Scored(Base):\n" + own + "\n\nmodel = Scored()\n" + loop)
    assert _findings(cli, "--select", "TL003", "one.py") == [(code, lines + 4) for code, _ in expected]


@pytest.mark.parametrize(("stub", "other", "expected"), [
    ("raise NotImplementedError", "", [("TL005", 15)]),
    # another subclass's network is a plain class with a `forward`, or not known
    ("raise NotImplementedError", "\n\nclass Plain:\n    def forward(self, x):\n        return x\n\n\nclass Other(BaseGAN):\n"
     "    def getNetD(self):\n        return Plain()\n", []),
    ("raise NotImplementedError", "\n\nclass Other(BaseGAN):\n    def getNetD(self):\n        return build()\n", []),
    # a stub that returns None: an instance of the base itself gets None (a review's program)
    ("pass", "", []),
    ("raise NotImplementedError\n\n    def getNetD(self):\n        return self.state_dict()", "", []),
])
def test_a_stub_method_the_subclasses_define_gives_what_their_definitions_agree_on(cli, tmp_path, stub, other, expected):
    """`def getNetD(self): raise NotImplementedError` in the base, the network built by each
    subclass's override: the call never returns on an instance of the base itself, so it gives
    what the overrides agree on. Not for a stub that returns None (`pass`: pytorch_GAN_zoo's
    BaseGAN stays missed), nor a method defined twice."""
    (tmp_path / "base.py").write_text(
        "import torch.nn as nn\n\n\nclass BaseGAN:\n    def __init__(self):\n        self.netD = self.getNetD()\n\n"
        f"    def getNetD(self):\n        r\"\"\"Defined by the subclasses.\"\"\"\n        {stub}\n\n"
        "    def step(self, x):\n        if x is None:\n            return None\n        return self.netD.forward(x)\n")
    (tmp_path / "pgan.py").write_text(
        "import torch.nn as nn\nfrom base import BaseGAN\n\n\nclass DNet(nn.Module):\n    def __init__(self):\n"
        "        super().__init__()\n        self.fc = nn.Linear(4, 1)\n\n    def forward(self, x):\n        return self.fc(x)\n\n\n"
        "class ProgressiveGAN(BaseGAN):\n    def getNetD(self):\n        return DNet()\n" + other)
    assert _findings(cli, "--select", "TL005", str(tmp_path)) == expected
