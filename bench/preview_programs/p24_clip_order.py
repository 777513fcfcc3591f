import torch
import torch.nn as nn


class Seq2Seq(nn.Module):
    def __init__(self, vocab=50, hidden=32):
        super().__init__()
        self.embed = nn.Embedding(vocab, hidden)
        self.rnn = nn.GRU(hidden, hidden, batch_first=True)
        self.out = nn.Linear(hidden, vocab)

    def forward(self, src):
        h, _ = self.rnn(self.embed(src))
        return self.out(h)


def train(model, batches, optimizer, clip=1.0):
    model.train()
    criterion = nn.CrossEntropyLoss(ignore_index=0)
    epoch_loss = 0.0
    for src, trg in batches:
        optimizer.zero_grad()
        output = model(src)
        loss = criterion(output.reshape(-1, output.size(-1)), trg.reshape(-1))
        torch.nn.utils.clip_grad_norm_(model.parameters(), clip)  # expect: TL622
        loss.backward()
        optimizer.step()
        epoch_loss += loss.item()
    return epoch_loss / len(batches)


def train_ok(model, batches, optimizer, clip=1.0):
    model.train()
    criterion = nn.CrossEntropyLoss(ignore_index=0)
    for src, trg in batches:
        optimizer.zero_grad()
        output = model(src)
        loss = criterion(output.reshape(-1, output.size(-1)), trg.reshape(-1))
        loss.backward()
        torch.nn.utils.clip_grad_value_(model.parameters(), clip)
        optimizer.step()


if __name__ == "__main__":
    model = Seq2Seq()
    optimizer = torch.optim.Adam(model.parameters())
    batches = [(torch.randint(1, 50, (4, 7)), torch.randint(0, 50, (4, 7))) for _ in range(3)]
    train(model, batches, optimizer)
    train_ok(model, batches, optimizer)
