"""What the type oracle answers with: a `Kind`, and the algebra of kinds that needs no source.

Shared by the per-file oracle (torchlint.oracle, over libcst trees) and the project index
(torchlint.project, over summaries of the repository's other modules), so that what a torch call
returns, what a module's method returns and what iterating a module yields is decided in one place.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from typing import Any

from torchlint.torch_api import (
    DATA_LOADERS,
    DATA_PARALLEL_FUNCTIONS,
    GRAPH_CUTTING_METHODS,
    LINALG_TENSOR_TUPLES,
    MODEL_OUTPUT_TENSOR_FIELDS,
    MODEL_OUTPUT_TENSOR_METHODS,
    MODULE_CONTAINERS,
    MODULE_CONVERTERS,
    MODULE_TENSOR_DICTS,
    MODULE_WRAPPERS,
    NON_TENSOR_METHODS,
    PACKED_SEQUENCE,
    PACKING_FUNCTIONS,
    PARAMETER_CLASSES,
    PARAMETER_CONTAINERS,
    SELF_RETURNING_METHODS,
    TENSOR_ATTRIBUTE_NAMES,
    TENSOR_ONLY_METHODS,
    TENSOR_DECOMPOSITIONS,
    TENSOR_TUPLE_FUNCTIONS,
    TENSOR_TUPLE_RESULTS,
    WHOLE_TENSOR_REDUCTIONS,
    constructor_returns_tensor_module,
    is_model_constructor,
    is_optimizer_class,
    is_tensor_class,
    is_tensor_function,
    is_torch_module_class,
)

MODULE = "module"
TENSOR = "tensor"
CLASS = "class"  # a class object itself, never an instance
OBJECT = "object"  # an instance of something else, named by `origin`
FUNCTION = "function"  # a function of the project, named by `origin`
CONTAINER = "container"  # a list, tuple or dict literal whose elements agree on `element`
MODEL_OUTPUT = "model-output"  # origin of what a module returns when it is not known to be a tensor
# Origin of what a module of no known class returns (a name known to be a module only by what is
# done with it, a parameter annotated `nn.Module` that no caller says more of): a model output too,
# of which nothing more is known. The output of a class the linter reads, whose `forward` does not
# return a tensor (a project's class packing its rows into a PackedSequence, `nn.Identity`), is
# MODEL_OUTPUT.
OPAQUE_MODEL_OUTPUT = "opaque-model-output"
# Origin of what calling a value `torch.load` gave returns, where a tensor is passed to it: most
# likely a whole pickled model's output (a pickled metric or tokenizer is called too, so nothing
# more than `.data` is read into it: see data_receiver).
LOADED_CALL_OUTPUT = "loaded-call-output"
# Origin of a module of no known class: known only by what is done with it (`net.parameters()`,
# `nn.DataParallel(net)`), or annotated as some `nn.Module`.
SOME_MODULE = "some-module"
_MODEL_OUTPUTS = frozenset({MODEL_OUTPUT, OPAQUE_MODEL_OUTPUT})
# Origin of a tensor taken to be a layer's parameter by its name alone (`x.weight` of a receiver of
# unknown kind): right in torch code as far as it was measured, but a guess, which fixes respect.
GUESSED_LAYER_PARAMETER = "guessed-layer-parameter"
# Origin of an element of a batch a DataLoader with the default collate function yields (`for x,
# y in loader`): collated into tensors, unless the dataset's items held strings, lists or dicts.
GUESSED_BATCH_ELEMENT = "guessed-batch-element"
# Origin of a value of unknown kind taken for a tensor because only tensors have what is done with it
# (`x.size(0)`, `x.permute(0, 2, 1)`): right unless a class of its own answers to those names.
GUESSED_TENSOR_USE = "guessed-tensor-use"
# Origin of a tensor a method's parameter takes from every call of the method the index sees: a
# method can also be reached by names computed at run time on other objects (`getattr(self.head,
# hook)(b)`), which no summary shows.
GUESSED_METHOD_CALLERS = "guessed-method-callers"
# Origin of an item of a dict kept on an instance, from what the class's own item assignments store
# (`self.losses["ce"] = loss`): code outside the file could store something else under another key.
GUESSED_STORED_ITEM = "guessed-stored-item"
# Origin of an instance's attribute that its methods set to a tensor in one place and to a number
# in another (`self.loss_kl = kl * w` when the weight is on, `self.loss_kl = 0` when it is off):
# where a tensor's attribute is read the number would fail, but which one reaches is not known.
GUESSED_TENSOR_OR_NUMBER = "guessed-tensor-or-number"
# Origin of a value of a loaded checkpoint's model state (`torch.load(f)["state_dict"][key]`): a
# model's state_dict holds tensors, but what a file holds under that key is the file's business.
GUESSED_LOADED_STATE = "guessed-loaded-state"
# Origin of a tensor some bindings give where others give what `torch.load` returned (`src =
# torch.load(p) if isinstance(p, str) else p`, with `p` a tensor): the file may hold anything.
GUESSED_BESIDE_LOADED = "guessed-beside-loaded"
# Origin of `out.loss`/`out["logits"]` of a model of no known output, read by transformers'
# convention (its ModelOutput holds tensors there): a model of the project's own may put a number
# there (`{"loss": loss.item()}` in eval mode).
GUESSED_MODEL_OUTPUT_FIELD = "guessed-model-output-field"
# Origin of what a module of no known output returned, where `.data` is read on it: a tuple, a list
# or a dict has no `.data`, a tensor has; so has a PackedSequence, which a model seldom returns.
GUESSED_MODEL_OUTPUT_DATA = "guessed-model-output-data"
GUESSED = frozenset({GUESSED_LAYER_PARAMETER, GUESSED_BATCH_ELEMENT, GUESSED_TENSOR_USE, GUESSED_METHOD_CALLERS,
                     GUESSED_STORED_ITEM, GUESSED_TENSOR_OR_NUMBER, GUESSED_LOADED_STATE, GUESSED_BESIDE_LOADED,
                     GUESSED_MODEL_OUTPUT_FIELD, GUESSED_MODEL_OUTPUT_DATA})
# The keys checkpoints keep a model's state_dict under (an optimizer's holds dicts, not tensors).
_MODEL_STATE_KEYS = frozenset({"state_dict", "model_state_dict"})


@dataclass(frozen=True)
class Kind:
    base: str
    graph: bool = False  # a tensor that may carry an autograd graph
    output: Kind | None = None  # a module: the kind its call returns, when known
    origin: str | None = None  # what built it: a qualified constructor name, or a local class name
    cls: Any = None  # the class it was built from: a ClassDef of the file, or a ProjectClass
    element: Kind | None = None  # a container (or a ModuleList/Sequential/ModuleDict): its elements
    mapping: bool = False  # a dict or ModuleDict: iterating it yields keys, not elements
    # a tuple (or list) display: the kind at each position, when they differ (`return out, None,
    # loss`); unpacking or indexing it by a number reads the position
    positions: tuple[Kind | None, ...] | None = None
    # a dict display with string keys: the key of each position (`{"model": net, "epoch": e}`)
    keys: tuple[str, ...] | None = None
    # Where the evidence came from when it is not the expression itself ("the `Net()` passed at
    # train.py:31"); said in the finding's note. Not part of what the kind is.
    evidence: str | None = field(default=None, compare=False)


# Calls that give back their positional arguments, prepared, in the same order:
# `model, optimizer = amp.initialize(model, optimizer)`, and `prepare` of these classes'
# instances (`model, opt, loader = accelerator.prepare(model, opt, loader)`).
PASS_THROUGH_FUNCTIONS = frozenset({"apex.amp.initialize"})
PASS_THROUGH_OWNERS = frozenset({"accelerate.Accelerator"})
# (not `tqdm.contrib`'s `tzip`/`tenumerate`, which pair or count what they wrap)
PROGRESS_BARS = frozenset({"tqdm.tqdm", "tqdm.auto.tqdm", "tqdm.notebook.tqdm", "tqdm.std.tqdm", "tqdm.rich.tqdm"})


MODEL_OUTPUT_FIELD = Kind(TENSOR, graph=True, origin=GUESSED_MODEL_OUTPUT_FIELD)


def tensor(graph: bool) -> Kind:
    return Kind(TENSOR, graph=graph)


def torch_class_instance(qualified: str) -> Kind | None:
    """What passes a type test against a torch class: a tensor (a parameter for `nn.Parameter`),
    or a module of that class; None for torch's other classes."""
    if is_tensor_class(qualified) or qualified in PARAMETER_CLASSES:
        return tensor(qualified in PARAMETER_CLASSES)
    if is_torch_module_class(qualified):
        return Kind(MODULE, origin=qualified)
    return None


