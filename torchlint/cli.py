"""The command line: `torchlint check`, `torchlint rule CODE`, `torchlint rules`.

Exit codes: 0 nothing left to report, 1 findings remain (or `--diff` shows changes),
2 a usage, configuration or internal error.
"""

from __future__ import annotations

import gc
import json
import os
import subprocess
import sys
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import click

from torchlint import __version__

EXIT_CLEAN, EXIT_FINDINGS, EXIT_ERROR = 0, 1, 2


def _fail(message: str) -> None:
    click.echo(f"torchlint: error: {message}", err=True)
    sys.exit(EXIT_ERROR)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="torchlint")
def main() -> None:
    """A linter and codemod for PyTorch code."""


@main.command()
@click.argument("paths", nargs=-1)
@click.option("--fix", is_flag=True, help="Apply safe fixes.")
@click.option("--unsafe-fixes/--no-unsafe-fixes", default=None, help="Also apply (and offer) unsafe fixes.")
@click.option("--diff", is_flag=True, help="Print the diff the fixes would make; write nothing.")
@click.option("--select", help="Rule codes or prefixes to enable (comma-separated), or ALL.")
@click.option("--ignore", help="Rule codes or prefixes to disable.")
@click.option("--extend-select", help="Rule codes or prefixes to enable on top of the selection.")
@click.option("--preview/--no-preview", default=None, help="Also run rules in preview (selected or on by default).")
@click.option(
    "--output-format",
    type=click.Choice(["full", "concise", "json", "sarif", "github", "junit", "gitlab"]),
    default="full",
    show_default=True,
)
@click.option("--statistics", is_flag=True, help="Print a count per rule instead of each finding.")
@click.option("--show-fixes", is_flag=True, help="List the fixes applied.")
@click.option("--exit-zero", is_flag=True, help="Exit 0 even when findings remain.")
@click.option("--config", "config_path", type=click.Path(path_type=Path), help="Use this pyproject.toml.")
@click.option("--target-torch", help="The torch version the code targets, e.g. 2.6.")
@click.option("--stdin-filename", help="The file name to report (and match config against) for `-`.")
@click.option("--force-exclude", is_flag=True, help="Apply excludes to paths given explicitly too.")
@click.option("--jobs", "-j", type=click.IntRange(min=1), default=None, help="Processes (default: all cores).")
@click.option("--no-cache", is_flag=True, help="Neither read nor write the cache.")
@click.option("--cache-dir", help="Where the cache lives (default .torchlint_cache, or TORCHLINT_CACHE_DIR).")
@click.option("--verbose", "-v", is_flag=True, help="Say how many files came from the cache.")
@click.option("--add-noqa", is_flag=True, help="Write `# noqa: CODE` on every current finding's line.")
@click.option("--write-baseline", type=click.Path(path_type=Path), help="Record today's findings in FILE.")
@click.option("--baseline", "baseline_path", type=click.Path(path_type=Path), help="Report only findings not in FILE.")
@click.option("--show-settings", is_flag=True, help="Print the settings the first file resolves to, and where each came from.")
@click.option("--show-files", is_flag=True, help="Print the files that would be linted, and exit.")
@click.option("--fix-only", is_flag=True, help="Apply fixes; do not report or fail on what is left. Implies --fix.")
@click.option("--exit-non-zero-on-fix", is_flag=True, help="Exit 1 when a fix was applied, even if nothing is left.")
@click.option("--watch", "-w", is_flag=True, help="Lint again whenever a file changes.")
def check(paths, fix, unsafe_fixes, diff, select, ignore, extend_select, preview, output_format, statistics,
          show_fixes, exit_zero, config_path, target_torch, stdin_filename, force_exclude, jobs, no_cache,
          cache_dir, verbose, add_noqa, write_baseline, baseline_path, show_settings, show_files, fix_only,
          exit_non_zero_on_fix, watch) -> None:
    """Lint PATHS (default: the current folder); `-` reads standard input."""
    from torchlint.config import CliOverrides, ConfigError, ConfigResolver, parse_torch_version
    from torchlint.selection import parse_selector_list

    fix = fix or fix_only
    try:
        if select is not None and not parse_selector_list(select):
            _fail("`--select` needs at least one rule code or prefix (or ALL)")
        overrides = CliOverrides(
            select=parse_selector_list(select),
            extend_select=parse_selector_list(extend_select) or [],
            ignore=parse_selector_list(ignore) or [],
            unsafe_fixes=unsafe_fixes,
            target_torch=parse_torch_version(target_torch, "--target-torch") if target_torch else None,
            preview=preview,
        )
        resolver = ConfigResolver(overrides, config_path)
        options = RunOptions(
            jobs or os.cpu_count() or 1, None if no_cache else cache_dir or "", verbose, add_noqa,
            write_baseline, baseline_path, fix_only, exit_non_zero_on_fix,
        )
        paths = list(paths) or ["."]
        if show_settings or show_files:
            _show(paths, resolver, force_exclude, stdin_filename, show_settings, output_format)

        def run(current=resolver) -> None:
            _run_check(paths, current, fix, diff, output_format, statistics, show_fixes,
                       exit_zero, stdin_filename, force_exclude, options)

        if watch:
            _watch(paths, run, lambda: ConfigResolver(overrides, config_path))
        run()
    except ConfigError as error:
        _fail(str(error))
    except (SystemExit, KeyboardInterrupt):
        raise
    except Exception as error:  # a bug in torchlint: exit 2 (1 would read as "findings remain")
        click.echo(f"torchlint: internal error: {type(error).__name__}: {error}", err=True)
        sys.exit(EXIT_ERROR)


