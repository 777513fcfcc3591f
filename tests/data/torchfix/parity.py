# Examples for tests/test_torchfix_parity.py: one TorchFix finding per marked line, run through
# TorchFix 0.7.0 and torchlint (--target-torch 2.5). Not meant to run.
import functorch
import torch
import torch.nn as nn
import torchvision
from functorch import vmap, grad
from torch import solve
from torch.utils.checkpoint import checkpoint
from torch.utils.data import DataLoader
from torch.utils.data._utils.collate import default_collate
from torchvision import models
from torchvision.transforms import v2

A = torch.randn(3, 3)
b = torch.randn(3, 1)
x = torch.solve(b, A)
e = torch.symeig(A)
q, r = torch.qr(A)
q, r = torch.qr(A, some=False)
L = torch.cholesky(A)
U = torch.cholesky(A, upper=True)
m = torch.chain_matmul(A, A, A)
o = torch.ger(b[:, 0], b[:, 0])
lu = torch.lu(A)
n = torch.norm(A)
s = torch.range(0, 5)
u, sv, v = torch.svd(A)
t = torch.triangular_solve(b, A)
up = nn.UpsamplingNearest2d(scale_factor=2)
torch.testing.assert_allclose(A, A)
f = functorch.jacrev(torch.sin)
g = vmap(grad(torch.sin))

p = torch.zeros(3)
p.require_grad = True

h = checkpoint(torch.sin, A)
h2 = torch.utils.checkpoint.checkpoint(torch.sin, A, use_reentrant=False)

state = torch.load("model.pt")
state2 = torch.load("model.pt", weights_only=True)
state3 = torch.load("model.pt", map_location="cpu")

batch = default_collate([A, A])
batch2 = torch.utils.data._utils.collate.default_convert(A)

y1 = torch.log(1 + A)
y2 = torch.log(A + 1.0)
y3 = torch.exp(A) - 1
y4 = torch.log(torch.sum(torch.exp(A), 1))

net = models.resnet50(pretrained=True)
net2 = torchvision.models.vgg16(pretrained=False)
det = torchvision.models.detection.fasterrcnn_resnet50_fpn(pretrained_backbone=True)
to_tensor = v2.ToTensor()

loader = DataLoader(A, batch_size=2)
loader2 = DataLoader(A, batch_size=2, num_workers=0)
loader3 = DataLoader(A, batch_size=2, num_workers=4)

model = nn.Linear(3, 3)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
opt.zero_grad(set_to_none=False)
model.zero_grad(False)
opt.zero_grad()

with torch.cuda.amp.autocast():
    pass
with torch.backends.cuda.sdp_kernel(enable_flash=False):
    pass
wn = nn.utils.weight_norm(nn.Linear(2, 2))
