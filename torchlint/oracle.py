"""The type oracle: is this expression an nn.Module instance? a Tensor that carries an autograd
graph? a DataLoader? Answers come from evidence in the file and, through the project index, from
the repository's other modules; `None` means unknown, and a rule that gets unknown stays silent.

Evidence about one name, from cheap to expensive: its bindings in scope (each judged where it can
reach the use, so a name rebound to different things is not merged over the function), `isinstance`
and class-name checks guarding the use, what is called on it (`.parameters()`), and for a
parameter the arguments every call in the project passes (`train(model, ...)`, `net.apply(fn)`).
"""

from __future__ import annotations

import re
from dataclasses import replace
from collections.abc import Sequence

import libcst as cst

from torchlint.analysis import ClassIndex, ImportTable, argument, dotted_name, element_at, method_named, walk_statements
from torchlint.codemod import names_used
from torchlint.attributes import AttributeKinds
from torchlint.narrowing import MAYBE_NOT_A_TENSOR, NOT_A_TENSOR, Narrowing
from torchlint.stored_items import StoredItems
from torchlint.local_containers import LocalContainers, added_by_add_module, handed_on, item_added_last, literal_key  # noqa: F401  (literal_key: re-exported)
from torchlint.usage_evidence import UsageEvidence, is_int_literal
from torchlint.kinds import (  # noqa: F401  (re-exported: rules import the kinds from here)
    CHOICE_DEPTH, CLASS, CONTAINER, CYCLE, FUNCTION, GUESSED, GUESSED_LAYER_PARAMETER, GUESSED_STORED_ITEM, GUESSED_TENSOR_OR_NUMBER, GUESSED_TENSOR_USE,
    GUESSED_MODEL_OUTPUT_DATA, LOADED_CALL_OUTPUT, MODEL_OUTPUT, data_receiver, MODULE, NAMESPACE_MODEL, SOME_MODULE, is_kind, is_model_output, module_call_result, NONE, OBJECT, PASS_THROUGH_FUNCTIONS, PASS_THROUGH_OWNERS, TENSOR,
    TENSOR_ITERATORS, TENSOR_TUPLE, UNPICKLED, Kind, is_batch_loader,
    arithmetic_kind, attribute_kind, augmented_kind, derived_tensor, element_kind, guessed_method_result, iterated_kind,
    keyword_names, layer_tensor_kind, unbatched, library_call_kind, merge, method_call_kind, positional_count, public,
    container_of, dict_display_kind, subscript_kind, summed_kind, tensor, torch_class_instance, unpacked_kind, with_evidence, given_back_kind, PROGRESS_BARS,
    carries_graph, without_graph,
    zipped_kind, enumerated_kind, cycled_kind, applied_kind,
)
from torchlint.project.index import MODEL_NAMESPACES, ProjectClass, ProjectFunction, ProjectIndex
from torchlint.torch_api import (
    AUTOGRAD_FUNCTIONS, DATA_LOADERS, ELEMENTWISE_WITH_OTHER, GRAD_DISABLING_CONTEXTS, MODULE_BASE_CLASSES, SEQUENCE_PACKING, LAZY_PARAMETER_MAKERS, MODULE_CONTAINERS, MODULE_WRAPPERS, PARAMETER_CLASSES, PARAMETER_CONTAINERS,
    SEQUENTIAL_CONTAINERS, is_torch_module_class, looks_like_pretrained_model_class,
)
from torchlint.scopes import (
    COMPREHENSION_TYPES, Binding, Scope, ScopeTable, bind_target, is_first_param, reaching,
)
from torchlint.walk import ElidedBlock, descendants, outside_nested_scopes, paths

# `loss.backward()` with no positional argument: `accelerator.backward(loss)` is no evidence about `accelerator`.
# Decorators that return the function they decorate, or one that returns what it returns.
_RESULT_KEEPING_DECORATORS = frozenset({
    "torch.no_grad", "torch.inference_mode", "torch.enable_grad", "functools.lru_cache", "functools.cache",
    "functools.wraps", "torch.jit.ignore", "torch.jit.unused", "typing.overload",
})
_ELEMENTWISE_COMPARISONS = (cst.Equal, cst.NotEqual, cst.LessThan, cst.LessThanEqual, cst.GreaterThan,
                            cst.GreaterThanEqual)
# Methods that call back a function they are given: the kind of the receiver they need, and
# what each of the callback's positional parameters receives (None: not known).
_CALLBACK_PARAMETERS: dict[str, tuple[str, tuple[Kind | None, ...]]] = {
    "apply": (MODULE, (Kind(MODULE),)),
    "register_forward_pre_hook": (MODULE, (Kind(MODULE), TENSOR_TUPLE)),
    "register_forward_hook": (MODULE, (Kind(MODULE), TENSOR_TUPLE, None)),
    "register_full_backward_pre_hook": (MODULE, (Kind(MODULE), TENSOR_TUPLE)),
    "register_full_backward_hook": (MODULE, (Kind(MODULE), TENSOR_TUPLE, TENSOR_TUPLE)),
    "register_backward_hook": (MODULE, (Kind(MODULE), TENSOR_TUPLE, TENSOR_TUPLE)),
    "register_hook": (TENSOR, (Kind(TENSOR),)),
}
# Builtins that keep what an iterable holds (`next` takes one element of it).
_ITERABLE_BUILTINS = frozenset({"list", "tuple", "sorted", "reversed", "iter", "filter", "next"})
_OPTIONAL_TYPES = frozenset({"typing.Optional", "typing.Union"})
_SCALING_IN_PLACE = (cst.MultiplyAssign, cst.DivideAssign)
# Container annotations that say nothing of the elements' kinds: mapping (True) or sequence (False)
_BUILTIN_CONTAINERS = {"dict": True, "list": False, "tuple": False}
_TYPING_CONTAINERS = {
    "Dict": True, "Mapping": True, "MutableMapping": True, "OrderedDict": True, "DefaultDict": True,
    "List": False, "Tuple": False, "Sequence": False, "MutableSequence": False, "Iterable": False,
}


# `loader.collate_fn = pad`, `loader.collate_fn=pad` (not `==`): a loader's collate function set after it is built
_STORES_COLLATE_FN = re.compile(r"\.collate_fn\s*=(?!=)")