def derived_tensor(graph: bool, sources: Iterable[Kind]) -> Kind:
    """A tensor computed from tensors: still a guess when a tensor it comes from is one (a fix on
    `x.cuda().data` is no more proven than one on `x.data`, nor one on `(x + t).data`: were `x`
    another object, its `__add__` would decide what the sum is)."""
    return Kind(TENSOR, graph=graph, origin=_guess_among(sources))


def _guess_among(kinds: Iterable[Kind]) -> str | None:
    """The origin of the first tensor among `kinds` that is a guess (None: none is)."""
    return next((kind.origin for kind in kinds if kind.base == TENSOR and kind.origin in GUESSED), None)


def is_model_output(kind: Kind | None) -> bool:
    """What a module of no known output returned: a tensor, a tuple, a dict, ..."""
    return kind is not None and kind.base == OBJECT and kind.origin in _MODEL_OUTPUTS


def module_call_result(module: Kind) -> Kind:
    """What calling a module gives: its output when known, else a model output (an opaque one
    for a module of no known class)."""
    if module.output is not None:
        return module.output
    return Kind(OBJECT, origin=OPAQUE_MODEL_OUTPUT if _is_opaque_module(module) else MODEL_OUTPUT)


def _is_opaque_module(module: Kind) -> bool:
    return module.output is None and module.cls is None and module.origin == SOME_MODULE


def data_receiver(kind: Kind | None) -> Kind | None:
    """The tensor `.data` is read on, when `kind` says one (the output of a module of no known
    class read so is one by a guess: see GUESSED_MODEL_OUTPUT_DATA); None otherwise."""
    if kind is not None and kind.base == TENSOR:
        return kind
    opaque = kind is not None and kind.base == OBJECT and kind.origin in _OPAQUE_OUTPUTS
    return Kind(TENSOR, origin=GUESSED_MODEL_OUTPUT_DATA) if opaque else None


def guessed_method_result(receiver: Kind | None, method: str) -> Kind | None:
    """`x.permute(0, 2, 1)` on a value of unknown kind, `net(z).view(-1, 3)` on a module's output of
    unknown shape: a tensor, since only tensors have that method; a guess, taken without a graph."""
    if receiver is None:
        tensor_only = method in TENSOR_ONLY_METHODS
    else:
        tensor_only = is_model_output(receiver) and method in MODEL_OUTPUT_TENSOR_METHODS
    return Kind(TENSOR, origin=GUESSED_TENSOR_USE) if tensor_only else None


# A tensor's methods that give the same values (and graph) in another shape: on a name being
# worked out (`pred = pred.t()`), what its other bindings are.
_RESHAPING_METHODS = frozenset({"t", "transpose", "view", "reshape", "squeeze", "unsqueeze", "flatten", "permute",
                                "expand", "expand_as", "view_as", "narrow"})
# Methods that give a tensor (or a PackedSequence) back on another device (not `to`: a
# tokenizer's BatchEncoding has one, and a `.data` of its own).
_MOVING_METHODS = frozenset({"cpu", "cuda"})
# What `.data` is guessed a tensor's on (see data_receiver).
_OPAQUE_OUTPUTS = frozenset({OPAQUE_MODEL_OUTPUT, LOADED_CALL_OUTPUT})
# How many names and choices deep `Net = A if big else B; Net()` is followed.
CHOICE_DEPTH = 4
# A classification model built by name from torchvision's or timm's namespace
# (`models.__dict__[arch]()`): it returns the logits tensor.
NAMESPACE_MODEL = Kind(MODULE, output=tensor(True), origin="torchvision.models")
# What `torch.max(x, 1)`, `x.topk(k)`, `x.chunk(2)` give: tensors to unpack or index. Taken without
# a graph (indices carry none), so no rule reads a graph into them.
TENSOR_TUPLE = Kind(CONTAINER, element=Kind(TENSOR))
# What torch's recurrent layers return: `h, c = lstm_cell(x, (h, c))`; `out, (h, c) = lstm(x)` and
# `out, h = gru(x)`, where `out` is left unknown (a PackedSequence, whose `.data` is its own field,
# when the input is one) and the final states are tensors.
_STATES = Kind(CONTAINER, positions=(Kind(TENSOR, graph=True), Kind(TENSOR, graph=True)))
_RNN_OUTPUTS = {
    "LSTMCell": _STATES,
    "LSTM": Kind(CONTAINER, positions=(None, _STATES)),
    "GRU": Kind(CONTAINER, positions=(None, Kind(TENSOR, graph=True))),
    "RNN": Kind(CONTAINER, positions=(None, Kind(TENSOR, graph=True))),
}


