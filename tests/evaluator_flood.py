"""Resource attacks on the resident evaluator, shared by tests/test_evaluator_attacks.py and the
attack suite (tests/attacks/test_p05_resources.py): its resident memory, and a request that
announces more bytes than the evaluator accepts."""

from __future__ import annotations

import socket
import time
from pathlib import Path


def rss_kib(pid: int) -> int:
    """The process's resident memory (VmRSS) in KiB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise AssertionError("no VmRSS")


def flood(sock: Path, head: bytes, body_bytes: int) -> float:
    """Announce a payload of ``body_bytes`` after ``head`` and send it; the seconds until the
    evaluator hung up. It must never answer."""
    started = time.monotonic()
    conn = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    conn.settimeout(30)
    try:
        conn.connect(str(sock))
        conn.sendall(head + b"%d:" % body_bytes)
        chunk = b"x" * (1 << 20)
        sent = 0
        while sent < body_bytes:
            conn.sendall(chunk)
            sent += len(chunk)
        conn.shutdown(socket.SHUT_WR)
        assert conn.recv(1 << 16) == b""  # never an answer
    except OSError:
        pass  # refused: reset while sending
    finally:
        conn.close()
    return time.monotonic() - started
