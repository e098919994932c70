"""``orchestrator-boundary``: the command line. Each subcommand lives in its own module
(``cmd_*.py``) that exposes ``register(subparsers)``; this file only wires them up."""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence
from typing import Any

from orchestrator_boundary.wire import package_version

# module name -> imported lazily so that one command's dependencies never slow another
COMMANDS = (
    "cmd_check",
    "cmd_replay",
    "cmd_demo",
    "cmd_install",
    "cmd_doctor",
    "cmd_phase",
    "cmd_report",
    "cmd_trace",
)


class _WholeOptionsOnly(argparse.ArgumentParser):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **{**kwargs, "allow_abbrev": False})


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="orchestrator-boundary",
        allow_abbrev=False,
        description="Keep Claude Code's main agent delegating: subagents edit, it plans.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {package_version()}")
    # no abbreviated options (`report --htm FILE`): the guard reads the spellings it knows, so
    # the CLI accepts only those (allow_abbrev=False on every subcommand's parser)
    sub = parser.add_subparsers(
        dest="command", required=True, metavar="COMMAND", parser_class=_WholeOptionsOnly
    )
    for name in COMMANDS:
        importlib.import_module(f"orchestrator_boundary.{name}").register(sub)
    return parser


BROKEN = (
    "orchestrator-boundary {version} cannot load ({error}). Reinstall it (python3 -m pip install "
    "--force-reinstall orchestrator-boundary, or from your clone), then run: "
    "orchestrator-boundary doctor. Until then its hooks follow the phase line of "
    '.claude/boundary.toml: to roll back by hand, write phase = "warn" there (or set '
    "ORCHESTRATOR_BOUNDARY_PHASE=warn where Claude Code starts), or set "
    "AMPLIFIER_BYPASS_BOUNDARY=1 to let calls through (ADR 0079).\n"
)


def main(argv: Sequence[str] | None = None) -> int:
    try:
        parser = build_parser()
    except ImportError as exc:  # a dependency missing, an upgrade half done: no traceback
        error = f"{type(exc).__name__}: {exc}"
        sys.stderr.write(BROKEN.format(version=package_version(), error=error))
        return 2
    args = parser.parse_args(argv)
    try:
        return int(args.func(args))
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0
    except OSError as exc:  # a file named on the command line that is missing or unreadable
        where = f": {exc.filename}" if exc.filename else ""
        sys.stderr.write(
            f"orchestrator-boundary {args.command}: error{where}: {exc.strerror or exc}\n"
        )
        return 2


if __name__ == "__main__":
    sys.exit(main())
