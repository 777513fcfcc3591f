"""torchlint: a linter and codemod for PyTorch code.

Importing this package must stay light: it never imports torch, and it defers libcst, click and
rich to the modules that need them.
"""

__version__ = "0.1.0"
