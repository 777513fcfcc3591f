"""The project index: every module of a project, summarised, and the kinds of what they define.

A linted file asks it about names it imports (`from models import Net`), about what a project
function returns (`build_model(cfg)`), and about the arguments the project passes to a function's
parameters (`train(model, ...)` called from main.py). Kinds come from the same algebra the per-file
oracle uses (torchlint.kinds); unknown stays unknown. Who calls what, and when callers may be
unseen, is torchlint.project.callers.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import replace
import sys
from pathlib import Path

from torchlint.kinds import (
    CHOICE_DEPTH, CLASS, is_kind, CONTAINER, CYCLE, FUNCTION, GUESSED_TENSOR_OR_NUMBER, MODULE, NAMESPACE_MODEL, NONE, OBJECT, TENSOR, Kind, arithmetic_kind, attribute_kind, augmented_kind,
    element_kind, guessed_method_result, library_call_kind, merge, given_back_kind, Wrapper, HANDING_BACK_WRAPPERS, PROGRESS_BARS, module_call_result, method_call_kind, output_of_forward, subscript_kind,
    TENSOR_ITERATORS, container_of, dict_display_kind, unbatched, summed_kind, tensor, torch_class_instance, unpacked_kind,
    cycled_kind, enumerated_kind, iterated_kind, zipped_kind, applied_kind, carries_graph, without_graph,
)
from torchlint.outline import Outline
from torchlint.project.callers import (
    ASKED, CLASS_KEEPING_DECORATORS, FORWARD_HOOKS, GRAD_DISABLING_DECORATORS, RESULT_KEEPING_DECORATORS, Callers,
)
from torchlint.project.descriptors import Descriptor, select
from torchlint.project.roots import search_folders
from torchlint.project.summary import (
    OWN_ITERATOR, REDEFINED, UNREAD_METHOD, FunctionSummary, ModuleSummary, content_digest, lookup_names, summarize, uses_digest,
)
from torchlint.project.symbols import ProjectClass, ProjectFunction, Symbol
from torchlint.torch_api import (
    AUTOGRAD_FUNCTIONS, DATA_LOADERS, ELEMENTWISE_WITH_OTHER, KNOWN_NON_MODULE_BASES, SELF_RETURNING_METHODS, MODELLED_LIBRARIES, MODULE_ATTRIBUTE_NAMES, SEQUENTIAL_CONTAINERS, is_module_base, is_torch_module_class,
)


_MAX_DEPTH = 40
_UNSET = object()  # (no answer memoised)
_NO_CYCLE = 1 << 30  # no cycle met (deeper than any ask)
# How many values `_wrapped_parameter` follows through a function's locals before giving up.
_MAX_WRAPPED_VALUES = 32
# A key of a cached result's dependencies: every module's content, as it was (see dependencies).
_PROJECT_STATE = "\0project"


# The builtins that iterate what they are given (see ProjectIndex._iterating_builtin_kind).
_ITERATING_BUILTINS = frozenset({"iter", "next", "enumerate", "zip"})


class ProjectIndex(Callers):
    def __init__(self, root: Path, summaries: dict[str, ModuleSummary], installable: bool = False,
                 module_bases: frozenset[str] = frozenset()):
        self.root = root
        self.summaries = summaries  # absolute path -> summary
        self.installable = installable
        self.module_bases = module_bases
        self._folders = search_folders(root)
        self._memo: dict[tuple, Kind | None] = {}
        self._own_iterators: bool | None = None  # see defines_tensor_iterators
        self._in_progress: dict[tuple, int] = {}  # key being judged -> its depth in the chain of asks
        # Answers that met a cycle through an ask still open further up (kept until that ask ends:
        # they saw its provisional CYCLE, not its answer) with the lowest open depth they met.
        self._provisional: dict[tuple, tuple[Kind | None, int]] = {}
        self._cycle_floor = _NO_CYCLE  # the lowest open depth the current ask met
        self._displays: dict[str, str] = {}
        self._module_files: dict[tuple[str, int, str], str | None] = {}  # (importer's folder, level, name)
        self._by_last_part: dict[str, list[Path]] | None = None  # module name -> the project's modules of that name
        self._init_callers()
        self.consulted: set[str] = set()  # the modules whose summaries an answer rested on
        self._base: ProjectIndex | None = None  # the run's index this view of one file derives from
        self._own: str | None = None  # the file this view lints
        self.digests: dict[str, str] = {}  # path -> content digest (set by the loader)
        self.files_digest = ""  # changes when a module is added or removed
        self._contents_digest: str | None = None  # of every module's content digest

    # ---- what cached results rest on --------------------------------------------------------
    def dependencies(self, consulted: Iterable[str], own: str) -> dict[str, str]:
        """For the cache: each module consulted (but `own`) by its content digest, the callers of
        each name asked (`ASKED + name`) by callers_digest, and when any was asked, the whole
        project's contents (while they stay the same, nothing more needs checking)."""
        found = {key: self._dependency_digest(key) or "" for key in consulted if key != own}
        if any(key.startswith(ASKED) for key in found):
            found[_PROJECT_STATE] = self._project_digest()
        return found

    def dependencies_unchanged(self, recorded: dict[str, str]) -> bool:
        if recorded.get(_PROJECT_STATE, "") == self._project_digest():
            return True
        return all(key == _PROJECT_STATE or self._dependency_digest(key) == digest for key, digest in recorded.items())

    def _dependency_digest(self, key: str) -> str | None:
        return self.callers_digest(key[len(ASKED):]) if key.startswith(ASKED) else self.digests.get(key)

    def _project_digest(self) -> str:
        base = self._base or self
        if base._contents_digest is None:
            base._contents_digest = content_digest("\0".join(f"{p}\0{d}" for p, d in sorted(self.digests.items())).encode())
        return base._contents_digest

    @classmethod
    def single(cls, path: str, text: str) -> ProjectIndex:
        """A file linted without a project: the index of that file alone."""
        return cls(Path(path).resolve().parent, {str(Path(path).resolve()): summarize(text, path)})

    def for_file(self, path: str, text: str) -> ProjectIndex:
        """A view for linting `path` as `text` (which may differ from the disk: stdin, fix passes),
        with answers memoised afresh and the modules consulted recorded for the cache."""
        view = ProjectIndex(self.root, _WithOwn(self.summaries, path, self._summary_of(path, text)),
                            self.installable, self.module_bases)
        view._base, view._own = (self._base or self), path
        if path in self.summaries:  # the same modules: what an import names is the same
            view._module_files = view._base._module_files
        view.digests, view.files_digest = self.digests, self.files_digest
        return view

    def _summary_of(self, path: str, text: str) -> ModuleSummary:
        """The index's summary of `path` when `text` is what it summarised, else a new one."""
        if path in self.summaries and self._same_content(path, text):
            return self.summaries[path]
        return summarize(text, path)

    def accepts(self, path: str, text: str) -> bool:
        """CPython accepted `text` when the index summarised `path` (the same content): the file
        needs no syntax check again."""
        if path not in self.summaries or not self._same_content(path, text):
            return False
        parsed = getattr(self.summaries, "parsed", None)
        return parsed(path) if parsed is not None else self.summaries[path].syntax_error is None

    def outline_of(self, path: str, text: str) -> Outline | None:
        """CPython's outline of `text`, made when the index summarised `path` (the same content):
        the engine lints the file from it, with no second parse by CPython."""
        outline = getattr(self.summaries, "outline", None)
        if outline is None or path not in self.summaries or not self._same_content(path, text):
            return None
        return outline(path)

    def _same_content(self, path: str, text: str) -> bool:
        if not self.digests.get(path):
            return False
        try:
            return content_digest(text.encode("utf-8")) == self.digests[path]
        except UnicodeEncodeError:
            return False

    def _lookup_names(self, path: str) -> tuple[frozenset[str], frozenset[str]]:
        names = getattr(self.summaries, "lookup_names", None)
        return names(path) if names is not None else lookup_names(self.summaries[path])

    def _uses_digest(self, path: str) -> str:
        digest = getattr(self.summaries, "uses_digest", None)
        return digest(path) if digest is not None else uses_digest(self.summaries[path])

    # ---- names and modules ------------------------------------------------------------------
    def display(self, path: str) -> str:
        known = self._displays.get(path)
        if known is not None:
            return known
        relative = Path(path)
        for folder in reversed(self._folders):
            if relative.is_relative_to(folder):
                relative = relative.relative_to(folder)
                break
        parts = list(relative.with_suffix("").parts)
        if parts and parts[-1] == "__init__":
            parts.pop()
        self._displays[path] = ".".join(parts)
        return self._displays[path]

    def _module_file(self, folder: Path, parts: list[str]) -> str | None:
        base = folder.joinpath(*parts) if parts else folder
        for candidate in (base.with_suffix(".py") if parts else None, base / "__init__.py"):
            if candidate is not None and str(candidate) in self.summaries:
                return str(candidate)
        return None

    def _is_namespace(self, folder: Path, parts: list[str]) -> bool:
        return bool(parts) and folder.joinpath(*parts).is_dir()

    def resolve_module(self, importer: str, level: int, dotted: str) -> str | None:
        """The project file an import names, as Python would find it for `importer`."""
        key = (os.path.dirname(importer), level, dotted)
        if key not in self._module_files:
            self._module_files[key] = self._find_module(importer, level, dotted)
        return self._module_files[key]

    def _find_module(self, importer: str, level: int, dotted: str) -> str | None:
        parts = [part for part in dotted.split(".") if part]
        if level > 0:
            base = Path(importer).parent
            for _ in range(level - 1):
                base = base.parent
            return self._module_file(base, parts)
        own = Path(importer).parent
        # `import torch` in utils/math.py beside a utils/torch.py is the installed torch: Python 3
        # imports are absolute, and a program shadowing the library it uses would not run
        shadows = parts[0] in MODELLED_LIBRARIES and own not in self._folders
        # `from uisrnn import loss_func` in uisrnn/uisrnn.py, a module of the package uisrnn: the
        # package, from the project's folders (the module importing itself by its own name, as a
        # script run from its folder would, finds none of the package's names)
        if not shadows and self._module_file(own, parts[:1]) == importer:
            shadows = own not in self._folders
        for folder in ((*self._folders,) if shadows else (own, *self._folders)):
            if len(parts) > 1 and self._module_file(folder, parts[:1]) is not None:
                # Python looks for the rest only in the first module or package of that name on its
                # path: `from NGCF import NGCF` beside an NGCF.py is that module's class, even where
                # the root holds an NGCF/NGCF.py
                return self._module_file(folder, parts)
            found = self._module_file(folder, parts)
            if found is not None:
                return found
        return self._found_in_a_folder_above(own, parts) or self._found_by_path_suffix(parts)

    def _found_in_a_folder_above(self, own: Path, parts: list[str]) -> str | None:
        """`from utils import *` in search/modules/layers.py, with search/utils/ in the project:
        the scripts that import the module run from a folder above it (search/), which Python
        puts on its path. The nearest folder between the module's and the root that holds the
        import's first name decides; never for a name of the standard library or of a library the
        linter models (a module shadowing it would break the program)."""
        if parts[0] in sys.stdlib_module_names or parts[0] in MODELLED_LIBRARIES or not self._one_module_named(parts[0]):
            return None  # (two `utils` in the project: which one a `sys.path` entry picks is not known)
        for folder in own.parents:
            if folder == self.root or self.root not in folder.parents:
                return None
            if self._module_file(folder, parts[:1]) is not None:
                return self._module_file(folder, parts)
        return None

    def _one_module_named(self, name: str) -> bool:
        return len(self._modules_by_name().get(name, ())) == 1

    def _modules_by_name(self) -> dict[str, list[Path]]:
        """Module name (a package's folder name) -> the project's modules of that name."""
        base = self._base or self
        if base._by_last_part is None:
            base._by_last_part = {}
            for path in base.summaries:
                module = Path(path)
                if module.suffix not in (".py", ".pyi"):
                    continue  # a notebook or a script without a suffix: never imported
                name = module.parent.name if module.name == "__init__.py" else module.stem
                base._by_last_part.setdefault(name, []).append(module)
        return base._by_last_part

    def _found_by_path_suffix(self, parts: list[str]) -> str | None:
        """The one project module whose path ends with the import's names, for an import no
        standard folder resolves: a script that puts a folder on `sys.path` first (`import
        _init_paths` adding `lib/`, `sys.path.append(os.path.join(ROOT, "models"))`) or is run
        with PYTHONPATH set. Two such modules: which one is meant is not known. A single name
        (`import config`) is too common a file name to be told from an installed module by it."""
        if len(parts) < 2:
            return None
        tail = parts[:-1]
        found = [str(path) for path in self._modules_by_name().get(parts[-1], ())
                 if _folder_ends_with(path.parent.parent if path.name == "__init__.py" else path.parent, tail)]
        return found[0] if len(found) == 1 else None

    @property
    def own_path(self) -> str | None:
        """The module this view lints (a single-file index: its only module)."""
        return self._own or next(iter(self.summaries), None)

    def through_stars(self, name: str) -> Symbol | None:
        """What a name the linted file uses but does not bind refers to through its
        `from x import *` imports (None when it has none, or they do not export the name)."""
        own = self.own_path
        summary = self.summaries.get(own) if own is not None else None
        if summary is None or not summary.stars:
            return None
        return self.resolve(own, name)

    def resolve(self, importer: str, dotted: str, seen: frozenset = frozenset()) -> Symbol | None:
        """What `dotted` (a name used in module `importer`) refers to."""
        summary = self.summaries.get(importer)
        if summary is None or (importer, dotted) in seen or len(seen) > _MAX_DEPTH:
            return None
        seen = seen | {(importer, dotted)}
        head, _, rest = dotted.partition(".")
        if head in summary.functions and head not in summary.names:  # (`pad = wrap(pad)`: a name after all)
            return Symbol("function", importer, head) if not rest else None
        if head in summary.classes:
            return Symbol("class", importer, head) if not rest else None
        if head in summary.names:
            return Symbol("name", importer, head) if not rest else None
        if head in summary.imports:
            level, module, name = summary.imports[head]
            target = f"{module}.{name}" if name is not None and module else (name or module)
            full = f"{target}.{rest}" if rest else target
            return self._resolve_absolute(importer, level, full, seen)
        return self._resolve_through_stars(importer, summary, dotted, seen)

    def star_rebinding(self, name: str) -> Symbol | None:
        """What a `from x import *` of the linted file brings in under a name the file binds
        itself (`prior = torch.zeros(4)`, then `from settings_local import *` defining `prior`):
        the import may rebind it. None when no star import exports the name."""
        own = self.own_path
        summary = self.summaries.get(own) if own is not None else None
        if summary is None or not summary.stars:
            return None
        return self._resolve_through_stars(own, summary, name, frozenset({(own, name)}))

    def _resolve_through_stars(self, importer: str, summary: ModuleSummary, dotted: str, seen) -> Symbol | None:
        head = dotted.partition(".")[0]
        for level, module in reversed(summary.stars):  # (the last star import binding the name wins)
            star = self.resolve_module(importer, level, module)
            star_summary = self.summaries.get(star) if star else None
            if star_summary is None:
                continue
            exported = star_summary.exported
            visible = head in exported if exported is not None else not head.startswith("_")
            if head in star_summary.script_names:
                continue  # bound by its `if __name__ == "__main__":` block, which an import does not run
            if visible:
                found = self.resolve(star, dotted, seen)
                if found is not None:
                    return found
        return None

    def _resolve_absolute(self, importer: str, level: int, full: str, seen) -> Symbol | None:
        parts = full.split(".")
        for cut in range(len(parts), 0, -1):
            module = self.resolve_module(importer, level, ".".join(parts[:cut]))
            if module is None:
                continue
            if cut == len(parts):
                return Symbol("module", module)
            return self.resolve(module, ".".join(parts[cut:]), seen)
        return Symbol("external", qualified=full) if level == 0 else None

    # ---- kinds ------------------------------------------------------------------------------
    def _memoised(self, key: tuple, compute: Callable[[], Kind | None]) -> Kind | None:
        """The memoised answer of an ask. An answer that met a cycle through an ask still open
        further up is only provisional: it is reused while that ask is open and forgotten when it
        ends, so that a later ask from elsewhere judges it again with the whole answer known."""
        if key in self._memo:
            return self._memo[key]
        if key in self._provisional:
            value, floor = self._provisional[key]
            self._cycle_floor = min(self._cycle_floor, floor)
            return value
        depth = self._in_progress.get(key)
        if depth is not None:
            self._cycle_floor = min(self._cycle_floor, depth)
            return CYCLE
        if len(self._in_progress) > _MAX_DEPTH:
            return CYCLE
        depth, outer_floor, self._cycle_floor = len(self._in_progress), self._cycle_floor, _NO_CYCLE
        self._in_progress[key] = depth
        try:
            value = compute()
        finally:
            del self._in_progress[key]
            floor, self._cycle_floor = self._cycle_floor, min(outer_floor, self._cycle_floor)
        if floor < depth:
            self._provisional[key] = (value, floor)
            return value
        self._memo[key] = value
        if floor == depth and self._provisional:
            self._provisional = {k: v for k, v in self._provisional.items() if v[1] < depth}
        return value

    def _forget_judged_since(self, memo_before: set, provisional_before: set) -> None:
        """Forget the answers given since the two sets of keys were taken (judged under an assumption)."""
        for judged in set(self._memo) - memo_before:
            del self._memo[judged]
        for judged in set(self._provisional) - provisional_before:
            del self._provisional[judged]

    def symbol_kind(self, symbol: Symbol | None) -> Kind | None:
        """The kind of a name's value (a class object, a function, a module-level variable)."""
        if symbol is None:
            return None
        if symbol.what == "class":
            self.consulted.add(symbol.path)
            return Kind(CLASS, origin=self._class_display(symbol), cls=self.project_class(symbol.path, symbol.name))
        if symbol.what == "function":
            self.consulted.add(symbol.path)
            display = f"{self.display(symbol.path)}.{symbol.name}"
            return Kind(FUNCTION, origin=display, cls=ProjectFunction(symbol.path, symbol.name, display))
        if symbol.what == "name":
            self.consulted.add(symbol.path)
            values = self.summaries[symbol.path].names[symbol.name]
            return self._memoised(("name", symbol.path, symbol.name),
                                  lambda: merge(self.kind(symbol.path, value) for value in values))
        if symbol.what == "external" and is_torch_module_class(symbol.qualified):
            return Kind(CLASS, origin=symbol.qualified)
        return None

    def _class_display(self, symbol: Symbol) -> str:
        return f"{self.display(symbol.path)}.{symbol.name}"

    def project_class(self, path: str, name: str) -> ProjectClass:
        return ProjectClass(path, name, f"{self.display(path)}.{name}")

    def kind(self, path: str, descriptor: Descriptor) -> Kind | None:
        """The kind of a described value in module `path`."""
        if descriptor is None:
            return None
        return self._memoised(("d", path, descriptor), lambda: self._evaluate(path, descriptor))

    def _evaluate(self, path: str, d: tuple) -> Kind | None:
        tag = d[0]
        if tag == "none":
            return NONE
        if tag == "ref":
            symbol = self.resolve(path, d[1])
            if symbol is None and "." in d[1]:
                # `model.fc` at module level: an attribute of a module-level value
                owner, _, attribute = d[1].rpartition(".")
                return self._attribute_kind(self.kind(path, ("ref", owner)), attribute)
            return self.symbol_kind(symbol)
        if tag == "local":
            function = self._function(path, d[1])
            values = function.locals.get(d[2], ()) if function is not None else ()
            return self._rebound_local_kind(path, d, values) if values else None
        if tag == "param":
            return self.param_kind(path, d[1], d[2])
        if tag == "call":
            return self._call_kind(path, d)
        if tag == "attr":
            receiver = self.kind(path, d[1])
            held = self._attribute_kind(receiver, d[2])
            if held is not None and self._is_own_self(path, d[1]) and isinstance(receiver.cls, ProjectClass):
                # `self.aux` in a method: `self` may be an instance of a subclass assigning it again
                overriding = self.overriding_attributes(receiver.cls, d[2])
                held = merge([held, *overriding]) if overriding else held
            return held
        if tag == "sub":
            namespace = _looked_up_namespace(self, path, d)
            if namespace is not None and namespace.what == "module":
                return self.namespace_class(namespace.path)
            index = d[2]
            return subscript_kind(self.kind(path, d[1]), index if isinstance(index, str) else None,
                                  index if isinstance(index, int) else None)
        if tag == "iter":
            return self._iteration_kind(path, d[1], d[2])
        if tag == "list":  # (`OF_TUPLES` third: a list grown only by tuple displays)
            return container_of((self.kind(path, element) for element in d[1]), of_tuples=len(d) > 2)
        if tag == "each":
            return container_of([self.kind(path, d[1])])
        if tag == "changed":  # a container changed after it was made: what it holds is not known
            kind = self.kind(path, d[1])
            return Kind(CONTAINER, mapping=kind.mapping) if kind is not None and kind.base == CONTAINER else kind
        if tag == "dict":
            return dict_display_kind(list(d[1][1:]), [self.kind(path, value) for value in d[2]])
        if tag == "either":
            return merge([self.kind(path, d[1]), self.kind(path, d[2])])
        if tag == "loop":
            return self._loop_entry_kind(path, d)
        if tag == "loopvar":  # (judged as the loop's entry value inside `_loop_entry_kind` only)
            return self.kind(path, ("local", d[1], d[2]))
        if tag == "no graph":  # made with autograd off
            kind = self.kind(path, d[1])
            return without_graph(kind) if kind is not CYCLE and carries_graph(kind) else kind
        if tag == "instance":
            return self._instance_kind(path, d[1])
        if tag == "item":
            element = self._returned_element(path, d[1], d[2])
            return element if element is not None else unpacked_kind(self.kind(path, d[1]), d[2])
        if tag == "arith":
            return arithmetic_kind(self.kind(path, operand) for operand in d[1])
        if tag == "compare":
            compared = arithmetic_kind(self.kind(path, operand) for operand in d[1])
            return tensor(False) if compared is not None else None  # booleans: no graph
        return None

    def _instance_kind(self, path: str, cls: Descriptor) -> Kind | None:
        """What passed a type test against the described class (`isinstance(v, Variable)`): a
        tensor, or some module (any subclass passes: which class, and its `__call__`, is not
        known); None for any other class, or one not known."""
        instance = None
        if cls is not None and cls[0] == "ref":
            symbol = self.resolve(path, cls[1])
            if symbol is not None and symbol.what == "external":
                instance = torch_class_instance(symbol.qualified)
        if instance is None:
            class_kind = self.kind(path, cls)
            instance = self.call_result(class_kind) if class_kind is not None and class_kind.base == CLASS else None
        if instance is not None and instance.base == MODULE:
            return Kind(MODULE)
        return instance if instance is not None and instance.base == TENSOR else None

    def _rebound_local_kind(self, path: str, local: tuple, values: tuple[Descriptor, ...]) -> Kind | None:
        """A local some of whose values are made from itself (`mask = mask[idx]`, then `if gpu:
        mask = mask.cuda()`): what the other values agree on, when each of those made from it
        keeps that kind given it (by induction over the assignments, it then always holds)."""
        plain = tuple(value for value in values if not _mentions(value, local))
        if len(plain) == len(values):
            return self._local_kind(path, values)
        if not plain:
            return self._kind_made_from_itself(path, local, values)
        assumed = self._local_kind(path, plain)
        if assumed is None and all(_is_number(value) for value in plain):
            return self._sum_from_a_number(path, local, values)
        if assumed is None:
            return None
        key, before, provisional_before = ("d", path, local), set(self._memo), set(self._provisional)
        self._memo[key] = assumed  # what the values made from it see while they are judged
        kind = self._local_kind(path, values)
        if kind is None or merge([assumed, kind]) != kind or kind.base != assumed.base:
            self._forget_judged_since(before, provisional_before)  # judged under an assumption that did not hold
            return None
        del self._memo[key]
        return kind

    def _kind_made_from_itself(self, path: str, local: tuple, values: tuple[Descriptor, ...]) -> Kind | None:
        """A local every value of which mentions it, through what a loop feeds back
        (`mel, gate = self.decode(self.prenet(inp))`, then `inp = mel` for the next pass): what the
        values give while the local is not known, when judging them again given that kind gives
        it back (a fixed point: by induction over the passes, it then always holds)."""
        kind = self._assuming(path, (local,), CYCLE, lambda: self._local_kind(path, values))
        if kind is None or kind is CYCLE:
            return None
        again = self._assuming(path, (local,), kind, lambda: self._local_kind(path, values))
        return kind if again == kind else None

    def _loop_entry_kind(self, path: str, entering: tuple) -> Kind | None:
        """What a local holds at the top of a loop's body (see flow._loop_entry_values): the value
        bound just before the loop, judged whatever the local held before it, when each value the
        body binds keeps that kind given it (by induction over the passes, it then always holds).
        What is assumed: the body's reads of the name (`("loopvar", ...)` in its values) and this
        very value, which calls in the body are handed (`linf_clamp(x_adv, ...)`, giving `x_adv` its
        next value); not the local's other reads (`y = x` before the loop). What is judged under the
        assumption is forgotten after. Where the induction fails: what all the local's values agree
        on, as without the loop's."""
        _, local, before, values = entering
        entry = self._judged_assuming(path, local, None, [before])[0]
        if entry is None or entry is CYCLE:
            return self.kind(path, local)  # (what every value of the local agrees on, as without the loop's)
        inside = ("loopvar", *local[1:])  # the body's reads of the local (see flow._loop_entry_values)
        kind = self._assuming(path, (inside, entering), entry, lambda: self._local_kind(path, (before, *values)))
        if kind is None or kind is CYCLE or kind.base != entry.base or merge([entry, kind]) != kind:
            return self.kind(path, local)
        return kind

    def _sum_from_a_number(self, path: str, local: tuple, values: tuple[Descriptor, ...]) -> Kind | None:
        """`loss = 0`, then `loss = loss + torch.sum(d)` in a loop or under a condition: a tensor
        if the sum grew, else still the number. A tensor where a tensor's attribute is read (a
        number has none), but a guess, so that no fix rests on it (the file's own oracle judges
        `_after_starting_number` so). Some value must be a tensor by its other terms (`loss + 1`
        is not), and every one a tensor given that the local holds one."""
        grown = [value for value in values if not _is_number(value)]
        by_other_terms = self._judged_assuming(path, local, None, grown)
        if not any(kind is not None and kind is not CYCLE and kind.base == TENSOR for kind in by_other_terms):
            return None
        kinds = [kind for kind in self._judged_assuming(path, local, Kind(TENSOR, origin=GUESSED_TENSOR_OR_NUMBER), grown)
                 if kind is not CYCLE]  # (being judged further up: made from this one)
        if not kinds or any(kind is None or kind.base != TENSOR for kind in kinds):
            return None
        return Kind(TENSOR, graph=any(kind.graph for kind in kinds), origin=GUESSED_TENSOR_OR_NUMBER)

    def _judged_assuming(self, path: str, local: tuple, assumed: Kind | None, values: list[Descriptor]) -> list:
        """The kinds of `values` while the local is taken to hold `assumed` (forgotten after)."""
        return self._assuming(path, (local,), assumed, lambda: [self.kind(path, value) for value in values])

    def _assuming(self, path: str, described: tuple[Descriptor, ...], assumed: Kind | None, judge: Callable[[], object]):
        """`judge()` while each of the `described` values is taken to hold `assumed`; what it judged
        is forgotten after, and their own answers are what they were before (an assumption made
        further up, too)."""
        keys = [("d", path, d) for d in described]
        before, provisional_before = set(self._memo), set(self._provisional)
        held = [self._memo.get(key, _UNSET) for key in keys]
        for key in keys:
            self._memo[key] = assumed
        try:
            return judge()
        finally:
            self._forget_judged_since(before, provisional_before)
            for key, value in zip(keys, held):
                if value is _UNSET:
                    self._memo.pop(key, None)
                else:
                    self._memo[key] = value

    def _local_kind(self, path: str, values: tuple[Descriptor, ...]) -> Kind | None:
        """What a function's local name (or a class's attribute) holds: its values merged; with
        `x += v` among them, a tensor when every other value is one (`err = criterion(a, y)`,
        then `err += ...`; `self.step = torch.zeros(1)`, then `self.step += 1`), and a list
        extended stays a list (as the file's own oracle judges them)."""
        augmented = [_augmentation(value) for value in values]
        assigned = [value for value, aug in zip(values, augmented) if aug is None]
        held = merge(self.kind(path, value) for value in assigned) if assigned else None
        if len(assigned) == len(values):
            return held
        added = [self.kind(path, aug[1]) for aug in augmented if aug is not None]
        if assigned and all(_is_number(value) for value in assigned) and added and all(is_kind(kind, TENSOR) for kind in added):
            # `l2 = 0`, then only `l2 += torch.norm(p)` in a loop: a tensor, but a guess: where the
            # additions are in a loop or under a condition the sum may still be the number (a fix
            # on it would break); taken without a graph (the sum may be made under `no_grad`,
            # which the index does not read)
            return Kind(TENSOR, origin=GUESSED_TENSOR_OR_NUMBER)
        return augmented_kind(held, added)

    def _as_method(self, path: str, callee: Descriptor) -> Descriptor:
        """`criterion.cuda` at module level (a dotted name that resolves to nothing the module
        imports or defines): the method of a module-level value."""
        if callee is not None and callee[0] == "ref" and "." in callee[1] and self.resolve(path, callee[1]) is None:
            owner, _, method = callee[1].rpartition(".")
            return ("attr", ("ref", owner), method)
        return callee

    def _call_kind(self, path: str, d: tuple) -> Kind | None:
        _, callee, first, keywords, last = d
        namespace = _looked_up_namespace(self, path, d)
        if namespace is not None and namespace.what == "module":
            return self.namespace_class(namespace.path)  # `getattr(models, arch)`, called later
        through = _called_through_dunder_call(callee)
        if through is not callee:  # `self.__call__(x)` is `self(x)`; `Net.__call__(net, x)` is not `Net(...)`
            receiver = self.kind(path, through)
            if receiver is None or receiver.base == CLASS:
                return None
            callee = through
        callee = self._as_method(path, callee)
        if callee == ("ref", "sum") and self.resolve(path, "sum") is None:
            return summed_kind(self.kind(path, first))  # the builtin: `sum(losses)`
        if callee is not None and callee[0] == "ref" and callee[1] in _ITERATING_BUILTINS and self.resolve(path, callee[1]) is None:
            return self._iterating_builtin_kind(path, callee[1], first, keywords, last)
        if callee is not None and callee[0] == "ref":
            symbol = self.resolve(path, callee[1])
            if symbol is not None and symbol.what == "external" and symbol.qualified == "itertools.cycle":
                return cycled_kind(self.kind(path, first)) if not keywords else None
            if symbol is not None and symbol.what == "external":
                graph = False
                inner = self.kind(path, first)
                if inner is not None and inner.base == TENSOR:
                    graph = inner.graph
                if symbol.qualified in ELEMENTWISE_WITH_OTHER and last is not None and is_kind(self.kind(path, last), TENSOR):
                    return tensor(graph)  # `torch.max(0.9 - v, zero)`: the elementwise maximum, not `(values, indices)`
                kind = library_call_kind(symbol.qualified, inner, set(keywords), graph)
                if symbol.qualified in DATA_LOADERS and self.stores_attribute("collate_fn"):
                    kind = unbatched(kind)  # `loader.collate_fn = pad` somewhere: which loader, not known
                if kind is not None and kind.base == MODULE and symbol.qualified in SEQUENTIAL_CONTAINERS:
                    final = self.kind(path, last if last is not None else first)
                    output = final.output if final is not None and final.base == MODULE else None
                    kind = Kind(MODULE, output=output, origin=kind.origin, element=kind.element)
                return kind
            if symbol is not None and symbol.what == "function" and first is not None:
                returned = self.returned_parameter(ProjectFunction(symbol.path, symbol.name, symbol.name))
                if returned is not None and returned[0] == 0 and not returned[2]:
                    return given_back_kind(self.kind(path, first), *returned[2:])  # `init_net(Net())`: what it is given back
                if returned is not None and returned[0] == 0:
                    given = given_back_kind(self.kind(path, first), *returned[2:])  # `maybe_parallel(Net())`
                    if given is not None:
                        return given
            return self.call_result(self.symbol_kind(symbol))
        if callee is not None and callee[0] == "attr":
            receiver = self.kind(path, callee[1])
            if callee[2] == "from_pretrained" and receiver is not None and receiver.base == CLASS:
                return self.call_result(receiver)
            if callee[2] == "apply" and receiver is not None and receiver.base == CLASS and isinstance(receiver.cls, ProjectClass):
                applied = self.applied_forward(receiver.cls)
                if applied is not None:  # `Hinge.apply(pred, ...)`
                    given = self.kind(path, first)
                    return applied_kind(applied, is_kind(given, TENSOR) and given.graph)
            if receiver is not None and isinstance(receiver.cls, ProjectClass) and receiver.base in (MODULE, OBJECT):
                held = self.class_attribute_kind(receiver.cls, callee[2])
                if held is not None and held.base == MODULE:
                    return self.call_result(held)  # `self.head(x)`: a submodule the class holds
                if callee[2] != "forward" or receiver.base == OBJECT:  # (a plain object's `forward` is any method)
                    own = self.method_result(receiver.cls, callee[2])
                    if own is not None:
                        return own
            known = method_call_kind(self.unless_own_iterators(receiver, callee[2]), callee[2])
            if known is None and self._uses_torch(path):
                return guessed_method_result(receiver, callee[2])
            return known
        namespace = _looked_up_namespace(self, path, callee)
        if namespace is not None and namespace.what == "external" and namespace.qualified in MODEL_NAMESPACES:
            return NAMESPACE_MODEL
        if namespace is not None and namespace.what == "module":
            return self.namespace_instance(namespace.path)
        result = self.call_result(self.kind(path, callee))
        return result if result is not None else self._chosen_call_result(path, callee)

    def _chosen_call_result(self, path: str, callee: Descriptor) -> Kind | None:
        """`Net = A if big else B; return Net()`: what calling each value that can be chosen
        agrees on (as the file's own oracle judges it)."""
        choices = self._choices(path, callee, CHOICE_DEPTH)
        if choices is None or len(choices) < 2:
            return None
        return merge(self.call_result(self.kind(path, choice)) for choice in choices)

    def _choices(self, path: str, d: Descriptor, depth: int) -> list[Descriptor] | None:
        if depth == 0:
            return None
        if d is not None and d[0] == "either":
            options = [d[1], d[2]]
        elif d is not None and d[0] == "local":
            function = self._function(path, d[1])
            options = list(function.locals.get(d[2], ())) if function is not None else []
            if not options or any(option is None or option[0] == "aug" for option in options):
                return None
        else:
            return [d]
        found: list[Descriptor] = []
        for option in options:
            chosen = self._choices(path, option, depth - 1)
            if chosen is None:
                return None
            found.extend(chosen)
        return found

    def _uses_torch(self, path: str) -> bool:
        """Whether the module imports torch (what only tensors answer to says more there)."""
        summary = self.summaries.get(path)
        if summary is None:
            return False
        imported = (module or name or "" for _, module, name in summary.imports.values())
        return any(target.split(".")[0] == "torch" for target in imported)

    def call_result(self, callee: Kind | None) -> Kind | None:
        """What calling a value of kind `callee` returns."""
        if callee is None:
            return None
        if callee.base == CLASS and isinstance(callee.cls, ProjectClass):
            return self.instance_kind(callee.cls)
        if callee.base == CLASS and callee.output is not None:
            return callee.output  # one of a namespace's classes (see namespace_class)
        if callee.base == CLASS and callee.origin:
            return library_call_kind(callee.origin, None, set(), False)
        if callee.base == FUNCTION and isinstance(callee.cls, ProjectFunction):
            return None if self._may_be_replaced(callee.cls) else self.return_kind(callee.cls)
        if callee.base == MODULE:
            return module_call_result(callee)
        return None

    def _iterating_builtin_kind(self, path: str, name: str, first: Descriptor, keywords, last: Descriptor) -> Kind | None:
        """`iter(loader)`, `next(it)`, `enumerate(loader)`, `zip(a, b)` (the builtins): what the
        file's oracle reads them as (an iterator is read as what it iterates)."""
        if first is None or keywords or last == ("default",):
            return None
        if name == "zip":
            parts = last[1] if last is not None and last[0] == "args" else (first,)
            return zipped_kind([self.kind(path, part) for part in parts])
        if last is not None:
            return None  # (`enumerate(loader, 1)` is read as described: its start is a number, dropped)
        iterable = self.kind(path, first)
        if name == "next":
            return iterated_kind(iterable)
        return enumerated_kind(iterable) if name == "enumerate" else iterable if iterated_kind(iterable) is not None else None

    def _may_be_replaced(self, function: ProjectFunction) -> bool:
        """A module-level function code may replace: its name assigned through an object anywhere
        in the project (`losses.symmetric_mse_loss = f`, `setattr(module, "symmetric_mse_loss", f)`),
        its module's names written by a computed name (`globals()[name] = f`), or defined more than
        once in its module (which `def` runs is not known)."""
        summary = self.summaries.get(function.path)
        if "." in function.key or summary is None:
            return summary is None
        return (self.stores_attribute(function.key) or "@.*" in summary.escapes
                or REDEFINED + function.key in summary.escapes)

    def _is_own_self(self, path: str, local: Descriptor) -> bool:
        """`self` in a method: the method's first parameter, where it is bound to nothing else."""
        if local is None or local[0] != "local" or "." not in local[1] or "<locals>" in local[1]:
            return False
        function = self._function(path, local[1])
        return (function is not None and bool(function.params) and function.params[0] == local[2]
                and "staticmethod" not in function.decorators and len(function.locals.get(local[2], ())) == 1)

    def _attribute_kind(self, receiver: Kind | None, attribute: str) -> Kind | None:
        if receiver is not None and isinstance(receiver.cls, ProjectClass) and receiver.base in (MODULE, OBJECT):
            own = self.class_attribute_kind(receiver.cls, attribute)
            if own is not None:
                # (`t.aux = Doubler()` after construction: the instance may hold that too, as the
                # file's own oracle judges it)
                outside = self.stored_from_outside(attribute)
                return merge([own, *outside]) if outside else own
        return attribute_kind(receiver, attribute)

    def _iteration_kind(self, path: str, iterated: Descriptor, target_path: tuple[int, ...]) -> Kind | None:
        if iterated is None:
            return None
        wrapped = self._wrapped_iterable(path, iterated, target_path)
        if wrapped is not None:
            return self._iteration_kind(path, *wrapped)
        callee = self._as_method(path, iterated[1]) if iterated[0] == "call" else None
        generated = self._generated(path, callee) if callee is not None else None
        if generated is not None:  # `for X, Y in data.get_batches(...)`, a generator of the project
            return unpacked_kind(generated, target_path) if target_path else generated
        if callee is not None and callee[0] == "attr":  # `for name, p in net.named_parameters()`
            return element_kind(self.unless_own_iterators(self.kind(path, callee[1]), callee[2]), callee[2], target_path)
        iterable = self.kind(path, iterated)
        own = self.iterated_instance(iterable)
        if own is not None:
            return unpacked_kind(own, target_path) if target_path else own
        return element_kind(iterable, None, target_path)

    def _generated(self, path: str, callee: Descriptor) -> Kind | None:
        """What a call of a generator of the project (`callee`, as described) yields."""
        if callee[0] == "ref":
            symbol = self.resolve(path, callee[1])
            if symbol is not None and symbol.what == "function":
                return self.yielded_kind(ProjectFunction(symbol.path, symbol.name, symbol.name))
            return None
        if callee[0] == "attr":
            receiver = self.kind(path, callee[1])
            if receiver is not None and isinstance(receiver.cls, ProjectClass) and receiver.base in (MODULE, OBJECT):
                return self.method_yields(receiver.cls, callee[2])
        return None

    def _wrapped_iterable(self, path: str, iterated: tuple, target_path: tuple[int, ...]):
        """`for i, batch in enumerate(loader)`, `for x, _ in zip(xs, ys)`, `for batch in
        tqdm(loader)`: the iterable the builtin (or progress bar) wraps and the place in its
        element the target takes, as the file's own oracle reads them (`_element_kind`)."""
        if iterated[0] != "call" or iterated[2] is None or iterated[1] is None or iterated[1][0] != "ref":
            return None
        name, first = iterated[1][1], iterated[2]
        symbol = self.resolve(path, name)
        if symbol is None and name in ("enumerate", "zip") and target_path[:1] == ((1,) if name == "enumerate" else (0,)):
            return first, target_path[1:]
        if symbol is not None and symbol.what == "external" and symbol.qualified in PROGRESS_BARS:
            return first, target_path
        return None

    # ---- a module's namespace, looked up by a name known at run time -------------------------
    def namespace_instance(self, path: str) -> Kind | None:
        """What `getattr(models, args.arch)(...)` or `models.__dict__[args.arch](...)` builds, for
        the project module `models` at `path`: a module (of no one class: no fix rests on it) when
        every class the namespace offers (by name or bound to a name) is a module, no function of
        it is known to build something else, and at least one class or function offers one; its
        output when all agree on it. A function whose result is not known (`def load_url(...)`) is
        a helper the name is taken not to mean; a class that is no module, or of bases the index
        cannot see, leaves it unknown."""
        return self._memoised(("namespace", path), lambda: self._namespace_instance(path))

    def package_member_instance(self, importer: str, package: str, name: str) -> Kind | None:
        """What `importlib.import_module("model." + x).<name>(...)` builds in the module `importer`,
        for the dotted package name `package`: a module (of no one class: no fix rests on it) when
        every module of the project directly in that package that defines a class `name` makes a
        module of it, and one does; their output when all agree. A module defining `name`
        otherwise leaves it unknown."""
        return self._memoised(("package member", importer, package, name),
                              lambda: self._package_member_instance(importer, package, name))

    def _package_member_instance(self, importer: str, package: str, name: str) -> Kind | None:
        built: list[Kind] = []
        for path in self._package_modules(importer, package):
            summary = self.summaries[path]
            if name not in summary.classes:
                if name in summary.names or name in summary.functions or name in summary.imports or summary.stars:
                    return None  # (bound some other way there)
                continue
            cls = self.project_class(path, name)
            if self.may_override(cls, "__call__") or self.may_override(cls, "state_dict"):
                return None  # (no rule may judge a call or a save of it as torch's: which class, not known)
            kind = self.instance_kind(cls)
            if kind is None or kind.base != MODULE:
                return None
            built.append(kind)
        merged = merge(built) if built else None
        return replace(merged, cls=None, origin=None) if merged is not None and merged.base == MODULE else None

    def _package_modules(self, importer: str, package: str) -> list[str]:
        """The project's modules a name made under the dotted package `package` may pick, at any
        depth below it (a run-time name may hold dots), subpackages' `__init__` included: those
        whose dotted name resolves, from `importer`, to the module itself."""
        head = self.resolve_qualified(importer, package)
        found = []
        for path in sorted(self.summaries):
            candidate = Path(path)
            parts = candidate.with_suffix("").parts
            for depth in range(1, len(parts)):
                if parts[-depth - 1] != package.rsplit(".", 1)[-1]:
                    continue
                inner = parts[-depth:] if parts[-1] != "__init__" else parts[-depth:-1]
                if not inner:
                    continue
                symbol = self.resolve_qualified(importer, ".".join((package, *inner)))
                if symbol is not None and symbol.what == "module" and symbol.path == path and (
                        head is None or head.what != "module" or head.path != path):
                    found.append(path)
                    break
        return found

    def namespace_class(self, path: str) -> Kind | None:
        """`models.__dict__[args.arch]` not called yet (`arch = models.__dict__[name]`, then
        `arch(**cfg)`): a class object of the namespace, whose call gives `namespace_instance`."""
        instance = self.namespace_instance(path)
        return Kind(CLASS, output=instance) if instance is not None else None

    def _namespace_instance(self, path: str) -> Kind | None:
        names = self._namespace_names(path, frozenset())
        if names is None:
            return None
        built: list[Kind] = []
        for name in sorted(names):
            symbol = self.resolve(path, name)
            callee = self.symbol_kind(symbol) if symbol is not None and symbol.what != "module" else None
            if callee is None or callee.base not in (CLASS, FUNCTION):
                continue  # (a module, a value, something outside the project)
            kind = self.call_result(callee)
            if callee.base == CLASS and (kind is None or kind.base != MODULE):
                return None  # a class that is no module, or not known to be one
            if kind is not None and kind.base != MODULE:
                return None  # a function building something known not to be a module
            if kind is not None:
                built.append(kind)
        merged = merge(built) if built else None
        return replace(merged, cls=None, origin=None) if merged is not None and merged.base == MODULE else None

    def _namespace_names(self, path: str, seen: frozenset[str]) -> set[str] | None:
        """The public names a module offers: its `__all__`, or what it defines and imports by name,
        and what its `from x import *` imports bring; None when such an import reaches a module
        the index does not hold (it may offer anything)."""
        summary = self.summaries.get(path)
        if summary is None:
            return None
        if path in seen:
            return set()
        self.consulted.add(path)
        if summary.exported is not None:
            return set(summary.exported)
        own = {*summary.classes, *summary.functions, *summary.names,
               *(local for local, (_, _, name) in summary.imports.items() if name)}
        for level, module in summary.stars:
            star = self.resolve_module(path, level, module)
            brought = self._namespace_names(star, seen | {path}) if star is not None else None
            if brought is None:
                return None
            own |= brought
        return {name for name in own if not name.startswith("_")}

    def defines_method(self, name: str) -> bool:
        """Whether a class of the project defines a method `name` (one of OWN_EVIDENCE_METHODS)."""
        return bool(self._modules_where_escaping(OWN_ITERATOR + name))

    def defines_tensor_iterators(self) -> bool:
        """Whether a class of the project that is not known to be a module defines `parameters()`
        (or `buffers()`, or their named forms) itself, callable without arguments, and the
        linted file defines or imports it, as micrograd-style autodiff code does: then
        what such a call on a value of unknown kind yields is not taken for tensors."""
        if self._own_iterators is None:
            known = self._classes_known_here()
            self._own_iterators = any(
                name in own.methods and (module, class_name) in known
                and _called_bare(self._function(module, own.methods[name]))
                and not self._is_a_module_class(self.project_class(module, class_name))
                for name in sorted(TENSOR_ITERATORS)
                for module in self._modules_where_escaping(OWN_ITERATOR + name)
                for class_name, own in self.summaries[module].classes.items())
        return self._own_iterators

    def _is_a_module_class(self, cls: ProjectClass) -> bool | None:
        """Reaches nn.Module, or is one of torch's own (torch's sources linted in place define
        `nn.Module` itself, whose bases do not reach it)."""
        return self.reaches_module(cls) is not False or is_torch_module_class(cls.display)

    def _classes_known_here(self) -> set[tuple[str, str]]:
        """(module, class) of the classes the linted file defines or imports by name: those its
        values of unknown kind may be instances of (a framework's other classes, far away, are
        not taken to be)."""
        own = self.own_path
        summary = self.summaries.get(own) if own is not None else None
        if summary is None:
            return set()
        known = {(own, name) for name in summary.classes}
        for local in summary.imports:
            symbol = self.resolve(own, local)
            if symbol is not None and symbol.what == "class":
                known.add((symbol.path, symbol.name))
        return known

    def unless_own_iterators(self, receiver: Kind | None, method: str | None) -> Kind | None:
        """`receiver` for asking what `receiver.method()` yields: an unknown one is no module for
        sure where the project defines that method on a class of its own."""
        if receiver is None and method in TENSOR_ITERATORS and self.defines_tensor_iterators():
            return Kind(OBJECT)
        return receiver

    # ---- classes ------------------------------------------------------------------------------
    def reaches_module(self, cls: ProjectClass, seen: frozenset = frozenset()) -> bool | None:
        """True when a base reaches nn.Module, False when every base is resolved and none does,
        None when a base cannot be resolved (a class the index cannot see is unknown)."""
        summary = self.summaries.get(cls.path)
        if summary is None or cls.name not in summary.classes or cls in seen:
            return None
        self.consulted.add(cls.path)
        answers = [self._base_reaches(cls.path, base, seen | {cls}) for base in summary.classes[cls.name].bases]
        if any(answer is True for answer in answers):
            return True
        return False if all(answer is False for answer in answers) else None

    def _base_reaches(self, path: str, base: Descriptor, seen) -> bool | None:
        if base is None or base[0] != "ref":
            return None
        symbol = self.resolve(path, base[1])
        if symbol is None:
            return False if base[1] in KNOWN_NON_MODULE_BASES else None
        if symbol.what == "external":
            if is_module_base(symbol.qualified) or symbol.qualified in self.module_bases:
                return True
            return False if symbol.qualified in KNOWN_NON_MODULE_BASES else None
        if symbol.what == "class":
            return self.reaches_module(self.project_class(symbol.path, symbol.name), seen)
        return None

    def inherits_from(self, cls: ProjectClass, qualified: frozenset[str], seen: frozenset = frozenset()) -> bool:
        """A base of the class, at any depth, is one of the library classes named `qualified`
        (`class BalancedDataParallel(DataParallel)`)."""
        summary = self.summaries.get(cls.path)
        if summary is None or cls.name not in summary.classes or cls in seen:
            return False
        for base in summary.classes[cls.name].bases:
            symbol = self.resolve(cls.path, base[1]) if base is not None and base[0] == "ref" else None
            if symbol is not None and symbol.what == "external" and symbol.qualified in qualified:
                return True
            if symbol is not None and symbol.what == "class" and self.inherits_from(
                    self.project_class(symbol.path, symbol.name), qualified, seen | {cls}):
                return True
        return False

    def may_override(self, cls: ProjectClass, method: str, seen: frozenset = frozenset()) -> bool:
        """Whether the class may define `method` itself (calling an instance may not run
        nn.Module.__call__, its `state_dict` may not be torch's): the class or a base defines it,
        a base is not a torch class the index can see, or a decorator may have replaced it."""
        summary = self.summaries.get(cls.path)
        if summary is None or cls.name not in summary.classes or cls in seen:
            return cls not in seen
        own = summary.classes[cls.name]
        if method in own.methods or not self.decorators_keep_class(cls.path, own.decorators) or self.assigned_on(cls, method):
            return True
        for base in own.bases:
            symbol = self.resolve(cls.path, base[1]) if base is not None and base[0] == "ref" else None
            if symbol is not None and symbol.what == "external" and symbol.qualified.startswith("torch."):
                continue
            if symbol is None or symbol.what != "class":
                return True
            if self.may_override(self.project_class(symbol.path, symbol.name), method, seen | {cls}):
                return True
        return False

    def instance_kind(self, cls: ProjectClass) -> Kind | None:
        reaches = self.reaches_module(cls)
        if reaches is None or self.class_decorators_keep(cls) is False:
            return None  # (`@singleton class Net`: the name holds what the decorator returned)
        if not reaches:
            return Kind(OBJECT, origin=cls.display, cls=cls)
        return Kind(MODULE, output=self._forward_output(cls), origin=cls.display, cls=cls)

    def class_decorators_keep(self, cls: ProjectClass) -> bool | None:
        summary = self.summaries.get(cls.path)
        own = summary.classes.get(cls.name) if summary is not None else None
        return self.decorators_keep_class(cls.path, own.decorators) if own is not None else None

    def decorators_keep_class(self, path: str, decorators: Iterable[str]) -> bool | None:
        """Whether a class statement's decorators (dotted names, as the summary keeps them) give
        the class back: True when there are none, or each is one known to (`dataclass`) or a
        function of the project that returns its argument as passed; False when one is a function
        of the project that returns something else (`def singleton(cls): return cls()`) or a class of
        the project (what it makes of the class is an instance of its own); None
        when one cannot be read (a library's or a factory's: `@MODELS.register_module()`)."""
        keeps: bool | None = True
        for decorator in decorators:
            made = decorator.endswith("()")  # `@register("net")`: what the factory returns decorates
            symbol = self.resolve(path, decorator.removesuffix("()")) if decorator != "?" else None
            if symbol is not None and symbol.what == "external" and symbol.qualified in CLASS_KEEPING_DECORATORS and not made:
                continue
            if symbol is not None and symbol.what == "class" and not made:
                return False  # `@Runner class Net`: an instance of that class
            function = self._function(symbol.path, symbol.name) if symbol is not None and symbol.what == "function" else None
            if function is None:
                keeps = None
                continue
            self.consulted.add(symbol.path)
            gives_back = self._factory_gives_back(symbol.path, symbol.name, function) if made else _gives_back(function)
            if gives_back is False:
                return False
            keeps = keeps if gives_back else None
        return keeps

    def _factory_gives_back(self, path: str, key: str, factory: FunctionSummary) -> bool | None:
        """Whether the decorators a factory of the project returns (`def register(name): def keep(cls):
        ...; return keep`) give the class back: each returned one a function defined in it."""
        answers = set()
        for returned in factory.returns:
            inner = self._function(path, f"{key}.<locals>.{returned[1]}") if returned and returned[0] == "ref" else None
            answers.add(_gives_back(inner) if inner is not None else None)
        return False if False in answers else True if answers == {True} else None

    def _forward_output(self, cls: ProjectClass) -> Kind | None:
        """What calling an instance returns: its `forward`'s returns, unless the class may run
        another `__call__` (it or a base defines one, a base is not seen, a decorator may have
        changed it, the project assigns one on it): then what that returns is not read."""
        if self.may_override(cls, "__call__"):
            return None
        key = self.summaries[cls.path].classes[cls.name].methods.get("forward")
        if key is None:
            return self._inherited_forward_output(cls)
        function = self._function(cls.path, key)
        if function is None or not function.returns or not all(d in RESULT_KEEPING_DECORATORS for d in function.decorators):
            return None  # (a decorator may give back something else)
        family = {cls} | self._project_ancestors(cls)
        if any(self.assigned_on(member, "forward") or "forward" in self.summaries[member.path].classes[member.name].attributes
               for member in family):
            return None  # `Net.forward = f`, `setattr(Net, "forward", f)`, `self.forward = self.packed`
        kind = self._memoised(("forward", cls), lambda: merge(self.kind(cls.path, r) for r in function.returns))
        return self.module_output(kind)

    def _inherited_forward_output(self, cls: ProjectClass) -> Kind | None:
        """A class without a `forward` of its own runs its base's (`class ResNet18(ResNet)` whose
        `__init__` only passes other arguments up): what the base's returns, read as for an
        instance of the base, so only where the class changes nothing that reading sees: it is
        plain but for methods the base's family does not define (see ClassSummary.plain_methods:
        the base's code calling one reads what the subclasses define), assigns no attribute the
        base's family assigns, and nothing assigns a `forward` on it."""
        base = self.single_project_base(cls)
        own = self.summaries[cls.path].classes[cls.name]
        if base is None or not own.plain_methods or "forward" in own.attributes or self.assigned_on(cls, "forward"):
            return None
        if self.shadows_family(base, own.attributes.keys(), own.methods.keys() - {"__init__"}):
            return None
        instance = self.instance_kind(base)
        return instance.output if instance is not None and instance.base == MODULE else None

    def shadows_family(self, cls: ProjectClass, attributes: Iterable[str], methods: Iterable[str]) -> bool:
        """Whether a subclass assigning `attributes` and defining `methods` changes what code of
        `cls` or its project ancestors reads through `self`: one of them assigns or defines it."""
        attributes, methods = set(attributes), set(methods)
        for member in {cls} | self._project_ancestors(cls):
            summary = self.summaries.get(member.path)
            if summary is None or member.name not in summary.classes:
                return True
            own = summary.classes[member.name]
            # (a method named as a submodule the family assigns wins over it: nn.Module keeps
            # submodules in `_modules`, read only where the class has no such name)
            if (attributes | methods) & own.attributes.keys() or (attributes | methods) & own.methods.keys():
                return True
        return False

    def module_output(self, returned: Kind | None) -> Kind | None:
        """What calling a module gives, from what its `forward` returns (kinds.output_of_forward);
        a dict is not known where the project registers forward hooks, which may change it in place,
        or assigns a `forward` on any object (`net.forward = types.MethodType(f, net)`)."""
        output = output_of_forward(returned)
        if output is not None and output.keys is not None and (
                self.registers_hooks(FORWARD_HOOKS) or self.stores_attribute("forward")):
            return None
        return output

    def defines_call(self, cls: ProjectClass) -> bool:
        """Whether the class or a base of the project defines `__call__`."""
        return self.defines_any(cls, ("__call__",))

    def defines_any(self, cls: ProjectClass, names: Iterable[str]) -> bool:
        """Whether the class or a base of the project defines one of `names` in its body."""
        return any(self._defines_method(member, name) for member in {cls} | self._project_ancestors(cls) for name in names)

    def _defines_method(self, cls: ProjectClass, method: str) -> bool:
        summary = self.summaries.get(cls.path)
        own = summary.classes.get(cls.name) if summary is not None else None
        return own is not None and method in own.methods

    def _returned_element(self, path: str, value: Descriptor, positions: tuple[int, ...]) -> Kind | None:
        """`loss, n = evaluate(batch)`: the element at `positions` of each tuple display the called
        project function (a method the receiver's class defines, a module's `forward`) returns."""
        if value is None or value[0] != "call" or value[1] is None:
            return None
        callee = value[1]
        receiver = self.kind(path, callee[1]) if callee[0] == "attr" else None
        if callee[0] == "attr" and (callee[2] != "forward" or is_kind(receiver, OBJECT)):
            # (a module's `forward` is read below, as its call is; a plain object's is any method)
            if receiver is None or receiver.base not in (MODULE, OBJECT) or not isinstance(receiver.cls, ProjectClass):
                return None
            return self.method_element(receiver.cls, callee[2], positions)
        kind = self.kind(path, callee)
        if kind is not None and kind.base == FUNCTION and isinstance(kind.cls, ProjectFunction):
            return self.function_element(kind.cls, positions)
        if kind is not None and kind.base == MODULE and isinstance(kind.cls, ProjectClass):
            return self.method_element(kind.cls, "forward", positions)
        return None

    def function_element(self, function: ProjectFunction, positions: tuple[int, ...]) -> Kind | None:
        summary = self._function(function.path, function.key)
        return self._element_returned(function.path, summary, positions) if summary is not None else None

    def method_element(self, cls: ProjectClass, method: str, positions: tuple[int, ...]) -> Kind | None:
        """The element at `positions` of every tuple the class's own method returns; None where
        the class binds the name otherwise or a subclass defines it again (`self.collate_fn(b)` in
        a base's method may run the subclass's)."""
        classes = self.summaries[cls.path].classes if cls.path in self.summaries else {}
        key = classes[cls.name].methods.get(method) if cls.name in classes else None
        if key is None or self._rebinds_method(cls, method) or self.overriding_results(cls, method):
            return None
        summary = self._function(cls.path, key)
        return self._element_returned(cls.path, summary, positions) if summary is not None else None

    def _element_returned(self, where: str, function: FunctionSummary, positions: tuple[int, ...]) -> Kind | None:
        """The element at `positions` of every tuple display `function` returns (all must hold one)."""
        if not _keeps_result(function):
            return None
        elements = [_element_of_returned(returned, positions) for returned in function.returns]
        if not elements or any(element is None or element == ("none",) for element in elements):
            return None
        self.consulted.add(where)
        kind = merge(self.kind(where, element) for element in elements)
        if kind is not None and kind.base == TENSOR and any(d in GRAD_DISABLING_DECORATORS for d in function.decorators):
            return Kind(TENSOR, graph=False)
        return kind

    def method_result(self, cls: ProjectClass, method: str, static_only: bool = False) -> Kind | None:
        """What a method a project class defines itself returns, when every `return` agrees on a
        tensor, a module, a tuple of tensors, an instance of a project class or a torch
        distribution (`static_only`: only a static method's)."""
        summary = self.summaries.get(cls.path)
        key = summary.classes[cls.name].methods.get(method) if summary and cls.name in summary.classes else None
        if key is None and not static_only and summary and cls.name in summary.classes:
            return self._defined_by_subclasses_only(cls, method)
        if key is None or self._rebinds_method(cls, method):
            return None
        if static_only and "staticmethod" not in self._function(cls.path, key).decorators:
            return None
        kind = self.return_kind(ProjectFunction(cls.path, key, f"{cls.display}.{method}"))
        if kind is not None and kind.base == OBJECT and isinstance(kind.cls, ProjectClass):
            return kind  # an instance of a class of the project (`return PPO(policy_net)`; see return_kind)
        if kind is not None and kind.base == OBJECT and (kind.origin or "").startswith("torch.distributions."):
            return kind  # `return Bernoulli(logits=x)`: its `.probs`, `.sample()` are tensors
        return kind if kind is not None and kind.base in (TENSOR, MODULE, CONTAINER) else None

    def _defined_by_subclasses_only(self, cls: ProjectClass, method: str) -> Kind | None:
        """`self.main(x)` in a method of a class that neither defines nor binds `main`, nor has a
        base that may give it, while its subclasses define it as plain methods (BEGAN's
        `BaseModel.forward` returning `self.main(x)`): the call runs one of those definitions (on
        any other instance it would raise), so it returns what they return, where they agree."""
        if method.startswith("__") or method in MODULE_ATTRIBUTE_NAMES:
            return None
        if self.installable and not cls.name.startswith("_"):
            return None  # a public class of a package: its users' subclasses are not seen
        if self.defines_any(cls, (method, "__getattr__", "__getattribute__")) or self._rebinds_method(cls, method):
            return None
        if self.sets_attribute_above(cls, method) is not False or self.assigned_on(cls, method):
            return None
        if self.subclasses_get_otherwise(cls, method, defining=True):
            return None
        results = self.overriding_results(cls, method)
        return merge(results) if results and None not in results else None

    def applied_forward(self, cls: ProjectClass) -> Kind | None:
        """What the `forward` of a project class deriving from `torch.autograd.Function` returns
        (see kinds.applied_kind for what `apply` gives from it)."""
        bases = self._resolved_bases(cls)
        if not bases or not any(symbol is not None and symbol.what == "external" and symbol.qualified in AUTOGRAD_FUNCTIONS
                                for _, symbol in bases):
            return None
        return self.method_result(cls, "forward")

    def iterated_instance(self, kind: Kind | None) -> Kind | None:
        """What iterating an instance of a project class gives when the class is its own iterator:
        it defines `__iter__` returning `self` as it is and `__next__` (`for x, y in
        DatasetIterater(data, 8)`), whose returns agree (a tuple of tensors, a tensor); or an
        `__iter__` that is a generator, whose yields agree."""
        if kind is None or kind.base != OBJECT or not isinstance(kind.cls, ProjectClass):
            return None
        summary = self.summaries.get(kind.cls.path)
        methods = summary.classes[kind.cls.name].methods if summary and kind.cls.name in summary.classes else {}
        own_iter = self._function(kind.cls.path, methods.get("__iter__"))
        if own_iter is None or own_iter.decorators or self._rebinds_method(kind.cls, "__iter__"):
            return None
        if own_iter.yields:  # `def __iter__(self): for ...: yield x, y`
            return self.method_yields(kind.cls, "__iter__")
        if own_iter.passes_back != 0:
            return None
        self.consulted.add(kind.cls.path)
        return self.method_result(kind.cls, "__next__")

    def accumulated_arguments(self, cls: ProjectClass, method: str, seen: frozenset = frozenset()) -> tuple[int, ...]:
        """The positions of the arguments `method` of an instance of `cls` adds to an attribute of
        the instance (see FunctionSummary.accumulates): its own method, or the first base's that
        defines it."""
        summary = self.summaries.get(cls.path)
        if summary is None or cls.name not in summary.classes or cls in seen or len(seen) > _MAX_DEPTH:
            return ()
        key = summary.classes[cls.name].methods.get(method)
        if key is not None:
            function = self._function(cls.path, key)
            self.consulted.add(cls.path)
            return function.accumulates if function is not None and not self._rebinds_method(cls, method) else ()
        for base in self._class_bases(cls)[0]:
            found = self.accumulated_arguments(base, method, seen | {cls})
            base_summary = self.summaries.get(base.path)
            base_class = base_summary.classes.get(base.name) if base_summary is not None else None
            if found or (base_class is not None and method in base_class.methods):
                return found  # (the first base defining it decides)
        return ()

    def sets_attribute_above(self, cls: ProjectClass, attribute: str, seen: frozenset = frozenset()) -> bool | None:
        """Whether the project class or one of its bases may set `self.<attribute>` (None: a base
        the index cannot read, other than `nn.Module`, which holds its own attributes only)."""
        summary = self.summaries.get(cls.path)
        if summary is None or cls.name not in summary.classes or cls in seen:
            return None
        if attribute in summary.classes[cls.name].attributes:
            return True
        bases = self._resolved_bases(cls)
        if bases is None:
            return None
        for base, symbol in bases:
            if symbol is not None and symbol.what == "class":
                above = self.sets_attribute_above(self.project_class(symbol.path, symbol.name), attribute, seen | {cls})
                if above is not False:
                    return above
            elif symbol is not None and symbol.what == "external" and symbol.qualified in ("torch.nn.Module", "torch.nn.modules.module.Module"):
                if attribute in MODULE_ATTRIBUTE_NAMES:
                    return True
            elif not (symbol is None and base == ("ref", "object")):
                return None
        return False

    def subclasses_get_otherwise(self, cls: ProjectClass, attribute: str, defining: bool = False) -> bool:
        """A project subclass of `cls` gives `self.<attribute>` other than by assigning it: a
        property, method or `__getattr__` of its own, or a base outside `cls`'s family (a mixin)
        that may set it, or one the index cannot read; or one may exist unseen. `defining`: the
        name is a method the subclasses define, plainly (no decorator), and never assign."""
        subclasses = self._project_subclasses(cls)
        if any(self._used_as_value(member) for member in {cls} | subclasses):
            return True  # a subclass the index cannot read may exist (`type("Fixed", (Base,), {...})`)
        family = subclasses | {cls} | self._project_ancestors(cls)
        for subclass in subclasses:
            if defining:
                if self.defines_any(subclass, ("__getattr__", "__getattribute__")) or self._rebinds_method(subclass, attribute) \
                        or attribute in self.summaries[subclass.path].classes[subclass.name].attributes:
                    return True
                own = self.summaries[subclass.path].classes[subclass.name].methods.get(attribute)
                function = self._function(subclass.path, own) if own is not None else None
                if own is not None and (function is None or function.decorators):
                    return True
            elif self.defines_any(subclass, (attribute, "__getattr__", "__getattribute__")):
                return True
            bases = self._resolved_bases(subclass)
            if bases is None:
                return True
            for base, symbol in bases:
                if symbol is not None and symbol.what == "class":
                    other = self.project_class(symbol.path, symbol.name)
                    if other not in family and (self.sets_attribute_above(other, attribute) is not False
                                                or (defining and self.defines_any(other, (attribute,)))):
                        return True
                elif not (symbol is not None and symbol.what == "external" and is_torch_module_class(symbol.qualified)):
                    return True
        return False

    def assigned_on(self, cls: ProjectClass, attribute: str) -> bool:
        """Whether a module of the project assigns `attribute` on the class itself, through a name
        that resolves to it (`Net.__call__ = f`, `setattr(Net, "__call__", f)`; an instance's own
        `obj.__call__ = f` does not change what calling it runs)."""
        for module in self._modules_where_escaping("=" + attribute):
            for receiver, _ in self.summaries[module].name_stores.get(attribute, ()):
                symbol = self.resolve(module, receiver)
                if symbol is not None and symbol.what == "class" and (symbol.path, symbol.name) == (cls.path, cls.name):
                    return True
        return False

    def stores_attribute(self, attribute: str) -> bool:
        """Whether a module of the project assigns `<object>.<attribute>` through another object than
        a method's own `self`, whatever the value."""
        return bool(self._modules_where_escaping("=" + attribute))

    def stored_from_outside(self, attribute: str) -> list[Kind]:
        """What the project assigns to `<object>.<attribute>` through another object than a
        method's own `self` (`cache.feats = pack_sequence(...)`), where it is known: an instance's
        attribute may hold that too. Stores are matched by name alone (the receiver may be any
        instance), so a value of unknown kind is not counted: most stores of a name keep what it
        holds (`module.weight = nn.Parameter(w)`), and counting them would leave every class's
        attribute of a common name unknown."""
        kinds = []
        for module in self._modules_where_escaping("=" + attribute):
            summary = self.summaries[module]
            for value in summary.stores.get(attribute, ()):
                kind = self.kind(module, value) if value is not None else None
                if kind is not None:
                    self.consulted.add(module)
                    kinds.append(kind)
        return kinds

    def stored_into_module(self, path: str, name: str) -> list[Kind | None]:
        """What code assigns to the module-level `name` of `path` through the module itself
        (`import state`, then `state.current = pack_sequence(...)`): the name may hold that too.
        The receiver is resolved, so a value of unknown kind counts (as unknown)."""
        kinds: list[Kind | None] = []
        for module in self._modules_where_escaping("=" + name):
            for receiver, value in self.summaries[module].name_stores.get(name, ()):
                symbol = self.resolve(module, receiver)
                if symbol is not None and symbol.what == "module" and symbol.path == path:
                    self.consulted.add(module)
                    kinds.append(self.kind(module, value) if value is not None else None)
        return kinds

    def has_subclasses(self, cls: ProjectClass) -> bool:
        return bool(self._project_subclasses(cls))

    def overriding_results(self, cls: ProjectClass, method: str, elsewhere_than: str = "") -> list[Kind | None]:
        """What `method` returns in each project class deriving from `cls` that defines it again
        (outside the module `elsewhere_than`, whose own classes its linter reads better): `self.m()`
        in a method of `cls` runs the override when `self` is such an instance."""
        overriding = []
        for subclass in self._project_subclasses(cls):
            summary = self.summaries.get(subclass.path)
            if subclass.path == elsewhere_than or summary is None:
                continue
            if method in summary.classes[subclass.name].methods or self._rebinds_method(subclass, method):
                self.consulted.add(subclass.path)
                overriding.append(self.method_result(subclass, method))
        return overriding

    def overriding_attributes(self, cls: ProjectClass, attribute: str, elsewhere_than: str = "") -> list[Kind | None]:
        """What each project class deriving from `cls` (outside `elsewhere_than`) assigns to
        `self.<attribute>` where it assigns it again: `self.feats` in a method of `cls` is that
        when `self` is such an instance."""
        overriding = []
        for subclass in self._project_subclasses(cls):
            summary = self.summaries.get(subclass.path)
            if subclass.path == elsewhere_than or summary is None:
                continue
            if attribute in summary.classes[subclass.name].attributes:
                self.consulted.add(subclass.path)
                overriding.append(self.class_attribute_kind(subclass, attribute))
        return overriding

    def some_subclass_assigns(self, cls: ProjectClass, attribute: str, elsewhere_than: str = "") -> bool:
        """Whether a project class deriving from `cls` (outside `elsewhere_than`) assigns
        `self.<attribute>` in a method."""
        for subclass in self._project_subclasses(cls):
            summary = self.summaries.get(subclass.path)
            if subclass.path != elsewhere_than and summary is not None and attribute in summary.classes[subclass.name].attributes:
                return True
        return False

    def _rebinds_method(self, cls: ProjectClass, method: str) -> bool:
        """The class binds the method's name otherwise: `self.m = ...` in a method (an instance's
        attribute comes before its class's methods), or `m = other` in its body."""
        summary = self.summaries[cls.path]
        return method in summary.classes[cls.name].attributes or f"{cls.name}.{method}" in summary.escapes

    def class_attribute_kind(self, cls: ProjectClass, attribute: str, seen: frozenset = frozenset()) -> Kind | None:
        summary = self.summaries.get(cls.path)
        values = summary.classes[cls.name].attributes.get(attribute, ()) if summary and cls.name in summary.classes else ()
        if not values:
            if not seen and summary is not None and cls.name in summary.classes and attribute in summary.classes[cls.name].methods:
                return self._property_kind(cls, attribute)
            return self._inherited_attribute_kind(cls, attribute, seen | {cls})
        return self._memoised(("attribute", cls, attribute),
                              lambda: self._local_kind(cls.path, tuple(value for _, value in values)))

    def _property_kind(self, cls: ProjectClass, attribute: str) -> Kind | None:
        """`net.weights` where the class defines `@property def weights(self)` once: what the getter
        returns, where every subclass defining the name again agrees; not where the module binds
        `property` itself or the class reads attributes through `__getattribute__` (the file's
        oracle judges a class of its own so: `TypeOracle.property_kind`)."""
        summary = self.summaries[cls.path]
        key = summary.classes[cls.name].methods.get(attribute)
        if (key is None or key == UNREAD_METHOD or "property" in summary.imports or "property" in summary.names
                or self.defines_any(cls, ("__getattribute__",))):
            return None
        kind = self.return_kind(ProjectFunction(cls.path, key, key), getter=True)
        if kind is None:
            return None
        overriding = self.overriding_results(cls, attribute)
        return merge([kind, *overriding]) if overriding else kind

    def _inherited_attribute_kind(self, cls: ProjectClass, attribute: str, seen: frozenset) -> Kind | None:
        """An attribute the class never assigns is its base's (`self.conv` set in the base's
        `__init__`), where the class has one base, of the project, and no code of its own that
        looks the attribute up (a property or method of that name, `__getattr__`)."""
        base = self.single_project_base(cls)
        if base is None or base in seen or self.defines_any(cls, (attribute, "__getattr__", "__getattribute__")):
            return None
        return self.class_attribute_kind(base, attribute, seen)

    def single_project_base(self, cls: ProjectClass) -> ProjectClass | None:
        """The one base of `cls`, when it is a class of the project (`class ResNet18(ResNet)`)."""
        bases = self._resolved_bases(cls)
        if bases is None or len(bases) != 1:
            return None
        symbol = bases[0][1]
        return self.project_class(symbol.path, symbol.name) if symbol is not None and symbol.what == "class" else None

    # ---- functions ------------------------------------------------------------------------------
    def _function(self, path: str, key: str | None) -> FunctionSummary | None:
        summary = self.summaries.get(path)
        return summary.functions.get(key) if summary is not None and key else None

    def return_kind(self, function: ProjectFunction, getter: bool = False) -> Kind | None:
        """What calling the function returns (`getter`: what reading the property it is the getter
        of gives: its only decorator is `@property`)."""
        summary = self._function(function.path, function.key)
        if summary is None or not summary.returns or ("none",) in summary.returns:
            return None  # no value, or a factory that may return None
        if not (summary.decorators == ("property",) if getter else _keeps_result(summary)):
            return None  # a decorator may return something else
        self.consulted.add(function.path)
        kinds = [self.kind(function.path, value) for value in summary.returns]
        if any(kind is NONE for kind in kinds):
            return None
        kind = merge(kinds)
        if kind is not None and kind.base == OBJECT and isinstance(kind.cls, ProjectClass) and not _builds_untouched(summary):
            return None  # `h = Holder(); h.w = bytearray(...); return h`: not what the class assigns
        return kind

    def yielded_kind(self, function: ProjectFunction) -> Kind | None:
        """What iterating a call of a generator function (or method) of the project gives, when
        every `yield` agrees (`yield Variable(X), Variable(Y)`): not past a decorator that may
        change what the call gives (`@contextmanager`), nor with a `yield from` or a bare `yield`."""
        summary = self._function(function.path, function.key)
        if summary is None or not summary.yields or not _keeps_result(summary):
            return None
        if any(value is None or value == ("none",) for value in summary.yields):
            return None
        self.consulted.add(function.path)
        kinds = [self.kind(function.path, value) for value in summary.yields]
        if any(d in GRAD_DISABLING_DECORATORS for d in summary.decorators):
            kinds = [without_graph(kind) if carries_graph(kind) else kind for kind in kinds]
        return merge(kinds)

    def method_yields(self, cls: ProjectClass, method: str) -> Kind | None:
        """`yielded_kind` of a method the class defines itself, no project subclass defining it
        again (`for x, y in data.get_batches(X, Y, 32)`)."""
        summary = self.summaries.get(cls.path)
        key = summary.classes[cls.name].methods.get(method) if summary and cls.name in summary.classes else None
        if key is None or self._rebinds_method(cls, method) or self.overriding_results(cls, method):
            return None
        return self.yielded_kind(ProjectFunction(cls.path, key, f"{cls.display}.{method}"))

    def returned_parameter(self, function: ProjectFunction) -> tuple[int, str, frozenset[Wrapper], bool] | None:
        """The positional parameter every return of a plain function gives back as it was passed
        (`def reset_grads(model, flag): ...; return model`), or through wrappers that hand back
        what they are given (`if parallel: model = DataParallel(model)`, then `return model`): its
        position, its name, those wrappers, and whether the function may change a container it
        is given (`layers.append(Head())`). What a call of it gives is then what that very call
        passes there, maybe wrapped (see `given_back_kind`)."""
        if "." in function.key:
            return None  # a method (its `self` comes first) or a nested function
        summary = self._function(function.path, function.key)
        if summary is None or not summary.returns or not _keeps_result(summary):
            return None
        changed = any(value is not None and value[0] == "changed" for value in summary.returns)
        if summary.passes_back is not None:
            self.consulted.add(function.path)
            return summary.passes_back, summary.params[summary.passes_back], frozenset(), changed
        wrapped = self._wrapped_parameter(function.path, function.key, summary)
        if wrapped is None:
            return None
        self.consulted.add(function.path)
        return wrapped[0], summary.params[wrapped[0]], wrapped[1], changed

    def _wrapped_parameter(self, path: str, key: str, function: FunctionSummary) -> tuple[int, frozenset[Wrapper]] | None:
        """See returned_parameter: every returned value, followed through the function's locals, is
        one parameter or a wrapper of such a value; None where any is something else (a local
        bound to anything else on some path, a call of the project, a bare `return`)."""
        positions, wrappers, seen = set(), set(), set()
        pending = list(function.returns)
        while pending:
            value = pending.pop()
            while value is not None and value[0] == "changed":
                value = value[1]
            if value in seen:
                continue
            seen.add(value)
            if value is None or len(seen) > _MAX_WRAPPED_VALUES:
                return None
            tag = value[0]
            if tag == "param" and value[1] == key:
                positions.add(value[2])
            elif tag == "local" and value[1] == key and function.locals.get(value[2]):
                pending.extend(function.locals[value[2]])
            elif tag == "call" and value[1] is not None and value[1][0] == "ref":
                symbol = self.resolve(path, value[1][1])
                if symbol is None or symbol.what != "external" or symbol.qualified not in HANDING_BACK_WRAPPERS:
                    return None
                wrappers.add(("library", symbol.qualified))
                pending.append(value[2])
            elif tag == "call" and value[1] is not None and value[1][0] == "attr" and value[1][2] in SELF_RETURNING_METHODS:
                wrappers.add(("method", value[1][2]))
                pending.append(value[1][1])
            else:
                return None
        return (positions.pop(), frozenset(wrappers)) if len(positions) == 1 else None

    def param_kind(self, path: str, key: str, index: int) -> Kind | None:
        function = self._function(path, key)
        if function is None or index >= len(function.params):
            return None
        owner = key.split(".")[0] if "." in key and "<locals>" not in key else None
        summary = self.summaries[path]
        if owner in summary.classes and index == 0 and not any(
            d in ("staticmethod", "classmethod") for d in function.decorators
        ):
            return self.instance_kind(self.project_class(path, owner))
        return self.call_site_kind(path, key, index)

    def resolve_qualified(self, importer: str, qualified: str) -> Symbol | None:
        """What a name the linted file qualified through its imports (`pkg.models.Net`,
        `.models.Net` for a relative import) refers to."""
        stripped = qualified.lstrip(".")
        return self._resolve_absolute(importer, len(qualified) - len(stripped), stripped, frozenset())