@dataclass(frozen=True)
class RunOptions:
    jobs: int
    cache_dir: str | None  # None: no cache; "": the default folder
    verbose: bool
    add_noqa: bool = False
    write_baseline: Path | None = None
    baseline: Path | None = None
    fix_only: bool = False
    exit_non_zero_on_fix: bool = False


def _run_check(paths, resolver, fix, diff, output_format, statistics, show_fixes, exit_zero,
               stdin_filename, force_exclude, options: RunOptions) -> None:
    from torchlint.discovery import Discovery, SourcePath
    from torchlint.runner import Mode, build_run_projects, process_files, process_stdin, use_projects

    default_settings = resolver.default()  # validates the configuration before any work
    outcomes = []
    stdin_fixed = None
    if paths == ["-"]:
        display = stdin_filename or "-"
        settings = resolver.for_file(Path(stdin_filename).resolve()) if stdin_filename else default_settings
        if stdin_filename:  # the file's project, read from disk, sees the text given on stdin
            named = [SourcePath(display, Path(stdin_filename).resolve())]
            use_projects(build_run_projects(named, resolver, 1, _cache_folder(options), None))
        mode = Mode(fix, diff, settings.unsafe_fixes)
        outcome, echoed = process_stdin(sys.stdin.buffer.read(), display, settings, mode)
        outcomes.append(outcome)
        if fix and not diff:
            stdin_fixed = echoed
    else:
        discovery = Discovery(resolver, force_exclude, _cache_folder(options))
        files, missing = discovery.files(paths)
        if missing:
            _fail(f"no such file or directory: {missing[0]}")
        outcomes.extend(_skipped_by_discovery(discovery.skipped))
        started = time.perf_counter()
        projects = build_run_projects(files, resolver, options.jobs, _cache_folder(options), _top_folder(paths),
                                      discovery.walked)
        use_projects(projects)
        # The index lives until the run ends: the collector need not scan it again, nor touch
        # (and so copy) its pages in the forked workers.
        gc.freeze()
        if options.verbose:
            modules = sum(len(index.summaries) for index in projects.indexes.values())
            click.echo(f"project index: {modules} modules in {time.perf_counter() - started:.2f} s", err=True)
        if options.add_noqa:
            _print_problems(outcomes)
            _add_noqa(files, resolver)
        result_cache = _open_cache(options)
        outcomes += process_files(
            files, resolver, lambda settings: Mode(fix, diff, settings.unsafe_fixes), options.jobs, result_cache
        )
        if result_cache is not None:
            result_cache.save()
            if options.verbose:
                click.echo(f"cache: {result_cache.hits} hits, {result_cache.misses} misses", err=True)
    if options.verbose:
        _echo_target_torch(resolver)
    baseline = options.baseline or default_settings.baseline
    _finish(outcomes, output_format, statistics, show_fixes, exit_zero, fix, diff,
            default_settings.unsafe_fixes, stdin_fixed, options.write_baseline, baseline, options)


