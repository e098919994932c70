"""What reading hook scripts and definitions costs the protected set (ADR 0078, 0083).

    python benchmarks/protected_scripts.py [--rounds 200] [--commands 30]

Builds a project with one hook script (which sources a library and runs a Python script
that imports a module) and ``--commands`` command definitions with a ``!`` line each, then
times, interleaved round by round:

- ``code_scripts`` alone, in a fresh state each round (``cold``: what a process started per
  call pays) and with its text memo warm (``warm``: a resident evaluator after its first call);
- a subagent's Write judged in-process (``shell.evaluate``) with the setup cache cleared each
  round (the memo warm, then cold), in that project and in the same project without the hook
  script and definitions.

Prints medians and the ratios. Not a test: numbers, not verdicts.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))


def _project(base: Path, commands: int, scripts: bool) -> Path:
    root = base / ("with" if scripts else "without")
    for d in (".claude/commands", ".claude/hooks", "scripts", "src"):
        (root / d).mkdir(parents=True)
    hooks: dict[str, object] = {}
    if scripts:
        command = {"type": "command", "command": "bash .claude/hooks/fmt.sh"}
        hooks = {"PostToolUse": [{"matcher": "Write", "hooks": [command]}]}
        (root / ".claude/hooks/fmt.sh").write_text(
            '#!/bin/bash\nsource scripts/lib.sh\npython3 scripts/check.py "$1"\n'
        )
        (root / "scripts/lib.sh").write_text("x=1\n")
        (root / "scripts/check.py").write_text("import json, os, sys\nimport rules\n")
        (root / "scripts/rules.py").write_text("R = 1\n")
        for i in range(commands):
            (root / f".claude/commands/c{i}.md").write_text(
                f"---\ndescription: command {i}\n---\nRun !`python3 scripts/check.py {i}` "
                f"and read src/file{i}.py.\n" + "prose\n" * 40
            )
    (root / ".claude/settings.json").write_text(json.dumps({"hooks": hooks}))
    (root / ".claude/boundary.toml").write_text('[agents.coder]\nwrite_scope = ["src/**"]\n')
    return root


def _write(root: Path) -> bytes:
    return json.dumps(
        {
            "session_id": "bench",
            "transcript_path": "",
            "cwd": str(root),
            "hook_event_name": "PreToolUse",
            "tool_name": "Write",
            "tool_input": {"file_path": str(root / "src/a.py"), "content": "x = 1\n"},
            "tool_use_id": "toolu_bench",
            "agent_id": "abench",
            "agent_type": "coder",
        }
    ).encode()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=200)
    parser.add_argument("--commands", type=int, default=30)
    args = parser.parse_args()
    from orchestrator_boundary import protect_follow, protect_hooks, setups, shell
    from orchestrator_boundary.fs import RealFileSystem

    fs = RealFileSystem()
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp)
        home = base / "home"
        (home / ".claude").mkdir(parents=True)
        rich, plain = _project(base, args.commands, True), _project(base, args.commands, False)
        times: dict[str, list[float]] = {
            k: [] for k in ("cold", "warm", "rich", "rich-cold", "plain")
        }

        def clock(name: str, run: object) -> None:
            start = time.perf_counter()
            run()  # type: ignore[operator]
            times[name].append(time.perf_counter() - start)

        def code(clear: bool) -> object:
            if clear:
                protect_follow.forget()
            return protect_hooks.code_scripts(str(rich), str(home), None, fs)

        for _ in range(args.rounds):
            clock("cold", lambda: code(True))
            clock("warm", lambda: code(False))
            for name, root in (("rich", rich), ("rich-cold", rich), ("plain", plain)):
                env = {
                    "CLAUDE_PROJECT_DIR": str(root),
                    "HOME": str(home),
                    "PATH": os.environ["PATH"],
                }
                setups.CACHE.fs_facts.clear()
                setups.CACHE.setups.clear()
                if name == "rich-cold":
                    protect_follow.forget()
                clock(name, lambda r=root, e=env: shell.evaluate(_write(r), e))
    med = {k: statistics.median(v) * 1000 for k, v in times.items()}
    print(
        f"code_scripts: cold {med['cold']:.2f} ms, warm {med['warm']:.2f} ms, "
        f"ratio warm/cold {med['warm'] / med['cold']:.2f}"
    )
    print(
        f"subagent Write in-process, setup rebuilt: with scripts {med['rich']:.2f} ms "
        f"(memo cold {med['rich-cold']:.2f} ms), without {med['plain']:.2f} ms; ratios "
        f"{med['rich'] / med['plain']:.2f} (cold {med['rich-cold'] / med['plain']:.2f})"
    )


if __name__ == "__main__":
    main()