class TypeOracle(AttributeKinds, Narrowing, StoredItems, UsageEvidence, LocalContainers):
    def __init__(self, module: cst.Module, imports: ImportTable, classes: ClassIndex, text: str = "",
                 path: str = "<module>", project: ProjectIndex | None = None):
        self.module = module
        self.imports = imports
        self.classes = classes
        self.text = text
        self.path = path
        self._project = project
        self.scopes = ScopeTable(module, text)
        # Keyed by the objects themselves, not their ids: bindings made on the fly (comprehension
        # variables, `self.x` assignments) are freed after use, and a later object could get the
        # id of one and its memoised kind (results changed from run to run).
        self._in_progress: set[object] = set()
        self._binding_kinds: dict[Binding, Kind | None] = {}
        self._method_outputs: dict[cst.FunctionDef, Kind | None] = {}
        self._getter_outputs: dict[cst.FunctionDef, Kind | None] = {}
        self._grown_lists: dict[tuple, Kind | None] = {}  # (scope, name), and (scope, name, "dict")
        self._class_attributes: dict[tuple[cst.ClassDef, str], list[Binding]] = {}
        self._registered: dict[str, tuple[str, tuple[Kind | None, ...]]] | None = None
        self._defined_methods: frozenset[str] | None = None
        self._stored_into: dict[str, bool] = {}
        self._backpropagated_results: dict[tuple, bool] = {}
        self._subclasses: dict[cst.ClassDef, list[cst.ClassDef]] = {}
        self._lazy_parameters: bool | None = None
        self._packs_sequences: bool | None = None
        classes.project_status = self._project_base_status
        classes.star_status = self._star_imported_base_status

    @property
    def project(self) -> ProjectIndex:
        if self._project is None:
            self._project = ProjectIndex.single(self.path, self.text)
        return self._project

    # ---- public questions -------------------------------------------------------------------
    def release(self) -> None:
        """Scopes and their bindings refer to each other. Emptying the scopes when the file is done
        lets reference counting free its tree at once; the cyclic collector is paused meanwhile."""
        self.scopes.release()
        self.classes.project_status = self.classes.star_status = None

    def kind(self, expr: cst.CSTNode, stack: Sequence[cst.CSTNode]) -> Kind | None:
        """What `expr` is, at the place in the tree that `stack` (its ancestors) describes."""
        scope = self.scope_at(stack)
        if isinstance(expr, cst.Name):
            bindings = list(self.scopes.comprehension_bindings(expr.value, stack, scope))
            if bindings:
                narrowed = self._narrowed(expr.value, scope, stack)
                if narrowed is not None and narrowed is not NOT_A_TENSOR and narrowed is not MAYBE_NOT_A_TENSOR:
                    return public(narrowed)
                return public(_unless_no_tensor(narrowed, merge(self._binding_kind(b) for b in bindings)))
        return public(self._kind(expr, scope, stack))

    def instance_kind(self, cls: cst.ClassDef) -> Kind | None:
        """What an instance of a class of the file is (a module, some other object), through its
        bases; None where a base cannot be read."""
        return public(self._local_instance_kind(cls))

    def instance_class(self, expr: cst.CSTNode, stack: Sequence[cst.CSTNode]) -> cst.ClassDef | None:
        """The class whose method `expr` (a `self` parameter) belongs to, if it is one."""
        return self._instance_class(expr, self.scope_at(stack))

    def attribute_values(self, owner: cst.ClassDef, attribute: str) -> list[cst.CSTNode | None]:
        """What the class's methods assign to `self.<attribute>` (None for an augmented or opaque
        assignment); empty when no method of the class assigns it."""
        return [self.bound_value(binding) for binding in self._attribute_bindings(owner, attribute)]

    def accumulated_arguments(self, receiver: cst.CSTNode, method: str, stack: Sequence[cst.CSTNode]) -> tuple[int, ...]:
        """The positions of the arguments `receiver.method(...)` adds to an attribute of the
        receiver, an instance of a class of the project (a meter's `update(val, n)` doing `self.sum
        += val * n`): they last as long as the receiver does."""
        kind = self.kind(receiver, stack)
        if kind is None or kind.base != OBJECT:
            return ()
        cls = kind.cls
        if isinstance(cls, cst.ClassDef):
            if not any(statement is cls for statement in self.module.body):
                return ()
            cls = self.project.project_class(self._project_path, cls.name.value)
        return self.project.accumulated_arguments(cls, method) if isinstance(cls, ProjectClass) else ()

    def bindings_of(self, name: str, stack: Sequence[cst.CSTNode]) -> list[Binding] | None:
        return self.scopes.lookup(name, self.scope_at(stack))

    @staticmethod
    def bound_value(binding: Binding) -> cst.CSTNode | None:
        """The expression a binding gives its name: the matching element of a tuple assignment
        (`sampler, shuffle = DistributedSampler(ds), False`); None for one unpacked from a call
        or an iterable, and for bindings that are not assignments."""
        return element_at(binding.value, binding.path) if binding.how == "value" else None

    def reaching_bindings(self, name: str, stack: Sequence[cst.CSTNode]) -> list[Binding] | None:
        """The bindings of `name` that can reach the use `stack` describes (all of them when flow
        cannot tell them apart)."""
        scope = self.scope_at(stack)
        bindings = self.scopes.lookup(name, scope)
        return (reaching(bindings, scope, stack) or bindings) if bindings else bindings

    def binding_kind(self, binding: Binding) -> Kind | None:
        return public(self._binding_kind(binding))

    def scope_at(self, stack: Sequence[cst.CSTNode]) -> Scope:
        return self.scopes.at(stack)

    # ---- kinds ------------------------------------------------------------------------------
    def _kind(self, expr: cst.CSTNode, scope: Scope, at: Sequence[cst.CSTNode] | None = None) -> Kind | None:
        """`at`: the ancestors of the use, when `expr` is (part of) the expression asked about; the
        values of bindings are judged without it."""
        if isinstance(expr, cst.Name):
            return self._name_kind(expr.value, scope, at)
        if isinstance(expr, cst.Call):
            return self._call_kind(expr, scope, at)
        if isinstance(expr, cst.Attribute):
            return self._attribute_kind(expr, scope, at)
        if isinstance(expr, cst.BinaryOperation):
            return self._arithmetic_kind([expr.left, expr.right], scope, at)
        if isinstance(expr, cst.UnaryOperation) and not isinstance(expr.operator, cst.Not):
            return self._arithmetic_kind([expr.expression], scope, at)
        if (isinstance(expr, cst.Comparison) and len(expr.comparisons) == 1
                and isinstance(expr.comparisons[0].operator, _ELEMENTWISE_COMPARISONS)):
            # `pred == labels`: a tensor of booleans, with no graph
            compared = self._arithmetic_kind([expr.left, expr.comparisons[0].comparator], scope, at)
            return tensor(False) if compared is not None else None
        if isinstance(expr, cst.Subscript):
            return self._subscript_kind(expr, scope, at)
        if isinstance(expr, (cst.List, cst.Tuple, cst.Set)):
            if any(isinstance(element, cst.StarredElement) for element in expr.elements):
                return self._display_with_unpacking(expr, scope, at)
            held = container_of((self._kind(element.value, scope, at) for element in expr.elements),
                                of_tuples=all(isinstance(element.value, cst.Tuple) for element in expr.elements))
            if isinstance(expr, cst.Set) and held is not None:  # (a set has no positions)
                return Kind(CONTAINER, element=held.element) if held.element is not None else None
            return held
        if isinstance(expr, cst.Dict):
            return self._dict_kind(expr, scope, at)
        if isinstance(expr, (cst.ListComp, cst.GeneratorExp, cst.SetComp, cst.DictComp)):
            return self._comprehension_kind(expr, scope)
        if isinstance(expr, cst.IfExp):
            return merge([self._kind(expr.body, scope, at), self._kind(expr.orelse, scope, at)])
        return None

    def _display_with_unpacking(self, expr, scope: Scope, at=None) -> Kind | None:
        """`[self.alphas_op, *self.alphas_inputs]`: a container of what each element, and each
        element of what is unpacked into it, agree on (modules or tensors); positions unknown."""
        kinds = [self._element_kind(element.value, (), scope) if isinstance(element, cst.StarredElement)
                 else self._kind(element.value, scope, at) for element in expr.elements]
        element = merge(kinds)
        return Kind(CONTAINER, element=element) if element is not None and element.base in (MODULE, TENSOR) else None

    def _dict_kind(self, expr: cst.Dict, scope: Scope, at=None) -> Kind | None:
        """`{"loss": loss, "logits": out}`: a mapping whose values agree on a kind; with string
        keys, each key's value too (`{"model": net, "epoch": e}["model"]`)."""
        if any(isinstance(element, cst.StarredDictElement) for element in expr.elements):
            return None
        values = [self._kind(element.value, scope, at) for element in expr.elements]
        keys = [element.key.evaluated_value if isinstance(element.key, cst.SimpleString) else None
                for element in expr.elements]
        return dict_display_kind(keys, values)

    def _torch_made_element(self, expr, scope: Scope) -> Kind | None:
        """`[torch.mean(v) for v in outputs]`: a torch function that returns a tensor whatever
        it is given (judged as if given what iterating `outputs` yields)."""
        call, variable = expr.elt, expr.for_in.target.value
        if not isinstance(call, cst.Call) or any(arg.star for arg in call.args):
            return None
        qualified = self.imports.qualify(call.func)
        if qualified is None or not qualified.startswith("torch."):
            return None
        iterated = self._element_kind(expr.for_in.iter, (), scope)

        def given(value: cst.CSTNode) -> Kind | None:
            if isinstance(value, cst.Name) and value.value == variable:
                return iterated
            return None if variable in names_used(value) else self._kind(value, scope)

        arguments = [given(arg.value) for arg in call.args]
        inner = arguments[0] if arguments else None
        graph = any(kind is not None and kind.base == TENSOR and kind.graph for kind in arguments)
        keywords = keyword_names(call)
        kind = library_call_kind(qualified, inner, keywords, graph, positional_count(call))
        return kind if kind is not None and kind.base == TENSOR else None

    def _comprehension_kind(self, expr, scope: Scope) -> Kind | None:
        """`[Block(d) for d in dims]`: a container of what the element is, when the element does not
        depend on the comprehension's own variables (which the scope does not bind)."""
        comp_for = expr.for_in
        if isinstance(comp_for.target, cst.Name) and comp_for.inner_for_in is None and not isinstance(expr, cst.DictComp):
            methods = _methods_called_on(expr.elt, comp_for.target.value)
            if methods is not None:
                # `[p for p in params if p.requires_grad]`: some of what `params` holds;
                # `[p.clone() for p in net.parameters()]`: what those methods make of it
                element = self._element_kind(comp_for.iter, (), scope)
                for step, without_arguments in methods:
                    if without_arguments is None:  # `[p.grad for p in net.parameters()]`: a tensor's attributes only
                        # (`.grad` of a value of unknown kind is a tensor, as it is outside a comprehension)
                        element = attribute_kind(element, step) if element is None or element.base == TENSOR else None
                    elif element is not None:
                        element = method_call_kind(element, step, without_arguments)
                    if element is None:
                        break
                if element is None or (methods and element.base not in (MODULE, TENSOR)):
                    return None
                return Kind(CONTAINER, element=element)
            made = self._torch_made_element(expr, scope)
            if made is not None:
                return Kind(CONTAINER, element=made)
        inner = self._comprehension_scope(expr, scope)
        try:
            if isinstance(expr, cst.DictComp):
                # `{x: DataLoader(sets[x]) for x in phases}`: a mapping of what each value is
                held = container_of([self._kind(expr.value, inner)])
                return replace(held, mapping=True) if held is not None else None
            return container_of([self._kind(expr.elt, inner)], of_tuples=isinstance(expr.elt, cst.Tuple))
        finally:
            if inner is not scope:  # (its bindings refer to it: emptied, nothing keeps the tree alive)
                inner.bindings.clear()
                inner.uses = inner.evidence = None

    def _comprehension_scope(self, expr, scope: Scope) -> Scope:
        """The scope a comprehension's element is judged in: its first loop's variables are what
        iterating the first iterable gives (`[Variable(torch.randn(1, n)) for n in sizes]`), later
        loops' are unknown; none of them is the enclosing scope's name of that spelling."""
        inner = Scope(expr, scope)
        first = expr.for_in
        bind_target(inner, first.target, Binding("for", inner, first.iter))
        comp_for = first.inner_for_in
        while comp_for is not None:
            bind_target(inner, comp_for.target, Binding("opaque", inner))
            comp_for = comp_for.inner_for_in
        if not inner.bindings:
            return scope  # (a target of attributes or items binds no name)
        return inner

    def _name_kind(self, name: str, scope: Scope, at: Sequence[cst.CSTNode] | None = None, narrow: bool = True) -> Kind | None:
        if name == "None":
            return NONE
        bindings = self.scopes.lookup(name, scope)
        if at is not None and narrow:
            narrowed = self._narrowed(name, scope, at)
            if narrowed is NOT_A_TENSOR or narrowed is MAYBE_NOT_A_TENSOR:
                return _unless_no_tensor(narrowed, self._name_kind(name, scope, at, narrow=False))  # (a module stays one)
            if narrowed is not None:
                return narrowed
        if bindings is None:
            return self._star_imported_kind(name)
        every = bindings
        if at is not None:
            bindings = reaching(bindings, scope, at) or bindings
            coerced = self._coerced(name, scope, at, bindings)
            if coerced is not None:
                return coerced
        kind = self._bound_kind(name, scope, bindings, every)
        if any(isinstance(binding.scope.node, cst.Module) for binding in bindings):
            # `state.current = v` in another module: the module's own name, rebound from outside
            outside = self.project.stored_into_module(self._project_path, name)
            if outside:
                kind = merge([kind, *outside])
        if self._star_import_may_rebind(name, bindings):
            star = self.project.star_rebinding(name)
            return None if star.what in ("external", "module") else merge([kind, self.project.symbol_kind(star)])
        return kind

    def _bound_kind(self, name: str, scope: Scope, bindings: list[Binding], every: list[Binding]) -> Kind | None:
        """What the bindings that reach a use of `name` agree on (`every`: all of them)."""
        kinds = [self._binding_kind(binding) for binding in bindings]
        merged = merge(kinds)
        if merged is None and any(binding.how == "augmented" for binding in bindings):
            merged = self._accumulated(every)  # (not where only the starting number reaches)
        if merged is None:
            merged = _after_starting_number(bindings, kinds)
        if (merged is None or merged.base == CONTAINER) and (self._mutated(name, scope) or any(
                binding.how == "augmented" for binding in every)):
            grown = self._memoised(self._grown_lists, (scope, name), None, lambda: self._grown_list(name, scope, every))
            if grown is not None:
                return grown  # `layers = []`, then `layers.append(nn.Linear(...))` in a loop
            filled = self._memoised(self._grown_lists, (scope, name, "dict"), None, lambda: self._filled_dict(name, scope, every))
            if filled is not None:
                return filled  # `grads = {}`, then `grads[name] = p.grad` in a loop
            if merged is not None and (merged.element is not None or merged.positions is not None):
                return Kind(CONTAINER, mapping=merged.mapping)  # `params["extra"] = stats`: any element may be another
        if (merged is not None and merged.base == CONTAINER and (merged.element is not None or merged.positions is not None)
                and self._maybe_changed_out_of_sight(name, scope, bindings)):
            return Kind(CONTAINER, mapping=merged.mapping)  # `fill(items)`: the callee may put anything in
        if is_model_output(merged) or (merged is not None and merged.origin == LOADED_CALL_OUTPUT):
            # what a module of unknown class returned (a tensor, a tuple, a dict): a tensor where
            # only a tensor answers to its uses (`F.cross_entropy(out, y)`, `out.size(0)`), a guess
            evidenced = self._usage_evidence(name, bindings, model_output=True)
            if evidenced is not None and evidenced.base == TENSOR:
                return evidenced
            if merged.origin != MODEL_OUTPUT and self._type_tested(name, bindings, converting_too=False):
                # `if isinstance(out, PackedSequence): out = out.data`: what it is, is asked
                return Kind(OBJECT, origin=MODEL_OUTPUT) if is_model_output(merged) else None
            return merged
        if merged is not None and merged.base == TENSOR and not merged.graph and self._backpropagated(name, bindings):
            return replace(merged, graph=True)  # (the graph's origin: see _backpropagated)
        if merged is not None and merged.base == TENSOR and merged.origin in GUESSED and self._reads_what_no_tensor_has(name, bindings):
            return None  # `for sample, y in loader: sample.data * sample.mask`: a namedtuple, not a tensor
        if merged is not None:
            return merged
        if all(k in (CYCLE, NONE) for k in kinds):
            return NONE
        if all(k is None or k in (CYCLE, NONE, UNPICKLED) for k in kinds):
            # the unknown bindings need the evidence; the others follow them (`x = x.view(...)`
            # met while `x` is evaluated, `x = None`)
            unknown = [b for b, k in zip(bindings, kinds) if k is None]
            return self._usage_evidence(name, unknown) or self._evidence_from_other_results(name, unknown)
        return self._where_unknown_used_alike(name, bindings, kinds)

    def _where_unknown_used_alike(self, name: str, bindings: list[Binding], kinds: list[Kind | None]) -> Kind | None:
        """Tensors (or modules) in some bindings, unknown in the others: a tensor when the uses those others
        reach say so (`def forward(self, input): if input.dim() > 2: input = input.view(...)`,
        then `F.log_softmax(input)`: the parameter, where it is not rebound, is used as a tensor).
        A guess where the evidence is one."""
        unknown = [binding for binding, kind in zip(bindings, kinds) if kind is None]
        known = [kind for kind in kinds if kind is not None and kind not in (CYCLE, NONE)]
        if not unknown or not known or any(kind.base not in (TENSOR, MODULE) or kind.base != known[0].base for kind in known):
            return None
        # (modules alike: `criterion = Split(...)`, then `criterion = criterion.cuda()` judged a
        # module by the first one's `criterion.parameters()`: some module, of no known class)
        evidenced = self._usage_evidence(name, unknown)
        return merge([evidenced, *known]) if evidenced is not None and evidenced.base == known[0].base else None

    def _memoised(self, cache: dict, key: object, on_cycle, compute):
        """`compute()` once per key; a key met again while it is being computed gives `on_cycle`.

        Memoised because a name rebound many times (`h = layer(h)` down a whole forward) would
        otherwise re-evaluate every other binding of it recursively, which is exponential.
        """
        if key in cache:
            return cache[key]
        if key in self._in_progress:
            return on_cycle
        self._in_progress.add(key)
        try:
            value = compute()
        finally:
            self._in_progress.discard(key)
        cache[key] = value
        return value

    def _binding_kind(self, binding: Binding) -> Kind | None:
        return self._memoised(self._binding_kinds, binding, CYCLE, lambda: self._without_graph_where_off(binding))

    def _without_graph_where_off(self, binding: Binding) -> Kind | None:
        """A value bound while autograd is off (in a `with torch.no_grad():` block of its scope, or
        a function decorated so) carries no graph, wherever it is used after (`with
        torch.no_grad(): batch_loss = criterion(out, y)`, then `losses.append(batch_loss)`)."""
        kind = self._evaluate_binding(binding)
        if carries_graph(kind) and self._bound_with_grad_off(binding):
            return without_graph(kind)
        return kind

    def _bound_with_grad_off(self, binding: Binding) -> bool:
        if binding.how != "value" or binding.value is None or ("no_grad" not in self.text and "inference_mode" not in self.text):
            return False
        if not _computes(binding.value):
            return False  # `with torch.no_grad(): loss = out`: the same tensor, its graph kept
        scope = binding.scope.node
        path = self.scopes.parents.path_to(scope, binding.value) or [scope]
        return self.grad_disabled_along(path, self._may_disable_grad)

    def grad_disabled_along(self, nodes: Sequence[cst.CSTNode], disables=None) -> bool:
        """Whether code below `nodes` (its ancestors, outermost first) runs with autograd off: in a
        `with torch.no_grad()`/`inference_mode()` block, or a function decorated with either, and
        no `enable_grad()`/`set_grad_enabled(...)` closer in. A nested function's body runs later,
        outside the block around its definition, so the search stops at the innermost function.
        `disables`: what counts as turning autograd off (`disables_grad` by default)."""
        disables = disables or self.disables_grad
        for node in reversed(nodes):
            if isinstance(node, cst.With):
                if any(self.may_enable_grad(item.item) for item in node.items):
                    return False  # `with torch.enable_grad():` inside a `no_grad` function
                if any(disables(item.item) for item in node.items):
                    return True
            if isinstance(node, (cst.FunctionDef, cst.Lambda)):
                decorators = [d.decorator for d in node.decorators] if isinstance(node, cst.FunctionDef) else []
                return not any(map(self.may_enable_grad, decorators)) and any(map(disables, decorators))
        return False

    def _may_disable_grad(self, expr: cst.CSTNode) -> bool:
        """`disables_grad`, or `torch.no_grad()` where the file's imports cannot say what `torch`
        is (it comes through a `from utils import *` of a module not in the project): taken so
        where that only keeps a graph from being read into a value."""
        if self.disables_grad(expr):
            return True
        target = expr.func if isinstance(expr, cst.Call) else expr
        written = dotted_name(target) or ""
        return (written in ("torch.no_grad", "torch.inference_mode") and self.imports.qualify(target) is None
                and (not isinstance(expr, cst.Call) or not expr.args))

    def _evaluate_binding(self, binding: Binding) -> Kind | None:
        if binding.how == "value":
            value = element_at(binding.value, binding.path)
            if value is None and binding.path:
                # `loss, n = evaluate(batch)`: that element of each tuple the function returns;
                # else an element of what the whole value is, when known (`head, tail = model(x)`)
                handed_back = self._handed_back(binding.value, binding.path, binding.scope)
                if handed_back is not None:
                    return handed_back
                function = self._called_function(binding.value, binding.scope)
                if function is not None:
                    element = self._returned_element(function, binding.path)
                else:
                    element = self._project_returned_element(binding.value, binding.scope, binding.path)
                if element is not None:
                    return element
                # else an element of the whole returned value (`return hits`, a list grown by
                # `append`), judged where it stands when it reads a rebound name (`probs, ix = out.topk(k)`)
                position = self._rebinding_position(binding, binding.value)
                return unpacked_kind(self._kind(binding.value, binding.scope, position), binding.path)
            if value is None:
                return None
            position = self._rebinding_position(binding, value)
            kind = self._kind(value, binding.scope, position)
            if kind is None and position is not None and any(isinstance(node, (cst.For, cst.While)) for node in position):
                # in a loop, what reaches the statement may still be being judged (a cycle round
                # the loop): every binding of the name is asked, as without a position
                return self._kind(value, binding.scope)
            return kind
        if binding.how == "augmented":
            return self._augmented_kind(binding.value, binding.scope)
        if binding.how == "for":
            return self._element_kind(binding.value, binding.path, binding.scope)
        if binding.how == "param":
            return self._param_kind(binding.value, binding.scope)
        if binding.how == "class":
            return Kind(CLASS, cls=binding.value)
        if binding.how == "def":
            return Kind(FUNCTION, cls=binding.value)
        if binding.how == "import":
            return self._imported_kind(self.imports.qualify(binding.value))
        return None

    def _rebinding_position(self, binding: Binding, value: cst.CSTNode) -> list[cst.CSTNode] | None:
        """`t = t.cuda()`, `y = x * 2` after `x = torch.sigmoid(x)`: a value that reads a name
        bound more than once in its scope reads what reaches its statement (`x = torch.sigmoid(x)`
        just before), not every binding of the name (the parameter `x` too). Other values are
        judged without a position (finding one costs a walk of the scope), and so are values in a
        loop that a binding from the previous iteration may reach (round the loop the bindings
        reach each other: a cycle per binding); in a loop, `fm = fm.view(...)` right after
        `for fm in maps` reads the loop's own value."""
        names = {node.value for node in descendants(value) if isinstance(node, cst.Name)}
        scope_bindings = binding.scope.bindings
        rebound = [name for name in names if len(scope_bindings.get(name, ())) > 1]
        if not rebound:
            return None
        path = self.scopes.parents.path_to(binding.scope.node, value)
        if path is None:
            return None
        if any(isinstance(node, (cst.For, cst.While)) for node in path) and any(
                reaching(scope_bindings[name], binding.scope, path, within_iteration=True) is None for name in rebound):
            return None  # the previous iteration's value reaches too: every binding is judged
        return path

    def _accumulated(self, bindings: list[Binding]) -> Kind | None:
        """`loss = 0` then only `loss += criterion(out, y)`: the sum, a tensor when its terms are
        (the number only starts it)."""
        if any(b.how not in ("value", "augmented") for b in bindings) or all(b.how == "augmented" for b in bindings):
            return None
        if any(b.how == "value" and not isinstance(b.value, (cst.Integer, cst.Float)) for b in bindings):
            return None
        # (`loss *= weight` after the sum: scaling keeps a tensor a tensor, and its graph)
        terms = [self._kind(b.value.value, b.scope) for b in bindings
                 if b.how == "augmented" and not isinstance(b.value.operator, _SCALING_IN_PLACE)]
        summed = merge(terms) if terms else None
        return summed if summed is not None and summed.base == TENSOR else None

    def _augmented_kind(self, statement: cst.AugAssign, scope: Scope) -> Kind | None:
        """`loss /= n`: a tensor when the name held one there; a list extended stays a list (of
        what both hold); else unknown (a sum started at a number is judged with all its terms:
        see `_accumulated`)."""
        if not isinstance(statement.target, cst.Name):
            return None
        at = self.scopes.parents.path_to(scope.node, statement.target) or [None]
        held = self._kind(statement.target, scope, at[:-1] or None)  # what reaches the statement
        return augmented_kind(held, [self._kind(statement.value, scope)] if held is not None else [])

    def _star_import_may_rebind(self, name: str, bindings: list[Binding]) -> bool:
        """A module-level name that a `from x import *` of a project module also brings in: the
        import may rebind it (`from settings_local import *` after `prior = torch.zeros(4)`).
        Wherever the import stands, what it brings is one more value of the name."""
        return (self.imports.star_fallback is not None
                and any(isinstance(binding.scope.node, cst.Module) for binding in bindings)
                and self.project.star_rebinding(name) is not None)

    def _star_imported_kind(self, name: str) -> Kind | None:
        """A name bound nowhere in the file: a class, function or value of the project that a
        `from x import *` brings in (`from models import *` then `Net()`)."""
        if self.imports.star_fallback is None:
            return None
        symbol = self.project.through_stars(name)
        if symbol is None or symbol.what in ("external", "module"):
            return None
        return self.project.symbol_kind(symbol)

    def _imported_kind(self, qualified: str | None) -> Kind | None:
        if qualified is None:
            return None
        if is_torch_module_class(qualified):
            return Kind(CLASS, origin=qualified)
        symbol = self.project.resolve_qualified(self._project_path, qualified)
        if symbol is None or symbol.what in ("external", "module"):
            return None
        return self.project.symbol_kind(symbol)

    @property
    def _project_path(self) -> str:
        return self.project.own_path or self.path

    def _param_kind(self, param: cst.Param, scope: Scope) -> Kind | None:
        if param.annotation is None:
            return self._unannotated_param_kind(param, scope)
        annotated = self._annotation_kind(param.annotation.annotation)
        if annotated is None:
            mapping = self._container_annotation(param.annotation.annotation)
            if mapping is None:
                return None
            # `losses: Dict = None`: a dict, of what its callers say
            called = self._unannotated_param_kind(param, scope)
            return called if is_kind(called, CONTAINER) and called.mapping == mapping else None
        some_module = is_kind(annotated, MODULE) and annotated.cls is None and annotated.origin in MODULE_BASE_CLASSES
        if not some_module:
            return annotated
        # `model: nn.Module`: which module, its callers may say; where none does, some module
        called = self._unannotated_param_kind(param, scope)
        return called if is_kind(called, MODULE) else Kind(MODULE, origin=SOME_MODULE)

    def _unannotated_param_kind(self, param: cst.Param, scope: Scope) -> Kind | None:
        function = scope.node
        owner = self._method_class(function)
        if owner is not None and is_first_param(function, param):
            return self._self_kind(owner)
        if not isinstance(function, cst.FunctionDef):
            return None
        gradient = self._incoming_gradient(function, param)
        if gradient is not None:
            return gradient
        positional = [*function.params.posonly_params, *function.params.params]
        index = next((i for i, p in enumerate(positional) if p is param), None)
        if index is None:
            return None
        registered = self._callbacks().get(("." if owner is not None else "") + function.name.value)
        if registered is not None:
            method, kinds = registered
            position = index - 1 if owner is not None else index  # a bound method's own `self` first
            if 0 <= position < len(kinds) and kinds[position] is not None:
                return with_evidence(kinds[position], f"`{param.name.value}` is what `.{method}()` passes it")
        key = self._function_key(function)
        if key is None:
            return self._enclosing_call_site_kind(function, param, index, scope)
        return self.project.call_site_kind(self._project_path, key, index)

    def _incoming_gradient(self, function: cst.FunctionDef, param: cst.Param) -> Kind | None:
        """`def backward(ctx, grad_output)` (or `*grad_outputs`) of a `torch.autograd.Function`:
        autograd passes the gradients of the forward's outputs, tensors (not the context)."""
        if function.name.value != "backward" or is_first_param(function, param):
            return None
        owner = self.classes.method_owner.get(function)
        if owner is None or not self._is_autograd_function(owner):
            return None
        if param is function.params.star_arg:
            return Kind(CONTAINER, element=tensor(False))
        return tensor(False) if any(param is p for p in function.params.params) else None

    def _is_autograd_function(self, cls: cst.ClassDef) -> bool:
        """A class of the file written as a subclass of `torch.autograd.Function`."""
        return any(self.imports.qualify(base.value) in AUTOGRAD_FUNCTIONS for base in cls.bases)

    def _enclosing_call_site_kind(self, function: cst.FunctionDef, param: cst.Param, index: int,
                                  scope: Scope) -> Kind | None:
        """A function defined inside another function (`def mse(a, b)` inside `forward`): its
        parameter takes what every call of it passes, when its name is only ever called there
        (never handed on, returned, decorated or rebound: no other caller can exist)."""
        outer = scope.parent
        if function.decorators or outer is None or not isinstance(outer.node, (cst.FunctionDef, cst.Lambda)):
            return None
        name = function.name.value
        definitions = outer.bindings.get(name, [])
        if len(definitions) != 1 or definitions[0].how != "def" or name in outer.declared_nonlocal | outer.declared_global:
            return None
        calls = self._calls_of_local_function(outer, name)
        if not calls:
            return None
        kinds = [self._argument_kind(call, call_scope, param, index) for call, call_scope in calls]
        kind = merge(kinds)
        return with_evidence(kind, f"`{param.name.value}` is what every call of `{name}()` passes it")

    def _calls_of_local_function(self, outer: Scope, name: str) -> list[tuple[cst.Call, Scope]] | None:
        """Every call of the function `name` bound in scope `outer`; None when the name is used
        otherwise (handed on, returned, stored), so calls the file does not show may exist."""
        start = self.scopes.parents.path_to(self.module, outer.node)
        if start is None or _reflects(outer.node):
            return None  # (`locals()["helper"](x)`, `eval("helper(x)")`: calls no walk sees)
        calls = []
        prune = lambda node: type(node) is ElidedBlock and not node.mentions(name)  # noqa: E731
        for path in paths(outer.node, prune):
            node = path[-1]
            if not (isinstance(node, cst.Name) and node.value == name) or len(path) < 2:
                continue
            parent = path[-2]
            if isinstance(parent, cst.FunctionDef) and parent.name is node:
                continue  # the definition itself
            stack = [*start[:-1], *path]
            use_scope = self.scopes.at(stack[:-1])
            bindings = self.scopes.lookup(name, use_scope)
            if bindings is None or bindings is not outer.bindings.get(name):
                continue  # another `name`, bound in a scope of its own
            if not (isinstance(parent, cst.Call) and parent.func is node):
                return None
            if any(isinstance(ancestor, COMPREHENSION_TYPES) for ancestor in path):
                return None  # its arguments may name the comprehension's own variables, unscoped here
            calls.append((parent, use_scope))
        return calls

    def _argument_kind(self, call: cst.Call, scope: Scope, param: cst.Param, index: int) -> Kind | None:
        """What `call` passes to the parameter at `index` (named `param`): positional or keyword."""
        if any(arg.star == "*" for arg in call.args):
            return None
        positional = [arg.value for arg in call.args if arg.keyword is None and not arg.star]
        if index < len(positional):
            return self._kind(positional[index], scope)  # (`**kwargs` cannot pass it again)
        named = next((arg.value for arg in call.args if arg.keyword is not None and arg.keyword.value == param.name.value), None)
        return self._kind(named, scope) if named is not None else None  # (or `**kwargs` may hold it)

    def _container_annotation(self, annotation: cst.CSTNode) -> bool | None:
        """`dict`, `Dict`, `Mapping[str, Tensor]` (True); `list`, `Tuple[...]`, `Sequence` (False);
        anything else None."""
        if isinstance(annotation, cst.Subscript):
            annotation = annotation.value
        qualified = self.imports.qualify(annotation)
        name = dotted_name(annotation)
        if qualified is None and name in _BUILTIN_CONTAINERS:
            return _BUILTIN_CONTAINERS[name]
        if qualified is not None and qualified.startswith(("typing.", "collections.")):
            return _TYPING_CONTAINERS.get(qualified.rsplit(".", 1)[-1])
        return None

    def _annotation_kind(self, annotation: cst.CSTNode) -> Kind | None:
        """What a parameter annotated `annotation` is: `Module`, `Optional[Module]`, `Module | None`,
        `Union[Tensor, None]` (None is neutral: the rules ask about the value when it is one)."""
        options = [annotation]
        if isinstance(annotation, cst.BinaryOperation) and isinstance(annotation.operator, cst.BitOr):
            options = [annotation.left, annotation.right]
        elif isinstance(annotation, cst.Subscript) and self.imports.qualify(annotation.value) in _OPTIONAL_TYPES:
            options = [element.slice.value for element in annotation.slice if isinstance(element.slice, cst.Index)]
        kinds = [NONE if _is_none_name(option) else self._of_class_or_subclass(self._instance_kind_of_class(option))
                 for option in options]
        return public(merge(kinds)) if options else None

    def _of_class_or_subclass(self, kind: Kind | None) -> Kind | None:
        """An instance of `kind`'s class or of a subclass (what an annotation admits): where the
        project derives from the class, which one, and what calling it gives, are not known."""
        if kind is None or kind.cls is None:
            return kind
        return Kind(kind.base) if self.has_subclasses(kind.cls) else kind

    def has_subclasses(self, cls: cst.ClassDef | ProjectClass) -> bool:
        """Whether the file or another module of the project derives a class from `cls`."""
        if isinstance(cls, ProjectClass):
            return self.project.has_subclasses(cls)
        summary = self.project.summaries.get(self._project_path)
        return bool(self.classes.subclasses(cls)) or (
            summary is not None and cls.name.value in summary.classes
            and self.project.has_subclasses(self.project.project_class(self._project_path, cls.name.value)))

    def _function_key(self, function: cst.FunctionDef) -> str | None:
        """The project index's key for a module-level function or a method of a module-level class."""
        owner = self.classes.method_owner.get(function)
        if owner is not None:
            module_level = any(statement is owner for statement in walk_statements(self.module, into_scopes=False))
            return f"{owner.name.value}.{function.name.value}" if module_level else None
        if any(statement is function for statement in walk_statements(self.module, into_scopes=False)):
            return function.name.value
        return None

    def _callbacks(self) -> dict[str, tuple[str, tuple[Kind | None, ...]]]:
        """Functions (and `self.<method>`s, keyed `.<name>`) handed to `<module>.apply(fn)` or
        registered as hooks: what each parameter receives. `apply` passes every submodule; a
        module's forward (pre-)hook gets the module and the tuple of its inputs, a backward hook
        the tuples of gradients; a tensor's `register_hook` callback gets the gradient."""
        if self._registered is None:
            self._registered = {}
            if ".apply(" in self.text or "hook(" in self.text:
                scope = self.scopes.module_scope()
                worth = lambda block: block.holds(".apply(") or block.holds("hook(")  # noqa: E731
                for node in descendants(self.module, lambda n: type(n) is ElidedBlock and not worth(n)):
                    if (isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute)
                            and node.func.attr.value in _CALLBACK_PARAMETERS and node.args):
                        self._register_callback(node, scope)
        return self._registered

    def _register_callback(self, call: cst.Call, scope: Scope) -> None:
        method = call.func.attr.value
        callback = call.args[0].value
        if isinstance(callback, cst.Name):
            key = callback.value
        elif isinstance(callback, cst.Attribute) and isinstance(callback.value, cst.Name) and callback.value.value == "self":
            key = "." + callback.attr.value
        else:
            return
        receiver_base, kinds = _CALLBACK_PARAMETERS[method]
        receiver = self._kind(call.func.value, self.scopes.scope_of_node(call) or scope)
        if receiver is not None and receiver.base == receiver_base:
            self._registered[key] = (method, kinds)

    def _instance_kind_of_class(self, expr: cst.CSTNode) -> Kind | None:
        qualified = self.imports.qualify(expr)
        if qualified is not None:
            known = torch_class_instance(qualified)
            if known is not None:
                return known
            class_kind = self._imported_kind(qualified)
            return self.project.call_result(class_kind) if class_kind is not None and class_kind.base == CLASS else None
        name = dotted_name(expr)
        definitions = self.classes.by_name.get(name or "")
        return self._local_instance_kind(definitions[0]) if definitions and len(definitions) == 1 else None

    def _self_kind(self, cls: cst.ClassDef) -> Kind | None:
        """`self` in a method of `cls`: an instance of it or of a subclass, whose `forward` may
        return something else (`PackedEncoder(Encoder)` packing its rows): calling it gives what
        every definition it may run agrees on."""
        kind = self._local_instance_kind(cls)
        if kind is None or kind.base != MODULE or kind.output is None:
            return kind
        overriding = self._overriding_results(cls, "forward") + [
            None for subclass in self.classes.subclasses(cls) if method_named(subclass, "__call__") is not None]
        if not overriding:
            return kind
        output = merge([kind.output, *(self.project.module_output(result) for result in overriding)])
        return Kind(MODULE, output=output, origin=kind.origin, cls=kind.cls)

    def _local_instance_kind(self, cls: cst.ClassDef) -> Kind | None:
        name = cls.name.value
        if self._decorators_keep(cls) is False:
            return None  # `@singleton class Net`: the name holds what the decorator returned
        status = self.classes.module_class_status(name)
        if status is True:
            return Kind(MODULE, output=self._forward_output(cls), origin=name, cls=cls)
        return Kind(OBJECT, origin=name, cls=cls) if status is False else None

    def _project_base_status(self, qualified: str) -> bool | None:
        """For the class index: whether an imported base class is an nn.Module (None: unknown)."""
        symbol = self.project.resolve_qualified(self._project_path, qualified)
        if symbol is None or symbol.what != "class":
            return None
        return self.project.reaches_module(self.project.project_class(symbol.path, symbol.name))

    def _star_imported_base_status(self, name: str) -> bool | None:
        """For the class index: whether a base class a star import brings from a module of the
        project is an nn.Module (None: unknown, or not brought so)."""
        symbol = self.project.through_stars(name)
        if symbol is None or symbol.what != "class":
            return None
        return self.project.reaches_module(self.project.project_class(symbol.path, symbol.name))

    def _forward_output(self, cls: cst.ClassDef) -> Kind | None:
        """What a local module's `forward` returns: a tensor (carrying a graph), or a tuple of
        tensors, when every `return` agrees; not read when the class or a base of the file
        defines `__call__` (calling an instance runs that instead)."""
        if self.may_override(cls, "__call__"):
            return None  # (it or a base defines one, a base is not seen, a decorator or an assignment may change it)
        if self._attribute_bindings(cls, "forward") or self.project.assigned_on(
                self.project.project_class(self._project_path, cls.name.value), "forward"):
            return None  # (`self.forward = self.packed` in a method, `Net.forward = f`: calls run that)
        forward = method_named(cls, "forward")
        if forward is None:
            return self._inherited_forward_output(cls)
        return self.project.module_output(self._method_returns(forward))

    def _inherited_forward_output(self, cls: cst.ClassDef) -> Kind | None:
        """A class without a `forward` of its own runs its one base's (`class ResNet18(ResNet)`).
        A base of the file reads `self` as any of its subclasses may be (what they assign merged
        in), so what it returns holds here; a base of the project is read as for an instance of
        itself, so only where this class assigns no attribute that the base's family has; either
        way only for a plain class (the index's ClassSummary.plain_methods: at most an `__init__`
        and undecorated methods the base's family does not define, no other way of setting
        attributes, no metaclass)."""
        if len(cls.bases) != 1 or cls.bases[0].keyword is not None:
            return None
        summary = self.project.summaries.get(self._project_path)
        own = summary.classes.get(cls.name.value) if summary is not None and len(self.classes.by_name.get(cls.name.value, ())) == 1 else None
        if own is None or not own.plain_methods:
            return None  # (it may set what the base's code reads by other means than `self.x = v`)
        qualified, definitions = self._written_base(cls.bases[0])
        if definitions:
            if len(definitions) != 1 or any(self._owner_may_give(definitions[0], method)
                                            for method in own.methods.keys() - {"__init__"}):
                return None  # (its own method of a name the base's code reads through `self`)
            kind = self._local_instance_kind(definitions[0])
            return kind.output if kind is not None and kind.base == MODULE else None
        base = self._imported_kind(qualified)
        if base is None or base.base != CLASS or not isinstance(base.cls, ProjectClass):
            return None
        if self.project.shadows_family(base.cls, own.attributes.keys(), own.methods.keys() - {"__init__"}):
            return None
        instance = self.project.instance_kind(base.cls)
        return instance.output if instance is not None and instance.base == MODULE else None

    def _defines_call(self, cls: cst.ClassDef, seen: set[str]) -> bool:
        return self._defines_any(cls, ("__call__",), seen)

    def _defines_any(self, cls: cst.ClassDef, names: tuple[str, ...], seen: set[str]) -> bool:
        """Whether the class or a base of the project defines one of `names` in its body."""
        if cls.name.value in seen:
            return False
        seen.add(cls.name.value)
        if any(_defines(item, name) for item in cls.body.body for name in names):
            return True
        for base in cls.bases:
            local = self.classes.by_name.get(dotted_name(base.value) or "") if self.imports.qualify(base.value) is None else None
            if local and any(self._defines_any(definition, names, seen) for definition in local):
                return True
            imported = self._imported_kind(self.imports.qualify(base.value))
            if imported is not None and isinstance(imported.cls, ProjectClass) and self.project.defines_any(imported.cls, names):
                return True
        return False

    def _looked_up_otherwise(self, cls: cst.ClassDef | ProjectClass, attribute: str) -> bool:
        """The class reads `attribute` through code of its own: a property or method of that name,
        or `__getattr__`/`__getattribute__` (a wrapper handing on another object's attributes)."""
        names = (attribute, "__getattr__", "__getattribute__")
        if isinstance(cls, ProjectClass):
            return self.project.defines_any(cls, names)
        return self._defines_any(cls, names, set())

    def _method_returns(self, method: cst.FunctionDef) -> Kind | None:
        """What a method of a class of the file returns when every `return` agrees on a tensor, a
        module or a tuple of tensors."""
        return self._memoised(self._method_outputs, method, None, lambda: self._returned_kind(method))

    def property_kind(self, owner: cst.ClassDef, attribute: str) -> Kind | None:
        """`self.weights` where the class itself defines `@property def weights(self)` (a setter or
        deleter beside it): what the getter returns, where every subclass defining the name again
        agrees; not where the class or a base reads attributes through `__getattribute__`, nor
        where the class body binds the name otherwise."""
        defined = [item for item in owner.body.body if isinstance(item, cst.FunctionDef) and item.name.value == attribute]
        if (not defined or not self._is_property_getter(defined[0])
                or not all(_is_accessor_of(item, attribute) for item in defined[1:])
                or self._rebinds_method(owner, attribute) or self._defines_any(owner, ("__getattribute__",), set())):
            return None
        getter = defined[0]
        kind = self._memoised(self._getter_outputs, getter, None, lambda: self._returned_kind(getter, getter=True))
        if kind is None:
            return None
        overriding = self._overriding_results(owner, attribute)
        return merge([kind, *overriding]) if overriding else kind

    def _is_property_getter(self, function: cst.FunctionDef) -> bool:
        """Decorated first by the builtin `property` (not a name the file imports or binds)."""
        if not function.decorators:
            return False
        first = function.decorators[0].decorator
        return (isinstance(first, cst.Name) and first.value == "property" and self.imports.qualify(first) is None
                and not self.scopes.lookup("property", self.scopes.module_scope()))

    def returned_values(self, function: cst.FunctionDef, getter: bool = False) -> list[cst.BaseExpression | None] | None:
        """What each `return` of a function of the file gives (None for a bare `return`); None when
        a call's result may be something else: a decorator may wrap the function, and a generator's
        call gives a generator (an `async def`'s, a coroutine). `getter`: a property's getter,
        whose first decorator is `@property` (reading the attribute gives what it returns)."""
        if function.asynchronous is not None:
            return None
        decorators = function.decorators[1:] if getter else function.decorators
        if not all(self._keeps_result(decorator.decorator) for decorator in decorators):
            return None
        if any(isinstance(node, cst.Yield)
               for node in descendants(function.body, outside_nested_scopes)):
            return None
        return [s.value for s in walk_statements(function.body, False) if isinstance(s, cst.Return)]

    def _returned_kind(self, method: cst.FunctionDef, getter: bool = False) -> Kind | None:
        returns = self.returned_values(method, getter)
        if returns is None:
            return None
        scope = self._function_scope(method)
        if not returns or any(value is None or _is_none_name(value) for value in returns):
            return None  # no value, or one that may be None
        kinds = []
        for value in returns:
            # Each returned value judged where it is returned: `out = self.conv(x); ...; out =
            # self.fc(out); return out` is what the last binding before the `return` made.
            path = self.scopes.parents.path_to(method, value) or [None]
            kind = self._kind(value, scope, path[:-1] or None)
            if self._grad_disabled_on(method, path):
                kind = without_graph(kind)  # computed under no_grad: no graph leaves the function
            kinds.append(kind)
        kind = merge(kinds)
        if kind is not None and _instance_of_known_class(kind):
            # `h = Holder(); return h`: what its class assigns, unless the function may set the
            # instance's attributes itself (`h.w = v`, `setattr(h, ...)`) or hand it to code that may
            return kind if not _may_set_attributes_of(method, returns) else None
        return kind if kind is not None and (kind.base in (TENSOR, MODULE, CONTAINER) or is_batch_loader(kind)) else None

    def _handed_back(self, value: cst.CSTNode, path: tuple[int, ...], scope: Scope) -> Kind | None:
        """`model, optimizer = amp.initialize(model, optimizer)`, `model, opt, loader =
        accelerator.prepare(model, opt, loader)`: each name is what was passed in its place."""
        if not isinstance(value, cst.Call) or len(path) != 1:
            return None
        func = value.func
        passes_through = self.imports.qualify(func) in PASS_THROUGH_FUNCTIONS
        if not passes_through and isinstance(func, cst.Attribute) and func.attr.value == "prepare":
            owner = self._kind(func.value, scope)
            passes_through = owner is not None and owner.base == OBJECT and owner.origin in PASS_THROUGH_OWNERS
        if not passes_through or any(arg.star for arg in value.args):
            return None
        # (keywords are options: `opt_level="O1"`, `device_placement=[...]`; one positional
        # value comes back alone, not in a tuple)
        positional = [arg.value for arg in value.args if arg.keyword is None]
        if len(positional) < 2 or not -len(positional) <= path[0] < len(positional):
            return None
        return self._kind(positional[path[0]], scope)

    def _called_function(self, value: cst.CSTNode, scope: Scope) -> cst.FunctionDef | None:
        """The function of the file a call runs: a function (`evaluate(batch)`), a method the
        receiver's class defines (`agent.act(obs)`), or a module's `forward` (`model(x)`)."""
        if not isinstance(value, cst.Call):
            return None
        if isinstance(value.func, cst.Attribute) and value.func.attr.value != "forward":
            receiver = self._kind(value.func.value, scope)
            if receiver is not None and receiver.base in (MODULE, OBJECT) and isinstance(receiver.cls, cst.ClassDef):
                return self._sole_definition(receiver.cls, value.func.attr.value)
            return None
        callee = self._kind(value.func, scope)
        if callee is not None and callee.base == FUNCTION and isinstance(callee.cls, cst.FunctionDef):
            return callee.cls
        if callee is not None and callee.base == MODULE and isinstance(callee.cls, cst.ClassDef):
            return self._sole_definition(callee.cls, "forward")
        return None

    def _sole_definition(self, cls: cst.ClassDef, method: str) -> cst.FunctionDef | None:
        """The method the class defines, where it is the one an instance runs: not where the class
        binds the name otherwise or a subclass defines it again (`self.collate_fn(b)` in a base's
        method may run the subclass's)."""
        if self._rebinds_method(cls, method) or self._overriding_results(cls, method):
            return None
        return method_named(cls, method)

    def _project_returned_element(self, value: cst.CSTNode, scope: Scope, path: tuple[int, ...]) -> Kind | None:
        """The same for a function, method or `forward` of another module of the project."""
        if not isinstance(value, cst.Call):
            return None
        callee = self._kind(value.func, scope)
        if isinstance(value.func, cst.Attribute) and value.func.attr.value != "forward":
            if callee is not None and callee.base == MODULE and isinstance(callee.cls, ProjectClass):
                return self.project.method_element(callee.cls, "forward", path)  # `self.decoder(...)`
            receiver = self._kind(value.func.value, scope)
            if receiver is not None and receiver.base in (MODULE, OBJECT) and isinstance(receiver.cls, ProjectClass):
                return self.project.method_element(receiver.cls, value.func.attr.value, path)
            return None
        if callee is not None and callee.base == FUNCTION and isinstance(callee.cls, ProjectFunction):
            return self.project.function_element(callee.cls, path)
        if callee is not None and callee.base == MODULE and isinstance(callee.cls, ProjectClass):
            return self.project.method_element(callee.cls, "forward", path)
        return None

    def _returned_element(self, function: cst.FunctionDef, path: tuple[int, ...]) -> Kind | None:
        """The element at `path` of what the function returns, when every `return` gives a tuple
        (or list) display holding one there."""
        returns = self.returned_values(function)
        if returns is None:
            return None
        scope = self._function_scope(function)
        kinds = []
        for value in returns:
            element = element_at(value, path) if value is not None else None
            if element is None:
                whole = self._returned_whole_unpacked(function, value, scope, path)
                if whole is None:
                    return None
                kinds.append(whole)
                continue
            at = self.scopes.parents.path_to(function, element) or [None]
            kind = self._kind(element, scope, at[:-1] or None)
            kinds.append(without_graph(kind) if self._grad_disabled_on(function, at) else kind)
        return merge(kinds) if kinds else None

    def _returned_whole_unpacked(self, function: cst.FunctionDef, value: cst.CSTNode | None, scope: Scope,
                                 path: tuple[int, ...]) -> Kind | None:
        """A `return` of a value that is no tuple or list display (`return self.fc(x)` beside
        `return out, p`), unpacked by the caller as its kind is: a tensor's rows are tensors."""
        if value is None or isinstance(value, (cst.Tuple, cst.List)) or not path:
            return None
        at = self.scopes.parents.path_to(function, value) or [None]
        kind = self._kind(value, scope, at[:-1] or None)
        return unpacked_kind(without_graph(kind) if self._grad_disabled_on(function, at) else kind, path)

    def _function_scope(self, function: cst.FunctionDef) -> Scope:
        """The scope of a function of the file: a method's or a module-level function's directly,
        a nested function's through the path down to it (rarely needed)."""
        if function in self.classes.method_owner or any(statement is function for statement in self.module.body):
            return self.scopes.method_scope(function)
        path = self.scopes.parents.path_to(self.module, function)
        return self.scopes.at(path) if path is not None else self.scopes.method_scope(function)

    def _keeps_result(self, decorator: cst.CSTNode) -> bool:
        target = decorator.func if isinstance(decorator, cst.Call) else decorator
        return (dotted_name(target) in ("staticmethod", "classmethod")
                or self.imports.qualify(target) in _RESULT_KEEPING_DECORATORS)

    def _grad_disabled_on(self, function: cst.FunctionDef, path: Sequence[cst.CSTNode]) -> bool:
        """The function runs with autograd off (decorated so), or the `return` stands in a
        `with torch.no_grad():` block of it."""
        if any(self.disables_grad(decorator.decorator) for decorator in function.decorators):
            return True
        return any(isinstance(node, cst.With) and any(self.disables_grad(item.item) for item in node.items)
                   for node in path)

    def disables_grad(self, expr: cst.CSTNode) -> bool:
        """`torch.no_grad()`, `torch.inference_mode` (as a context manager or decorator); not
        `inference_mode(False)` or one given any argument, which may leave grad on."""
        if isinstance(expr, cst.Call) and not _only_true(expr.args):
            return False
        return self.imports.qualify(expr.func if isinstance(expr, cst.Call) else expr) in GRAD_DISABLING_CONTEXTS

    def parameters_may_be_lazy(self) -> bool:
        """The project may build lazy modules (it names `nn.LazyLinear` or another lazy layer, a
        base class or a registry's value included, or `UninitializedParameter`): any parameter
        may then be uninitialised until the module first runs, which `.data` reads and every
        tensor method refuses."""
        if self._lazy_parameters is None:
            self._lazy_parameters = self.project.names_any_of(LAZY_PARAMETER_MAKERS)
        return self._lazy_parameters

    def data_receiver(self, expr: cst.CSTNode, stack: Sequence[cst.CSTNode]) -> Kind | None:
        """The tensor `expr.data` reads (kinds.data_receiver): what a module of no known class
        returns is one by a guess, but not in a project that packs sequences (it names
        `pack_padded_sequence`, `pack_sequence` or `PackedSequence`), where a model may return one,
        whose `.data` is its own."""
        receiver = data_receiver(self.kind(expr, stack))
        if receiver is not None and receiver.origin == GUESSED_MODEL_OUTPUT_DATA and self._project_packs_sequences():
            return None
        return receiver

    def _project_packs_sequences(self) -> bool:
        if self._packs_sequences is None:
            in_file = any(re.search(rf"\b{name}\b", self.text) for name in SEQUENCE_PACKING)
            self._packs_sequences = in_file or self.project.names_any_of(SEQUENCE_PACKING)
        return self._packs_sequences

    def may_enable_grad(self, expr: cst.CSTNode) -> bool:
        """`torch.enable_grad()`, `torch.set_grad_enabled(...)`, `inference_mode(False)`: inside,
        autograd may record again, whatever encloses it."""
        qualified = self.imports.qualify(expr.func if isinstance(expr, cst.Call) else expr)
        if qualified in GRAD_DISABLING_CONTEXTS:
            return isinstance(expr, cst.Call) and not _only_true(expr.args)
        return qualified in GRAD_ENABLING_CONTEXTS

    def _torch_state_dict(self, receiver: Kind | None) -> bool:
        """Whether `receiver.state_dict()` is nn.Module's: a torch module, or a class whose
        `state_dict` nothing in it or its bases may redefine."""
        if receiver is None or receiver.base != MODULE:
            return False
        if isinstance(receiver.cls, cst.ClassDef):
            return not self.may_override(receiver.cls, "state_dict")
        if isinstance(receiver.cls, ProjectClass):
            return not self.project.may_override(receiver.cls, "state_dict")
        # torch's own layer; a wrapper or container asks its modules for theirs, which may be
        # anything, and `nn.Module` (an annotation) may be any class
        origin = receiver.origin or ""
        return (receiver.cls is None and is_torch_module_class(origin) and origin not in MODULE_WRAPPERS
                and origin not in MODULE_CONTAINERS and receiver.element is None and origin not in _ANY_MODULE)

    def may_override(self, cls: cst.ClassDef, method: str, seen: set[str] | None = None) -> bool:
        """Whether the class of the file, or a base, may define `method` itself (`__call__`,
        `state_dict`): it or a base defined in the file does, or a base is neither torch's nor
        one this file defines."""
        seen = set() if seen is None else seen
        if cls.name.value in seen:
            return False
        seen.add(cls.name.value)
        if any(_defines(item, method) for item in cls.body.body) or not self._decorators_keep(cls):
            return True
        if self.project.assigned_on(self.project.project_class(self._project_path, cls.name.value), method):
            return True  # `Net.__call__ = f`, `setattr(Net, "__call__", f)` in the project
        for base in cls.bases:
            qualified = self.imports.qualify(base.value)
            if qualified is not None and is_torch_module_class(qualified) and qualified.startswith("torch."):
                continue
            if qualified is not None:
                imported = self._imported_kind(qualified)
                if imported is None or not isinstance(imported.cls, ProjectClass) or self.project.may_override(imported.cls, method):
                    return True  # a base the project cannot see into, or one that defines it
                continue
            local = self.classes.by_name.get(dotted_name(base.value) or "")
            if not local or len(local) != 1 or self.may_override(local[0], method, seen):
                return True  # a base this file cannot see into
        return False

    def _decorators_keep(self, cls: cst.ClassDef) -> bool | None:
        """Whether the class statement's decorators give the class back (see the index's
        `decorators_keep_class`; None: one cannot be read)."""
        if not cls.decorators:
            return True
        names = [_decorator_name(decorator.decorator) for decorator in cls.decorators]
        return self.project.decorators_keep_class(self._project_path, names)

    def _own_method_result(self, receiver: Kind | None, method: str) -> Kind | None:
        """`agent.act(obs)`: what a method the receiver's class defines itself returns. Through
        the class itself (`VaeGan.loss(a, b)`), only a static method's: another method called so
        is handed its instance by the caller, which may be anything."""
        if receiver is None or receiver.base not in (MODULE, OBJECT, CLASS) or (method == "forward" and receiver.base != OBJECT):
            return None  # (a module's `forward` is read as its call is; a plain object's is any method)
        static_only = receiver.base == CLASS
        if isinstance(receiver.cls, cst.ClassDef):
            function = method_named(receiver.cls, method)
            if function is None and not static_only:
                return self._defined_by_subclasses_only(receiver.cls, method)
            if function is None or (static_only and not _is_staticmethod(function)) or self._rebinds_method(receiver.cls, method):
                return None
            if sum(isinstance(item, cst.FunctionDef) and item.name.value == method for item in receiver.cls.body.body) > 1:
                return None  # defined twice in the class body: the last `def` is the one bound
            result = self._method_returns(function)
            if result is None and not static_only and _only_raises(function):
                # `def build(self): raise NotImplementedError` for the subclasses to define: on an
                # instance of the class itself the call never returns, so what it gives is what
                # their definitions agree on
                overriding = self._overriding_results(receiver.cls, method)
                return merge(overriding) if overriding else None
        elif isinstance(receiver.cls, ProjectClass):
            result = self.project.method_result(receiver.cls, method, static_only=static_only)
        else:
            return None
        if result is None or static_only:
            return result  # through the class itself, the class's own method runs
        # The instance may be of a subclass defining the method again (`self.m()` in the base's
        # methods, above all): what every definition it may run returns must agree.
        overriding = self._overriding_results(receiver.cls, method)
        return merge([result, *overriding]) if overriding else result

    def _rebinds_method(self, cls: cst.ClassDef, method: str) -> bool:
        """The class binds the method's name otherwise: `self.m = ...` in a method (an instance's
        attribute comes before its class's methods), or `m = other` in its body."""
        if self._attribute_bindings(cls, method):
            return True
        return any(isinstance(small, (cst.Assign, cst.AnnAssign)) and method in _assigned_names(small)
                   for line in cls.body.body if isinstance(line, cst.SimpleStatementLine) for small in line.body)

    def _overriding_results(self, cls: cst.ClassDef | ProjectClass, method: str) -> list[Kind | None]:
        if isinstance(cls, ProjectClass):
            return self.project.overriding_results(cls, method)
        local = [None if self._rebinds_method(subclass, method) else self._method_returns(function)
                 for subclass in self.classes.subclasses(cls)
                 if (function := method_named(subclass, method)) is not None or self._rebinds_method(subclass, method)]
        summary = self.project.summaries.get(self._project_path)
        if summary is None or cls.name.value not in summary.classes:
            return local  # a class inside a function: only this file can derive from it
        own = self.project.project_class(self._project_path, cls.name.value)
        return local + self.project.overriding_results(own, method, elsewhere_than=self._project_path)

    def _method_receiver(self, receiver: Kind | None, expr: cst.CSTNode, scope: Scope) -> Kind | None:
        """Whose methods a call on `expr` (of kind `receiver`) may run: `self` in a method of a
        class whose kind is unknown (a base the oracle cannot read, `torch.multiprocessing.Process`)
        still runs the class's own methods, which come before any base's."""
        if receiver is None:
            owner = self._instance_class(expr, scope)
            if owner is not None:
                return Kind(OBJECT, cls=owner)
        return receiver

    def _method_class(self, node: cst.CSTNode) -> cst.ClassDef | None:
        if not isinstance(node, cst.FunctionDef) or _is_static_or_classmethod(node):
            return None
        return self.classes.method_owner.get(node)

    def _element_kind(self, iterator: cst.CSTNode, path: tuple[int, ...], scope: Scope) -> Kind | None:
        """What a loop target (at `path` in a tuple target) is when iterating `iterator`."""
        if isinstance(iterator, cst.Call):
            generated = self._generated(iterator, scope)
            if generated is not None:  # `for X, Y in data.get_batches(...)`: what the generator yields
                return unpacked_kind(generated, path) if path else generated
            helper = dotted_name(iterator.func)
            values = [arg.value for arg in iterator.args if arg.keyword is None and not arg.star]
            if helper == "zip" and path and path[0] < len(values):
                return self._element_kind(values[path[0]], path[1:], scope)
            if helper == "enumerate" and values and path[:1] == (1,):
                return self._element_kind(values[0], path[1:], scope)
            if values and self.imports.qualify(iterator.func) in PROGRESS_BARS:
                return self._element_kind(values[0], path, scope)  # a progress bar yields what it wraps
            if values and len(values) == len(iterator.args) and self.imports.qualify(iterator.func) == "itertools.chain":
                return merge(self._element_kind(value, path, scope) for value in values)
            if isinstance(iterator.func, cst.Attribute):
                method = iterator.func.attr.value
                receiver = self.project.unless_own_iterators(self._kind(iterator.func.value, scope), method)
                known = element_kind(receiver, method, path)
                if known is not None:
                    return known
                if method != "forward":
                    # `for a in net.arch_parameters()`: what a method the class defines itself returns
                    own = self._own_method_result(self._method_receiver(receiver, iterator.func.value, scope), method)
                    torch_call = (receiver is not None and receiver.base == TENSOR) or self._torch_call(iterator)
                    if receiver is not None and receiver.base == OBJECT and receiver.cls is None and method in TENSOR_ITERATORS:
                        return Kind(OBJECT)  # a module or a class's own values (see `merge`): no tensor
                    if own is not None or not torch_call:
                        return element_kind(own, None, path)
                    # torch's own (`torch.split(x, 2)`, `x.chunk(4)`): the tensors the call gives
                # `for out in self.forward(x)`: what the call returns, as for `self(x)`
        iterable = self._kind(iterator, scope)
        own = self.project.iterated_instance(iterable)  # a class of the project that is its own iterator
        if own is not None:
            return unpacked_kind(own, path) if path else own
        return element_kind(iterable, None, path)

    def _generated(self, call: cst.Call, scope: Scope) -> Kind | None:
        """What a call of a generator function of the project (this file's own functions, and the
        methods of its top-level classes, as the index summarised them) yields (see the index's
        `yielded_kind`)."""
        func = call.func
        if isinstance(func, cst.Name):
            callee = self._kind(func, scope)
            if callee is None or callee.base != FUNCTION:
                return None
            function = self._as_project_function(callee.cls)
            return self.project.yielded_kind(function) if function is not None else None
        if isinstance(func, cst.Attribute):
            receiver = self._kind(func.value, scope)
            if receiver is None or receiver.base not in (MODULE, OBJECT):
                return None
            cls = receiver.cls
            if isinstance(cls, cst.ClassDef) and any(statement is cls for statement in self.module.body):
                cls = self.project.project_class(self._project_path, cls.name.value)
            return self.project.method_yields(cls, func.attr.value) if isinstance(cls, ProjectClass) else None
        return None

    def _call_kind(self, call: cst.Call, scope: Scope, at=None) -> Kind | None:
        func = call.func
        if isinstance(func, cst.Attribute) and func.attr.value == "from_pretrained":
            return self._pretrained_kind(func.value, scope)
        if self._builds_from_model_namespace(func):
            return NAMESPACE_MODEL
        namespace = self._project_namespace(func, scope)
        if namespace is not None:
            return self.project.namespace_instance(namespace)
        namespace = self._project_namespace(call, scope)
        if namespace is not None:
            return self.project.namespace_class(namespace)  # `arch = getattr(models, name)`
        if isinstance(func, cst.Attribute):
            package = self._imported_package(func.value, scope)
            if package is not None:  # `importlib.import_module("model." + name).Graph(opt)`
                return self.project.package_member_instance(self._project_path, package, func.attr.value)
        if isinstance(func, cst.Attribute) and func.attr.value == "apply":
            applied = self._applied_function_kind(call, scope)
            if applied is not None:
                return applied
        qualified = self.imports.qualify(func)
        if qualified == "itertools.chain":
            return self._chained_kind(call, scope)
        if qualified == "itertools.cycle" or (isinstance(func, cst.Name) and func.value in ("zip", "enumerate")
                                              and self.scopes.lookup(func.value, scope) is None):
            return self._pairing_kind(qualified or func.value, call, scope)
        if (qualified == "collections.OrderedDict" or (isinstance(func, cst.Name) and func.value == "dict"
                                                       and self.scopes.lookup("dict", scope) is None)):
            return self._dict_of_pairs(call, scope)
        if qualified is not None:
            known = self._library_call_kind(qualified, call, scope)
            if known is not None or is_torch_module_class(qualified) or qualified.startswith("torch."):
                return known
            imported = self._imported_kind(qualified)
            if imported is not None and imported.base == FUNCTION:
                passed = self._passed_back(call, imported.cls, scope, at)
                if passed is not None:
                    return passed  # `G = functions.reset_grads(G, False)`: the very object passed
            result = self.project.call_result(imported)
            if result is None and isinstance(func, cst.Attribute):  # `VaeGan.loss(a, b)` of an imported class
                owner = self._imported_kind(self.imports.qualify(func.value))
                return self._own_method_result(owner, func.attr.value) if owner is not None and owner.base == CLASS else None
            return result
        if isinstance(func, cst.Name) and func.value in _ITERABLE_BUILTINS:
            iterated = self._builtin_iterable(call, scope)
            if iterated is not None:
                return iterated
        if isinstance(func, cst.Name) and func.value == "sum" and self.scopes.lookup("sum", scope) is None:
            return self._summed(call, scope)
        if isinstance(func, cst.Name):
            bindings = self.scopes.lookup(func.value, scope) or []
            if bindings and all(binding.how == "class" for binding in bindings) and len(bindings) == 1:
                return self._local_instance_kind(bindings[0].value)
        if isinstance(func, cst.Name) and func.value == "getattr" and self.scopes.lookup("getattr", scope) is None:
            return self._named_attribute_kind(call, scope, at)
        if isinstance(func, cst.Attribute) and func.attr.value == "__call__":
            # `self.__call__(x)` is `self(x)`; `Net.__call__(net, x)` is not `Net(...)`
            callee = self._kind(func.value, scope, at)
            return None if callee is None or callee.base == CLASS else self._call_kind(cst.Call(func.value, call.args), scope, at)
        callee = self._kind(func, scope, at)
        if callee is not None and callee.base == CLASS and callee.output is not None:
            return callee.output  # one of a namespace's classes (`arch = models.__dict__[name]`)
        if callee is None or (callee.base == CLASS and callee.cls is None and not callee.origin):
            chosen = self._chosen_instance(func, scope)
            if chosen is not None:
                return chosen
        if callee is not None and callee.base == MODULE:
            return module_call_result(callee)
        if callee is UNPICKLED and self._given_a_tensor(call, scope):
            # `net = torch.load(path)`, then `net(x)`: most likely a whole pickled model (a dict of
            # state cannot be called; a pickled tokenizer is given text)
            return Kind(OBJECT, origin=LOADED_CALL_OUTPUT)
        if callee is not None and callee.base == CLASS and isinstance(callee.cls, cst.ClassDef):
            return self._local_instance_kind(callee.cls)  # `Model.Detection()`: a class nested in the file's
        if callee is not None and callee.base == FUNCTION:
            passed = self._passed_back(call, callee.cls, scope, at)
            if passed is not None:
                return passed  # `G = reset_grads(G, False)`: the very object this call passes
        if callee is not None and callee.base == FUNCTION and isinstance(callee.cls, cst.FunctionDef):
            return self._method_returns(callee.cls)  # a function of the file: what its returns agree on
        if callee is not None and callee.base in (CLASS, FUNCTION) and isinstance(callee.cls, (ProjectClass, ProjectFunction)):
            return self.project.call_result(callee)
        if isinstance(func, cst.Attribute):
            receiver = self._kind(func.value, scope, at)
            own = self._own_method_result(self._method_receiver(receiver, func.value, scope), func.attr.value)
            if own is not None:
                return own
            if func.attr.value == "state_dict" and not call.args and self._torch_state_dict(receiver):
                return STATE_DICT
            if func.attr.value == "type" and call.args and receiver is not None and receiver.base == TENSOR:
                return derived_tensor(receiver.graph, [receiver])  # `x.type(torch.FloatTensor)` (`x.type()` is a name)
            known = method_call_kind(self.project.unless_own_iterators(receiver, func.attr.value), func.attr.value,
                                     without_arguments=not call.args)
            if known is None and self._imports_torch() and func.attr.value not in self._own_method_names():
                return guessed_method_result(receiver, func.attr.value)
            return known
        return None

    def _as_project_function(self, function) -> ProjectFunction | None:
        """A function of another module, or one of this file's top level as the index knows it
        (its summary of this very text); None for any other (a nested function, a method)."""
        if isinstance(function, cst.FunctionDef):
            if not any(statement is function for statement in self.module.body):
                return None
            return ProjectFunction(self._project_path, function.name.value, function.name.value)
        return function if isinstance(function, ProjectFunction) else None

    def _passed_back(self, call: cst.Call, function, scope: Scope, at) -> Kind | None:
        """A call of a plain function (of this file's top level, or another module's) that returns
        one of its parameters as it was passed: the kind of what this call passes there."""
        function = self._as_project_function(function)
        if function is None or any(arg.star for arg in call.args):
            return None
        returned = self.project.returned_parameter(function)
        passed = argument(call, returned[0], returned[1]) if returned is not None else None
        if passed is None:
            return None
        return given_back_kind(self._kind(passed.value, scope, at), *returned[2:])

    def _chosen_instance(self, func: cst.CSTNode, scope: Scope) -> Kind | None:
        """`Net = A if big else B; Net()`, `{"a": A, "b": B}[name]()`: what the instances of the
        classes that can be chosen agree on (unknown unless every choice is a known class)."""
        choices = self._class_choices(func, scope, CHOICE_DEPTH)
        if not choices or (len(choices) == 1 and choices[0][0] is func):
            return None  # (one choice: `{"resnet50": ResNet50Fc}[name]()` still picks that class)
        choosing = self.__dict__.setdefault("_choosing", set())
        if id(func) in choosing:
            return None  # `model = factory; model = model()`: a choice is this very call
        choosing.add(id(func))
        try:
            return merge(self._instance_of(choice, choice_scope) for choice, choice_scope in choices)
        finally:
            choosing.discard(id(func))

    def _class_choices(self, expr: cst.CSTNode, scope: Scope, depth: int) -> list[tuple[cst.CSTNode, Scope]] | None:
        if depth == 0:
            return None
        if isinstance(expr, cst.IfExp):
            return self._all_choices([(expr.body, scope), (expr.orelse, scope)], depth)
        if isinstance(expr, cst.Subscript):
            table = self._dict_literal_values(expr.value, scope)
            return None if table is None else self._all_choices([(value, table[1]) for value in table[0]], depth)
        if isinstance(expr, cst.Name):
            bindings = self.scopes.lookup(expr.value, scope) or []
            if bindings and all(binding.how == "value" and not binding.path and binding.value is not None
                                for binding in bindings):
                return self._all_choices([(binding.value, binding.scope) for binding in bindings], depth)
        return [(expr, scope)]

    def _all_choices(self, options: list[tuple[cst.CSTNode, Scope]], depth: int) -> list[tuple[cst.CSTNode, Scope]] | None:
        choices = []
        for option, option_scope in options:
            found = self._class_choices(option, option_scope, depth - 1)
            if found is None:
                return None
            choices.extend(found)
        return choices

    def _dict_literal_values(self, expr: cst.CSTNode, scope: Scope) -> tuple[list[cst.CSTNode], Scope] | None:
        """The classes a dict display (or `dict(a=A, b=B)`) offers, and the scope they are read in:
        written in place, or bound to a function's local that is only ever looked up, or to a
        module-level table nothing but its display fills (see _table_only_looked_up)."""
        if isinstance(expr, cst.Name):
            bindings = self.scopes.lookup(expr.value, scope) or []
            if len(bindings) != 1 or bindings[0].how != "value" or bindings[0].path:
                return None
            owner = bindings[0].scope.node
            if isinstance(owner, cst.FunctionDef):
                if not _only_looked_up(expr.value, owner) or self._stored_into_anywhere(expr.value):
                    return None
            elif not (isinstance(owner, cst.Module) and self._table_only_looked_up(expr.value)):
                return None
            scope, expr = bindings[0].scope, bindings[0].value
        if (isinstance(expr, cst.Call) and isinstance(expr.func, cst.Name) and expr.func.value == "dict"
                and self.scopes.lookup("dict", scope) is None and expr.args
                and all(arg.keyword is not None and not arg.star for arg in expr.args)):
            return [arg.value for arg in expr.args], scope  # `dict(conv4=Conv4, resnet10=ResNet10)`
        if not isinstance(expr, cst.Dict) or not all(isinstance(element, cst.DictElement) for element in expr.elements):
            return None
        return [element.value for element in expr.elements], scope

    def _table_only_looked_up(self, name: str) -> bool:
        """A module-level table (`MODELS = {"a": A, "b": B}`) that nothing but its display fills:
        this file writes its name only where it binds it and in `MODELS[key]` reads, no other
        module of the project names it (to fill it, alias it or hand it on), it is no public name
        of an installable package (code outside the project may register more), and the file
        star-imports nothing after it (which may bind the name anew)."""
        escaped = re.escape(name)
        bound = re.search(rf"^{escaped}\s*[:=]", self.text, re.MULTILINE) if self.text else None
        if bound is None or self._stored_into_anywhere(name) or _STAR_IMPORT.search(self.text, bound.end()):
            return False  # (`from plugins import *` after it may bind the name anew without writing it)
        mentions = len(re.findall(rf"\b{escaped}\b", self.text))
        lookups = len(re.findall(rf"\b{escaped}\s*\[", self.text))
        return (mentions - lookups == 1 and not self.project.is_public_api(self._project_path, name)
                and not self.project.named_elsewhere(self._project_path, name))

    def _stored_into_anywhere(self, name: str) -> bool:
        """`TABLE[k] = v` or `TABLE.update(...)` anywhere in the file's text (a registry filled by a
        decorator in another function): the table's display is not all it holds."""
        if not self.text:
            return True  # (the text is not known: nothing is)
        known = self._stored_into.get(name)
        if known is None:
            known = self._stored_into[name] = self._search_stores(name)
        return known

    def _search_stores(self, name: str) -> bool:
        escaped = re.escape(name)
        return re.search(rf"\b{escaped}\s*\[[^\n]*\]\s*=[^=]|\b{escaped}\s*\.\s*(?:update|setdefault|__setitem__)\b",
                         self.text) is not None

    def _instance_of(self, choice: cst.CSTNode, scope: Scope) -> Kind | None:
        if isinstance(choice, cst.Name):
            bindings = self.scopes.lookup(choice.value, scope) or []
            if len(bindings) == 1 and bindings[0].how == "class":
                return self._local_instance_kind(bindings[0].value)
        if isinstance(choice, (cst.Name, cst.Attribute)) and self.imports.qualify(choice) is not None:
            return self._instance_kind_of_class(choice)
        kind = self._kind(choice, scope)
        return self.project.call_result(kind) if kind is not None and kind.base == CLASS else None

    def _builtin_iterable(self, call: cst.Call, scope: Scope) -> Kind | None:
        """`list(model.parameters())`, `filter(fn, params)`, `sorted(...)`: an iterable of what the
        iterable given yields; `next(iter(loader))`: one element of it. Only the builtins
        themselves (a name the file binds is something else)."""
        name = call.func.value
        positional = [arg.value for arg in call.args if arg.keyword is None and not arg.star]
        if self.scopes.lookup(name, scope) is not None or len(positional) != len(call.args) or not positional:
            return None
        if name in ("iter", "next") and len(positional) != 1:
            return None  # `next(it, default)` may give the default; `iter(read, b"")` calls `read`
        if name == "filter" and len(positional) != 2:
            return None
        iterable = self._kind(positional[1] if name == "filter" else positional[0], scope)
        element = iterated_kind(iterable)
        if element is None:
            return None
        if name == "next":
            return element
        return iterable if name == "iter" else Kind(CONTAINER, element=element)

    def _summed(self, call: cst.Call, scope: Scope) -> Kind | None:
        """`sum([criterion(f, t) for f, t in pairs])`, `sum(losses)`: the builtin adds what the
        iterable yields to its start (0): a tensor when the elements are tensors."""
        positional = [arg.value for arg in call.args if arg.keyword is None and not arg.star]
        if not positional or len(positional) != len(call.args):
            return None
        return summed_kind(self._kind(positional[0], scope))

    def _dict_of_pairs(self, call: cst.Call, scope: Scope) -> Kind | None:
        """`dict(model.named_parameters())`, `OrderedDict(ema.named_buffers())`: a mapping of names
        to the tensors the pairs hold (`params[name].data`, `for n, p in params.items()`)."""
        if len(call.args) != 1 or call.args[0].keyword is not None or call.args[0].star:
            return None
        pairs = call.args[0].value
        if not (isinstance(pairs, cst.Call) and isinstance(pairs.func, cst.Attribute) and not pairs.args):
            return None
        method = pairs.func.attr.value
        value = element_kind(self.project.unless_own_iterators(self._kind(pairs.func.value, scope), method), method, (1,))
        return Kind(CONTAINER, element=value, mapping=True) if value is not None and value.base == TENSOR else None

    def _named_attribute_kind(self, call: cst.Call, scope: Scope, at=None) -> Kind | None:
        """`getattr(lin, "weight")` is `lin.weight`; `getattr(l, attr)` in `for attr in
        ["in_proj_weight", "in_proj_bias"]` is what those attributes agree on. Not with a default
        (`getattr(m, "bias", None)` may give it), nor with a name from anywhere else."""
        if len(call.args) != 2 or any(arg.keyword is not None or arg.star for arg in call.args):
            return None
        receiver, named = call.args[0].value, call.args[1].value
        names = self._attribute_names(named, scope, at)
        if not names:
            return self._registered_under(receiver, named)
        return merge(self._attribute_kind(cst.Attribute(receiver, cst.Name(name)), scope, at) for name in names)

    def _registered_under(self, receiver: cst.CSTNode, named: cst.CSTNode) -> Kind | None:
        """`getattr(self.module, self.name + "_u")` where the file registers a parameter (or a
        buffer) on the same receiver under the same name, as written:
        `self.module.register_parameter(self.name + "_u", u)` (spectral normalisation's wrapper). A
        guess, matched by the text (fixes resting on it are not applied without asking)."""
        if not self.text or not isinstance(receiver, (cst.Name, cst.Attribute)):
            return None
        owner, name = self.module.code_for_node(receiver), self.module.code_for_node(named)
        pattern = rf"(?<![\w.]){re.escape(owner)}\s*\.\s*register_(parameter|buffer)\(\s*{re.escape(name)}\s*,"
        registered = {found.group(1) for found in re.finditer(pattern, self.text)}
        if not registered:
            return None
        return Kind(TENSOR, graph=registered == {"parameter"}, origin=GUESSED_LAYER_PARAMETER)

    def _attribute_names(self, expr: cst.CSTNode, scope: Scope, at=None) -> list[str] | None:
        """The identifiers a string literal, or a loop variable over a display of them, may hold."""
        if isinstance(expr, cst.SimpleString):
            value = expr.evaluated_value
            return [value] if isinstance(value, str) and value.isidentifier() else None
        if isinstance(expr, cst.Attribute):
            default = self._attribute_default(expr, scope)
            return [default] if default is not None else None
        if not isinstance(expr, cst.Name):
            return None
        bindings = self.scopes.lookup(expr.value, scope) or []
        if bindings and at is not None:
            bindings = reaching(bindings, scope, at) or bindings
        if not bindings or any(b.how != "for" or b.path or not isinstance(b.value, (cst.List, cst.Tuple)) for b in bindings):
            return None
        names = [self._attribute_names(element.value, scope) for b in bindings for element in b.value.elements]
        return None if any(n is None for n in names) else [name for found in names for name in found]

    def _attribute_default(self, expr: cst.Attribute, scope: Scope) -> str | None:
        """`self.name` set once, in `__init__`, from a parameter `name="weight"` that no call of
        the class in the project passes (spectral normalisation's wrapper: `getattr(self.module,
        self.name)`): that default. Not where a subclass may exist (it could set it again), nor
        where the class's own code or another object can set it otherwise."""
        owner = self._instance_class(expr.value, scope)
        if owner is None:
            return None
        attribute = expr.attr.value
        bindings = self._attribute_bindings(owner, attribute)
        if len(bindings) != 1 or bindings[0].how != "value" or bindings[0].path or not isinstance(bindings[0].value, cst.Name):
            return None
        init = bindings[0].scope.node
        if not isinstance(init, cst.FunctionDef) or init.name.value != "__init__" or self._method_class(init) is not owner:
            return None
        param = bindings[0].value.value
        given = self.scopes.lookup(param, bindings[0].scope) or []
        if len(given) != 1 or given[0].how != "param" or not isinstance(given[0].value.default, cst.SimpleString):
            return None
        default = given[0].value.default.evaluated_value
        if not isinstance(default, str) or not default.isidentifier():
            return None
        if self._file_subclasses(owner) or self._looked_up_otherwise(owner, attribute) or self._set_on_self_otherwise(owner, attribute):
            return None
        summary = self.project.summaries.get(self._project_path)
        if summary is None or owner.name.value not in summary.classes:
            return None
        if self.project.has_subclasses(self.project.project_class(self._project_path, owner.name.value)):
            return None
        return default if self.project.never_passed(self._project_path, f"{owner.name.value}.__init__", param) else None

    def _set_on_self_otherwise(self, owner: cst.ClassDef, attribute: str) -> bool:
        """As `_set_otherwise`, but a `setattr` in the class counts only on the instance itself
        (`setattr(self.module, self.name, w)` sets the wrapped module's attribute)."""
        code = self.module.code_for_node(owner)
        if re.search(r"setattr\(\s*self\s*,|__dict__", code):
            return True
        if self.text and re.search(rf"setattr\([^,()]+,\s*['\"]{re.escape(attribute)}['\"]", self.text):
            return True
        return self.project.stores_attribute(attribute)

    def _applied_function_kind(self, call: cst.Call, scope: Scope) -> Kind | None:
        """`Hinge.apply(pred, labels)` of a `torch.autograd.Function` of the file or the project:
        what its `forward` returns, carrying a graph where a tensor given does."""
        owner = self._kind(call.func.value, scope)
        if owner is None or owner.base != CLASS:
            return None
        if isinstance(owner.cls, cst.ClassDef):
            forward = method_named(owner.cls, "forward")
            if forward is None or not self._is_autograd_function(owner.cls):
                return None
            returned = self._method_returns(forward)
        elif isinstance(owner.cls, ProjectClass):
            returned = self.project.applied_forward(owner.cls)
        else:
            return None
        given = [self._kind(arg.value, scope) for arg in call.args if not arg.star]
        return applied_kind(returned, any(is_kind(kind, TENSOR) and kind.graph for kind in given))

    def _pairing_kind(self, name: str, call: cst.Call, scope: Scope) -> Kind | None:
        """`zip(a, b)`, `enumerate(a)`, `itertools.cycle(a)` given only positional iterables (not
        `enumerate(a, start)` read wrongly: its second argument is a number)."""
        if not call.args or any(arg.keyword is not None or arg.star for arg in call.args):
            return None
        parts = [self._kind(arg.value, scope) for arg in call.args]
        if name == "zip":
            return zipped_kind(parts)
        if len(parts) != 1:
            return None
        return enumerated_kind(parts[0]) if name == "enumerate" else cycled_kind(parts[0])

    def _chained_kind(self, call: cst.Call, scope: Scope) -> Kind | None:
        """`itertools.chain(a.parameters(), a.buffers())`: an iterable of what its iterables hold,
        when each is known to hold one kind."""
        if not call.args or any(arg.keyword is not None or arg.star for arg in call.args):
            return None
        parts = [self._kind(arg.value, scope) for arg in call.args]
        if not all(part is not None and part.base == CONTAINER and not part.mapping for part in parts):
            return None
        element = merge([part.element for part in parts])
        return Kind(CONTAINER, element=element) if element is not None else None

    def _builds_from_model_namespace(self, func: cst.CSTNode) -> bool:
        """`models.__dict__[arch]` or `getattr(models, arch)` with torchvision's or timm's models."""
        if isinstance(func, cst.Subscript) and isinstance(func.value, cst.Attribute) and func.value.attr.value == "__dict__":
            return self.imports.qualify(func.value.value) in MODEL_NAMESPACES
        if isinstance(func, cst.Call) and dotted_name(func.func) == "getattr" and len(func.args) >= 2:
            return self.imports.qualify(func.args[0].value) in MODEL_NAMESPACES
        return False

    def _project_namespace(self, func: cst.CSTNode, scope: Scope) -> str | None:
        """`models.__dict__[arch]` or `getattr(models, arch)` with `models` a module of the project
        (an import the scope does not hide): that module's path."""
        if isinstance(func, cst.Subscript) and isinstance(func.value, cst.Attribute) and func.value.attr.value == "__dict__":
            namespace = func.value.value
        elif (isinstance(func, cst.Call) and isinstance(func.func, cst.Name) and func.func.value == "getattr"
              and len(func.args) == 2 and self.scopes.lookup("getattr", scope) is None):
            namespace = func.args[0].value  # (not `getattr(models, arch, fallback)`)
        else:
            return None
        head = namespace
        while isinstance(head, cst.Attribute):
            head = head.value
        bindings = self.scopes.lookup(head.value, scope) if isinstance(head, cst.Name) else None
        if not bindings or any(binding.how != "import" for binding in bindings):
            return None  # `def build(models, name)`: a parameter, whatever it holds
        qualified = self.imports.qualify(namespace)
        symbol = self.project.resolve_qualified(self._project_path, qualified) if qualified else None
        return symbol.path if symbol is not None and symbol.what == "module" else None

    def _imported_package(self, expr: cst.CSTNode, scope: Scope) -> str | None:
        """The dotted name of the package whose module a call of `importlib.import_module` picks
        by a name made at run time under that package (`"model.{}".format(opt.model)`,
        `f"model.{name}"`, `"model." + name`), called in place or bound once to a local name."""
        if isinstance(expr, cst.Name):
            bindings = self.scopes.lookup(expr.value, scope) or []
            if len(bindings) != 1 or bindings[0].how != "value" or bindings[0].path or bindings[0].scope is not scope:
                return None
            expr = bindings[0].value
        if not (isinstance(expr, cst.Call) and len(expr.args) == 1 and expr.args[0].keyword is None
                and not expr.args[0].star and self.imports.qualify(expr.func) == "importlib.import_module"):
            return None
        return _module_name_prefix(expr.args[0].value)

    def _library_call_kind(self, qualified: str, call: cst.Call, scope: Scope) -> Kind | None:
        inner = self._kind(call.args[0].value, scope) if call.args else None
        keywords = keyword_names(call)
        graph = self._any_graph(call, scope) or _requests_grad(call)
        if qualified in ELEMENTWISE_WITH_OTHER and self._given_another_tensor(call, scope):
            return tensor(graph)  # `torch.max(0.9 - v, zero)`: the elementwise maximum, not `(values, indices)`
        kind = library_call_kind(qualified, inner, keywords, graph, positional_count(call))
        if qualified in DATA_LOADERS and "collate_fn" in keywords:
            return self._collated_loader(qualified, call, scope) or kind
        if qualified in DATA_LOADERS and self.project.stores_attribute("collate_fn"):
            return unbatched(kind)  # `loader.collate_fn = pad` somewhere: which loader, not known
        if kind is not None and kind.base == MODULE and qualified in SEQUENTIAL_CONTAINERS:
            kind = Kind(MODULE, output=self._sequential_output(call, scope), origin=qualified,
                        element=kind.element)
        if kind is not None and qualified in PARAMETER_CONTAINERS:
            kind = Kind(MODULE, output=kind.output, origin=qualified, mapping=kind.mapping,
                        element=self._given_parameters(call, scope))
        if kind is not None and kind.base == MODULE and kind.element is not None and not kind.mapping:
            element = self._built_elements(call) or self._named_list_elements(call, scope)
            if element is not None:
                kind = Kind(MODULE, output=kind.output, origin=kind.origin, element=element)
        if kind is None and qualified.startswith("torch.") and qualified.rsplit(".", 1)[-1][:1].isupper():
            return Kind(OBJECT, origin=qualified)  # a torch class that is not a module: a known non-module
        return kind

    def _given_a_tensor(self, call: cst.Call, scope: Scope) -> bool:
        """A positional argument of the call is a tensor (a guess counts)."""
        return any(arg.keyword is None and not arg.star and is_kind(self._kind(arg.value, scope), TENSOR)
                   for arg in call.args)

    def _given_another_tensor(self, call: cst.Call, scope: Scope) -> bool:
        """`torch.max(a, b)` or `torch.max(a, other=b)` with `b` a tensor: the overload that
        compares two tensors (the one that reduces takes an int `dim` there)."""
        positional = [arg for arg in call.args if arg.keyword is None]
        if any(arg.star for arg in call.args):
            return False
        other = next((arg.value for arg in call.args if arg.keyword is not None and arg.keyword.value == "other"), None)
        if other is None and len(positional) == 2 and len(call.args) == 2:
            other = positional[1].value
        return other is not None and is_kind(self._kind(other, scope), TENSOR)

    def _collated_loader(self, qualified: str, call: cst.Call, scope: Scope) -> Kind | None:
        """`DataLoader(ds, collate_fn=collate)` with a function of the project whose every
        `return` gives a tuple (or list) of tensors: its batches hold those tensors."""
        value = next(arg.value for arg in call.args if arg.keyword is not None and arg.keyword.value == "collate_fn")
        if _STORES_COLLATE_FN.search(self.text) or self.project.stores_attribute("collate_fn"):
            return None  # `loader.collate_fn = other` after it is built: DataLoader reads it then
        collate = self._kind(value, scope)
        if collate is None and isinstance(value, cst.Attribute):
            batch = self._bound_method_returns(value, scope)  # `collate_fn=dataset.collate_fn`
        elif collate is None or collate.base != FUNCTION:
            return None
        elif isinstance(collate.cls, cst.FunctionDef):
            batch = self._method_returns(collate.cls)
        elif isinstance(collate.cls, ProjectFunction):
            batch = self.project.call_result(collate)
        else:
            return None
        if batch is None or batch.base != CONTAINER or batch.mapping or batch.element is None:
            return None
        return Kind(OBJECT, origin=qualified, element=batch.element) if batch.element.base == TENSOR else None

    def _bound_method_returns(self, method: cst.Attribute, scope: Scope) -> Kind | None:
        """What `instance.method(...)` returns, for an instance of a module-level class of the
        project that defines the method itself (`train_set.collate_fn`, handed to a DataLoader):
        not where the class binds the name otherwise (twice, `collate_fn = other` in its body,
        `self.collate_fn = ...`), where a subclass may override it, or where the project assigns
        an attribute of that name through any object (`ds.collate_fn = pad`, `setattr(...)`)."""
        receiver = self._kind(method.value, scope)
        if receiver is None or receiver.base != OBJECT or self.project.stores_attribute(method.attr.value):
            return None
        cls = receiver.cls
        if isinstance(cls, cst.ClassDef):  # (one of the file's module-level classes: the index's, by name)
            at_top = any(statement is cls for statement in self.module.body)
            cls = self.project.project_class(self._project_path, cls.name.value) if at_top and self._project_path else None
        if not isinstance(cls, ProjectClass) or self.has_subclasses(cls):
            return None
        return self.project.method_result(cls, method.attr.value)

    def _given_parameters(self, call: cst.Call, scope: Scope) -> Kind | None:
        """What `nn.ParameterList([...])`/`nn.ParameterDict({...})` holds: parameters, when it is
        given tensors or nothing (it wraps tensors; anything else it keeps as it is, and later code
        may add anything: a guess, so fixes resting on it are unsafe)."""
        if not call.args:
            return _PARAMETER_ITEM  # filled later, by `append(nn.Parameter(...))` as a rule
        if len(call.args) != 1 or call.args[0].keyword is not None or call.args[0].star:
            return None
        given = call.args[0].value
        if isinstance(given, (cst.List, cst.Tuple)):
            values = [element.value for element in given.elements if not isinstance(element, cst.StarredElement)]
            if len(values) != len(given.elements):
                return None
        elif isinstance(given, cst.Dict):
            values = [element.value for element in given.elements if isinstance(element, cst.DictElement)]
            if len(values) != len(given.elements):
                return None
        elif isinstance(given, (cst.ListComp, cst.GeneratorExp)) and isinstance(given.elt, cst.Call):
            # `nn.ParameterList(nn.Parameter(torch.randn(d)) for d in dims)`
            return _PARAMETER_ITEM if self.imports.qualify(given.elt.func) in PARAMETER_CLASSES else None
        elif isinstance(given, cst.Name):
            # `coefs = []`, `coefs.append(nn.Parameter(...))` in a loop, then `ParameterList(coefs)`
            # (it copies the list: what is added later is not in it)
            held = self._kind(given, scope)
            element = held.element if held is not None and held.base == CONTAINER and not held.mapping else None
            return _PARAMETER_ITEM if element is not None and element.base == TENSOR else None
        else:
            return None
        kinds = [self._kind(value, scope) for value in values]
        return _PARAMETER_ITEM if kinds and all(k is not None and k.base == TENSOR for k in kinds) else None

    def _built_elements(self, call: cst.Call) -> Kind | None:
        """The elements of `ModuleList(nn.Sequential(...) for d in dims)` or `Sequential(nn.Conv2d(...),
        nn.ReLU())`, when each is a call of a torch.nn class: what such a call builds does not depend on
        the values of its arguments, so the comprehension's own variables do not matter."""
        if any(arg.star or arg.keyword is not None for arg in call.args):
            return None
        values = [arg.value for arg in call.args]
        if len(values) == 1 and isinstance(values[0], (cst.GeneratorExp, cst.ListComp)):
            values = [values[0].elt]
        elif len(values) == 1 and isinstance(values[0], (cst.List, cst.Tuple)):
            values = [element.value for element in values[0].elements]
        kinds = []
        for value in values:
            qualified = self.imports.qualify(value.func) if isinstance(value, cst.Call) else None
            if qualified is None or not is_torch_module_class(qualified):
                return None
            keywords = keyword_names(value)
            kinds.append(library_call_kind(qualified, None, keywords, False, positional_count(value)))
        element = merge(kinds) if kinds else None
        return element if element is not None and element.base == MODULE else None

    def _named_list_elements(self, call: cst.Call, scope: Scope) -> Kind | None:
        """The elements of `ModuleList(layers)` given a name bound to a list of modules
        (`layers = [nn.Linear(4, n) for n in sizes]`): what that list's elements agree on, as the
        name holds it where the call stands."""
        if len(call.args) != 1 or call.args[0].star or call.args[0].keyword is not None:
            return None
        if not isinstance(call.args[0].value, cst.Name):
            return None
        name = call.args[0].value.value
        bindings = self.scopes.lookup(name, scope) or []
        # (a list of a function's own, that nothing puts into or hands on: not a module-level list
        # another function may append to, `register(Odd())`, after the ModuleList is built)
        if (not bindings or any(binding.scope is not scope for binding in bindings) or isinstance(scope.node, cst.Module)
                or name in scope.declared_global | scope.declared_nonlocal or self._mutated(name, scope)
                or self._maybe_changed_out_of_sight(name, scope, bindings)):
            return None
        given = self._kind(call.args[0].value, scope)
        if given is None or given.base != CONTAINER or given.mapping or given.element is None:
            return None
        return given.element if given.element.base == MODULE else None

    def _sequential_output(self, call: cst.Call, scope: Scope) -> Kind | None:
        """A Sequential returns what its last module returns (a tensor only if that one does);
        given `*layers`, what every module the list holds returns, when they agree."""
        if not call.args:
            added = self._added_by_add_module(call, scope)  # `model = nn.Sequential()`, `model.add_module(...)`
            last = self._kind(added, scope) if added is not None else None
            return last.output if last is not None and last.base == MODULE else None
        if not call.args or call.args[-1].keyword is not None or call.args[-1].star == "**":
            return None
        given = call.args[-1].value
        last_added = self._last_added(given.value, call, scope) if call.args[-1].star and isinstance(given, cst.Name) else None
        if last_added is not None:
            last = self._kind(last_added, scope)  # `layers += [nn.Conv2d(...), nn.Tanh()]` just before
        else:
            last = self._kind(given, scope)
            if call.args[-1].star:
                held = last if last is not None and last.base == CONTAINER and not last.mapping else None
                last = held.element if held is not None else None
        return last.output if last is not None and last.base == MODULE else None

    def _added_by_add_module(self, call: cst.Call, scope: Scope) -> cst.BaseExpression | None:
        """The module a Sequential built empty ends with, when the statement `target = call` is
        followed in its block by `target.add_module(...)` statements (see added_by_add_module)."""
        path = self.scopes.parents.path_to(scope.node, call)
        if path is None or len(path) < 4:
            return None
        assign, line, block = path[-2], path[-3], path[-4]
        if not (isinstance(assign, cst.Assign) and assign.value is call and len(assign.targets) == 1
                and isinstance(line, cst.SimpleStatementLine) and len(line.body) == 1
                and isinstance(block, (cst.IndentedBlock, cst.Module))):
            return None
        target = dotted_name(assign.targets[0].target)
        statements = list(block.body)
        if target is None or line not in statements:
            return None
        return added_by_add_module(target, statements[statements.index(line) + 1:])

    def _last_added(self, name: str, call: cst.Call, scope: Scope) -> cst.BaseExpression | None:
        """The item the list `name` ends with where `call` stands, from the statement before it in
        its block that last touches the name: `model += [conv, nn.Tanh()]`, `model.append(x)`,
        `model.extend([...])` or `model = [...]` (a loop, a branch or any other use: unknown)."""
        path = self.scopes.parents.path_to(scope.node, call)
        if path is None or handed_on(name, scope.node, self._torch_call):
            return None  # (`tail = layers`, `grow(layers)`: it may grow out of sight)
        for depth in range(len(path) - 1, 0, -1):
            block = path[depth - 1]
            if isinstance(block, (cst.IndentedBlock, cst.Module)) and not isinstance(block, ElidedBlock):
                statements = list(block.body)
                if path[depth] not in statements:
                    return None
                for statement in reversed(statements[:statements.index(path[depth])]):
                    if any(isinstance(node, cst.Name) and node.value == name for node in descendants(statement)):
                        return item_added_last(statement, name)
                return None
        return None

    def _any_graph(self, call: cst.Call, scope: Scope) -> bool:
        for arg in call.args:
            kind = self._kind(arg.value, scope)
            if kind is not None and kind.base == TENSOR and kind.graph:
                return True
        return False

    def _pretrained_kind(self, receiver: cst.CSTNode, scope: Scope) -> Kind | None:
        name = dotted_name(receiver)
        if name is None:
            return None
        if self.classes.module_class_status(name) is True or looks_like_pretrained_model_class(name):
            return Kind(MODULE, origin=f"{name}.from_pretrained")
        imported = self._imported_kind(self.imports.qualify(receiver))
        if imported is not None and imported.base == CLASS:
            instance = self.project.call_result(imported)
            return instance if instance is not None and instance.base == MODULE else None
        return None

    def _tensor_or_number(self, assigned: list[Binding]) -> Kind | None:
        """An attribute set to tensors in some methods or branches and to a number literal in
        others (`self.loss_kl = 0` where that loss is off): a tensor where a tensor's attribute is
        read, but a guess (which binding reaches a method is not known), so fixes stay unproven."""
        found = _after_starting_number(assigned, [self._binding_kind(binding) for binding in assigned])
        return Kind(TENSOR, graph=found.graph, origin=GUESSED_TENSOR_OR_NUMBER) if found is not None else None

    def _subscript_kind(self, expr: cst.Subscript, scope: Scope, at=None) -> Kind | None:
        namespace = self._project_namespace(expr, scope)
        if namespace is not None:
            return self.project.namespace_class(namespace)  # `arch = models.__dict__[name]`
        receiver = self._kind(expr.value, scope, at)
        index = None
        if len(expr.slice) == 1 and isinstance(expr.slice[0].slice, cst.Index):
            value = expr.slice[0].slice.value
            if isinstance(value, cst.SimpleString):
                index = value.evaluated_value
            elif is_int_literal(value):
                index = _int_value(value)
        return subscript_kind(receiver, index if isinstance(index, str) else None,
                              index if isinstance(index, int) else None)

    def _arithmetic_kind(self, operands: list[cst.CSTNode], scope: Scope, at=None) -> Kind | None:
        return arithmetic_kind(self._kind(operand, scope, at) for operand in operands)

    def _instance_class(self, expr: cst.CSTNode, scope: Scope) -> cst.ClassDef | None:
        if not isinstance(expr, cst.Name):
            return None
        bindings = self.scopes.lookup(expr.value, scope)
        if not bindings or len(bindings) != 1 or bindings[0].how != "param":
            return None
        (binding,) = bindings
        owner = self._method_class(binding.scope.node)
        if owner is not None and is_first_param(binding.scope.node, binding.value):
            return owner
        return None