class _WithOwn(Mapping):
    """The run's summaries with the linted file's own (its text as linted) in place of the disk's."""

    def __init__(self, base: Mapping, path: str, own: ModuleSummary):
        self._base, self._path, self._own = base, path, own

    def __getitem__(self, path: str) -> ModuleSummary:
        return self._own if path == self._path else self._base[path]

    def __contains__(self, path: object) -> bool:
        return path == self._path or path in self._base

    def __iter__(self) -> Iterator[str]:
        yield from self._base
        if self._path not in self._base:
            yield self._path

    def __len__(self) -> int:
        return len(self._base) + (self._path not in self._base)


def _builds_untouched(function: FunctionSummary) -> bool:
    """The function assigns no local's attributes (`h.w = v`, `setattr(h, "w", v)`) and hands no
    returned local on (a callee might): an instance it returns holds what its class assigns."""
    return not function.changed and not any(value is not None and value[0] == "changed" for value in function.returns)


def _augmentation(value: Descriptor) -> tuple | None:
    """`("aug", v)` of an `x op= v`, also where the local is marked changed (`loss /= n` beside
    `loss = bce + kl`, with `kl` handed on) or made with autograd off; None for any other value."""
    off = False
    while value is not None and value[0] in ("changed", "no graph"):
        off = off or value[0] == "no graph"
        value = value[1]
    if value is None or value[0] != "aug":
        return None
    return ("aug", ("no graph", value[1])) if off else value  # (`l2 += p.norm()` under `no_grad`)


