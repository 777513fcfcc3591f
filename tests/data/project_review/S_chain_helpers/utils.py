import torch
def _write(state, filename):
    torch.save(state, filename)
def save_checkpoint(state, filename):
    state['model'] = state['model'].state_dict()
    _write(state, filename)
