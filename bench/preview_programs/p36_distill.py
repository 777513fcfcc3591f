import torch
import torch.nn as nn
import torch.nn.functional as F


def kd_loss(student_logits, teacher_logits, T=4.0):
    p_s = F.log_softmax(student_logits / T, dim=1)
    p_t = F.softmax(teacher_logits / T, dim=1)
    return F.kl_div(p_s, p_t, reduction="batchmean") * T * T


def kd_loss_naive(student_logits, teacher_logits, T=4.0):
    log_p_s = torch.log(F.softmax(student_logits / T, dim=1))  # expect: TL520
    p_t = F.softmax(teacher_logits / T, dim=1)
    return F.kl_div(log_p_s, p_t, reduction="batchmean") * T * T


def train_student(student, teacher, loader, optimizer, alpha=0.5):
    teacher.eval()
    student.train()
    for x, y in loader:
        with torch.no_grad():
            t_logits = teacher(x)
        s_logits = student(x)
        loss = alpha * F.cross_entropy(s_logits, y) + (1 - alpha) * kd_loss(s_logits, t_logits)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


if __name__ == "__main__":
    teacher = nn.Sequential(nn.Linear(10, 64), nn.ReLU(), nn.Linear(64, 3))
    student = nn.Sequential(nn.Linear(10, 8), nn.ReLU(), nn.Linear(8, 3))
    opt = torch.optim.SGD(student.parameters(), lr=0.1)
    loader = [(torch.randn(4, 10), torch.randint(0, 3, (4,))) for _ in range(6)]
    train_student(student, teacher, loader, opt)
    s, t = student(loader[0][0]), teacher(loader[0][0])
    print(kd_loss(s, t).item(), kd_loss_naive(s, t).item())
