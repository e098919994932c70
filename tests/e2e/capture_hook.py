"""A hook that records its stdin and answers nothing (so Claude Code's flow is unchanged).

Usage in a hook command: ``python capture_hook.py OUT.jsonl``; each payload is appended to
OUT.jsonl as one line.
"""

import fcntl
import json
import sys
from pathlib import Path


def main() -> None:
    payload = json.loads(sys.stdin.read())
    line = json.dumps(payload, ensure_ascii=False) + "\n"
    with Path(sys.argv[1]).open("a", encoding="utf-8") as out:
        fcntl.flock(out, fcntl.LOCK_EX)
        out.write(line)


if __name__ == "__main__":
    main()
