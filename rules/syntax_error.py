"""TL000 syntax-error: a file torchlint cannot read, decode or parse."""

from torchlint.rule import Rule
from torchlint.rules.registry import register


@register
class SyntaxErrorRule(Rule):
    """
    ## What it does
    Reports a file that cannot be read, decoded or parsed, with the path, line, column and the
    parser's reason.

    ## Why is this bad?
    A file that does not parse cannot be linted, so every other rule is silent on it. torchlint
    never modifies such a file, and the run exits with a non-zero code so that CI notices.

    ## Example
    ```python
    def train(model:
        pass
    ```

    ## Use instead
    ```python
    def train(model):
        pass
    ```

    One kind of file is still linted: code written for Python 3.6 or older that uses `async` or
    `await` as a name (`x.cuda(async=True)`, common in training scripts of that time). It is
    reported here, and the other rules report what they find in it as Python 3.6 would read it,
    without fixes.

    ## Fix safety
    There is no fix: the file is left exactly as it was. This finding is always reported and
    cannot be deselected or suppressed with `# noqa`.

    ## References
    - [Python's grammar](https://docs.python.org/3/reference/grammar.html)
    """

    code = "TL000"
    preview = False  # released
    name = "syntax-error"
    summary = "The file cannot be read, decoded or parsed"
    severity = "error"
    trigger_tokens = ()
    # Examples are not collected for TL000: the engine, not a visitor, reports it (see test_engine).
