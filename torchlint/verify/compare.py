"""How far apart two recorded observables are: numbers by absolute difference, everything else
(booleans, strings, shapes of nested lists) equal or infinitely far."""

from __future__ import annotations

import math

INFINITE = math.inf


def largest_difference(a, b) -> float:
    if isinstance(a, bool) or isinstance(b, bool):
        return 0.0 if a is b or a == b and type(a) is type(b) else INFINITE
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        if math.isnan(a) or math.isnan(b):
            return 0.0 if math.isnan(a) and math.isnan(b) else INFINITE
        return abs(a - b)
    if isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b):
            return INFINITE
        return max((largest_difference(x, y) for x, y in zip(a, b)), default=0.0)
    if isinstance(a, dict) and isinstance(b, dict):
        if a.keys() != b.keys():
            return INFINITE
        return max((largest_difference(a[key], b[key]) for key in a), default=0.0)
    return 0.0 if a == b else INFINITE


def describe(value, limit: int = 60) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."