def _rnn_output(qualified: str) -> Kind | None:
    return _RNN_OUTPUTS.get(qualified.rpartition(".")[2]) if qualified.startswith("torch.nn.") else None
NONE = Kind("none")  # the literal None: neutral when merging a name's bindings
CYCLE = Kind("cycle")  # a binding met again while it is being evaluated
# What `torch.load` unpickles: whatever was saved. Neutral when merging a name's bindings: `model =
# Net()` then `model = torch.load(f)` (a whole pickled model reloaded) is still the model; a name
# bound only from it is unknown.
UNPICKLED = Kind("unpickled")
_NEUTRAL = (NONE, CYCLE, UNPICKLED)
ELEMENT_KIND_OF_ITERATOR = {
    "modules": Kind(MODULE), "children": Kind(MODULE), "parameters": tensor(True), "buffers": tensor(False),
}
PAIR_KIND_OF_ITERATOR = {
    "named_modules": Kind(MODULE), "named_children": Kind(MODULE), "named_parameters": tensor(True),
    "named_buffers": tensor(False),
}
# Iterators only nn.Module has whose elements are tensors (with their names, in the named forms).
TENSOR_ITERATORS = frozenset({"parameters", "buffers", "named_parameters", "named_buffers"})
# The parameters torch's layers (and weight_norm, spectral_norm) hold under these names; RNN, LSTM
# and GRU layers' (`weight_ih_l0`, `bias_hh_l1_reverse`) and their cells'; normalisation buffers.
LAYER_PARAMETERS = frozenset({"weight", "bias", "weight_g", "weight_v", "weight_orig", "in_proj_weight",
                              "in_proj_bias"})
RNN_PARAMETER = re.compile(r"(weight|bias)_(ih|hh)(_l\d+(_reverse)?)?$")
LAYER_BUFFERS = frozenset({"running_mean", "running_var", "num_batches_tracked"})
TENSOR_ATTRIBUTES = {"grad": False, "data": False}  # attribute -> keeps the graph?
VIEW_ATTRIBUTES = frozenset({"T", "mT", "H", "mH", "real", "imag"})


def public(kind: Kind | None) -> Kind | None:
    return None if kind in _NEUTRAL else kind


def is_kind(kind: Kind | None, base: str) -> bool:
    return kind is not None and kind.base == base


def merge(kinds: Iterable[Kind | None]) -> Kind | None:
    """What a name is when every binding agrees on the base kind; unknown otherwise."""
    kinds = list(kinds)
    found = [kind for kind in kinds if kind not in _NEUTRAL]
    if not found:
        # only what `torch.load` gave (and None): still that, so `ckpt["model"]` stays neutral
        return UNPICKLED if any(kind is UNPICKLED for kind in kinds) else None
    if any(kind is None for kind in found):
        return None
    first = found[0]
    if any(kind.base != first.base for kind in found):
        if {kind.base for kind in found} == {MODULE, OBJECT}:
            # a module in some bindings and a known non-module in others (a micrograd-style class
            # with a `parameters()` of its own): no guess may take it for a module
            return Kind(OBJECT)
        outputs = [kind for kind in found if kind.base != TENSOR]
        if all(is_model_output(kind) for kind in outputs) and not any(kind.origin in GUESSED for kind in found if kind.base == TENSOR):
            # `output = model(x)`, then `if type(output) == list: output = torch.cat(output)`: what
            # a module returned is any value, a tensor among them, so it stays just that (not
            # beside a guessed tensor: `out = out[0]` where it is a tuple may be anything)
            return next((kind for kind in outputs if kind.origin == OPAQUE_MODEL_OUTPUT), outputs[0])
        return _tensor_or_tensors(found)
    if len(found) < len(kinds) and any(kind is UNPICKLED for kind in kinds):
        # beside what a file held: a tensor as a guess, a module of no known class, so that no
        # fix rests on either
        if first.base == TENSOR:
            found = [_guessed_beside_loaded(kind) for kind in found]
        elif first.base == MODULE:
            # (what the loaded one returns is not known either: its class's tensor is a guess, its
            # tuple or dict not known, since the loaded one's may hold a PackedSequence there)
            found = [replace(kind, origin=None, cls=None, output=_output_beside_loaded(kind.output)) for kind in found]
        first = found[0]
    agreed_mapping = all(kind.mapping == first.mapping for kind in found)
    return Kind(
        first.base,
        graph=all(kind.graph for kind in found),
        output=first.output if all(kind.output == first.output for kind in found) else _merged_outputs(found),
        # (a guess merged with a sure tensor stays a guess: the fix must still be withheld)
        origin=first.origin if all(kind.origin == first.origin for kind in found) else _merged_origin(found),
        cls=first.cls if all(kind.cls == first.cls for kind in found) else None,  # (ProjectClass: by value)
        # (a dict beside a tuple: iterating or unpacking gives keys from one, values from the other)
        element=_merged_elements(found) if agreed_mapping else None,
        mapping=first.mapping if agreed_mapping else False,
        positions=_merged_positions(found) if agreed_mapping else None,
        keys=first.keys if all(kind.keys == first.keys for kind in found) else None,
        evidence=next((kind.evidence for kind in found if kind.evidence), None),
    )


def _merged_outputs(kinds: list[Kind]) -> Kind | None:
    """Modules of different classes (`model = MAF(...)` in one branch, `model = RealNVP(...)` in
    another): calling one gives what their outputs agree on, where every output is known."""
    if any(kind.output is None for kind in kinds):
        return None
    return merge([kind.output for kind in kinds])


