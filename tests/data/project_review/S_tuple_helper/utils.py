import torch
import operator
def save_checkpoint(state, filename):
    convert_all((state,))
    torch.save(state, filename)

def convert(d):
    d['model'] = d['model'].state_dict()
def convert_all(ds):
    for d in ds:
        d['model'] = d['model'].state_dict()
class Ctx:
    def __init__(self, d): self.d = d
    def __enter__(self): self.d['model'] = self.d['model'].state_dict()
    def __exit__(self, *a): pass
class _H:
    def strip(self): self.state['model'] = self.state['model'].state_dict()
holder = _H()