def _echo_target_torch(resolver) -> None:
    """`--verbose`: which torch version the rules judged against, and where it came from."""
    for settings in resolver.used_settings():
        version = ".".join(map(str, settings.target_torch))
        click.echo(f"target torch {version} for {settings.root}: {settings.target_torch_source}", err=True)


def _skipped_by_discovery(skipped: list[tuple[str, str]]) -> list:
    from torchlint.runner import FileOutcome

    unique = dict(skipped)  # a path named and also met in a walk is reported once
    return [FileOutcome(display, skipped=reason) for display, reason in sorted(unique.items())]


def _add_noqa(files, resolver) -> None:
    from torchlint.runner import add_noqa_to_file

    total, failed = 0, False
    for source in files:
        added, failure = add_noqa_to_file(source.display, source.path, resolver.for_file(source.path))
        total += added
        if failure:
            failed = True
            click.echo(f"torchlint: error: {failure}", err=True)
    click.echo(f"Added {total} noqa comment{'' if total == 1 else 's'}.", err=True)
    sys.exit(EXIT_ERROR if failed else EXIT_CLEAN)


def _finish(outcomes, output_format, statistics, show_fixes, exit_zero, fix, diff, unsafe_fixes,
            stdin_fixed, write_baseline=None, baseline=None, options: RunOptions | None = None) -> None:
    from torchlint.reporters import RunReport, plural, render

    _make_output_robust()
    _print_problems(outcomes)
    internal_error = any(outcome.internal_errors or outcome.errors for outcome in outcomes)
    if diff:
        diffs = [outcome.diff for outcome in outcomes if outcome.diff]
        sys.stdout.write("".join(diffs))
        fixes = sum(sum(outcome.applied.values()) for outcome in outcomes)
        if fixes:
            click.echo(f"Would fix {plural(fixes, 'problem')}.", err=True)
        sys.exit(EXIT_ERROR if internal_error else EXIT_FINDINGS if diffs else EXIT_CLEAN)
    diagnostics = sorted((d for outcome in outcomes for d in outcome.diagnostics), key=lambda d: d.sort_key())
    report = RunReport(
        diagnostics=diagnostics,
        sources={outcome.display: outcome.source for outcome in outcomes},
        cell_sources={outcome.display: outcome.cell_sources for outcome in outcomes if outcome.cell_sources},
        cell_lines={outcome.display: outcome.cell_lines for outcome in outcomes if outcome.cell_lines},
        applied={outcome.display: outcome.applied for outcome in outcomes if outcome.applied},
        unsafe_fixes=unsafe_fixes,
        fix_mode=fix,
        show_fixes=show_fixes,
        root_finder=_repository_root,  # a git subprocess, so only when a reporter asks (SARIF)
        skipped=sum(1 for outcome in outcomes if outcome.skipped),
        errors=sum(len(outcome.internal_errors) + len(outcome.errors) for outcome in outcomes),
    )
    if write_baseline is not None:
        recorded = diagnostics
        if options is not None and options.baseline is not None:
            # `--baseline F --write-baseline F`: prune only; keep what F still accounts for, add nothing
            fresh = {id(d) for d in _apply_baseline(baseline, diagnostics, report.source_of, quiet=True)}
            recorded = [d for d in diagnostics if id(d) not in fresh]
        _write_baseline(write_baseline, recorded, report.source_of)
        sys.exit(EXIT_ERROR if internal_error else EXIT_CLEAN)
    if baseline is not None:
        report.diagnostics = diagnostics = _apply_baseline(baseline, diagnostics, report.source_of)
    if options is not None and options.fix_only:
        report.diagnostics = diagnostics = []  # what is left is neither reported nor a failure
    if options is not None and options.fix_only and stdin_fixed is None and output_format in ("full", "concise"):
        _print_fix_only(report)
    elif stdin_fixed is not None:
        sys.stdout.flush()
        sys.stdout.buffer.write(stdin_fixed)  # the bytes as they came, or fixed in their encoding
        sys.stdout.buffer.flush()
        render("concise" if output_format == "full" else output_format, report, sys.stderr)
    elif statistics:
        _print_statistics(diagnostics, unsafe_fixes, output_format)
    else:
        render(output_format, report, sys.stdout)
    if internal_error:
        sys.exit(EXIT_ERROR)
    if options is not None and options.exit_non_zero_on_fix and report.fixed_count:
        sys.exit(EXIT_FINDINGS)
    sys.exit(EXIT_FINDINGS if diagnostics and not exit_zero else EXIT_CLEAN)


