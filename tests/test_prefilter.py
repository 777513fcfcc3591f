"""The file gates rules declare: which texts are parsed at all for a rule."""

from __future__ import annotations

import pytest

from torchlint.rules.registry import rule_by_code


@pytest.mark.parametrize(
    ("code", "text", "passes"),
    [
        ("TL001", "w = p.data\n", True),
        ("TL001", "from torch.utils.data import DataLoader\n", False),
        ("TL001", "x = self.data\n", False),
        ("TL001", "x = myself.data\n", True),
        ("TL001", "x = p.data_ptr()\n", False),
        ("TL002", "m = nn.DataParallel(m)\n", True),
        ("TL002", "from torch.nn import DataParallel as DP\n", True),
        ("TL002", "m = DistributedDataParallel(m)\n", False),
        ("TL002", "isinstance(m, nn.DataParallel)\n", False),
        ("TL002", "y = data_parallel(m, x)\n", True),
        ("TL004", "torch.save(model, p)\n", True),
        ("TL004", "th.save (model, p)\n", True),
        ("TL004", "mytorch.save(model, p)\n", False),
        ("TL004", "from torch import load, save\n", True),
        ("TL004", "np.save(p, a)\n", False),
        ("TL005", "y = m.forward (x)\n", True),
        ("TL005", "f = m.forward\n", False),
        # a deprecated symbol with a common last name: each way a file can spell it
        ("TL302", "y = torch.norm(x)\n", True),
        ("TL302", "import torch as th\ny = th.norm(x)\n", True),
        ("TL302", "import os, torch as th\nr = th.range(3)\n", True),
        ("TL302", "from torch.cuda import amp as A\nwith A.autocast():\n    pass\n", True),
        ("TL302", "from torch import (\n    Tensor,\n    norm,\n)\n", True),
        ("TL302", "from functorch import vmap\n", True),
        ("TL302", "import numpy as np\ny = np.linalg.norm(x)\n", False),
        ("TL302", "import torch\ny = x.norm()\nfor i in range(3):\n    pass\n", False),
        ("TL302", "from torch import Tensor\nfor i in range(3):\n    pass\n", False),
        ("TL502", "from torch import exp as e\ny = e(x) - 1\n", True),
        ("TL502", "import torch\ny = torch.exp (x) - 1\n", True),
        ("TL502", "y = x.expand(3) - 1\n", False),
        ("TL501", "import logging\nlogger = logging.getLogger()\n", False),
        ("TL201", "import json\nwith open(p) as f:\n    cfg = json.load(f)\n", True),
        ("TL201", "from x import loader\ndownload_url(u)\n", False),
    ],
)
def test_trigger_patterns(code, text, passes):
    assert rule_by_code(code).could_fire(text) is passes


@pytest.mark.parametrize(
    ("text", "passes"),
    [
        ("for b in data:\n    total += loss\n", True),
        ("for b in data:\n    history.append(criterion(out, y))\n", True),
        ("import x as loss_fn\nfor b in data:\n    total = total + Loss\n", True),  # the word in any case
        ("for b in data:\n    total += x  # loss\n", False),  # only in a comment
        ("for b in data:\n    # total += loss\n", False),
        ("loss = f(x)\nfor b in data:\n    total += x\n", False),  # not on the accumulating line
        ("logits = m(x)\nhistory.append(y)\n", False),
        ("for b in data:\n    total =\\\n        total + loss\n", False),  # the accumulation spans lines
    ],
)
def test_tl003_gate_wants_a_line_that_accumulates_a_loss(text, passes):
    assert rule_by_code("TL003").could_fire(text) is passes
