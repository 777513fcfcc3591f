"""Fuzzing torchlint, as ruff and libcst do it: generated programs and mutated real training code.

    python bench/fuzz.py [--minutes 10] [--seed 0] [--save DIR] [--cli-every 50]

Two sources of programs, each checked by `check_source`:
- hypothesmith: programs generated from Python's grammar (`from_grammar`) and from libcst's node
  types (`from_node`), linted with the prefilter off so that every rule visits every node, and the
  same programs with a rule's INVALID example planted in them;
- mutation: real PyTorch code (the installed torch package's own sources, examples/ and the seed
  scripts in bench/fuzz_seeds/) with one or more INVALID examples of every registered rule planted
  at statement boundaries: at module level, in function bodies, in loops, in class bodies and in
  other blocks, re-indented, whole or with the example's imports moved to the top of the file. A
  mutant that CPython does not compile is discarded.

The checks (each a failure kind in the output):
- crash: an exception out of lint_text, fix_text or add_noqa;
- internal-error: an exception inside a rule (`LintResult.internal_errors`);
- position: a finding or fix edit whose line/column lies outside the text, or ends before it starts;
- prefilter: the findings differ with the prefilter (and elided parsing) on and off;
- fix-refused: a fix whose output does not parse, so the engine refused it;
- fix-syntax: fixed output that CPython does not compile;
- fix-not-idempotent: a second `--fix` (with and without `--unsafe-fixes`) changes the fixed text;
- noqa-syntax / noqa-not-silenced: `--add-noqa` output that does not compile, or that leaves a
  finding on a line it was meant to silence;
- cli: the command line (every Nth case, in a subprocess) disagrees with the in-process engine or
  exits with an unexpected code.

A failure of a mutant is reduced (statements deleted while it still fails) and saved with its
seed file and planted examples; a hypothesmith failure is shrunk by hypothesis. The run prints
the cases run per source and the failures, and exits 1 when there are any.
"""

from __future__ import annotations

import argparse
import ast
import importlib.util
import json
import random
import subprocess
import sys
import tempfile
import time
import warnings
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from torchlint.baseline import _lines_ending_inside_tokens, add_noqa
from torchlint.diagnostics import Diagnostic, offset_to_position
from torchlint.engine import fix_text, lint_text
from torchlint.rules.registry import all_rules
from torchlint.suppression import UNSUPPRESSIBLE

ROOT = Path(__file__).resolve().parent.parent
SEED_SCRIPTS = ROOT / "bench" / "fuzz_seeds"
PATH = "fuzz_case.py"
MAX_SEED_BYTES = 40_000  # libcst parses well under 1 MB/s: bigger files would dominate the run
TRAINING_SHARE = 0.3  # of the mutants, those made from training scripts rather than torch's sources


# ---- the checks --------------------------------------------------------------------------------
@dataclass(frozen=True)
class Failure:
    kind: str
    detail: str

    def __str__(self) -> str:
        return f"{self.kind}: {self.detail}"


def compiles(text: str) -> bool:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            compile(text, PATH, "exec", dont_inherit=True)
        return True
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return False


def _rules(rules):
    return rules if rules is not None else all_rules()


def _key(diagnostic: Diagnostic) -> tuple:
    return diagnostic.code, diagnostic.line, diagnostic.column, diagnostic.end_line, diagnostic.end_column


def check_source(text: str, rules=None, prefilter: bool = True) -> list[Failure]:
    """Every check on one program that CPython compiles; [] when torchlint handles it well."""
    rules = _rules(rules)
    try:
        return _check(text, rules, prefilter)
    except Exception as error:  # noqa: BLE001 - any exception out of the engine is the finding
        return [Failure("crash", f"{type(error).__name__}: {error}")]


