"""A sentence classifier over padded batches packed with `pack_padded_sequence` (the PyTorch
NLP tutorials' shape). An optional projection is `nn.Identity()` when disabled and receives the
PackedSequence (review W11); the per-token statistics read the packed `.data`. Accuracy is
computed the pre-0.4 way, through `output.data.max(1)`."""

import torch
import torch.nn as nn
from torch.nn.utils.rnn import pack_padded_sequence

torch.set_num_threads(1)
torch.manual_seed(0)


class SentenceClassifier(nn.Module):
    def __init__(self, vocab_size, embed_dim, hidden_dim, num_classes, input_dropout=0.0):
        super().__init__()
        self.embedding = nn.Embedding(vocab_size, embed_dim, padding_idx=0)
        self.input_dropout = nn.Dropout(input_dropout) if input_dropout > 0 else nn.Identity()
        self.rnn = nn.GRU(embed_dim, hidden_dim, batch_first=True)
        self.fc = nn.Linear(hidden_dim, num_classes)

    def forward(self, tokens, lengths):
        packed = pack_padded_sequence(self.embedding(tokens), lengths, batch_first=True, enforce_sorted=False)
        packed = self.input_dropout(packed)
        packed_out, hidden = self.rnn(packed)
        token_norm = packed_out.data.norm(dim=-1).mean()
        return self.fc(hidden[-1]), token_norm


model = SentenceClassifier(vocab_size=20, embed_dim=6, hidden_dim=8, num_classes=2)
optimizer = torch.optim.Adam(model.parameters(), lr=0.05)
criterion = nn.CrossEntropyLoss()
lengths = torch.tensor([5, 3, 4, 2, 5, 1])
tokens = torch.randint(1, 20, (6, 5)) * (torch.arange(5) < lengths[:, None])
labels = torch.tensor([0, 1, 0, 1, 1, 0])

augment = nn.Identity()  # no token augmentation in this configuration
batch = augment(pack_padded_sequence(model.embedding(tokens), lengths, batch_first=True, enforce_sorted=False))
print("packed_tokens:", type(batch).__name__, list(batch.data.shape))

for epoch in range(4):
    output, token_norm = model(tokens, lengths)
    loss = criterion(output, labels)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    pred = output.data.max(1, keepdim=True)[1]
    correct = pred.eq(labels.data.view_as(pred)).sum().item()
    print(f"epoch{epoch}.loss:", loss.item())
    print(f"epoch{epoch}.correct:", correct)
    print(f"epoch{epoch}.token_norm:", token_norm.item())
