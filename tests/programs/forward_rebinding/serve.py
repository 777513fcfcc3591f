"""A small serving script: module-level placeholders (`nn.Identity()`) are rebound to plain
wrapper objects through `global`, a walrus and `nonlocal` (review W6). The wrappers' `forward`
returns raw logits and their `__call__` post-processed scores, so `.forward` is meant."""

import torch
import torch.nn as nn

torch.set_num_threads(1)
torch.manual_seed(0)


class TTAPredictor:
    """Test-time augmentation: `forward` gives raw logits, calling it the averaged probabilities."""

    def __init__(self, model):
        self.model = model

    def forward(self, x):
        return self.model(x)

    def __call__(self, x):
        return (self.forward(x).softmax(-1) + self.forward(x.flip(-1)).softmax(-1)) / 2


class TemperatureScaler:
    def __init__(self, model, temperature):
        self.model, self.temperature = model, temperature

    def forward(self, x):
        return self.model(x) / self.temperature

    def __call__(self, x):
        return self.forward(x).softmax(-1)


backbone = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 3)).eval()
batch = torch.randn(3, 4)

predictor = nn.Identity()  # replaced by load_predictor()


def load_predictor():
    global predictor
    predictor = TTAPredictor(backbone)


def build_calibrated(temperature):
    return TemperatureScaler(backbone, temperature) if temperature > 0 else None


def score_lazily(x):
    scorer = nn.Identity()

    def warm_up():
        nonlocal scorer
        scorer = TTAPredictor(backbone)

    warm_up()
    return scorer.forward(x)


with torch.no_grad():
    load_predictor()
    print("global.logits:", predictor.forward(batch).tolist())
    calibrated = nn.Identity()
    if (calibrated := build_calibrated(2.0)) is not None:
        print("walrus.logits:", calibrated.forward(batch).tolist())
    print("nonlocal.logits:", score_lazily(batch).tolist())
    print("probabilities:", predictor(batch).tolist())
    print("backbone.logits:", backbone.forward(batch).tolist())