_ANY_MODULE = frozenset({"torch.nn.Module", "torch.nn.modules.module.Module"})
GRAD_ENABLING_CONTEXTS = frozenset(
    {"torch.enable_grad", "torch.autograd.enable_grad", "torch.autograd.grad_mode.enable_grad", "torch.set_grad_enabled",
     "torch.autograd.set_grad_enabled", "torch.autograd.grad_mode.set_grad_enabled"}
)
# What nn.Module.state_dict() gives: names mapped to detached tensors (parameters and buffers).
STATE_DICT = Kind(CONTAINER, element=tensor(False), mapping=True)


def _may_set_attributes_of(function: cst.FunctionDef, returns: list[cst.BaseExpression | None]) -> bool:
    """The function stores an attribute of a name it returns (`h.w = v`), passes one to `setattr`
    or to any other call, or stores an attribute through any other local than its `self`."""
    returned = {value.value for value in returns if isinstance(value, cst.Name)}
    own_self = function.params.params[0].name.value if function.params.params else None
    for node in descendants(function.body, outside_nested_scopes):
        if isinstance(node, (cst.AssignTarget, cst.AugAssign, cst.AnnAssign)):
            target = node.target
            if isinstance(target, cst.Attribute) and isinstance(target.value, cst.Name) and target.value.value != own_self:
                return True
        if isinstance(node, cst.Call) and any(isinstance(arg.value, cst.Name) and arg.value.value in returned for arg in node.args):
            return True
        if isinstance(node, cst.Call) and isinstance(node.func, cst.Name) and node.func.value == "setattr":
            return True
    return False


