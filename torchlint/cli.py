"""The command line: `torchlint check`, `torchlint rule CODE`, `torchlint rules`.

Exit codes: 0 nothing left to report, 1 findings remain (or `--diff` shows changes),
2 a usage, configuration or internal error.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
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
    type=click.Choice(["full", "concise", "json", "sarif", "github"]),
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
def check(paths, fix, unsafe_fixes, diff, select, ignore, extend_select, preview, output_format, statistics,
          show_fixes, exit_zero, config_path, target_torch, stdin_filename, force_exclude, jobs, no_cache,
          cache_dir, verbose, add_noqa, write_baseline, baseline_path) -> None:
    """Lint PATHS (default: the current folder); `-` reads standard input."""
    from torchlint.config import CliOverrides, ConfigError, ConfigResolver, parse_torch_version
    from torchlint.selection import parse_selector_list

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
            write_baseline, baseline_path,
        )
        _run_check(
            list(paths) or ["."], resolver, fix, diff, output_format, statistics, show_fixes,
            exit_zero, stdin_filename, force_exclude, options,
        )
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
        discovery = Discovery(resolver, force_exclude)
        files, missing = discovery.files(paths)
        if missing:
            _fail(f"no such file or directory: {missing[0]}")
        outcomes.extend(_skipped_by_discovery(discovery.skipped))
        use_projects(build_run_projects(files, resolver, options.jobs, _cache_folder(options), _top_folder(paths)))
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
            default_settings.unsafe_fixes, stdin_fixed, options.write_baseline, baseline)


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
            stdin_fixed, write_baseline=None, baseline=None) -> None:
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
        applied={outcome.display: outcome.applied for outcome in outcomes if outcome.applied},
        unsafe_fixes=unsafe_fixes,
        fix_mode=fix,
        show_fixes=show_fixes,
        root_finder=_repository_root,  # a git subprocess, so only when a reporter asks (SARIF)
        skipped=sum(1 for outcome in outcomes if outcome.skipped),
        errors=sum(len(outcome.internal_errors) + len(outcome.errors) for outcome in outcomes),
    )
    if write_baseline is not None:
        from torchlint.baseline import BaselineError, write_baseline as write

        try:
            count = write(write_baseline, diagnostics, report.source_of)
        except BaselineError as error:
            _fail(str(error))
        click.echo(f"Wrote {count} finding{'' if count == 1 else 's'} to {write_baseline}.", err=True)
        sys.exit(EXIT_ERROR if internal_error else EXIT_CLEAN)
    if baseline is not None:
        from torchlint.baseline import BaselineError, load_baseline, new_findings

        try:
            entries, folder = load_baseline(baseline), baseline.absolute().parent
            report.diagnostics = diagnostics = new_findings(diagnostics, entries, report.source_of, folder)
        except BaselineError as error:
            _fail(str(error))
    if stdin_fixed is not None:
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
    sys.exit(EXIT_FINDINGS if diagnostics and not exit_zero else EXIT_CLEAN)


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
    """The folder that holds every path named: a project's root when no marker file says otherwise."""
    folders = [str(Path(p).resolve() if Path(p).is_dir() else Path(p).resolve().parent) for p in paths]
    try:
        return Path(os.path.commonpath(folders)) if folders else None
    except ValueError:
        return None


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
    from rich.table import Table

    table = Table(box=None, header_style="bold")
    for column in ("code", "name", "state", "default", "fix", "summary"):
        table.add_column(column)
    for rule in rules:
        default = "on" if rule.default_enabled else "off"
        table.add_row(rule.code, rule.name, rule.state(), default, rule.fix_label(), rule.summary)
    console = Console(highlight=False)
    if not console.is_terminal:
        console.width = 200  # a pipe or file gets whole rows, not rows wrapped at 80 columns
    console.print(table)


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
