"""Progress for long runs: shown on a terminal (stderr), silent when piped."""

from __future__ import annotations

import sys
import time
from typing import IO


class Progress:
    def __init__(
        self,
        label: str,
        total: int | None = None,
        stream: IO[str] | None = None,
        enabled: bool | None = None,
    ) -> None:
        self.stream = stream or sys.stderr
        self.enabled = self.stream.isatty() if enabled is None else enabled
        self.label, self.total, self.done = label, total, 0
        self._last = 0.0

    def advance(self, n: int = 1) -> None:
        self.done += n
        if not self.enabled:
            return
        now = time.monotonic()
        if now - self._last < 0.1:
            return
        self._last = now
        of = f"/{self.total}" if self.total else ""
        self.stream.write(f"\r{self.label}: {self.done}{of}"[:79])
        self.stream.flush()

    def close(self) -> None:
        if self.enabled:
            self.stream.write("\r" + " " * 79 + "\r")
            self.stream.flush()