def _check(text: str, rules, prefilter: bool) -> list[Failure]:
    failures: list[Failure] = []
    result = lint_text(text, PATH, rules, prefilter=prefilter)
    failures += [Failure("internal-error", f"{e.code}: {e.message}") for e in result.internal_errors]
    failures += position_failures(text, result.diagnostics)
    if prefilter:
        failures += _prefilter_failures(text, rules, result.diagnostics)
    failures += _fix_failures(text, rules, unsafe_fixes=True)
    if any(d.fix and not d.fix.is_enabled(unsafe_fixes=False) for d in result.diagnostics):
        failures += _fix_failures(text, rules, unsafe_fixes=False)  # `--fix` alone applies fewer
    failures += _noqa_failures(text, rules, result.diagnostics)
    return failures


def position_failures(text: str, diagnostics: list[Diagnostic]) -> list[Failure]:
    lines = text.split("\n")  # the engine numbers lines by "\n", as its offsets do
    failures = []

    def inside(line: int, column: int) -> bool:
        return 1 <= line <= len(lines) and 1 <= column <= len(lines[line - 1]) + 1

    for d in diagnostics:
        where = f"{d.code} at {d.line}:{d.column}-{d.end_line}:{d.end_column}"
        if not inside(d.line, d.column) or not inside(d.end_line, d.end_column):
            failures.append(Failure("position", f"{where} lies outside the text ({len(lines)} lines)"))
        elif (d.end_line, d.end_column) < (d.line, d.column):
            failures.append(Failure("position", f"{where} ends before it starts"))
        for edit in d.fix.edits if d.fix else ():
            if not 0 <= edit.start <= edit.end <= len(text):
                failures.append(Failure("position", f"{d.code} edit {edit.start}-{edit.end} outside the text"))
            elif ((edit.line, edit.column), (edit.end_line, edit.end_column)) != (
                offset_to_position(text, edit.start), offset_to_position(text, edit.end)
            ):
                failures.append(Failure("position", f"{d.code} edit line/column disagree with its offsets"))
    return failures


def _prefilter_failures(text: str, rules, diagnostics: list[Diagnostic]) -> list[Failure]:
    """The prefilter and elided parsing only save time: every rule run on the whole tree must find
    exactly what the fast path found."""
    unfiltered = lint_text(text, PATH, rules, prefilter=False)
    fast, slow = Counter(map(_key, diagnostics)), Counter(map(_key, unfiltered.diagnostics))
    failures = [Failure("prefilter", f"{key} found only with the prefilter off") for key in slow - fast]
    failures += [Failure("prefilter", f"{key} found only with the prefilter on") for key in fast - slow]
    return failures


def _fix_failures(text: str, rules, unsafe_fixes: bool) -> list[Failure]:
    fixed = fix_text(text, PATH, rules, unsafe_fixes=unsafe_fixes)
    failures = [Failure("internal-error", f"{e.code} while fixing: {e.message}") for e in fixed.internal_errors]
    if fixed.failure:
        failures.append(Failure("fix-refused", fixed.failure))
    if not fixed.changed:
        return failures
    if not compiles(fixed.text):
        return failures + [Failure("fix-syntax", f"fixes of {dict(fixed.applied)} do not compile")]
    failures += position_failures(fixed.text, fixed.remaining)
    again = fix_text(fixed.text, PATH, rules, unsafe_fixes=unsafe_fixes)
    if again.text != fixed.text or again.applied:
        failures.append(Failure("fix-not-idempotent", f"a second fix applied {dict(again.applied)}"))
    return failures


def _noqa_failures(text: str, rules, diagnostics: list[Diagnostic]) -> list[Failure]:
    noqa_text, changed = add_noqa(text, diagnostics)
    if not changed:
        return []
    if not compiles(noqa_text):
        return [Failure("noqa-syntax", f"--add-noqa output does not compile ({changed} lines changed)")]
    # add_noqa leaves alone, by design, a line that ends inside a string or with a backslash
    skipped = _lines_ending_inside_tokens(text) | {
        number for number, line in enumerate(text.splitlines(), 1) if line.endswith("\\")}
    silenced = {(d.line, d.code) for d in diagnostics if d.code not in UNSUPPRESSIBLE and d.line not in skipped}
    after = lint_text(noqa_text, PATH, rules)
    failures = [Failure("internal-error", f"{e.code} after --add-noqa: {e.message}") for e in after.internal_errors]
    failures += [
        Failure("noqa-not-silenced", f"{d.code} still reported on line {d.line}")
        for d in after.diagnostics if (d.line, d.code) in silenced
    ]
    return failures


