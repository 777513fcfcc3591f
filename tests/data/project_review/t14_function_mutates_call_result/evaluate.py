def evaluate(net, x, y):
    res = net(x, y)
    res["mse"] = res["mse"].item()
    return res