def _instance_of_known_class(kind: Kind) -> bool:
    """An instance of a class of the file or the project (`return PPO(policy_net)`): its
    attributes are what that class assigns."""
    return kind.base == OBJECT and isinstance(kind.cls, (cst.ClassDef, ProjectClass))


_PARAMETER_ITEM = Kind(TENSOR, graph=True, origin=GUESSED_STORED_ITEM)  # of a ParameterList/Dict
_REFLECTING_BUILTINS = frozenset({"locals", "vars", "eval", "exec", "globals"})


def _module_name_prefix(name: cst.BaseExpression) -> str | None:
    """"model" for a module name made as `"model.{}".format(x)`, `f"model.{x}"` or `"model." + x`."""
    if isinstance(name, cst.Call) and isinstance(name.func, cst.Attribute) and name.func.attr.value == "format":
        written = name.func.value
        text = written.evaluated_value if isinstance(written, cst.SimpleString) else None
        head = text.split("{", 1)[0] if isinstance(text, str) and text.count("{") == 1 and text.endswith("}") else None
    elif isinstance(name, cst.FormattedString) and len(name.parts) == 2 and isinstance(name.parts[0], cst.FormattedStringText) \
            and isinstance(name.parts[1], cst.FormattedStringExpression):
        head = name.parts[0].value
    elif isinstance(name, cst.BinaryOperation) and isinstance(name.operator, cst.Add) and isinstance(name.left, cst.SimpleString):
        head = name.left.evaluated_value if isinstance(name.left.evaluated_value, str) else None
    else:
        return None
    if not head or not head.endswith(".") or not all(part.isidentifier() for part in head[:-1].split(".")):
        return None
    return head[:-1]


