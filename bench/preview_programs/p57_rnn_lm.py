"""Word-level LM with truncated BPTT and a hand-written SGD update: must stay silent."""
import torch
import torch.nn as nn


class RNNModel(nn.Module):
    def __init__(self, ntoken=100, ninp=32, nhid=32):
        super().__init__()
        self.drop = nn.Dropout(0.2)
        self.encoder = nn.Embedding(ntoken, ninp)
        self.rnn = nn.LSTM(ninp, nhid)
        self.decoder = nn.Linear(nhid, ntoken)

    def forward(self, inp, hidden):
        output, hidden = self.rnn(self.drop(self.encoder(inp)), hidden)
        return self.decoder(self.drop(output)), hidden

    def init_hidden(self, bsz):
        w = next(self.parameters())
        return (w.new_zeros(1, bsz, 32), w.new_zeros(1, bsz, 32))


def repackage_hidden(h):
    if isinstance(h, torch.Tensor):
        return h.detach()
    return tuple(repackage_hidden(v) for v in h)


model = RNNModel()
criterion = nn.NLLLoss()
lr, clip, bptt = 20.0, 0.25, 35
data = torch.randint(0, 100, (500, 4))
for epoch in range(2):
    model.train()
    hidden = model.init_hidden(4)
    for i in range(0, data.size(0) - 1, bptt):
        seq_len = min(bptt, len(data) - 1 - i)
        inp, target = data[i:i + seq_len], data[i + 1:i + 1 + seq_len].reshape(-1)
        hidden = repackage_hidden(hidden)
        model.zero_grad()
        output, hidden = model(inp, hidden)
        loss = criterion(torch.log_softmax(output.view(-1, 100), dim=-1), target)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), clip)
        for p in model.parameters():
            p.data.add_(p.grad, alpha=-lr)
