"""What the project index names: a project class, a project function, what a dotted name refers to."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class ProjectClass:
    path: str
    name: str
    display: str  # pkg.models.Net


@dataclass(frozen=True)
class ProjectFunction:
    path: str
    key: str  # "build", "Trainer.fit"
    display: str


@dataclass(frozen=True)
class Symbol:
    """What a dotted name refers to: a project module, class, function or module-level name, or
    something outside the project (by its qualified name)."""

    what: str  # "module" | "class" | "function" | "name" | "external"
    path: str = ""
    name: str = ""
    qualified: str = ""