def _computes(value: cst.BaseExpression) -> bool:
    """Whether an assigned value makes a new object (a call, arithmetic, an index), rather than
    naming one that exists (`loss = out`, `best = a if c else b`, `pair = (a, b)`)."""
    if isinstance(value, (cst.Name, cst.Attribute)):
        return False
    if isinstance(value, cst.IfExp):
        return _computes(value.body) and _computes(value.orelse)
    if isinstance(value, (cst.Tuple, cst.List)):
        return all(isinstance(element, cst.Element) and _computes(element.value) for element in value.elements)
    return True


def _assigned_names(statement: cst.Assign | cst.AnnAssign) -> set[str]:
    targets = [t.target for t in statement.targets] if isinstance(statement, cst.Assign) else [statement.target]
    return {target.value for target in targets if isinstance(target, cst.Name)}


def _reflects(function: cst.CSTNode) -> bool:
    """The function reaches its names by string (`locals()`, `eval`, `exec`)."""
    return any(isinstance(node, cst.Call) and isinstance(node.func, cst.Name) and node.func.value in _REFLECTING_BUILTINS
               for node in descendants(function))


def _decorator_name(decorator: cst.BaseExpression) -> str:
    """As the project summary writes it: `register`, `MODELS.register_module()`, or "?"."""
    if isinstance(decorator, cst.Call):
        dotted = dotted_name(decorator.func)
        return dotted + "()" if dotted else "?"
    return dotted_name(decorator) or "?"


