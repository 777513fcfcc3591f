"""The project index: what the repository's other modules define, so that a model imported from
models.py, built by a factory or passed to `train(model, ...)` from another file has a kind.

- summary.py: one module's summary (classes, functions, module-level names, calls), built with
  CPython's `ast` and plain data (picklable, cached by content).
- roots.py: a file's project root and how Python would resolve its imports.
- index.py: the index over every module of a project, and the kinds of what they define.
"""