def _output_beside_loaded(output: Kind | None) -> Kind | None:
    """What a module's class returns, for a name that may instead hold a model `torch.load` gave:
    its tensor, or a tuple's tensors at their places (`R, v = model(x)`), each a guess."""
    if is_kind(output, TENSOR):
        return _guessed_beside_loaded(output)
    if output is not None and output.base == CONTAINER and not output.mapping and output.positions is not None:
        positions = tuple(_guessed_beside_loaded(kind) if is_kind(kind, TENSOR) else None for kind in output.positions)
        if any(kind is not None for kind in positions):
            return Kind(CONTAINER, positions=positions)
    return None


def _guessed_beside_loaded(kind: Kind | None) -> Kind | None:
    if kind is None or kind.base != TENSOR:
        return kind
    return replace(kind, origin=kind.origin if kind.origin in GUESSED else GUESSED_BESIDE_LOADED)


def _merged_origin(kinds: list[Kind]) -> str | None:
    """Origins that differ: a model output where every one is (opaque only where all are), else the
    first guess among them."""
    if all(kind.origin in _MODEL_OUTPUTS for kind in kinds):
        return MODEL_OUTPUT
    return _guess_among(kinds)


def _merged_positions(kinds: list[Kind]) -> tuple[Kind | None, ...] | None:
    """Tuples of one length (dicts of the same keys) merge position by position."""
    lengths = {len(kind.positions) if kind.positions is not None else None for kind in kinds}
    if len(lengths) != 1 or None in lengths or len({kind.keys for kind in kinds}) != 1:
        return None
    return tuple(merge(column) for column in zip(*(kind.positions for kind in kinds)))


def _tensor_or_tensors(kinds: list[Kind]) -> Kind | None:
    """A tensor in some bindings and a tuple or list of tensors in the others (`return disp` when
    evaluating, `return disp1, disp2` when training): what iterating, unpacking or indexing it by a
    number gives is a tensor either way (a tensor's rows, or the sequence's tensors), so it is a
    sequence of tensors of unknown length. Nothing else is known of it (`.data` on it is silent)."""
    tensors: list[Kind] = []
    for kind in kinds:
        if kind.base == CONTAINER and not kind.mapping and kind.keys is None:
            parts = kind.positions if kind.positions is not None else (kind.element,)
            tensors += parts
        elif kind.base == TENSOR:
            tensors.append(kind)
        else:
            return None
    if any(part is None or part.base != TENSOR for part in tensors):
        return None
    return Kind(CONTAINER, element=merge(tensors))


def _merged_elements(kinds: list[Kind]) -> Kind | None:
    """Containers whose elements agree on a kind hold that kind (a tensor that carries a graph in
    one branch and not in the other is a tensor)."""
    if all(kind.element == kinds[0].element for kind in kinds):
        return kinds[0].element
    if any(kind.element is None for kind in kinds):
        return None
    return merge([kind.element for kind in kinds])


def without_graph(kind: Kind | None) -> Kind | None:
    """The value made with autograd off: a tensor without a graph, a tuple, list or dict of them."""
    if kind is not None and kind.base == TENSOR:
        return Kind(TENSOR, graph=False, origin=kind.origin)
    if kind is not None and kind.base == CONTAINER and (kind.element is not None or kind.positions is not None):
        positions = tuple(map(without_graph, kind.positions)) if kind.positions is not None else None
        return Kind(CONTAINER, element=without_graph(kind.element), mapping=kind.mapping, positions=positions, keys=kind.keys)
    return kind


def carries_graph(kind: Kind | None) -> bool:
    """A tensor with a graph, or a container holding one."""
    if kind is None:
        return False
    if kind.base == TENSOR:
        return kind.graph
    return kind.base == CONTAINER and (carries_graph(kind.element) or any(map(carries_graph, kind.positions or ())))


def with_evidence(kind: Kind | None, evidence: str | None) -> Kind | None:
    """`kind`, said to rest on `evidence` (kept when it already rests on something more precise)."""
    if kind is None or evidence is None or kind.evidence is not None or kind.base in ("none", "cycle", "unpickled"):
        return kind
    return replace(kind, evidence=evidence)


def positional_count(call) -> int | None:
    """How many positional arguments a libcst call passes; None when one is spread (`f(*args)`),
    so that what depends on the count is not judged."""
    if any(arg.star == "*" for arg in call.args):
        return None
    return sum(1 for arg in call.args if arg.keyword is None and not arg.star)


# Marks among a call's keyword names (see `keyword_names`): a `**mapping` spread, and a
# `batch_size=None` (a DataLoader then yields the dataset's items as they are, uncollated).
SPREAD_KEYWORDS = "**"
NO_BATCHING = "batch_size=None"


def keyword_names(call) -> set[str]:
    """The keyword names a libcst call passes, with the marks above."""
    names = set()
    for arg in call.args:
        if arg.star == "**":
            names.add(SPREAD_KEYWORDS)
        elif arg.keyword is not None:
            names.add(arg.keyword.value)
            if arg.keyword.value == "batch_size" and getattr(arg.value, "value", None) == "None":
                names.add(NO_BATCHING)
    return names


def unbatched(kind: Kind | None) -> Kind | None:
    """A loader whose batches are not known (`loader.collate_fn = pad` after it is built:
    DataLoader reads the attribute when it iterates)."""
    return Kind(OBJECT, origin=kind.origin) if is_batch_loader(kind) else kind


def _collates_by_default(keywords: set[str], positional: int | None) -> bool:
    """A DataLoader built so that it collates its batches with the default function: no
    `collate_fn` (by name, by a `**mapping`, or as the seventh positional argument), batching on."""
    return not keywords & {"collate_fn", SPREAD_KEYWORDS, NO_BATCHING} and positional is not None and positional < 7