def _is_none_name(expr: cst.CSTNode) -> bool:
    return isinstance(expr, cst.Name) and expr.value == "None"


def _after_starting_number(bindings: list[Binding], kinds: list[Kind | None]) -> Kind | None:
    """`gap = 0` before a loop that binds `gap = real - fake`: after the loop, where both reach,
    the tensor (the number only starts it, and what a tensor is used for there would fail on
    it). Not where only the number reaches, nor when the other bindings are not all tensors."""
    rest = [kind for binding, kind in zip(bindings, kinds) if not starts_at_number(binding)]
    if not rest or len(rest) == len(kinds):
        return None
    merged = merge(rest)
    return merged if merged is not None and merged.base == TENSOR else None


def starts_at_number(binding: Binding) -> bool:
    """`loss = 0` (or `-1.0`): a binding to a number literal, which a total or a loss may start at."""
    value = binding.value
    if isinstance(value, cst.UnaryOperation) and isinstance(value.operator, cst.Minus):
        value = value.expression
    return binding.how == "value" and not binding.path and isinstance(value, (cst.Integer, cst.Float))


_STAR_IMPORT = re.compile(r"\bimport\s*\*")


def _only_looked_up(name: str, function: cst.FunctionDef) -> bool:
    """Every use of `name` in the function (nested scopes too) but its one binding is `name[...]`:
    never passed on, aliased, extended or stored into."""
    uses = sum(1 for node in descendants(function.body) if isinstance(node, cst.Name) and node.value == name)
    lookups = sum(1 for node in descendants(function.body)
                  if isinstance(node, cst.Subscript) and isinstance(node.value, cst.Name) and node.value.value == name)
    return uses - 1 == lookups and not any(
        isinstance(node, (cst.AssignTarget, cst.AugAssign, cst.Del)) and isinstance(node.target, cst.Subscript)
        and isinstance(node.target.value, cst.Name) and node.target.value.value == name
        for node in descendants(function.body))


