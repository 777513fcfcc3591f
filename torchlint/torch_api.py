"""What torchlint knows about torch and the libraries around it, by qualified name.

Kept apart from the analysis so that rules and the oracle share one table of facts.
"""

from __future__ import annotations

import re
from importlib import resources


def _table(name: str) -> frozenset[str]:
    text = resources.files("torchlint").joinpath(f"data/{name}").read_text(encoding="utf-8")
    return frozenset(line for line in text.splitlines() if line and not line.startswith("#"))


# Every public attribute of torch.Tensor (torchlint/data/tensor_methods.txt, from torch 2.13): a value
# something else is called on (`loss.get_loss()`, `meter.reset()`) is not a tensor.
TENSOR_ATTRIBUTE_NAMES = _table("tensor_methods.txt")

# Every attribute of torch.nn.Module but its dunders (torchlint/data/module_methods.txt): the names
# the module machinery may call on an instance of a subclass (`forward`, `train`, `extra_repr`), so
# a method of that name has callers the project's sources do not show.
MODULE_ATTRIBUTE_NAMES = _table("module_methods.txt")
# The public functions of torch's tensor namespaces (torchlint/data/torch_functions.txt).
TORCH_FUNCTION_NAMES = _table("torch_functions.txt")

# Library base classes whose subclasses are nn.Modules.
MODULE_BASE_CLASSES = frozenset(
    {
        "torch.nn.Module",
        "torch.nn.modules.module.Module",
        "pytorch_lightning.LightningModule",
        "pytorch_lightning.core.LightningModule",
        "lightning.LightningModule",
        "lightning.pytorch.LightningModule",
        "lightning.pytorch.core.LightningModule",
        "transformers.PreTrainedModel",
        "transformers.modeling_utils.PreTrainedModel",
        "diffusers.ModelMixin",
        "diffusers.models.modeling_utils.ModelMixin",
    }
)
DATASET_BASE_CLASSES = frozenset(
    {
        "torch.utils.data.Dataset",
        "torch.utils.data.IterableDataset",
        "torch.utils.data.dataset.Dataset",
        "torch.utils.data.dataset.IterableDataset",
    }
)
# torch's functional DataParallel: `data_parallel(module, inputs, device_ids)`.
DATA_PARALLEL_FUNCTIONS = frozenset({"torch.nn.parallel.data_parallel", "torch.nn.parallel.data_parallel.data_parallel"})
# Context managers and decorators under which autograd records nothing.
GRAD_DISABLING_CONTEXTS = frozenset(
    {"torch.no_grad", "torch.inference_mode", "torch.autograd.no_grad", "torch.autograd.grad_mode.no_grad",
     "torch.autograd.grad_mode.inference_mode"}
)
DATA_LOADERS = frozenset({"torch.utils.data.DataLoader", "torch.utils.data.dataloader.DataLoader"})
DISTRIBUTED_SAMPLERS = frozenset(
    {"torch.utils.data.DistributedSampler", "torch.utils.data.distributed.DistributedSampler"}
)
# nn.Parameter by either of its import paths: a tensor that requires grad.
PARAMETER_CLASSES = frozenset({"torch.nn.Parameter", "torch.nn.parameter.Parameter"})
# Capitalised names under torch.nn that are not modules.
_NN_NON_MODULES = frozenset({"Parameter", "UninitializedParameter", "UninitializedBuffer", "Buffer"})
# torch.nn.modules' private base classes that are modules, subclassed by projects
# (`class SmoothCrossEntropyLoss(_Loss)`, `from torch.nn.modules.conv import _ConvNd`); the other
# private classes there (`_IncompatibleKeys`, `_WrappedHook`, mixins) are not.
_PRIVATE_MODULE_BASES = frozenset({
    "_Loss", "_WeightedLoss", "_ConvNd", "_ConvTransposeNd", "_ConvTransposeMixin", "_NormBase",
    "_BatchNorm", "_InstanceNorm", "_LazyNormBase", "_DropoutNd", "_MaxPoolNd", "_AvgPoolNd",
    "_AdaptiveAvgPoolNd", "_AdaptiveMaxPoolNd", "_MaxUnpoolNd", "_LPPoolNd", "_ConstantPadNd",
    "_ReflectionPadNd", "_ReplicationPadNd", "_CircularPadNd",
})
_NN_NON_MODULE_PACKAGES = frozenset({"utils", "functional", "init", "attention", "grad"})
# torch.nn modules whose call does not return one tensor: tuples, not callable at all, or whatever
# they are given or their contents return (Identity passes a PackedSequence through, a Sequential
# returns what its last module returns).
_NN_NON_TENSOR_OUTPUT = frozenset(
    {"RNN", "LSTM", "GRU", "LSTMCell", "MultiheadAttention", "ModuleList", "ModuleDict", "ParameterList",
     "ParameterDict", "Module", "DataParallel", "DistributedDataParallel", "AdaptiveLogSoftmaxWithLoss",
     "Identity", "Sequential", "Container", "RNNBase", "RNNCellBase"}
)
SEQUENTIAL_CONTAINERS = frozenset({"torch.nn.Sequential", "torch.nn.modules.container.Sequential"})
# What makes a parameter that stays uninitialised until a module's first call: torch's lazy
# layers, and the classes a lazy module of the project's own builds its parameters from.
LAZY_PARAMETER_MAKERS = frozenset(
    {"LazyLinear", "LazyConv1d", "LazyConv2d", "LazyConv3d", "LazyConvTranspose1d", "LazyConvTranspose2d",
     "LazyConvTranspose3d", "LazyBatchNorm1d", "LazyBatchNorm2d", "LazyBatchNorm3d", "LazyInstanceNorm1d",
     "LazyInstanceNorm2d", "LazyInstanceNorm3d", "LazyModuleMixin", "UninitializedParameter", "UninitializedBuffer"}
)
# Pooling modules that return `(output, indices)` with `return_indices=True`, and the position of
# that parameter.
_RETURN_INDICES_POSITION = {
    "MaxPool1d": 4, "MaxPool2d": 4, "MaxPool3d": 4, "AdaptiveMaxPool1d": 1, "AdaptiveMaxPool2d": 1,
    "AdaptiveMaxPool3d": 1, "FractionalMaxPool2d": 3, "FractionalMaxPool3d": 3,
}
_TORCHVISION_NON_MODELS = frozenset({"list_models", "get_model_weights", "get_weight", "get_model_builder"})
_PRETRAINED_MODEL_CLASS = re.compile(r"(Model|For[A-Z]\w*|^Autoencoder\w*|^UNet\w*)$")
_PRETRAINED_NON_MODEL = re.compile(r"Tokenizer|Config|Processor|Extractor|Scheduler|Pipeline")