def _print_fix_only(report) -> None:
    """`--fix-only` as ruff words it: what was fixed, nothing about what is left."""
    from torchlint.reporters import applied_fixes_lines, plural
    from torchlint.rules.registry import all_rules

    if report.show_fixes:
        for line in applied_fixes_lines(report, {rule.code: rule.name for rule in all_rules()}):
            click.echo(line)
    click.echo(f"Fixed {plural(report.fixed_count, 'problem')}." if report.fixed_count else "No fixes applied.")


# ---- --show-settings, --show-files, --watch ------------------------------------------------------
def _show(paths, resolver, force_exclude, stdin_filename, show_settings: bool, output_format: str) -> None:
    """`--show-files`: the files a run would lint; `--show-settings`: the settings of the first of
    them (or of `--stdin-filename`), each with where it came from. Both exit 0."""
    from torchlint.discovery import Discovery
    from torchlint.settings_report import describe, render_text

    if paths == ["-"]:
        files = [Path(stdin_filename or "-")]
    else:
        found, missing = Discovery(resolver, force_exclude).files(paths)
        if missing:
            _fail(f"no such file or directory: {missing[0]}")
        files = [Path(source.display) for source in found]
    if not show_settings:
        for path in files:
            click.echo(path.as_posix())
        sys.exit(EXIT_CLEAN)
    if not files:
        _fail("no file to show the settings of")
    path = files[0]
    rows = describe(resolver, path.resolve())
    if output_format == "json":
        click.echo(json.dumps({"file": path.as_posix(), "settings": rows}, indent=2))
    else:
        click.echo(render_text(path.as_posix(), rows))
    sys.exit(EXIT_CLEAN)


WATCHED_SUFFIXES = (".py", ".pyi", ".ipynb", ".toml")


def _watch(paths, run, new_resolver) -> None:
    """Lint, then lint again after every change to a Python file, notebook or pyproject.toml under
    PATHS; Ctrl+C stops. Each run reads the configuration afresh."""
    try:
        from watchfiles import watch
    except ImportError:
        _fail("--watch needs the watchfiles package: pip install 'torchlint[watch]'")
    if paths == ["-"]:
        _fail("--watch cannot read standard input")
    _watch_round(run)
    folders = [p if Path(p).is_dir() else str(Path(p).parent or ".") for p in paths]
    try:
        for changes in watch(*folders, watch_filter=lambda _, path: path.endswith(WATCHED_SUFFIXES)):
            changed = sorted({os.path.relpath(path) for _, path in changes})
            click.echo(f"[{_now()}] {', '.join(changed)} changed; linting again.", err=True)
            _watch_round(run, new_resolver)
    except KeyboardInterrupt:
        pass
    sys.exit(EXIT_CLEAN)