def _only_true(args: Sequence[cst.Arg]) -> bool:
    """No arguments, or just `True` (`inference_mode(True)`, `inference_mode(mode=True)`)."""
    return not args or (len(args) == 1 and isinstance(args[0].value, cst.Name) and args[0].value.value == "True")


def _defines(statement: cst.CSTNode, name: str) -> bool:
    """`def <name>(...)`, or `<name> = ...` in a class body."""
    if isinstance(statement, cst.FunctionDef):
        return statement.name.value == name
    if isinstance(statement, cst.SimpleStatementLine):
        return any(
            isinstance(small, (cst.Assign, cst.AnnAssign)) and any(
                isinstance(target, cst.Name) and target.value == name
                for target in ([t.target for t in small.targets] if isinstance(small, cst.Assign) else [small.target]))
            for small in statement.body
        )
    return False


def _methods_called_on(expr: cst.CSTNode, name: str) -> list[tuple[str, bool | None]] | None:
    """For `name.clone().cuda()`, the methods called in turn on `name`, each with whether it is
    called without arguments (empty for `name` itself), and the attributes read on the way (`name.grad`:
    None in place of the arguments); None for any other expression."""
    steps: list[tuple[str, bool | None]] = []
    while isinstance(expr, (cst.Call, cst.Attribute)):
        if isinstance(expr, cst.Attribute):
            steps.append((expr.attr.value, None))
            expr = expr.value
            continue
        if not isinstance(expr.func, cst.Attribute):
            return None
        if any(isinstance(n, cst.Name) and n.value == name for arg in expr.args for n in descendants(arg)):
            return None  # `p.add(p)`: the variable elsewhere in the element
        steps.append((expr.func.attr.value, not expr.args))
        expr = expr.func.value
    return steps[::-1] if isinstance(expr, cst.Name) and expr.value == name else None