def library_call_kind(qualified: str, inner: Kind | None, keywords: set[str], graph: bool,
                      positional: int | None = 0) -> Kind | None:
    """What calling a library callable (by qualified name) returns. `inner` is the kind of the first
    argument (for wrappers), `graph` whether a tensor argument carries a graph or grad is asked for,
    `positional` how many positional arguments it is given (None: not known, one is spread)."""
    if qualified == "torch.load":
        return UNPICKLED
    if qualified in MODULE_CONVERTERS:
        # `model = nn.SyncBatchNorm.convert_sync_batchnorm(model)`: the same module; of one whose
        # class cannot be seen, nothing more is known (it may define its own `__call__`)
        return inner if inner is CYCLE or (inner is not None and inner.base == MODULE) else None
    if qualified in MODULE_WRAPPERS:
        if inner is CYCLE and qualified != "torch.compile":
            return CYCLE  # `model = nn.DataParallel(model)`: the name's other bindings decide
        if inner is UNPICKLED and qualified != "torch.compile":  # (which compiles functions too)
            inner = Kind(MODULE, origin=SOME_MODULE)  # `nn.DataParallel(torch.load(f))`: a whole pickled model
        if inner is not None and inner.base == MODULE:
            # (a module of no known class, wrapped: its output stays opaque)
            output = module_call_result(inner) if _is_opaque_module(inner) else inner.output
            return Kind(MODULE, output=output, origin=qualified, cls=inner.cls, element=inner.element)
        if qualified == "torch.compile":
            return None
        # a wrapper of a module whose class is not known returns what that module does: an
        # output as opaque as a module known only by its use gives (`.data` on it is a guess)
        return Kind(MODULE, origin=qualified, output=Kind(OBJECT, origin=OPAQUE_MODEL_OUTPUT) if inner is None else None)
    if qualified in PASS_THROUGH_OWNERS:
        return Kind(OBJECT, origin=qualified)  # its `prepare(...)` hands back what it is given
    if qualified in PROGRESS_BARS:
        # `bar = tqdm(loader)`: iterating the bar yields what the loader yields
        return inner if inner is not None and iterated_kind(inner) is not None else None
    if qualified in DATA_PARALLEL_FUNCTIONS:
        # `nn.parallel.data_parallel(self.main, x, gpus)`: what the module returns for `x`
        return module_call_result(inner) if inner is not None and inner.base == MODULE else None
    if qualified in ("copy.deepcopy", "copy.copy"):
        return inner if inner is not None and inner.base in (MODULE, TENSOR) else None
    if is_model_constructor(qualified):
        output = tensor(True) if constructor_returns_tensor_module(qualified, keywords, positional) else _rnn_output(qualified)
        container = MODULE_CONTAINERS.get(qualified)
        if container is not None:
            return Kind(MODULE, output=output, origin=qualified, element=Kind(MODULE), mapping=container == "mapping")
        container = PARAMETER_CONTAINERS.get(qualified)
        if container is not None:  # (what it holds: the oracle reads what it is given)
            return Kind(MODULE, output=output, origin=qualified, mapping=container == "mapping")
        return Kind(MODULE, output=output, origin=qualified)
    namespace, _, name = qualified.rpartition(".")
    if namespace == "torch.nn.functional" and "max_pool" in name and (
            "return_indices" in keywords or positional is None or positional >= 6):
        return None  # `F.max_pool1d(x, 2, return_indices=True)`: the values and their indices
    if is_tensor_function(qualified):
        return tensor(graph)
    if namespace == "torch" and name in WHOLE_TENSOR_REDUCTIONS and positional is None:
        return None  # `torch.max(*pair)`: one tensor, or a named tuple
    if namespace == "torch" and name in WHOLE_TENSOR_REDUCTIONS and positional == 1 and not keywords:
        if inner is None:
            return tensor(graph)  # `torch.max(x)`: one tensor of whatever torch takes, as `torch.sum(x)`
        return derived_tensor(inner.graph, [inner]) if inner.base == TENSOR else None
    if qualified == "torch.where" and ((positional or 0) >= 2 or keywords & {"input", "other"}):
        return tensor(graph)  # `torch.where(cond, x, y)` picks elements; `torch.where(cond)` gives indices
    if ((namespace == "torch" and name in TENSOR_TUPLE_RESULTS | TENSOR_DECOMPOSITIONS) or qualified in TENSOR_TUPLE_FUNCTIONS
            or (namespace == "torch.linalg" and name in LINALG_TENSOR_TUPLES)):
        return TENSOR_TUPLE
    if qualified in PACKING_FUNCTIONS:
        return Kind(OBJECT, origin=PACKED_SEQUENCE)
    if qualified in PARAMETER_CLASSES:
        return tensor(True)
    if is_tensor_class(qualified):
        return tensor(graph)
    if qualified in DATA_LOADERS and _collates_by_default(keywords, positional):
        return Kind(OBJECT, origin=qualified, element=Kind(TENSOR, origin=GUESSED_BATCH_ELEMENT))
    if qualified.startswith("torch.") and qualified.rsplit(".", 1)[-1][:1].isupper():
        return Kind(OBJECT, origin=qualified)  # a torch class that is not a module: a known non-module
    return None


def augmented_kind(held: Kind | None, added: Iterable[Kind | None]) -> Kind | None:
    """What `x op= v` leaves in a name (or attribute) that held `held`: a tensor stays one (its
    in-place operators return it), with a graph when an added value has one; a list extended stays
    a list, of what its elements and the added ones agree on (`xs += extra`: elements not known);
    else unknown (a sum started at a number is judged with all its terms)."""
    if held is None:
        return None
    if held.base == TENSOR:
        return arithmetic_kind([held, *added])
    if held.base != CONTAINER or held.mapping:
        return None
    added = list(added)
    if all(kind is not None and kind.base == CONTAINER and not kind.mapping for kind in added):
        return Kind(CONTAINER, element=merge([held.element, *(kind.element for kind in added)]))
    return Kind(CONTAINER)


# Methods that put another element into a list or dict, or take one out: its elements' kinds are
# then not the ones built.
CONTAINER_MUTATING_METHODS = frozenset({"append", "extend", "insert", "update", "setdefault", "__setitem__", "add", "pop",
                                        "popitem", "remove", "clear", "reverse", "sort", "__delitem__"})


def container_of(kinds: Iterable[Kind | None], of_tuples: bool = False) -> Kind | None:
    """A list/tuple display: a container whose elements agree on a kind (modules, tensors,
    instances of one class of the project: `[Agent(), Agent()]`), or one known position by
    position. `of_tuples`: every element is a tuple display, which no code can change, so
    tuples agreeing position by position are an element too (`[(x, y), ...]`, then `for x, y
    in batches`)."""
    kinds = list(kinds)
    element = merge(kinds)
    positions = tuple(kinds) if len(kinds) > 1 else None
    if (of_tuples and element is not None and element.base == CONTAINER and not element.mapping
            and element.positions is not None and any(is_kind(kind, MODULE) or is_kind(kind, TENSOR) for kind in element.positions)):
        return Kind(CONTAINER, element=element, positions=positions)
    # (an OBJECT of no class or origin: modules beside known non-modules, see `merge`; loaders
    # of tensor batches: `{"train": train_loader, "val": val_loader}[phase]` is iterated)
    if element is not None and (element.base in (MODULE, TENSOR) or (
            element.base == OBJECT and (element.cls is not None or element.origin is None or is_batch_loader(element)))):
        return Kind(CONTAINER, element=element, positions=positions)
    if positions is not None and any(kind is not None and kind.base in (MODULE, TENSOR, CONTAINER) for kind in kinds):
        return Kind(CONTAINER, positions=positions)  # `(out, None, 0)`: only its positions known
    return None


