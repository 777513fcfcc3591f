"""`torchlint verify`: run each rule's fixture program before and after torchlint's own fix and
check what the fixture's contract says must stay equal and what must change.

Needs torch (the `[verify]` extra); nothing here is imported by `torchlint check`.
"""
