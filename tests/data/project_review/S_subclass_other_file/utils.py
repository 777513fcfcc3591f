import torch
class Saver:
    def save_raw(self, state, filename):
        torch.save(state, filename)
    def checkpoint(self, net, filename):
        self.save_raw({'epoch': 1, 'model': net}, filename)
class CleanSaver(Saver):
    def save_raw(self, state, filename):
        state['model'] = state['model'].state_dict()
        super().save_raw(state, filename)