def is_batch_loader(kind: Kind) -> bool:
    return kind.origin in DATA_LOADERS and kind.element is not None


def dict_display_kind(keys: list[str | None], values: list[Kind | None]) -> Kind | None:
    """`{"loss": loss, "logits": out}`: a mapping whose values agree on a kind; with distinct
    string keys, each key's value too (`{"model": net, "epoch": e}["model"]`)."""
    agreed = container_of(values)
    element = agreed.element if agreed is not None else None
    if all(isinstance(key, str) for key in keys) and len(set(keys)) == len(keys) and any(
            value is not None and value.base in (MODULE, TENSOR, CONTAINER) for value in values):
        return Kind(CONTAINER, element=element, mapping=True, positions=tuple(values), keys=tuple(keys))
    return Kind(CONTAINER, element=element, mapping=True) if element is not None else None


def output_of_forward(returned: Kind | None) -> Kind | None:
    """What calling a module gives, from what its `forward` returns: a tensor (one that carries a
    graph), a tuple of them, or a dict of them by string keys (`return {"clip": out, "emb": e}`);
    anything else is left unknown (a PackedSequence)."""
    if returned is None:
        return None
    if returned.base == TENSOR:
        # (a guess stays one: `return self.loss_kl`, a tensor or the number it started at)
        return Kind(TENSOR, graph=True, origin=returned.origin) if returned.origin in GUESSED else tensor(True)
    if returned.base == CONTAINER and returned.mapping and returned.keys is not None:
        positions = _output_positions(returned)
        if not any(p is not None for p in positions):
            return None
        every_tensor = all(p is not None and p.base == TENSOR for p in positions)
        return Kind(CONTAINER, mapping=True, keys=returned.keys, positions=positions,
                    element=tensor(True) if every_tensor else None)
    if returned.base == CONTAINER and not returned.mapping and returned.element is not None and returned.element.base == TENSOR:
        return Kind(CONTAINER, element=tensor(True), positions=_output_positions(returned))
    if returned.base == CONTAINER and not returned.mapping and returned.positions is not None:
        # `return rois, cls_prob, loss, None`: the tensors in their places
        positions = _output_positions(returned)
        return Kind(CONTAINER, positions=positions) if any(p is not None for p in positions) else None
    return None


def _output_positions(returned: Kind) -> tuple[Kind | None, ...] | None:
    if returned.positions is None:
        return None
    return tuple(output_of_forward(p) if p is not None and p.base in (TENSOR, CONTAINER) else None
                 for p in returned.positions)


def unpacked_kind(value: Kind | None, path: tuple[int, ...]) -> Kind | None:
    """The element at `path` of a value unpacked into a tuple target (`a, b = f()`), when the value
    is a list or tuple whose elements agree on a kind."""
    if value is UNPICKLED:
        return UNPICKLED  # `model, criterion, optimizer = torch.load(f)`
    if value is not None and value.base == TENSOR and path:
        # `_, predicted = torch.max(out, 1)`, `a, b = x.chunk(2)`: tensors (`values, indices`
        # pairs hold indices, which carry no graph: taken without one; a guess stays one)
        return derived_tensor(False, [value])
    for index in path:
        if value is None or value.base != CONTAINER or value.mapping:
            return None
        value = _at_position(value, index)
    return value


def _at_position(container: Kind, index: int) -> Kind | None:
    if container.positions is not None and -len(container.positions) <= index < len(container.positions):
        return container.positions[index]
    return container.element


def arithmetic_kind(operands: Iterable[Kind | None]) -> Kind | None:
    """What arithmetic on values of these kinds gives: a tensor when one operand is a tensor (one
    that carries a graph when any tensor operand does)."""
    tensors = [kind for kind in operands if kind is not None and kind.base == TENSOR]
    return derived_tensor(any(kind.graph for kind in tensors), tensors) if tensors else None


# What a torch.distributions distribution's methods return: tensors, carrying a graph (when the
# distribution's parameters do) except what `sample()` draws.
DISTRIBUTION_TENSORS = {"sample": False, "rsample": True, "log_prob": True, "entropy": True, "cdf": True,
                        "icdf": True, "sample_n": False}