def _is_number(value: Descriptor) -> bool:
    """A number literal's description (also one marked changed: a number is not changed in place)."""
    while type(value) is tuple and value and value[0] == "changed":
        value = value[1]
    return value == ("number",)


def _mentions(descriptor, target: tuple) -> bool:
    """Whether `target` (a local's descriptor) is part of `descriptor`."""
    if descriptor == target:
        return True
    return isinstance(descriptor, tuple) and any(_mentions(part, target) for part in descriptor if isinstance(part, tuple))


def _folder_ends_with(folder: Path, names: list[str]) -> bool:
    return len(folder.parts) > len(names) and list(folder.parts[len(folder.parts) - len(names):]) == names


def _element_of_returned(returned: Descriptor, positions: tuple[int, ...]) -> Descriptor:
    """The element at `positions` of a returned value the caller unpacks. A value returned whole
    that the summary marks changed or made with autograd off (`fut_pred = self.decode(enc)`, then
    `return fut_pred` beside `return fut_pred, lat_pred` where `fut_pred` is a list grown in
    another branch) is unpacked as its kind is: a tensor's rows are tensors, a changed list's
    elements unknown."""
    element = select(returned, positions)
    if element is None and positions and returned is not None and returned[0] in ("changed", "no graph"):
        return ("item", returned, positions)
    return element