# ---- the command line, end to end -------------------------------------------------------------
def _torchlint(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "torchlint", "check", "--select", "ALL", "--preview", "--no-cache", *args],
        cwd=cwd, capture_output=True, text=True, timeout=300,
    )


def check_cli(text: str) -> list[Failure]:
    """`check`, `--fix --unsafe-fixes` and `--add-noqa` through the command line agree with the
    engine in-process (all rules selected) and exit 0 or 1."""
    rules = all_rules()
    expected = lint_text(text, PATH, rules)
    with tempfile.TemporaryDirectory() as folder:
        cwd, file = Path(folder), Path(folder) / PATH
        file.write_text(text, encoding="utf-8")
        failures = _cli_check(cwd, expected.diagnostics)
        failures += _cli_fix(cwd, file, text, rules)
        file.write_text(text, encoding="utf-8")
        failures += _cli_add_noqa(cwd, file, text, expected.diagnostics)
    return failures


def _cli_check(cwd: Path, expected: list[Diagnostic]) -> list[Failure]:
    run = _torchlint("--output-format", "json", PATH, cwd=cwd)
    if run.returncode not in (0, 1):
        return [Failure("cli", f"check exited {run.returncode}: {run.stderr.strip()[-500:]}")]
    reported = [(d["code"], d["line"], d["column"], d["end_line"], d["end_column"]) for d in json.loads(run.stdout)]
    if sorted(reported) != sorted(map(_key, expected)):
        return [Failure("cli", f"check reported {sorted(reported)}, the engine {sorted(map(_key, expected))}")]
    return []


def _cli_fix(cwd: Path, file: Path, text: str, rules) -> list[Failure]:
    run = _torchlint("--fix", "--unsafe-fixes", "--output-format", "concise", PATH, cwd=cwd)
    if run.returncode not in (0, 1):
        return [Failure("cli", f"--fix exited {run.returncode}: {run.stderr.strip()[-500:]}")]
    written = file.read_text(encoding="utf-8")
    expected = fix_text(text, PATH, rules, unsafe_fixes=True).text
    if written != expected:
        return [Failure("cli", "--fix wrote a different text than fix_text returns")]
    return []


def _cli_add_noqa(cwd: Path, file: Path, text: str, expected: list[Diagnostic]) -> list[Failure]:
    run = _torchlint("--add-noqa", PATH, cwd=cwd)
    if run.returncode != 0:
        return [Failure("cli", f"--add-noqa exited {run.returncode}: {run.stderr.strip()[-500:]}")]
    if file.read_text(encoding="utf-8") != add_noqa(text, expected)[0]:
        return [Failure("cli", "--add-noqa wrote a different text than add_noqa returns")]
    return []


# ---- planting rule examples into real code ----------------------------------------------------
@dataclass(frozen=True)
class Snippet:
    """An INVALID example of a registered rule."""

    code: str
    index: int
    source: str

    @property
    def label(self) -> str:
        return f"{self.code}#{self.index}"


def invalid_snippets(rules=None) -> list[Snippet]:
    """Every registered rule's INVALID examples: a new rule is fuzzed as soon as it registers."""
    return [
        Snippet(rule.code, index, example.source)
        for rule in _rules(rules)
        for index, example in enumerate(rule.invalid)
    ]


@dataclass(frozen=True)
class Site:
    """Where a snippet can go: before line `line` (0-based), indented like the statements there."""

    line: int
    indent: str
    context: str


_LOOPS = (ast.For, ast.AsyncFor, ast.While)
_FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef)


def _context(owner: ast.AST) -> str:
    if isinstance(owner, ast.Module):
        return "module"
    if isinstance(owner, _FUNCTIONS):
        return "function"
    if isinstance(owner, _LOOPS):
        return "loop"
    if isinstance(owner, ast.ClassDef):
        return "class"
    return "block"


