"""The one exception family for input the core cannot understand."""

from __future__ import annotations


class BoundaryInputError(ValueError):
    """The hook payload (or a config) cannot be understood; the shell turns it into a verdict."""


class PayloadError(BoundaryInputError):
    """The hook's stdin is not a usable hook payload."""
