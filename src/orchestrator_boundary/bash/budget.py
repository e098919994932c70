"""A deterministic work budget: the analysis counts steps (nodes, characters), never seconds."""

from __future__ import annotations

MAX_INPUT_BYTES = 256 * 1024  # larger text is unparseable outright
MAX_STEPS = 400_000  # nodes visited + scanned characters / 64, per analysis
MAX_NESTING = 100  # statement nesting (subshells, substitutions, bodies) before giving up
MAX_UNWRAP = 8  # nested `bash -c` / `eval` / heredoc-fed shells


class BudgetExhausted(Exception):
    """Raised when the analysis would need more work than the budget allows."""


class Budget:
    __slots__ = ("limit", "steps")

    def __init__(self, limit: int = MAX_STEPS) -> None:
        self.limit = limit
        self.steps = 0

    def spend(self, n: int = 1) -> None:
        self.steps += n
        if self.steps > self.limit:
            raise BudgetExhausted("budget exhausted")

    def spend_text(self, text: str) -> None:
        """Charge a linear scan over ``text``."""
        self.spend(1 + len(text) // 64)