def _statement_lists(tree: ast.Module) -> Iterator[tuple[ast.AST, list[ast.stmt]]]:
    for node in ast.walk(tree):
        for name in ("body", "orelse", "finalbody"):
            body = getattr(node, name, None)
            if isinstance(body, list) and body and isinstance(body[0], ast.stmt):
                yield node, body
        for handler in getattr(node, "handlers", ()):
            yield node, handler.body
        for case in getattr(node, "cases", ()):
            yield node, case.body


def _first_line(statement: ast.stmt) -> int:
    """1-based: decorators come before the `def` or `class` line."""
    decorators = getattr(statement, "decorator_list", ())
    return min([statement.lineno, *(d.lineno for d in decorators)])


def insertion_sites(text: str) -> list[Site]:
    """Every statement boundary: before each statement that starts a line of its own, and after
    the last statement of each block. None in a text with carriage returns, which CPython counts
    as line ends too."""
    if "\r" in text:
        return []
    tree = ast.parse(text)
    lines = text.split("\n")
    sites = []
    for owner, body in _statement_lists(tree):
        context = _context(owner)
        indents = []
        for statement in body:
            start = _first_line(statement)
            indent = lines[start - 1][: statement.col_offset]
            if not indent.strip():  # not a body on its header's line, nor after a `;`
                sites.append(Site(start - 1, indent, context))
                indents.append(indent)
        if indents:
            sites.append(Site(body[-1].end_lineno, indents[0], context))
    return sites


def plant(text: str, site: Site, snippet: str) -> str:
    lines = text.split("\n")
    planted = [site.indent + line if line.strip() else line for line in snippet.rstrip("\n").split("\n")]
    return "\n".join(lines[: site.line] + planted + lines[site.line :])


def split_imports(snippet: str) -> tuple[str, str]:
    """(the example's leading imports, the rest)."""
    body = ast.parse(snippet).body
    count = 0
    while count < len(body) and isinstance(body[count], (ast.Import, ast.ImportFrom)):
        count += 1
    if count == 0 or count == len(body):
        return "", snippet
    lines = snippet.split("\n")
    cut = body[count].lineno - 1
    return "\n".join(lines[:cut]) + "\n", "\n".join(lines[cut:])


def _top_of_file(text: str) -> Site:
    """After the docstring and `from __future__` imports."""
    body = ast.parse(text).body
    index = 0
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
        index = 1
    while index < len(body) and isinstance(body[index], ast.ImportFrom) and body[index].module == "__future__":
        index += 1
    line = _first_line(body[index]) - 1 if index < len(body) else len(text.split("\n")) - 1
    return Site(line, "", "module")


@dataclass(frozen=True)
class Mutant:
    text: str
    description: str


def mutate(text: str, snippets: list[Snippet], rng: random.Random, plants: int = 1) -> Mutant | None:
    """`text` with `plants` rule examples planted, each at a random boundary of a random context;
    None when no mutant CPython compiles was found in a few tries."""
    steps = []
    for _ in range(plants):
        for _attempt in range(8):
            planted = _plant_one(text, rng.choice(snippets), rng)
            if planted is not None:
                text, step = planted
                steps.append(step)
                break
    return Mutant(text, "; ".join(steps)) if steps else None


def _plant_one(text: str, snippet: Snippet, rng: random.Random) -> tuple[str, str] | None:
    sites = insertion_sites(text)
    if not sites:
        return None
    context = rng.choice(sorted({site.context for site in sites}))
    site = rng.choice([site for site in sites if site.context == context])
    imports, rest = split_imports(snippet.source) if rng.random() < 0.5 else ("", snippet.source)
    mutant = plant(text, site, rest)
    if not compiles(mutant):
        return None
    if imports:
        mutant = plant(mutant, _top_of_file(mutant), imports)
        if not compiles(mutant):
            return None
    how = "imports on top, body" if imports else "whole"
    return mutant, f"{snippet.label} {how} before line {site.line + 1} ({site.context}, indent {len(site.indent)})"


# ---- seeds: real training and library code ---------------------------------------------------
def torch_package() -> Path | None:
    """The installed torch package's folder, found without importing torch."""
    spec = importlib.util.find_spec("torch")
    return Path(spec.origin).parent if spec is not None and spec.origin is not None else None


