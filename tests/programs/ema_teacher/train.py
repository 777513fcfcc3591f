"""Mean-teacher / EMA training in the style of timm's ModelEmaV1 and the original mean-teacher
code: the EMA weights are updated through `zip(ema.parameters(), model.parameters())` with
`.data`, and a validation loop compares student and teacher."""

import copy

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.set_num_threads(1)
torch.manual_seed(0)


class ModelEma:
    def __init__(self, model, decay=0.9):
        self.ema = copy.deepcopy(model)
        self.ema.eval()
        self.decay = decay
        for p in self.ema.parameters():
            p.requires_grad_(False)

    def update(self, model):
        with torch.no_grad():
            for ema_v, model_v in zip(self.ema.state_dict().values(), model.state_dict().values()):
                ema_v.copy_(ema_v * self.decay + (1.0 - self.decay) * model_v)


def update_ema_variables(model, ema_model, alpha, global_step):
    # Use the true average until the exponential average is more correct
    alpha = min(1 - 1 / (global_step + 1), alpha)
    for ema_param, param in zip(ema_model.parameters(), model.parameters()):
        ema_param.data.mul_(alpha).add_(param.data, alpha=1 - alpha)


student = nn.Sequential(nn.Linear(5, 12), nn.BatchNorm1d(12), nn.ReLU(), nn.Linear(12, 3))
teacher = copy.deepcopy(student)
for param in teacher.parameters():
    param.detach_()
timm_ema = ModelEma(student, decay=0.8)
optimizer = torch.optim.SGD(student.parameters(), lr=0.2)
train = [(torch.randn(16, 5), torch.randint(0, 3, (16,))) for _ in range(6)]
val = [(torch.randn(16, 5), torch.randint(0, 3, (16,))) for _ in range(2)]

global_step = 0
for epoch in range(2):
    student.train()
    for x, y in train:
        logits = student(x)
        with torch.no_grad():
            teacher_logits = teacher(x)
        consistency = F.mse_loss(logits.softmax(-1), teacher_logits.softmax(-1))
        loss = F.cross_entropy(logits, y) + consistency
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        global_step += 1
        update_ema_variables(student, teacher, 0.95, global_step)
        timm_ema.update(student)
        print(f"epoch{epoch}.loss:", loss.item())

    student.eval()
    teacher.eval()
    correct = {"student": 0, "teacher": 0, "timm_ema": 0}
    with torch.no_grad():
        for x, y in val:
            for name, net in (("student", student), ("teacher", teacher), ("timm_ema", timm_ema.ema)):
                correct[name] += (net(x).argmax(1) == y).sum().item()
    teacher.train()
    print(f"epoch{epoch}.val_correct:", correct)

print("teacher.weight:", teacher[3].weight.flatten().tolist())
print("teacher.running_mean:", teacher[1].running_mean.tolist())
print("timm_ema.weight:", timm_ema.ema[3].weight.flatten().tolist())