def _watch_round(run, new_resolver=None) -> None:
    from torchlint.config import ConfigError

    try:
        run() if new_resolver is None else run(new_resolver())
    except ConfigError as error:  # a broken pyproject.toml mid-edit: say so and keep watching
        click.echo(f"torchlint: error: {error}", err=True)
    except SystemExit:
        pass
    sys.stdout.flush()
    click.echo(f"[{_now()}] Watching for file changes.", err=True)


def _now() -> str:

    return time.strftime("%H:%M:%S")


def _write_baseline(path: Path, diagnostics, source_of) -> None:
    """Record today's findings; entries of the baseline it replaces that match none are pruned."""
    from torchlint.baseline import BaselineError, load_baseline, match_baseline, write_baseline

    stale = 0
    if path.is_file():
        try:
            stale = match_baseline(diagnostics, load_baseline(path), source_of, path.absolute().parent)[1]
        except BaselineError:
            stale = 0  # an unreadable old baseline is simply replaced
    try:
        count = write_baseline(path, diagnostics, source_of)
    except BaselineError as error:
        _fail(str(error))
    pruned = f" (pruned {stale} that no longer match)" if stale else ""
    click.echo(f"Wrote {count} finding{'' if count == 1 else 's'} to {path}{pruned}.", err=True)


def _apply_baseline(path: Path, diagnostics, source_of, quiet: bool = False) -> list:
    """The findings the baseline does not account for; says how many entries match no finding."""
    from torchlint.baseline import BaselineError, load_baseline, match_baseline

    try:
        fresh, stale = match_baseline(diagnostics, load_baseline(path), source_of, path.absolute().parent)
    except BaselineError as error:
        _fail(str(error))
    if stale and not quiet:
        entries = f"{stale} baseline entr{'y' if stale == 1 else 'ies'}"
        prune = f"`--baseline {path} --write-baseline {path}` prunes them"
        click.echo(f"torchlint: {entries} in {path} no longer match any finding; {prune}.", err=True)
    return fresh


def _print_problems(outcomes) -> None:
    """On stderr, before the report: refused fixes, errors, internal errors, skipped files."""
    for outcome in outcomes:
        for failure in outcome.failures:
            click.echo(f"torchlint: error: {failure}", err=True)
        for message in outcome.errors:
            click.echo(f"torchlint: error: {message}", err=True)
        for error in outcome.internal_errors:
            where = f"in {error.code} on {error.path}" if error.code else f"on {error.path}"
            click.echo(f"torchlint: internal error {where}: {error.message}", err=True)
        if outcome.skipped:
            click.echo(f"torchlint: warning: skipped {outcome.display}: {outcome.skipped}", err=True)


def _top_folder(paths: list[str]) -> Path | None:
    """The folder that holds every path named: a project's root when no marker file says otherwise.
    None where they share only the filesystem's root (`/tmp/a /var/tmp/b`): that is no project,
    and each file's own folder is its root then."""
    folders = [str(Path(p).resolve() if Path(p).is_dir() else Path(p).resolve().parent) for p in paths]
    try:
        common = Path(os.path.commonpath(folders)) if folders else None
    except ValueError:
        return None  # (paths on different drives)
    return None if common is None or common == Path(common.anchor) else common


def _cache_folder(options: RunOptions) -> Path | None:
    if options.cache_dir is None:
        return None
    from torchlint.cache import cache_dir

    return cache_dir(options.cache_dir)


