"""Loads the DataParallel checkpoint into a bare model, stripping the `module.` prefix."""

import os

import torch

from net import Classifier

state = torch.load(os.path.join("out", "dp_weights.pt"), weights_only=True)
print("checkpoint_keys:", sorted(state))
model = Classifier()
model.load_state_dict({key[len("module.") :]: value for key, value in state.items()})
model.eval()
with torch.no_grad():
    print("eval.logits:", model(torch.ones(2, 4)).tolist())
