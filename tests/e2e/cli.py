"""Find (installing when missing) the Claude Code CLI pinned in tests/e2e/package.json.

The version is pinned in exactly one place, ``tests/e2e/package.json`` (and its lock file).
The install step is ``npm ci --prefix tests/e2e`` run from the repository root; CI runs the
same command. Run this module to install and print the binary's path:
``python tests/e2e/cli.py``.
"""

from __future__ import annotations

import fcntl
import json
import shutil
import subprocess
import sys
from pathlib import Path

E2E_DIR = Path(__file__).resolve().parent
PACKAGE = "@anthropic-ai/claude-code"
INSTALL_TIMEOUT = 600


class CLIUnavailable(RuntimeError):
    """The CLI is not installed and could not be installed."""


def pinned_version() -> str:
    """The exact CLI version the end-to-end tests drive, read from package.json."""
    data = json.loads((E2E_DIR / "package.json").read_text(encoding="utf-8"))
    return str(data["dependencies"][PACKAGE])


def install_command() -> list[str]:
    npm = shutil.which("npm")
    if npm is None:
        raise CLIUnavailable(
            "npm is not on PATH: the end-to-end tests need Node.js and npm to install "
            f"{PACKAGE}@{pinned_version()} (install nodejs and npm, e.g. `apt-get install "
            "nodejs npm`, then run `npm ci --prefix tests/e2e`)."
        )
    return [npm, "ci", "--prefix", str(E2E_DIR), "--no-audit", "--no-fund"]


def _binary() -> Path:
    """The npm-linked ``claude``. Its postinstall copies the platform's native binary over a
    placeholder; should an npm that refuses install scripts leave the placeholder, the native
    binary of the platform package is used directly."""
    linked = E2E_DIR / "node_modules" / ".bin" / "claude"
    if linked.exists() and _installed_version(linked) is not None:
        return linked
    scope = E2E_DIR / "node_modules" / "@anthropic-ai"
    for native in sorted(scope.glob("claude-code-*/claude")) if scope.is_dir() else []:
        if _installed_version(native) is not None:
            return native
    return linked


def _installed_version(binary: Path) -> str | None:
    try:
        out = subprocess.run(
            [str(binary), "--version"], capture_output=True, text=True, timeout=60, check=False
        ).stdout
    except (OSError, subprocess.TimeoutExpired):
        return None
    return out.split()[0] if out.split() else None


def claude_binary(*, install: bool = True) -> Path:
    """Path of the pinned ``claude`` binary; runs ``npm ci`` first when it is missing or
    is not the pinned version. Raises CLIUnavailable with a clear message otherwise."""
    want = pinned_version()
    binary = _binary()
    if binary.exists() and _installed_version(binary) == want:
        return binary
    if not install:
        raise CLIUnavailable(f"{binary} missing or not {want}; run `npm ci --prefix tests/e2e`")
    if shutil.which("node") is None:
        raise CLIUnavailable(
            "node is not on PATH: the end-to-end tests drive the real Claude Code CLI, which "
            "npm installs; install Node.js and npm, then run `npm ci --prefix tests/e2e`."
        )
    command = install_command()
    # One installer at a time, even with several pytest processes.
    with (E2E_DIR / ".npm-install.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        binary = _binary()
        if not (binary.exists() and _installed_version(binary) == want):
            done = subprocess.run(
                command, capture_output=True, text=True, timeout=INSTALL_TIMEOUT, check=False
            )
            if done.returncode != 0:
                raise CLIUnavailable(
                    f"`{' '.join(command)}` failed ({done.returncode}):\n"
                    f"{done.stdout[-2000:]}\n{done.stderr[-4000:]}"
                )
    binary = _binary()
    got = _installed_version(binary) if binary.exists() else None
    if got != want:
        raise CLIUnavailable(f"after npm ci, {binary} reports {got!r}, expected {want}")
    return binary


if __name__ == "__main__":
    try:
        print(claude_binary())
    except CLIUnavailable as exc:
        print(f"error: {exc}", file=sys.stderr)
        sys.exit(1)