def method_call_kind(receiver: Kind | None, method: str, without_arguments: bool = False) -> Kind | None:
    """What `receiver.method(...)` returns, from the receiver's kind alone (and, for a reduction,
    whether it is given arguments). `parameters()` and `buffers()` of a module, or of a value not
    known to be anything else, are iterables of tensors (so `params = model.parameters()` then
    `zip(params, ...)` yields tensors)."""
    if receiver is CYCLE and (method in SELF_RETURNING_METHODS or method in _RESHAPING_METHODS):
        # `criterion = criterion.cuda()`, `pred = pred.t()`: the name's other bindings decide
        return CYCLE
    if receiver is UNPICKLED and method in SELF_RETURNING_METHODS:
        return UNPICKLED  # `torch.load(f).cuda()`: still whatever the file held
    if method in ELEMENT_KIND_OF_ITERATOR and method in TENSOR_ITERATORS and (receiver is None or receiver.base == MODULE):
        return Kind(CONTAINER, element=ELEMENT_KIND_OF_ITERATOR[method])
    if receiver is None:
        return None
    if receiver.base == OBJECT and receiver.origin in _OPAQUE_OUTPUTS and method in _MOVING_METHODS:
        return receiver  # `model(x).cpu()`: the same output, moved (a tuple or a dict has no `.cpu()`)
    if receiver.base == MODULE:
        if method in SELF_RETURNING_METHODS:
            return receiver
        if method == "forward":
            return module_call_result(receiver)
        if receiver.element is not None and receiver.mapping and method == "values":
            return Kind(CONTAINER, element=receiver.element)
        return None
    if receiver.base == CONTAINER and receiver.mapping and method == "values":
        return Kind(CONTAINER, element=receiver.element)
    if receiver.base == CONTAINER and receiver.mapping and method == "items" and receiver.element is not None:
        return Kind(CONTAINER, element=Kind(CONTAINER, positions=(None, receiver.element)))  # `sorted(d.items())`
    if method == "__next__":
        return iterated_kind(receiver)  # `enumerate(loader).__next__()`: (an iterator is read as what it iterates)
    if receiver.base == OBJECT and receiver.origin == PACKED_SEQUENCE and method in SELF_RETURNING_METHODS:
        return receiver  # `pack_padded_sequence(...).to(device)`: still a PackedSequence
    if receiver.base == OBJECT and (receiver.origin or "").startswith("torch.distributions.") and method in DISTRIBUTION_TENSORS:
        return tensor(DISTRIBUTION_TENSORS[method])  # `Categorical(logits=z).sample()`
    if receiver.base == TENSOR and method in WHOLE_TENSOR_REDUCTIONS and without_arguments:
        return derived_tensor(receiver.graph, [receiver])  # `x.max()`: the largest element
    if receiver.base == TENSOR and (method in TENSOR_TUPLE_RESULTS or method in TENSOR_DECOMPOSITIONS):
        # (of a tensor taken for one by a guess, tensors by the same guess)
        return TENSOR_TUPLE if receiver.origin not in GUESSED else Kind(CONTAINER, element=Kind(TENSOR, origin=receiver.origin))
    if receiver.base != TENSOR or method in NON_TENSOR_METHODS or method not in TENSOR_ATTRIBUTE_NAMES:
        return None  # (a method tensors lack: the receiver is some other class's after all)
    if method in GRAPH_CUTTING_METHODS:
        return derived_tensor(False, [receiver])
    if method == "requires_grad_":
        return derived_tensor(True, [receiver])
    return derived_tensor(receiver.graph, [receiver])


# A call that hands back the value it is given, maybe wrapped: ("library", qualified name) of
# torch's module wrappers and converters, ("method", name) of a self-returning method.
Wrapper = tuple[str, str]
HANDING_BACK_WRAPPERS = MODULE_WRAPPERS | MODULE_CONVERTERS
_WRAPPING_ROUNDS = 3  # (`DataParallel(model.cuda())`: wrappers of wrappers)


def given_back_kind(given: Kind | None, wrappers: frozenset[Wrapper], changed: bool) -> Kind | None:
    """What a function that returns its parameter as passed or through `wrappers` (`if parallel:
    model = DataParallel(model)`; `return model`) gives for a value of kind `given`: what every
    combination of them agrees on. `changed`: the function may change a container it is given
    (`layers.append(Head())`): what the container holds is then not known."""
    if changed and given is not None and given.base == CONTAINER:
        given = Kind(CONTAINER, mapping=given.mapping)
    return _wrapped_kind(given, wrappers) if wrappers else given


def _wrapped_kind(given: Kind | None, wrappers: frozenset[Wrapper]) -> Kind | None:
    if given is None or given is CYCLE or given is UNPICKLED:
        return None
    kinds = [given]
    for _ in range(_WRAPPING_ROUNDS):
        made = [_wrapped_once(kind, wrapper) for kind in kinds for wrapper in sorted(wrappers)]
        if any(kind is None for kind in made):
            return None
        fresh = [kind for kind in made if kind not in kinds]
        if not fresh:
            break
        kinds.extend(fresh)
    return merge(kinds)


def _wrapped_once(kind: Kind, wrapper: Wrapper) -> Kind | None:
    how, name = wrapper
    if how == "library":
        return library_call_kind(name, kind, set(), kind.base == TENSOR and kind.graph)
    return method_call_kind(kind, name, without_arguments=False)


def layer_tensor_kind(attribute: str) -> Kind | None:
    """What a torch layer holds under this attribute name: a parameter (`weight`, an RNN's
    `weight_ih_l0`), a buffer (`running_mean`), or nothing torch's layers name so."""
    if attribute in LAYER_PARAMETERS or RNN_PARAMETER.match(attribute):
        return tensor(True)
    if attribute in LAYER_BUFFERS:
        return tensor(False)
    return None


def attribute_kind(receiver: Kind | None, attribute: str) -> Kind | None:
    """What `receiver.attribute` is, from the receiver's kind alone (a class's own attributes are
    looked up by the caller, which knows where the class is defined). `x.grad` of a value of unknown
    kind is a tensor: only tensors have a `.grad` that code reads as a value (a class of the program
    with a `grad` attribute of its own is a known kind, not unknown)."""
    if receiver is None:
        return tensor(False) if attribute == "grad" else None
    if receiver.base == TENSOR:
        if attribute in TENSOR_ATTRIBUTES:
            return derived_tensor(TENSOR_ATTRIBUTES[attribute] and receiver.graph, [receiver])
        return receiver if attribute in VIEW_ATTRIBUTES else None
    if receiver.base == MODULE:
        if attribute == "module":  # the module a DataParallel/DDP wrapper holds: the one it was given, when known
            if receiver.origin in MODULE_WRAPPERS:
                return Kind(MODULE, output=receiver.output, cls=receiver.cls, element=receiver.element)
            return Kind(MODULE)
        held = layer_tensor_kind(attribute)
        if held is not None:
            return held
        if attribute in MODULE_TENSOR_DICTS:  # `module._parameters["weight"]`
            return Kind(CONTAINER, element=tensor(MODULE_TENSOR_DICTS[attribute]), mapping=True)
    if is_model_output(receiver) and attribute in MODEL_OUTPUT_TENSOR_FIELDS:
        return MODEL_OUTPUT_FIELD
    if receiver.base == OBJECT and attribute == "param_groups" and is_optimizer_class(receiver.origin or ""):
        return OPTIMIZER_PARAM_GROUPS
    if receiver.base == OBJECT and (receiver.origin or "").startswith("torch.distributions.") and attribute in DISTRIBUTION_TENSOR_ATTRIBUTES:
        return tensor(False)  # `base_dist.loc`: the tensor it was built from, or one computed from them
    return None