def torch_sources() -> list[Path]:
    package = torch_package()
    return sorted(package.rglob("*.py")) if package is not None else []


def training_scripts() -> list[Path]:
    """The seed scripts and examples/: training code, where the rules' patterns live."""
    return sorted(SEED_SCRIPTS.glob("*.py")) + sorted((ROOT / "examples").glob("*.py"))


def library_files() -> list[Path]:
    """The torch package's own sources, up to MAX_SEED_BYTES each."""
    return [path for path in torch_sources() if 0 < path.stat().st_size <= MAX_SEED_BYTES]


def read_seed(path: Path) -> str | None:
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None
    return text if compiles(text) else None


# ---- reducing a failing mutant ----------------------------------------------------------------
def reduce(text: str, still_fails: Callable[[str], bool], budget_s: float = 60.0) -> str:
    """Delete statements (largest first) while the program still compiles and still fails."""
    deadline = time.monotonic() + budget_s
    progress = True
    while progress and time.monotonic() < deadline:
        progress = False
        for start, end, indent in _statement_spans(text):
            lines = text.split("\n")
            for replacement in ([], [indent + "pass"]):
                candidate = "\n".join(lines[:start] + replacement + lines[end:])
                if time.monotonic() > deadline:
                    return text
                if candidate != text and compiles(candidate) and still_fails(candidate):
                    text, progress = candidate, True
                    break
            if progress:
                break
    return text


def _statement_spans(text: str) -> list[tuple[int, int, str]]:
    if "\r" in text:
        return []
    try:
        tree = ast.parse(text)
    except SyntaxError:
        return []
    lines = text.split("\n")
    spans = {
        (_first_line(s) - 1, s.end_lineno, lines[_first_line(s) - 1][: s.col_offset])
        for s in ast.walk(tree) if isinstance(s, ast.stmt)
    }
    return sorted(spans, key=lambda span: span[0] - span[1])


# ---- the long run -------------------------------------------------------------------------------
class Run:
    def __init__(self, save: Path | None):
        self.cases: Counter = Counter()
        self.failures: list[tuple[str, str, list[Failure], str]] = []  # source, description, failures, text
        self.save = save

    def record(self, source: str, description: str, failures: list[Failure], text: str) -> None:
        self.failures.append((source, description, failures, text))
        print(f"FAIL [{source}] {description}", flush=True)
        for failure in failures:
            print(f"    {failure}", flush=True)
        if self.save is not None:
            self.save.mkdir(parents=True, exist_ok=True)
            case = self.save / f"failure{len(self.failures):03d}.py"
            header = "".join(f"# {line}\n" for line in [f"[{source}] {description}", *map(str, failures)])
            case.write_text(header + text, encoding="utf-8")
            print(f"    saved to {case}", flush=True)


def fuzz_mutants(run: Run, rng: random.Random, deadline: float, cli_every: int) -> None:
    snippets = invalid_snippets()
    scripts, library = training_scripts(), library_files()
    while time.monotonic() < deadline:
        path = rng.choice(scripts if not library or rng.random() < TRAINING_SHARE else library)
        text = read_seed(path)
        if text is None:
            continue
        mutant = mutate(text, snippets, rng, plants=rng.choice((1, 1, 2, 3)))
        if mutant is None:
            continue
        run.cases["mutants"] += 1
        failures = check_source(mutant.text)
        if cli_every and run.cases["mutants"] % cli_every == 0:
            run.cases["cli"] += 1
            failures += check_cli(mutant.text)
        if failures:
            kinds = {failure.kind for failure in failures}
            reduced = reduce(mutant.text, lambda t: bool(kinds & {f.kind for f in check_source(t)}))
            run.record("mutant", f"{_display(path)}: {mutant.description}", failures, reduced)


def _display(path: Path) -> str:
    package = torch_package()
    for base in (ROOT, package.parent if package is not None else ROOT):
        if path.is_relative_to(base):
            return str(path.relative_to(base))
    return str(path)