# Namespaces whose lowercase functions return a tensor, less the exceptions below.
_TENSOR_FUNCTION_NAMESPACES = frozenset(
    {"torch", "torch.nn.functional", "torch.linalg", "torch.fft", "torch.special"}
)
_NON_TENSOR_FUNCTIONS = frozenset(
    {
        # not tensors at all
        "device", "dtype", "no_grad", "enable_grad", "inference_mode", "set_grad_enabled", "manual_seed",
        "seed", "initial_seed", "save", "load", "compile", "is_tensor", "is_storage", "is_floating_point",
        "is_complex", "is_nonzero", "numel", "get_default_dtype", "set_default_dtype", "set_default_device",
        "get_default_device", "use_deterministic_algorithms", "are_deterministic_algorithms_enabled",
        "set_num_threads", "get_num_threads", "set_printoptions", "is_grad_enabled",
        "is_inference_mode_enabled", "autocast", "typename", "set_rng_state", "get_rng_state",
        "broadcast_shapes", "result_type", "promote_types", "can_cast", "finfo", "iinfo", "vmap", "cond",
        "export", "set_float32_matmul_precision", "get_float32_matmul_precision", "set_anomaly_enabled",
        "equal", "allclose", "is_same_size", "get_device",
        # tuples or named tuples of tensors
        "chunk", "split", "unbind", "tensor_split", "hsplit", "vsplit", "dsplit", "meshgrid", "sort", "topk",
        "kthvalue", "mode", "median", "nanmedian", "max", "min", "aminmax", "unique", "unique_consecutive",
        "std_mean", "var_mean", "frexp", "histogram", "lu", "qr", "svd", "eig", "eigh", "slogdet", "lstsq",
        "lu_factor", "lu_factor_ex", "inv_ex", "cholesky_ex", "solve_ex", "ldl_factor", "ldl_factor_ex",
        "broadcast_tensors", "atleast_1d", "atleast_2d", "atleast_3d", "nonzero_static", "where",
        "gradient", "geqrf", "cummax", "cummin", "lu_unpack",
        # functional helpers that return other things
        "pad_sequence", "fold", "unfold",
    }
)
# torch functions and tensor methods that return a tuple (or named tuple) of tensors: `values,
# indices = torch.max(x, 1)`, `a, b = x.chunk(2)`. (`max`/`min` without a dim return one tensor,
# so the tuple is only what unpacking or indexing the result gives.)
TENSOR_TUPLE_RESULTS = frozenset(
    {"chunk", "split", "unbind", "tensor_split", "hsplit", "vsplit", "dsplit", "sort", "topk", "kthvalue", "mode",
     "median", "nanmedian", "max", "min", "aminmax", "std_mean", "var_mean", "cummax", "cummin",
     "broadcast_tensors", "meshgrid", "lu_unpack"}
)
# Decompositions and the like that return a (named) tuple of tensors whatever they are given, as
# torch's functions and tensor methods (`u, s, v = torch.svd(x)`, `x.qr()`) and as torch.linalg's
# (`q, r = torch.linalg.qr(x)`, `torch.linalg.lstsq(a, b)`): `eig` and `lstsq` of torch itself
# are gone from recent releases, but older code calls them.
TENSOR_DECOMPOSITIONS = frozenset({"svd", "qr", "slogdet", "lu", "frexp", "geqrf", "histogram", "eig", "lstsq"})
LINALG_TENSOR_TUPLES = frozenset(
    {"svd", "qr", "eig", "eigh", "slogdet", "lstsq", "lu", "lu_factor", "lu_factor_ex", "cholesky_ex", "inv_ex",
     "solve_ex", "ldl_factor", "ldl_factor_ex"}
)
# Of those, the reductions that give one tensor when no dimension is named: `x.max()`,
# `torch.median(x)` (with a dimension, a named tuple; with a second tensor, a tensor).
WHOLE_TENSOR_REDUCTIONS = frozenset({"max", "min", "median", "nanmedian"})
# torch's functions with an overload that compares two tensors elementwise (`torch.max(a, b)`)
# beside the one that reduces along a dim and gives `(values, indices)` (`torch.max(a, 1)`).
ELEMENTWISE_WITH_OTHER = frozenset({"torch.max", "torch.min"})
# What builds or names a PackedSequence (whose `.data` is a field of its own), by last name.
SEQUENCE_PACKING = frozenset({"pack_padded_sequence", "pack_sequence", "PackedSequence"})
# Library functions that return a tuple of tensors: `torch.autograd.grad(y, x)[0]` is the
# gradient (without a graph unless `create_graph=True`, which the kind does not claim).
TENSOR_TUPLE_FUNCTIONS = frozenset({"torch.autograd.grad"})
# Library functions that build a PackedSequence: an object whose `.data` is a tensor, not a
# tensor itself (`seq.data.requires_grad_(...)` says nothing of `seq`).
PACKED_SEQUENCE = "torch.nn.utils.rnn.PackedSequence"
PACKING_FUNCTIONS = frozenset({"torch.nn.utils.rnn.pack_padded_sequence", "torch.nn.utils.rnn.pack_sequence"})
# Tensor methods that do not return one tensor.
NON_TENSOR_METHODS = frozenset(
    {"item", "tolist", "numpy", "size", "dim", "ndimension", "numel", "nelement", "element_size", "data_ptr",
     "stride", "storage", "untyped_storage", "is_contiguous", "is_floating_point", "is_complex", "backward",
     "register_hook", "chunk", "split", "unbind", "tensor_split", "max", "min", "sort", "topk", "kthvalue",
     "median", "mode", "type", "equal", "get_device", "unique", "aminmax", "allclose", "is_pinned",
     "is_shared", "is_set_to", "tolist", "__len__", "nonzero", "where", "cummax", "cummin"}
)
# Methods only a torch tensor has (numpy arrays, pandas objects, a PackedSequence, Python's own
# types and PIL images have none of them) that give a tensor back: called on a value of unknown
# kind in a file that uses torch, they say it is a tensor (`x.permute(0, 2, 1).contiguous()`).
TENSOR_ONLY_METHODS = frozenset(
    {"unsqueeze", "unsqueeze_", "permute", "contiguous", "masked_fill", "masked_fill_", "masked_select",
     "new_zeros", "new_ones", "new_full", "new_empty", "new_tensor", "view_as", "expand_as", "type_as",
     "index_select", "narrow", "clamp", "clamp_", "detach", "detach_", "bmm", "baddbmm", "masked_scatter",
     "masked_scatter_", "index_fill", "index_fill_", "index_add", "index_add_", "index_copy", "index_copy_",
     "repeat_interleave", "topk"}
)
# What a module's output of unknown shape answers to only when it is a tensor: tuples, lists, dicts,
# a PackedSequence and transformers' ModelOutput have none of these (`net(z).view(-1, 3, 32, 32)`).
MODEL_OUTPUT_TENSOR_METHODS = TENSOR_ONLY_METHODS | frozenset(
    {"view", "reshape", "squeeze", "flatten", "transpose", "t", "sum", "mean", "argmax", "argmin", "softmax",
     "log_softmax", "sigmoid", "exp", "log", "abs", "norm", "expand", "repeat", "clone"}
)
# Questions only a tensor answers so (numpy's `size` and pandas' are not callable; numpy's `view`
# takes a dtype): `x.size(0)`, `x.view(-1)`, `x.dim()`, `x.numel()`; as the evidence set of a name
# (see oracle's usage evidence).
TENSOR_SHAPE_QUERIES = frozenset({"size(int)", "view(int)", "dim()", "numel()"})
# Tensor methods whose result no longer carries the autograd graph.
GRAPH_CUTTING_METHODS = frozenset({"detach", "detach_"})
SELF_RETURNING_METHODS = frozenset(
    {"to", "cuda", "cpu", "xpu", "eval", "train", "half", "float", "double", "bfloat16", "requires_grad_",
     "to_empty", "share_memory", "contiguous"}
)
# Model-output attributes that hold graph-carrying tensors (transformers' ModelOutput and friends).
MODEL_OUTPUT_TENSOR_FIELDS = frozenset({"loss", "logits"})
# Calling one of these on a name is evidence that it holds an nn.Module.
MODULE_ONLY_METHODS = frozenset(
    {"parameters", "named_parameters", "modules", "named_modules", "children", "named_children",
     "buffers", "named_buffers", "register_forward_hook", "register_forward_pre_hook",
     "register_full_backward_hook", "add_module", "register_module"}
)
# torch.nn containers whose elements are modules: a sequence (iterating yields modules) or a mapping
# (iterating yields names; `.values()` and `[name]` give modules).
MODULE_CONTAINERS = {
    "torch.nn.ModuleList": "sequence", "torch.nn.Sequential": "sequence", "torch.nn.ModuleDict": "mapping",
    "torch.nn.modules.container.ModuleList": "sequence", "torch.nn.modules.container.Sequential": "sequence",
    "torch.nn.modules.container.ModuleDict": "mapping",
}
# torch.nn containers of parameters: a sequence (iterating yields parameters) or a mapping
# (iterating yields names; `.values()` and `[name]` give parameters).
PARAMETER_CONTAINERS = {
    "torch.nn.ParameterList": "sequence", "torch.nn.ParameterDict": "mapping",
    "torch.nn.modules.container.ParameterList": "sequence", "torch.nn.modules.container.ParameterDict": "mapping",
}
# What a module keeps its own parameters and buffers in (`module._parameters["weight"]`): dicts
# of name to tensor (or None, for one registered as None: `.data` on it fails before a fix too).
MODULE_TENSOR_DICTS = {"_parameters": True, "_buffers": False}  # -> whether the tensors carry a graph
# Callables whose result is the module passed as their first argument, wrapped or compiled.
# Calls that hand back the module they are given, converted in place (its class and what it
# returns unchanged): `model = nn.SyncBatchNorm.convert_sync_batchnorm(model)`, weight norm.
MODULE_CONVERTERS = frozenset(
    {"torch.nn.SyncBatchNorm.convert_sync_batchnorm", "torch.nn.modules.batchnorm.SyncBatchNorm.convert_sync_batchnorm",
     "torch.nn.utils.weight_norm", "torch.nn.utils.spectral_norm", "torch.nn.utils.parametrizations.weight_norm",
     "torch.nn.utils.parametrizations.spectral_norm", "torch.nn.utils.parametrizations.orthogonal"}
)
MODULE_WRAPPERS = frozenset(
    {"torch.compile", "torch.distributed.fsdp.fully_shard", "torch.distributed._composable.fsdp.fully_shard",
     "torch.nn.parallel.DistributedDataParallel", "torch.nn.DataParallel", "torch.nn.parallel.DataParallel",
     "torch.distributed.fsdp.FullyShardedDataParallel", "torch.nn.parallel.distributed.DistributedDataParallel",
     # NVIDIA apex's wrapper, in the training scripts of its time
     "apex.parallel.DistributedDataParallel"}
)