# What a torch.distributions distribution holds or computes as tensors (its parameters, and the
# moments of the distribution); whether they carry a graph depends on what built it (taken without).
DISTRIBUTION_TENSOR_ATTRIBUTES = frozenset({
    "loc", "scale", "covariance_matrix", "scale_tril", "precision_matrix", "mean", "variance", "stddev", "mode",
    "probs", "logits", "concentration", "concentration0", "concentration1", "rate", "low", "high", "df",
})


# A torch optimizer's `param_groups`: a list of dicts whose "params" is a list of parameters
# (`for g in opt.param_groups: for p in g["params"]: p.data`); the other keys are numbers.
OPTIMIZER_PARAM_GROUPS = Kind(CONTAINER, element=Kind(CONTAINER, mapping=True, keys=("params",),
                                                      positions=(Kind(CONTAINER, element=tensor(True)),)))


def subscript_kind(receiver: Kind | None, string_index: str | None, number_index: int | None = None) -> Kind | None:
    """What `receiver[index]` is; `string_index` is the index when it is a string literal,
    `number_index` when it is an integer literal."""
    if receiver is None:
        return None
    if receiver is UNPICKLED and string_index in _MODEL_STATE_KEYS:
        # `checkpoint["state_dict"]`: a model's state, tensors by key (a guess)
        return Kind(CONTAINER, mapping=True, element=Kind(TENSOR, origin=GUESSED_LOADED_STATE))
    if receiver is UNPICKLED:
        return UNPICKLED  # `net = checkpoint["net"]`: whatever was saved there
    if receiver.base == TENSOR:
        return receiver
    if receiver.base == CONTAINER and number_index is not None and not receiver.mapping:
        return _at_position(receiver, number_index)  # `model(x)[0]` of `return out, None`
    if receiver.base == CONTAINER and receiver.keys is not None and string_index in receiver.keys:
        return receiver.positions[receiver.keys.index(string_index)]  # `state["model"]`
    if receiver.base in (MODULE, CONTAINER) and receiver.element is not None:
        return receiver.element  # ModuleList[i], Sequential[i], ModuleDict[k], [m1, m2][i]
    if is_model_output(receiver) and string_index in MODEL_OUTPUT_TENSOR_FIELDS:
        return MODEL_OUTPUT_FIELD
    return None


def summed_kind(iterable: Kind | None) -> Kind | None:
    """What the builtin `sum(iterable)` gives: a tensor (with the elements' graph) when the
    iterable yields tensors; unknown otherwise."""
    element = iterated_kind(iterable)
    return derived_tensor(element.graph, [element]) if element is not None and element.base == TENSOR else None


def applied_kind(returned: Kind | None, graph: bool) -> Kind | None:
    """What `Function.apply(...)` of a custom autograd function gives, from what its `forward`
    returns (a tensor, or a tuple of them): the tensors carry a graph where an input did (the
    forward itself runs with autograd off)."""
    if is_kind(returned, TENSOR):
        return replace(returned, graph=graph)
    if returned is not None and returned.base == CONTAINER and not returned.mapping and returned.positions is not None:
        positions = tuple(replace(kind, graph=graph) if is_kind(kind, TENSOR) else kind for kind in returned.positions)
        return replace(returned, positions=positions)
    return None


def zipped_kind(iterables: list[Kind | None]) -> Kind | None:
    """What `zip(a, b, ...)` is: an iterable of tuples of what each iterable yields, at its place
    (so `it = iter(zip(cycle(labelled), unlabelled))` then `(x, y), (u, _) = next(it)` reads
    each loader's batch)."""
    elements = tuple(iterated_kind(iterable) for iterable in iterables)
    if not elements or all(element is None for element in elements):
        return None
    return Kind(CONTAINER, element=Kind(CONTAINER, positions=elements))


def enumerated_kind(iterable: Kind | None) -> Kind | None:
    """What `enumerate(a)` is: an iterable of (number, element) pairs."""
    element = iterated_kind(iterable)
    return Kind(CONTAINER, element=Kind(CONTAINER, positions=(None, element))) if element is not None else None


def cycled_kind(iterable: Kind | None) -> Kind | None:
    """What `itertools.cycle(a)` is: an iterable of what `a` yields, again and again."""
    element = iterated_kind(iterable)
    return Kind(CONTAINER, element=element) if element is not None else None


def iterated_kind(iterable: Kind | None) -> Kind | None:
    """What iterating a value of this kind yields, when known."""
    return element_kind(iterable, None, ()) if iterable is not None else None


def element_kind(receiver: Kind | None, method: str | None, path: tuple[int, ...]) -> Kind | None:
    """The kind of a loop target element (at `path` inside a tuple target) when iterating
    `receiver.method()` (or `receiver` itself, when `method` is None). `parameters()` and
    `buffers()` (and their named forms) yield tensors whatever the receiver's class is known to be,
    unless it is known not to be a module: only nn.Module has them (a class of the program with a
    `parameters` method of its own is a known non-module)."""
    if receiver is None:
        if method not in TENSOR_ITERATORS:
            return None
        if path == ():
            return ELEMENT_KIND_OF_ITERATOR.get(method)
        return PAIR_KIND_OF_ITERATOR.get(method) if path == (1,) else None
    if method is None:
        if receiver.base in (MODULE, CONTAINER) and receiver.element is not None and not receiver.mapping:
            # (`for k, v in sorted(d.items())`: each pair unpacked)
            return receiver.element if path == () else unpacked_kind(receiver.element, path) if receiver.base == CONTAINER else None
        if receiver.base == TENSOR and path == ():
            return derived_tensor(receiver.graph, [receiver])  # `for row in weights`: its slices
        if receiver.base == OBJECT and receiver.origin in DATA_LOADERS and receiver.element is not None:
            # a batch: a tuple (or list) of collated tensors, unpacked or kept whole
            batch = Kind(CONTAINER, element=receiver.element)
            return unpacked_kind(batch, path[:1]) if len(path) == 1 else batch if path == () else None
        return None
    if receiver.base == MODULE and path == () and method in ELEMENT_KIND_OF_ITERATOR:
        return ELEMENT_KIND_OF_ITERATOR[method]
    if receiver.base == MODULE and path == (1,) and method in PAIR_KIND_OF_ITERATOR:
        return PAIR_KIND_OF_ITERATOR[method]
    if receiver.element is not None and receiver.mapping:
        if method == "values" and path == ():
            return receiver.element
        if method == "items" and path == (1,):
            return receiver.element
    return None
