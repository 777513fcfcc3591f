import torch
class Saver:
    def save_raw(self, state, filename):
        torch.save(state, filename)
class CleanSaver(Saver):
    def save_raw(self, state, filename):
        state['model'] = state['model'].state_dict()
        super().save_raw(state, filename)
