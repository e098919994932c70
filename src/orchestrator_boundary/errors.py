"""The one exception family for input the core cannot understand."""

from __future__ import annotations

TYPE_CHECKING = False  # typing.TYPE_CHECKING, read by mypy
if TYPE_CHECKING:
    from typing import Never


class BoundaryInputError(ValueError):
    """The hook payload (or a config) cannot be understood; the shell turns it into a verdict."""


class PayloadError(BoundaryInputError):
    """The hook's stdin is not a usable hook payload."""


class PayloadTooDeep(PayloadError):
    """JSON nested deeper than the parser goes (~1,000 levels). Not garbage: Claude Code sent
    it, from a tool call a model made (an MCP tool takes any shape), and what cannot be read
    could name a protected file. So it is blocked in every phase but ``off``, as TAMPER is."""


class ProjectGone(BoundaryInputError):
    """``CLAUDE_PROJECT_DIR`` names no folder any more: the project was moved or removed during
    the session, its config with it. Never judged as an unconfigured project (ADR 0063)."""


def assert_never(value: Never) -> Never:
    """The end of a ``match`` on an enum: mypy rejects the call when a member is not handled
    (``typing.assert_never``, which a hook process does not import, ADR 0042)."""
    raise AssertionError(f"unhandled value: {value!r}")
