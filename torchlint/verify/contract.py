"""A fixture's contract (`contract.toml`): which runs to make, what must stay equal between
them, and what each run must show.

```toml
description = "what the fixture proves"
devices = ["cpu", "cuda"]           # where it applies (default: both)
target-torch = "2.5"                # optional: the torch version the fixer targets (`--target-torch`)
requires = ["torchvision"]          # optional: modules the programs import; missing: the case is skipped

[runs.before]                       # default runs: before and after, one process each
program = "before"                  # "before": the fixture as written; "after": torchlint's fix
processes = 1                       # > 1: launched with torchrun
env = { KEY = "value" }

[[equal]]                           # must agree between two runs
runs = ["before", "after"]          # the default
observables = ["output", "grads"]
tolerance = 0.0                     # largest absolute difference allowed (default: exact)
devices = ["cpu"]                   # optional: only on these devices

[[expect]]                          # the difference the fix makes, as values a run records
run = "after"
values = { hook_calls = 1 }
devices = ["cpu"]                   # optional
```
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from pathlib import Path

DEVICES = ("cpu", "cuda")
_PROGRAMS = ("before", "after")


class ContractError(ValueError):
    pass


@dataclass(frozen=True)
class Run:
    name: str
    program: str = "before"
    processes: int = 1
    env: dict[str, str] = field(default_factory=dict)
    devices: tuple[str, ...] = DEVICES


@dataclass(frozen=True)
class Equal:
    runs: tuple[str, str]
    observables: tuple[str, ...]
    tolerance: float = 0.0
    devices: tuple[str, ...] = DEVICES


@dataclass(frozen=True)
class Expect:
    run: str
    values: dict
    devices: tuple[str, ...] = DEVICES


@dataclass(frozen=True)
class Contract:
    description: str
    devices: tuple[str, ...]
    runs: dict[str, Run]
    equal: tuple[Equal, ...]
    expect: tuple[Expect, ...]
    target_torch: tuple[int, ...] | None = None
    requires: tuple[str, ...] = ()

    def runs_on(self, device: str) -> list[Run]:
        return [run for run in self.runs.values() if device in run.devices]


def _devices(table: dict, where: str, default=DEVICES) -> tuple[str, ...]:
    devices = tuple(table.get("devices", default))
    unknown = set(devices) - set(DEVICES)
    if unknown:
        raise ContractError(f"{where}: unknown device {sorted(unknown)[0]!r}")
    return devices


def load_contract(path: Path) -> Contract:
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as error:
        raise ContractError(f"{path}: {error}") from None
    devices = _devices(data, str(path))
    runs_table = data.get("runs") or {"before": {"program": "before"}, "after": {"program": "after"}}
    runs = {}
    for name, table in runs_table.items():
        program = table.get("program", "before")
        if program not in _PROGRAMS:
            raise ContractError(f"{path}: run {name!r} has program {program!r}, not before/after")
        runs[name] = Run(
            name, program, int(table.get("processes", 1)), dict(table.get("env", {})),
            _devices(table, f"{path} run {name}", devices),
        )
    equal = []
    for table in data.get("equal", []):
        pair = tuple(table.get("runs", ("before", "after")))
        if len(pair) != 2 or any(run not in runs for run in pair):
            raise ContractError(f"{path}: [[equal]] names runs {list(pair)}, which are not two defined runs")
        equal.append(Equal(pair, tuple(table["observables"]), float(table.get("tolerance", 0.0)),
                           _devices(table, f"{path} [[equal]]", devices)))
    expect = []
    for table in data.get("expect", []):
        if table.get("run") not in runs:
            raise ContractError(f"{path}: [[expect]] names run {table.get('run')!r}, which is not defined")
        expect.append(Expect(table["run"], dict(table["values"]), _devices(table, f"{path} [[expect]]", devices)))
    if not equal and not expect:
        raise ContractError(f"{path}: a contract needs at least one [[equal]] or [[expect]]")
    target = data.get("target-torch")
    if target is not None and not isinstance(target, str):
        raise ContractError(f"{path}: target-torch must be a string such as \"2.5\"")
    target_torch = tuple(int(part) for part in target.split(".")) if target else None
    requires = data.get("requires", [])
    if not isinstance(requires, list) or not all(isinstance(name, str) for name in requires):
        raise ContractError(f"{path}: requires must be a list of module names")
    return Contract(str(data.get("description", "")), devices, runs, tuple(equal), tuple(expect), target_torch,
                    tuple(requires))
