"""``orchestrator-boundary``: the command line. Each subcommand lives in its own module
(``cmd_*.py``) that exposes ``register(subparsers)``; this file only wires them up."""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from orchestrator_boundary import __version__

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


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="orchestrator-boundary",
        description="Keep Claude Code's main agent delegating: subagents edit, it plans.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name in COMMANDS:
        importlib.import_module(f"orchestrator_boundary.{name}").register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.func(args))
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
