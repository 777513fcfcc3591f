import torch
def save_checkpoint(state, filename):
    for value in state.values():
        pass
    list(map(state.pop, ['model']))
    torch.save(state, filename)
