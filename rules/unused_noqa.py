"""TL900 unused-noqa: a `# noqa: TLnnn` comment that suppresses nothing."""

from torchlint.rule import Invalid, Rule
from torchlint.rules.registry import register


@register
class UnusedNoqa(Rule):
    """
    ## What it does
    Reports `# noqa: TLnnn` comments whose torchlint codes hide no finding on their line, as
    ruff's RUF100 does for ruff's codes.

    Only the codes of rules that ran on the file are judged: a code deselected by `--select`,
    `ignore`, `per-file-ignores` or preview may be meant for another configuration, and is left
    alone. Other tools' codes (`# noqa: E501`) and a bare `# noqa` are never reported (a bare
    `# noqa` may be there for any tool), nor are file-level `# torchlint: noqa` comments.

    ## Why is this bad?
    A suppression that outlives its finding hides the next real finding on that line: once the
    code is fixed, the comment should go too.

    ## Example
    ```python
    out = model(x)  # noqa: TL005
    ```

    ## Use instead
    ```python
    out = model(x)
    ```

    ## Fix safety
    The fix is safe: it only edits a comment. It removes the unused codes and keeps the others
    (`# noqa: TL005, E501` becomes `# noqa: E501`); a comment left without codes is removed,
    keeping any explanation after it as a plain comment (`# noqa: TL005 legacy` becomes
    `# legacy`). `# noqa: TL900` on the line keeps the comment as it is.

    ## References
    - [ruff's RUF100](https://docs.astral.sh/ruff/rules/unused-noqa/)
    """

    code = "TL900"
    name = "unused-noqa"
    summary = "A `# noqa: TLnnn` comment that suppresses nothing"
    severity = "info"
    fix_safety = ("safe",)
    trigger_tokens = ("noqa", "NOQA", "Noqa")
    # No visitor: the engine judges the comments from the text and the findings they hid, so no
    # function body needs parsing for this rule.
    scope_tokens = ()
    # The engine reports it from the findings the other rules made (see suppression.unused_noqa);
    # the examples run with these rules beside it.
    example_rules = ("TL005",)

    valid = (
        "import torch.nn as nn\nmodel = nn.Linear(2, 2)\nout = model.forward(x)  # noqa: TL005\n",
        "import torch.nn as nn\nmodel = nn.Linear(2, 2)\nout = model.forward(x)  # noqa\n",
        "out = model(x)  # noqa: E501\n",
        "out = model(x)  # noqa: TL005, TL900\n",
        "# torchlint: noqa: TL005\nout = model(x)\n",
        "out = model(x)  # noqa: TL777\n",  # a code of a rule that did not run
        "text = '# noqa: TL005'\n",
    )
    invalid = (
        Invalid("out = model(x)  # noqa: TL005\n", "out = model(x)\n"),
        Invalid("out = model(x)  # noqa: TL005, E501\n", "out = model(x)  # noqa: E501\n"),
        Invalid("out = model(x)  # NOQA:TL005 legacy code\n", "out = model(x)  # legacy code\n"),
        Invalid("out = model(x)  # keep # noqa: TL005\n", "out = model(x)  # keep\n"),
        Invalid(
            "import torch.nn as nn\nmodel = nn.Linear(2, 2)\nout = model.forward(x)  # noqa: TL005, TL005\n"
            "y = model(x)  # noqa: TL005\n",
            "import torch.nn as nn\nmodel = nn.Linear(2, 2)\nout = model.forward(x)  # noqa: TL005, TL005\n"
            "y = model(x)\n",
        ),
        Invalid("def f():\n    # noqa: TL005\n    return 1\n", "def f():\n\n    return 1\n"),
    )