# torch's base classes of custom autograd functions (whose `backward` is given the gradients).
AUTOGRAD_FUNCTIONS = frozenset({"torch.autograd.Function", "torch.autograd.function.Function",
                                "torch.autograd.function.InplaceFunction"})

# Bases known not to make a class an nn.Module (a class with only these bases is a known non-module).
KNOWN_NON_MODULE_BASES = frozenset(
    {
        "object", "Exception", "BaseException", "RuntimeError", "ValueError", "dict", "list", "tuple", "str",
        "int", "float", "set", "abc.ABC", "ABC", "enum.Enum", "enum.IntEnum", "typing.NamedTuple", "NamedTuple",
        "typing.Generic", "typing.Protocol", "Generic", "Protocol",
        *DATASET_BASE_CLASSES, "torch.utils.data.Sampler", "torch.utils.data.sampler.Sampler",
        "torch.autograd.Function", "torch.optim.Optimizer", "torch.optim.lr_scheduler.LRScheduler",
        "torch.optim.lr_scheduler._LRScheduler",
    }
)


def is_module_base(qualified: str) -> bool:
    """A class whose subclasses are nn.Modules."""
    return qualified in MODULE_BASE_CLASSES or is_torch_module_class(qualified)


def is_torch_module_class(qualified: str) -> bool:
    """torch.nn.Linear, torch.nn.parallel.DistributedDataParallel, ... but not nn.Parameter."""
    if qualified in MODULE_BASE_CLASSES:
        return True
    if qualified == "torch.distributed.fsdp.FullyShardedDataParallel":
        return True
    parts = qualified.split(".")
    if len(parts) < 3 or parts[:2] != ["torch", "nn"] or parts[2] in _NN_NON_MODULE_PACKAGES:
        return False
    last = parts[-1]
    if last in _PRIVATE_MODULE_BASES:
        return parts[2] == "modules"
    return last[:1].isupper() and last not in _NN_NON_MODULES