def _int_value(expr: cst.CSTNode) -> int | None:
    """The value of an integer literal (`0`, `-1`)."""
    negative = isinstance(expr, cst.UnaryOperation) and isinstance(expr.operator, cst.Minus)
    number = expr.expression if negative else expr
    if not isinstance(number, cst.Integer):
        return None
    value = int(number.value.replace("_", ""), 0)
    return -value if negative else value


def _requests_grad(call: cst.Call) -> bool:
    return any(
        arg.keyword is not None and arg.keyword.value == "requires_grad"
        and isinstance(arg.value, cst.Name) and arg.value.value == "True"
        for arg in call.args
    )


def _is_accessor_of(function: cst.FunctionDef, attribute: str) -> bool:
    """`@weights.setter` or `@weights.deleter` alone on a `def weights(...)`."""
    return len(function.decorators) == 1 and dotted_name(function.decorators[0].decorator) in (
        f"{attribute}.setter", f"{attribute}.deleter")


def _only_raises(function: cst.FunctionDef) -> bool:
    """The function's body (a docstring aside) is one `raise` statement: calling it never returns."""
    if function.decorators or function.asynchronous is not None or not isinstance(function.body, cst.IndentedBlock):
        return False
    statements = [line for line in function.body.body
                  if not (isinstance(line, cst.SimpleStatementLine) and len(line.body) == 1 and isinstance(line.body[0], cst.Expr)
                          and isinstance(line.body[0].value, (cst.SimpleString, cst.ConcatenatedString)))]
    return (len(statements) == 1 and isinstance(statements[0], cst.SimpleStatementLine) and len(statements[0].body) == 1
            and isinstance(statements[0].body[0], cst.Raise))


def _is_staticmethod(function: cst.FunctionDef) -> bool:
    return any(dotted_name(decorator.decorator) == "staticmethod" for decorator in function.decorators)


def _is_static_or_classmethod(function: cst.FunctionDef) -> bool:
    return any(
        dotted_name(decorator.decorator) in ("staticmethod", "classmethod")
        for decorator in function.decorators
    )


def _unless_no_tensor(narrowed: Kind | None, bound: Kind | None) -> Kind | None:
    """Where a test has just said a name is no tensor (NOT_A_TENSOR): what its bindings say when
    that is no tensor either (a module stays a module), else some other object; where it said it
    may be none (MAYBE_NOT_A_TENSOR): what they say, but for a tensor."""
    if narrowed is MAYBE_NOT_A_TENSOR:
        return None if is_kind(bound, TENSOR) else bound
    if narrowed is not NOT_A_TENSOR:
        return bound
    return bound if bound is not None and bound.base != TENSOR else NOT_A_TENSOR
