"""The command the installer registers: ``python .../hook_entry.py pre|post`` or
``python -m orchestrator_boundary.hook_entry pre|post``.

Run as a file (a checkout that is not installed), it puts the directory that holds the package
first on ``sys.path`` and removes its own directory, so that the package's modules never shadow
anything. The word ``orchestrator_boundary`` in the command is also how ``uninstall`` and
``doctor`` recognise the entries the installer wrote.
"""

from __future__ import annotations

import os
import sys

if __name__ == "__main__" and not __package__:  # pragma: no cover - exercised through subprocesses
    _here = os.path.dirname(os.path.abspath(__file__))
    sys.path[:] = [p for p in sys.path if os.path.abspath(p or ".") != _here]
    sys.path.insert(0, os.path.dirname(_here))


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    from orchestrator_boundary.hook import post_tool_use_main, pre_tool_use_main

    if args[:1] == ["post"]:
        return post_tool_use_main()
    if args[:1] in (["pre"], []):
        return pre_tool_use_main()
    sys.stderr.write(f"orchestrator-boundary: unknown hook event {args[0]!r} "
                     "(expected pre or post)\n")
    return 2  # blocks: a mis-registered hook must not pass silently


if __name__ == "__main__":
    sys.exit(main())