def is_model_constructor(qualified: str) -> bool:
    """Library callables that return a new nn.Module instance."""
    if is_torch_module_class(qualified):
        return True
    if qualified in ("timm.create_model", "timm.models.create_model"):
        return True
    if qualified.startswith("torchvision.models."):
        last = qualified.rsplit(".", 1)[1]
        if last in _TORCHVISION_NON_MODELS or last.endswith("Weights"):
            return False
        return not (last.startswith("get_") and last != "get_model")
    return False


def constructor_returns_tensor_module(qualified: str, keywords: set[str], positional: int | None = 0) -> bool:
    """Whether calling the module this constructor builds (with these keyword names and this many
    positional arguments, None when one is spread) returns one tensor."""
    if is_torch_module_class(qualified) and qualified.startswith("torch.nn."):
        name = qualified.rsplit(".", 1)[1]
        indices_at = _RETURN_INDICES_POSITION.get(name)
        if indices_at is not None and ("return_indices" in keywords or positional is None or positional > indices_at):
            return False
        return name not in _NN_NON_TENSOR_OUTPUT
    if qualified in ("timm.create_model", "timm.models.create_model"):
        return "features_only" not in keywords
    # torchvision's classification models (detection and segmentation ones return dicts)
    return qualified.count(".") == 2 and qualified.startswith("torchvision.models.")


