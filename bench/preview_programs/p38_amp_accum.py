import torch
import torch.nn as nn


def train(model, loader, optimizer, accum_steps=4, clip=1.0, device="cuda"):
    scaler = torch.amp.GradScaler("cuda")
    model.train()
    optimizer.zero_grad(set_to_none=True)
    for it, (x, y) in enumerate(loader):
        x, y = x.to(device), y.to(device)
        with torch.autocast("cuda", dtype=torch.bfloat16):
            loss = nn.functional.cross_entropy(model(x), y) / accum_steps
        scaler.scale(loss).backward()
        if (it + 1) % accum_steps == 0:
            scaler.unscale_(optimizer)
            torch.nn.utils.clip_grad_norm_(model.parameters(), clip)
            scaler.step(optimizer)
            scaler.update()
            optimizer.zero_grad(set_to_none=True)


def train_no_unscale(model, loader, optimizer, accum_steps=4, clip=1.0, device="cuda"):
    scaler = torch.amp.GradScaler("cuda")
    model.train()
    for it, (x, y) in enumerate(loader):
        x, y = x.to(device), y.to(device)
        with torch.autocast("cuda", dtype=torch.float16):
            loss = nn.functional.cross_entropy(model(x), y) / accum_steps
        scaler.scale(loss).backward()
        if (it + 1) % accum_steps == 0:
            torch.nn.utils.clip_grad_norm_(model.parameters(), clip)  # expect: TL623
            scaler.step(optimizer)
            scaler.update()
            optimizer.zero_grad(set_to_none=True)


if __name__ == "__main__":
    net = nn.Linear(32, 4).cuda()
    opt = torch.optim.AdamW(net.parameters(), lr=1e-3)
    data = [(torch.randn(8, 32), torch.randint(0, 4, (8,))) for _ in range(8)]
    train(net, data, opt)
    train_no_unscale(net, data, opt)
