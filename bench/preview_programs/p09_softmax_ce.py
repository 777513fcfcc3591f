import torch
import torch.nn as nn
import torch.nn.functional as F


class TextClassifier(nn.Module):
    def __init__(self, vocab, dim, n_classes):
        super().__init__()
        self.emb = nn.EmbeddingBag(vocab, dim)
        self.fc = nn.Linear(dim, n_classes)

    def forward(self, text, offsets):
        return self.fc(self.emb(text, offsets))


def train_step(model, criterion, optimizer, text, offsets, label):
    optimizer.zero_grad()
    logits = model(text, offsets)
    probs = F.softmax(logits, dim=1)
    loss = criterion(probs, label)  # expect: TL522
    loss.backward()
    optimizer.step()
    return loss.item()


def train_step_ok(model, criterion, optimizer, text, offsets, label):
    optimizer.zero_grad()
    logits = model(text, offsets)
    loss = criterion(logits, label)
    loss.backward()
    optimizer.step()
    probs = F.softmax(logits.detach(), dim=1)
    confidence = probs.max(dim=1).values.mean()
    return loss.item(), confidence.item()


def distill_loss(student_logits, teacher_logits, labels, T=2.0):
    hard = F.cross_entropy(student_logits, labels)
    soft_targets = F.softmax(teacher_logits / T, dim=-1)
    soft = F.cross_entropy(student_logits / T, soft_targets)
    return hard + soft * T * T


def main():
    model = TextClassifier(5000, 64, 4)
    criterion = nn.CrossEntropyLoss()
    optimizer = torch.optim.SGD(model.parameters(), lr=4.0)
    text = torch.randint(0, 5000, (40,))
    offsets = torch.tensor([0, 10, 20, 30])
    label = torch.tensor([0, 1, 2, 3])
    train_step(model, criterion, optimizer, text, offsets, label)
    train_step_ok(model, criterion, optimizer, text, offsets, label)
    out = model(text, offsets)
    print(F.cross_entropy(out.softmax(dim=-1), label))  # expect: TL522
    print(distill_loss(out, out.detach(), label))


if __name__ == "__main__":
    main()
