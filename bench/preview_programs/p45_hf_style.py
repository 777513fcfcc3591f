"""A transformer fine-tuning loop written without the Trainer."""
import torch
from torch.utils.data import DataLoader
from tqdm.auto import tqdm


def evaluate(model, eval_dataloader, device):
    model.eval()
    all_logits = []
    for batch in eval_dataloader:
        batch = {k: v.to(device) for k, v in batch.items()}
        outputs = model(**batch)  # expect: TL626
        all_logits.append(outputs.logits)
    return torch.cat(all_logits)


def train(model, train_dataloader: DataLoader, eval_dataloader: DataLoader, num_epochs=3, device="cuda"):
    optimizer = torch.optim.AdamW(model.parameters(), lr=5e-5)
    num_training_steps = num_epochs * len(train_dataloader)
    lr_scheduler = torch.optim.lr_scheduler.LinearLR(optimizer, 1.0, 0.0, total_iters=num_training_steps)
    model.to(device)
    progress_bar = tqdm(range(num_training_steps))
    for epoch in range(num_epochs):
        model.train()
        for batch in train_dataloader:
            batch = {k: v.to(device) for k, v in batch.items()}
            outputs = model(**batch)
            loss = outputs.loss
            loss.backward()
            optimizer.step()
            lr_scheduler.step()
            optimizer.zero_grad()
            progress_bar.update(1)
        logits = evaluate(model, eval_dataloader, device)
        print(epoch, logits.shape)