def looks_like_pretrained_model_class(name: str) -> bool:
    """`AutoModelForCausalLM`, `BertModel`, `UNet2DConditionModel`; not tokenizers or configs."""
    last = name.rsplit(".", 1)[-1]
    return bool(_PRETRAINED_MODEL_CLASS.search(last)) and not _PRETRAINED_NON_MODEL.search(last)


_VARIABLE_CLASSES = frozenset({"torch.autograd.Variable", "torch.autograd.variable.Variable"})


def is_optimizer_class(qualified: str) -> bool:
    """A torch optimizer (`torch.optim.Adam`, `torch.optim.adamw.AdamW`): its `param_groups` hold
    the parameters it was given. Not a learning-rate scheduler or an SWA helper."""
    namespace, _, name = qualified.rpartition(".")
    return (namespace == "torch.optim" or namespace.startswith("torch.optim.")) and name[:1].isupper() \
        and not any(part in namespace.split(".") for part in ("lr_scheduler", "swa_utils"))


def is_tensor_class(qualified: str) -> bool:
    """A torch class whose instances are tensors: `torch.Tensor`, the typed `torch.FloatTensor`
    family (also under `torch.cuda`), legacy `Variable`: unlike the other torch classes, not a
    known non-tensor."""
    namespace, _, name = qualified.rpartition(".")
    return qualified in _VARIABLE_CLASSES or (namespace in ("torch", "torch.cuda") and name.endswith("Tensor"))


def is_tensor_function(qualified: str) -> bool:
    """A function of torch's tensor namespaces that returns a tensor: one torch has (a name it
    lacks, `F.resize_images` left from another framework, says nothing) and none of the others."""
    namespace, _, name = qualified.rpartition(".")
    if namespace not in _TENSOR_FUNCTION_NAMESPACES:
        return False
    return qualified in TORCH_FUNCTION_NAMES and name not in _NON_TENSOR_FUNCTIONS


# The libraries whose API the linter models: a sibling module of a package named like one of
# them is not what `import torch` there means (see the project index's import resolution).
MODELLED_LIBRARIES = frozenset({"torch", "torchvision", "torchaudio", "torchtext"})
