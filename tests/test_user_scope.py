"""One set of user-scope entries guards every project of the user (ADR 0052): its
``onFailure`` follows the strictest phase among those projects, not the last ``phase`` run, and
``doctor`` says which project holds it and what to run when it does not fit."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from orchestrator_boundary import cli, user_scope
from orchestrator_boundary import settings_edit as se


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = cli.main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def user_on_failure() -> list[object]:
    path = Path(os.environ["HOME"]) / ".claude" / "settings.json"
    entries = se.registered(json.loads(path.read_text(encoding="utf-8")))
    return [h.get("onFailure") for e in ("PreToolUse", "PostToolUse") for h in entries[e]]


def onfailure_check(capsys: pytest.CaptureFixture[str], root: Path) -> dict[str, str]:
    _, out, _ = run(capsys, "doctor", "--json", "--project", str(root))
    found: dict[str, str] = next(c for c in json.loads(out)["checks"] if c["name"] == "onfailure")
    return found


@pytest.fixture
def two(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> tuple[Path, Path]:
    """Projects A and B, both in warn, guarded by one user-scope install run in A."""
    a, b = (tmp_path / "A").resolve(), (tmp_path / "B").resolve()
    for root in (a, b):
        (root / ".claude").mkdir(parents=True)
        (root / ".claude" / "boundary.toml").write_text('phase = "warn"\n', encoding="utf-8")
    assert run(capsys, "install", "--scope", "user", "--project", str(a))[0] == 0
    return a, b


def test_moving_another_project_to_warn_keeps_the_block_an_enforced_one_needs(
    two: tuple[Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    a, b = two
    assert run(capsys, "phase", "enforce", "--force", "--project", str(a))[0] == 0
    assert user_on_failure() == ["block", "block"]
    code, out, _ = run(capsys, "phase", "warn", "--project", str(b))
    assert code == 0
    assert user_on_failure() == ["block", "block"]  # A is still in enforce
    assert (
        f'keep "onFailure": "block" (a hook that cannot run blocks the call) while {a} is in enforce'
        in out
    )
    check = onfailure_check(capsys, b)
    assert check["status"] == "ok" and f"while {a} is in enforce" in check["message"]
    assert onfailure_check(capsys, a)["status"] == "ok"
    # A rolls back: no project of this user needs the block any more
    code, out, _ = run(capsys, "phase", "warn", "--project", str(a))
    assert code == 0 and user_on_failure() == [None, None]
    assert '"onFailure": "block" is now off, as warn needs' in out


def test_doctor_says_the_entries_are_shared_and_the_one_command_that_fits_them(
    two: tuple[Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    a, _b = two
    # A moved to enforce by hand: the entries, written for warn, lack the block
    (a / ".claude" / "boundary.toml").write_text('phase = "enforce"\n', encoding="utf-8")
    check = onfailure_check(capsys, a)
    assert check["status"] == "fail"
    assert "your user-scope entries in " in check["message"]
    assert "they are one set for every project of yours" in check["message"]
    assert check["fix"].startswith("run here: orchestrator-boundary phase enforce")
    assert run(capsys, "phase", "enforce", "--force", "--project", str(a))[0] == 0
    assert onfailure_check(capsys, a)["status"] == "ok"


def test_a_user_scope_install_in_another_project_keeps_an_enforced_ones_block(
    two: tuple[Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    a, b = two
    assert run(capsys, "phase", "enforce", "--force", "--project", str(a))[0] == 0
    assert run(capsys, "install", "--scope", "user", "--project", str(b))[0] == 0
    assert user_on_failure() == ["block", "block"]
    env = dict(os.environ)
    assert user_scope.known(env) == [str(a), str(b)]
    # a listed project that is gone no longer counts
    (a / ".claude" / "boundary.toml").unlink()
    (a / ".claude").rmdir()
    a.rmdir()
    assert user_scope.known(env) == [str(b)]
    assert user_scope.entries_phase(str(b), "warn", env) == ("warn", None)


def test_uninstall_removes_the_list(
    two: tuple[Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    a, _b = two
    listed = Path(user_scope.list_path(dict(os.environ)))
    assert listed.read_text(encoding="utf-8") == f"{a}\n"
    assert run(capsys, "uninstall", "--scope", "user", "--project", str(a))[0] == 0
    assert not listed.exists()