def _keeps_result(function: FunctionSummary) -> bool:
    """Whether calling the decorated function still returns what its body returns."""
    return all(decorator in RESULT_KEEPING_DECORATORS for decorator in function.decorators)


def _called_through_dunder_call(callee: Descriptor) -> Descriptor:
    """`self.__call__`, `net.__call__`: what is called (`self`, `net`); other callees as they are."""
    if callee is not None and callee[0] == "attr" and callee[2] == "__call__" and callee[1] is not None:
        return callee[1]
    if callee is not None and callee[0] == "ref" and callee[1].endswith(".__call__"):
        return ("ref", callee[1][: -len(".__call__")])
    return callee


def _called_bare(method: FunctionSummary | None) -> bool:
    """A method that can be called as `x.parameters()`: `self` and nothing it must be given
    (skorch's `named_parameters(self, net)` cannot stand for nn.Module's)."""
    if method is None or not method.params:
        return False
    return sum(1 for name in method.params[1:] if name not in method.defaults) == 0 and not method.kwonly


def _gives_back(function: FunctionSummary) -> bool | None:
    """Whether a class decorator returns the class it is given as passed (False: something else);
    None where it also assigns the class's attributes (`cls.__call__ = f`: still the class, but
    calling an instance may run something else)."""
    if function.passes_back != 0 or function.decorators:
        return False
    return None if function.params[0] in function.changed else True


def _looked_up_namespace(index: ProjectIndex, path: str, callee: Descriptor) -> Symbol | None:
    """What `models` is in `models.__dict__[name]` or `getattr(models, name)` (a module of the
    project, torchvision's model namespace, ...); None for any other callee."""
    if callee is None:
        return None
    if callee[0] == "sub" and callee[1] is not None and callee[1][0] == "ref" and callee[1][1].endswith(".__dict__"):
        return index.resolve(path, callee[1][1][: -len(".__dict__")])
    if (callee[0] == "call" and callee[1] == ("ref", "getattr") and callee[2] is not None and callee[2][0] == "ref"
            and callee[4] is None):  # (not `getattr(models, name, fallback)`)
        shadowed = index.resolve(path, "getattr") is not None  # (the builtin: the module binds no `getattr`)
        return index.resolve(path, callee[2][1]) if not shadowed else None
    return None


MODEL_NAMESPACES = frozenset({"torchvision.models", "timm.models"})