def _open_cache(options: RunOptions):
    if options.cache_dir is None:
        return None
    from torchlint.cache import ResultCache, cache_dir

    return ResultCache(cache_dir(options.cache_dir), "results")


def _make_output_robust() -> None:
    for stream in (sys.stdout, sys.stderr):
        if hasattr(stream, "reconfigure"):
            stream.reconfigure(errors="backslashreplace")


def _repository_root() -> Path:
    try:
        top = subprocess.run(
            ["git", "rev-parse", "--show-toplevel"], capture_output=True, text=True, check=True, timeout=10
        ).stdout.strip()
        return Path(top) if top else Path.cwd()
    except (OSError, subprocess.SubprocessError):
        return Path.cwd()


def _print_statistics(diagnostics, unsafe_fixes: bool, output_format: str) -> None:
    counts = Counter((d.code, d.name) for d in diagnostics)
    fixable = {d.code for d in diagnostics if d.fix and d.fix.is_enabled(unsafe_fixes)}
    rows = sorted(counts.items(), key=lambda item: (-item[1], item[0][0]))
    if output_format == "json":
        data = [{"code": code, "name": name, "count": count, "fixable": code in fixable} for (code, name), count in rows]
        click.echo(json.dumps(data, indent=2))
        return
    for (code, name), count in rows:
        marker = "[*]" if code in fixable else "[ ]"
        click.echo(f"{count:>5}\t{code}\t{marker} {name}")


@main.command()
@click.option("--cache-dir", help="The cache to remove (default .torchlint_cache, or TORCHLINT_CACHE_DIR).")
def clean(cache_dir) -> None:
    """Remove the cache."""
    from torchlint.cache import cache_dir as resolve, clean as remove

    directory = resolve(cache_dir)
    click.echo(f"Removed {directory}" if remove(directory) else f"No cache at {directory}")


@main.command()
@click.option("--device", type=click.Choice(["auto", "cpu", "cuda", "all"]), default="auto", show_default=True)
@click.option("--select", help="Only the fixtures of these rule codes (comma-separated).")
@click.option("--output-format", type=click.Choice(["full", "json"]), default="full", show_default=True)
@click.option("--jobs", type=click.IntRange(min=1), default=None, help="Fixtures verified at once.")
@click.option("--keep", type=click.Path(path_type=Path), help="Keep the programs, fixes and logs here.")
@click.option("--fixtures", "fixtures_root", type=click.Path(path_type=Path, exists=True, file_okay=False),
              hidden=True, help="Another fixture folder (for testing the verifier).")
def verify(device, select, output_format, jobs, keep, fixtures_root) -> None:
    """Run every rule's fixture before and after torchlint's fix, and check the fix's contract."""
    from torchlint.selection import SelectionError, expand, parse_selector_list
    from torchlint.verify import command

    try:
        devices = command.resolve_devices(device)
        codes = expand(parse_selector_list(select), "--select") if select else None
    except (command.VerifyUsageError, SelectionError) as error:
        _fail(str(error))
    root = fixtures_root or command.default_fixture_root()
    results = _run_verify(command, root, codes, devices, jobs or command.default_jobs(), keep, output_format)
    if output_format == "json":
        click.echo(json.dumps(command.report(results, devices), indent=2))
    else:
        command.print_table(results)
    sys.exit(EXIT_CLEAN if results and all(result.passed for result in results) else EXIT_FINDINGS)


def _run_verify(command, root, codes, devices, jobs, keep, output_format):
    from torchlint.verify.runner import discover

    total = len(discover(root, codes))
    if not sys.stdout.isatty() or output_format == "json":
        return command.run_all(root, codes, devices, jobs, keep, lambda fixture: None)
    from rich.progress import Progress

    with Progress(transient=True) as progress:
        task = progress.add_task("verifying fixtures", total=total)
        return command.run_all(
            root, codes, devices, jobs, keep,
            lambda fixture: progress.update(task, advance=1, description=f"{fixture.code}/{fixture.case}"),
        )


