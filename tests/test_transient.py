"""The decision's value types: immutable to the type checker; shared ones at run time too.

``@transient`` types (one call's Session, Classification, Located, Violation, Assessment, Verdict,
HookAnswer, ScopeMatch; one Bash analysis's Word, Fx, Env, Outcome, Tok) are plain slots
dataclasses at run time (ADR 0017), so their immutability rests on mypy, which CI runs over the
package: the first test pins that mypy rejects a write to each. Everything a later call reads again stays
frozen at run time.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from mypy import api as mypy_api

from orchestrator_boundary import bash, scope
from orchestrator_boundary.config import Config
from orchestrator_boundary.context import Context
from orchestrator_boundary.fs import RealFileSystem
from orchestrator_boundary.phase import Phase
from orchestrator_boundary.protect import Protected
from orchestrator_boundary.session import Session, SessionKind
from orchestrator_boundary.setups import setup
from orchestrator_boundary.tools import Classification, ToolClass
from orchestrator_boundary.values import FrozenError
from orchestrator_boundary.verdict import Decision, Verdict
from orchestrator_boundary.violation import Assessment, Code, Violation

REPO = Path(__file__).resolve().parents[1]

WRITES = """\
from orchestrator_boundary.bash.outcome import Env, Fx, Outcome
from orchestrator_boundary.bash.scan import Tok
from orchestrator_boundary.bash.words import Word
from orchestrator_boundary.paths import Located
from orchestrator_boundary.scope import ScopeMatch
from orchestrator_boundary.violation import Assessment, Violation
from orchestrator_boundary.session import Session
from orchestrator_boundary.tools import Classification
from orchestrator_boundary.verdict import HookAnswer, Verdict


def change(
    v: Verdict, a: Assessment, x: Violation, s: Session, c: Classification, loc: Located,
    h: HookAnswer, m: ScopeMatch, w: Word, f: Fx, e: Env, t: Tok, o: Outcome,
) -> None:
    v.message = ""
    a.violation = None
    x.reason = ""
    s.agent_id = None
    c.source = ""
    loc.problem = ""
    h.exit_code = 1
    m.allowed = True
    w.value = None
    f.path = ""
    e.depth = 0
    t.text = ""
    o.note = ""
"""


def test_the_type_checker_rejects_every_write_to_a_value(tmp_path: Path) -> None:
    snippet = tmp_path / "writes.py"
    snippet.write_text(WRITES)
    here = os.getcwd()
    os.chdir(REPO)  # the project's mypy settings, and the cache CI's own mypy run left
    try:
        out, err, status = mypy_api.run([str(snippet)])
    finally:
        os.chdir(here)
    assert status == 1, out + err
    read_only = [line for line in out.splitlines() if "is read-only" in line]
    assert len(read_only) == 13, out


def verdict() -> Verdict:
    session = Session(SessionKind.MAIN, "s", None, None)
    v = Violation(Code.ORCHESTRATOR_WRITE, "rule", "reason", "suggestion", "a.py")
    a = Assessment(session, "Write", Classification(ToolClass.WRITE, "builtin"), ("a.py",), v)
    return Verdict("PreToolUse", a, Phase.ENFORCE, "config", Decision.DENY, True, message="m")


def test_values_compare_and_hash_by_value() -> None:
    one, two = verdict(), verdict()
    assert one == two and one is not two
    assert hash(one) == hash(two)
    assert len({one, two}) == 1
    assert not hasattr(one, "__dict__")  # slots: no stray attributes either
    with pytest.raises(AttributeError):
        one.stray = 1  # type: ignore[attr-defined]


def test_what_later_calls_read_again_stays_frozen_at_run_time(tmp_path: Path) -> None:
    fs, root = RealFileSystem(), str(tmp_path.resolve())
    s = setup(str(tmp_path), {"CLAUDE_PROJECT_DIR": str(tmp_path), "HOME": str(tmp_path)})
    analysis = bash.analyze("echo hi > out.txt", cwd=str(tmp_path), home=str(tmp_path))
    shared: list[tuple[object, str]] = [
        (s, "phase"),
        (s.context, "home"),
        (Context(root, fs), "root"),
        (Protected("/x", False, "label"), "path"),
        (scope.compiled(["src/**"])[0], "text"),
        (analysis, "status"),
        (analysis.commands[0], "status"),
        (analysis.effects[0], "path"),
    ]
    for obj, field in shared:
        with pytest.raises(FrozenError):
            setattr(obj, field, None)
    with pytest.raises(FrozenError):
        Config().phase = Phase.OFF  # type: ignore[misc]
