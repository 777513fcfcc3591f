import losses
def boxed(a, b):
    return losses.Box(a - b)
losses.symmetric_mse_loss = boxed