@main.command("rules")
@click.option("--output-format", type=click.Choice(["full", "json"]), default="full", show_default=True)
def list_rules(output_format: str) -> None:
    """List every rule: code, name, state (stable or preview), on by default, fix safety."""
    from torchlint.rules.registry import all_rules

    rules = all_rules()
    if output_format == "json":
        click.echo(json.dumps([_rule_metadata(rule) for rule in rules], indent=2))
        return
    from rich.console import Console

    console = Console(highlight=False)
    width = _listing_width(console)
    if width < WIDE_LISTING:
        click.echo(_narrow_rules_listing(rules, width))
        return
    from rich.table import Table

    table = Table(box=None, header_style="bold")
    for column in ("code", "name", "state", "default", "fix"):
        table.add_column(column, no_wrap=True)  # names are never cut; only summaries wrap
    table.add_column("summary")
    for rule in rules:
        default = "on" if rule.default_enabled else "off"
        table.add_row(rule.code, rule.name, rule.state(), default, rule.fix_label(), rule.summary)
    console.width = width
    console.print(table)


WIDE_LISTING = 110  # narrower than this, each summary goes on its own lines under its rule


def _listing_width(console) -> int:
    """COLUMNS when set, else the terminal's width; a pipe or file gets whole rows (200)."""
    columns = os.environ.get("COLUMNS", "")
    if columns.isdigit() and int(columns) > 0:
        return int(columns)
    return console.width if console.is_terminal else 200


def _narrow_rules_listing(rules, width: int) -> str:
    """Code, full name, state, default and fix on one line; the summary wrapped beneath it."""
    import textwrap

    name_width = max(len(rule.name) for rule in rules)
    row = f"{{:<5}}  {{:<{name_width}}}  {{:<7}}  {{:<7}}  {{}}"
    lines = [row.format("code", "name", "state", "default", "fix")]
    for rule in rules:
        default = "on" if rule.default_enabled else "off"
        lines.append(row.format(rule.code, rule.name, rule.state(), default, rule.fix_label()).rstrip())
        lines += textwrap.wrap(rule.summary, max(width, 40), initial_indent=" " * 7, subsequent_indent=" " * 7)
    return "\n".join(lines)


@main.command("server")
def server() -> None:
    """Run the language server on stdin/stdout (for editors; see the README)."""
    try:
        from torchlint.server import serve
    except ImportError as error:
        _fail(f"the language server needs pygls: pip install 'torchlint[server]' ({error})")
    serve()


@main.command("version")
def version() -> None:
    """Print torchlint's version."""
    click.echo(f"torchlint {__version__}")


@main.command("rule")
@click.argument("code")
@click.option("--output-format", type=click.Choice(["full", "json"]), default="full", show_default=True)
def show_rule(code: str, output_format: str) -> None:
    """Print the documentation of the rule CODE."""
    from torchlint.rules.registry import rule_by_code

    rule = rule_by_code(code)
    if rule is None:
        _fail(f"unknown rule code `{code}`; `torchlint rules` lists them")
    if output_format == "json":
        click.echo(json.dumps({**_rule_metadata(rule), "docs": rule.docs()}, indent=2))
        return
    click.echo(f"# {rule.code} {rule.name}\n")
    click.echo(f"{rule.summary}.\n")
    click.echo(
        f"Severity: {rule.severity} · State: {rule.state()}"
        f" · On by default: {'yes' if rule.default_enabled else 'no'}"
        f" · Fix: {rule.fix_label()}\n"
    )
    click.echo(rule.docs())


def _rule_metadata(rule) -> dict:
    return {
        "code": rule.code,
        "name": rule.name,
        "summary": rule.summary,
        "severity": rule.severity,
        "default_enabled": rule.default_enabled,
        "state": rule.state(),
        "fix": rule.fix_label(),
    }
