import torch
import torch.nn as nn
import torch.nn.functional as F


class LSTMTagger(nn.Module):
    def __init__(self, embedding_dim, hidden_dim, vocab_size, tagset_size):
        super().__init__()
        self.word_embeddings = nn.Embedding(vocab_size, embedding_dim)
        self.lstm = nn.LSTM(embedding_dim, hidden_dim)
        self.hidden2tag = nn.Linear(hidden_dim, tagset_size)

    def forward(self, sentence):
        embeds = self.word_embeddings(sentence)
        lstm_out, _ = self.lstm(embeds.view(len(sentence), 1, -1))
        tag_space = self.hidden2tag(lstm_out.view(len(sentence), -1))
        return F.log_softmax(tag_space, dim=1)


model = LSTMTagger(6, 6, 100, 3)
loss_function = nn.NLLLoss()
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
data = [(torch.randint(0, 100, (5,)), torch.randint(0, 3, (5,))) for _ in range(4)]

for epoch in range(10):
    for sentence, tags in data:
        model.zero_grad()
        tag_scores = model(sentence)
        loss = loss_function(tag_scores, tags)
        loss.backward()
        optimizer.step()

head = nn.Linear(6, 3)
feats = torch.randn(5, 6)
targets = torch.randint(0, 3, (5,))
probs = F.softmax(head(feats), dim=1)
nll = F.nll_loss(probs, targets)  # expect: TL522
ce = F.cross_entropy(F.log_softmax(head(feats), dim=1), targets)  # expect: TL524
ok = F.nll_loss(torch.log_softmax(head(feats), dim=-1), targets)
print(nll.item(), ce.item(), ok.item())
