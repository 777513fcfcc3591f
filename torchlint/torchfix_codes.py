"""TorchFix's codes as aliases of torchlint's, accepted wherever a code is: `# noqa: TOR102`,
`--select`/`--ignore`, `select`/`ignore`/`per-file-ignores` (docs/torchfix-migration.md)."""

from __future__ import annotations

# TorchFix code -> the torchlint rule that reports what it reported.
TORCHFIX_ALIASES: dict[str, str] = {
    "TOR001": "TL301",  # use of removed function
    "TOR002": "TL729",  # require_grad typo
    "TOR003": "TL303",  # checkpoint without use_reentrant
    "TOR004": "TL301",  # import of removed function
    "TOR101": "TL302",  # use of deprecated function
    "TOR102": "TL201",  # torch.load without weights_only
    "TOR103": "TL302",  # import of deprecated function
    "TOR104": "TL304",  # non-public function with a public alias
    "TOR105": "TL304",  # import of such a function
    "TOR106": "TL501",  # log(1 + x)
    "TOR107": "TL502",  # exp(x) - 1
    "TOR108": "TL503",  # log(sum(exp(x)))
    "TOR201": "TL305",  # torchvision pretrained=
    "TOR202": "TL306",  # transforms.v2.ToTensor
    "TOR401": "TL401",  # DataLoader without workers
    "TOR402": "TL402",  # zero_grad(set_to_none=False)
}
# TorchFix codes with no torchlint counterpart, on purpose: selecting or ignoring them does nothing.
TORCHFIX_WITHOUT_COUNTERPART = frozenset({"TOR203", "TOR901"})


def is_torchfix_selector(selector: str) -> bool:
    return selector.upper().startswith("TOR")


def torchfix_codes(selector: str) -> set[str] | None:
    """The torchlint codes a TorchFix code or prefix (`TOR102`, `TOR1`, `TOR`) names; None when it
    names no TorchFix code at all (an error for the caller to report)."""
    selector = selector.strip().upper()
    matching = [code for code in (*TORCHFIX_ALIASES, *TORCHFIX_WITHOUT_COUNTERPART) if code.startswith(selector)]
    if not matching:
        return None
    return {TORCHFIX_ALIASES[code] for code in matching if code in TORCHFIX_ALIASES}


def with_aliases(codes: frozenset[str]) -> frozenset[str]:
    """A `# noqa` code list with the torchlint codes its TorchFix codes stand for added."""
    if not any(code.startswith("TOR") for code in codes):
        return codes
    return codes | {TORCHFIX_ALIASES[code] for code in codes if code in TORCHFIX_ALIASES}