def fuzz_generated(run: Run, seed: int, deadline: float) -> None:
    """hypothesmith programs in batches, each batch under its own seed, until the deadline."""
    from hypothesis import HealthCheck, given, settings
    from hypothesis import seed as with_seed

    batch = 0
    while time.monotonic() < deadline:
        failing: list[tuple[str, list[Failure]]] = []

        def case(program: str, draw_planting) -> None:
            if time.monotonic() > deadline and not failing:
                return  # out of time: let the batch end (a failure found still shrinks)
            run.cases["hypothesmith"] += 1
            text, failures = check_generated(program, draw_planting)
            if failures:
                failing.append((text, failures))
                raise AssertionError("; ".join(map(str, failures)))

        test = settings(max_examples=5, deadline=None, database=None, suppress_health_check=list(HealthCheck))(
            given(generated_programs(), plantings())(case)
        )
        try:
            with_seed(seed * 1_000_003 + batch)(test)()
        except Exception:  # noqa: BLE001 - hypothesis re-raises the shrunk failure
            text, failures = failing[-1] if failing else ("", [Failure("crash", "hypothesis raised")])
            run.record("hypothesmith", f"seed {seed * 1_000_003 + batch}", failures, text)
        batch += 1


def generated_programs():
    import hypothesmith
    from hypothesis import strategies as st

    return st.one_of(hypothesmith.from_grammar(), hypothesmith.from_node())


def plantings():
    """Nothing, or a rule's INVALID example and where to plant it in the generated program."""
    from hypothesis import strategies as st

    snippets = invalid_snippets()
    return st.none() | st.tuples(st.sampled_from(snippets), st.integers(0, 10_000), st.booleans())


def check_generated(program: str, planting) -> tuple[str, list[Failure]]:
    """A generated program, linted with every rule visiting every node; with a planting, the
    program with the example planted (the prefilter on, as in a real run)."""
    if not compiles(program):
        return program, []  # hypothesmith aims at programs that compile; skip the odd one out
    if planting is None:
        return program, check_source(program, prefilter=False)
    snippet, choice, whole = planting
    sites = insertion_sites(program)
    if not sites:
        return program, check_source(program, prefilter=False)
    site = sites[choice % len(sites)]
    imports, rest = ("", snippet.source) if whole else split_imports(snippet.source)
    text = plant(program, site, rest)
    if imports and compiles(text):
        text = plant(text, _top_of_file(text), imports)
    if not compiles(text):
        return program, check_source(program, prefilter=False)
    return text, check_source(text)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--minutes", type=float, default=10.0, help="how long to run (default 10)")
    parser.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    parser.add_argument("--save", type=Path, default=Path(tempfile.gettempdir()) / "torchlint-fuzz",
                        help="folder for the reduced failing programs")
    parser.add_argument("--cli-every", type=int, default=50, help="run the CLI on every Nth mutant (0: never)")
    parser.add_argument("--generated-share", type=float, default=0.3,
                        help="share of the time given to hypothesmith programs (default 0.3)")
    args = parser.parse_args(argv)
    warnings.filterwarnings("ignore", category=SyntaxWarning)  # hypothesmith compiles odd programs
    started = time.monotonic()
    total = args.minutes * 60
    run = Run(args.save)
    rules = all_rules()
    print(f"fuzzing {len(rules)} rules, {len(invalid_snippets())} INVALID examples, "
          f"{len(training_scripts())} training scripts and {len(library_files())} torch files, "
          f"seed {args.seed}, {args.minutes:g} minutes", flush=True)
    fuzz_mutants(run, random.Random(args.seed), started + total * (1 - args.generated_share), args.cli_every)
    fuzz_generated(run, args.seed, started + total)
    elapsed = time.monotonic() - started
    print(f"\n{sum(run.cases.values())} cases in {elapsed:.0f} s: "
          + ", ".join(f"{count} {source}" for source, count in sorted(run.cases.items())))
    print(f"{len(run.failures)} failures" + (f" (saved in {args.save})" if run.failures else ""))
    for source, description, failures, _text in run.failures:
        print(f"  [{source}] {description}: " + "; ".join(sorted({f.kind for f in failures})))
    return 1 if run.failures else 0


if __name__ == "__main__":
    sys.exit(main())
