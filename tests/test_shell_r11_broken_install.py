"""Round eleven (ADR 0079): a broken installation leaves a record, and the emergency bypass
lets its calls through.

Before, a package whose policy could not be imported (a dependency missing, a half-finished
``pip install --upgrade``) answered every call with one line on stderr and wrote nothing to
the audit trail, so ``report`` and ``doctor`` showed a quiet, healthy project; and it blocked
under ``AMPLIFIER_BYPASS_BOUNDARY``, the switch that exists for when the guard is in the way.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from orchestrator_boundary import cli, client, wire

PACKAGE = Path(client.__file__).parent
HOOK_PY = PACKAGE.parent.parent / "hooks" / "hook.py"
BARE_PATH = "/usr/bin:/bin"


def _broken_copy(tmp_path: Path) -> Path:
    """The package, copied, with a policy that cannot be imported (a missing dependency)."""
    copy = tmp_path / "site" / "orchestrator_boundary"
    shutil.copytree(PACKAGE, copy, ignore=shutil.ignore_patterns("__pycache__"))
    shell = copy / "shell.py"
    text = shell.read_text().replace(
        "\nimport os\n", "\nimport a_dependency_that_is_not_there\n", 1
    )
    shell.write_text(text)
    return copy


def _project(tmp_path: Path, config: str | None) -> Path:
    root = tmp_path / "proj"
    (root / ".claude").mkdir(parents=True)
    if config is not None:
        (root / ".claude" / "boundary.toml").write_text(config)
    return root


def _payload(root: Path, tool: str = "Write") -> bytes:
    return json.dumps(
        {
            "session_id": "s1",
            "cwd": str(root),
            "hook_event_name": "PreToolUse",
            "tool_name": tool,
            "tool_use_id": "toolu_1",
            "tool_input": {"file_path": str(root / "a.py"), "content": ""},
        }
    ).encode()


def _run(
    script: Path, root: Path, tmp_path: Path, env: dict[str, str], *argv: str
) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-I", "-S", str(script), *(argv or ("PreToolUse",))],
        input=_payload(root),
        capture_output=True,
        env={
            "PATH": BARE_PATH,
            "HOME": str(tmp_path / "home"),
            "CLAUDE_PROJECT_DIR": str(root),
            "ORCHESTRATOR_BOUNDARY_NO_DAEMON": "1",
            **env,
        },
        timeout=60,
        check=False,
    )


def _spooled(trail: Path) -> list[dict[str, object]]:
    names = sorted(trail.parent.glob(f".{trail.name}-spool-*"))
    return [json.loads(n.read_text()) for n in names]


@pytest.mark.parametrize(
    ("config", "env", "code", "decision", "bypassed"),
    [
        ('phase = "warn"\n', {}, 0, "none", False),
        ('phase = "enforce"\n', {}, 2, "deny", False),
        ('phase = "enforce"\n', {"AMPLIFIER_BYPASS_BOUNDARY": "1"}, 0, "none", True),
        (None, {"AMPLIFIER_BYPASS_BOUNDARY": " True "}, 0, "none", True),
        ('phase = "enforce"\n', {"AMPLIFIER_BYPASS_BOUNDARY": "0"}, 2, "deny", False),
    ],
    ids=[
        "warn: through, recorded",
        "enforce: blocked, recorded",
        "enforce under the bypass: through, recorded as bypassed",
        "no config under the bypass: through",
        "a bypass variable that says no: blocked",
    ],
)
def test_a_broken_installation_records_each_call_and_honours_the_bypass(
    tmp_path: Path,
    config: str | None,
    env: dict[str, str],
    code: int,
    decision: str,
    bypassed: bool,
) -> None:
    root = _project(tmp_path, config)
    done = _run(_broken_copy(tmp_path) / "launcher.py", root, tmp_path, env)
    assert (done.returncode, done.stdout) == (code, b""), done.stderr
    assert done.stderr.startswith(b"orchestrator-boundary: cannot load the policy")
    assert (b"AMPLIFIER_BYPASS_BOUNDARY is set" in done.stderr) is bypassed
    assert b"audit trail not writable" not in done.stderr
    [rec] = _spooled(root / ".claude" / "boundary" / "audit.jsonl")
    assert rec["event"] == "PreToolUse"
    assert (rec["tool_name"], rec["session_id"], rec["tool_use_id"]) == ("Write", "s1", "toolu_1")
    assert (rec["decision"], rec["bypassed"], rec["unjudged"]) == (decision, bypassed, True)
    assert str(rec["error"]).startswith("cannot load the policy: ModuleNotFoundError: ")


def test_the_record_is_merged_into_the_chain_and_counted_by_report(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The waiting line is read by ``report`` at once (a hook error, its cause named), and the
    next line a working installation writes seals it into the chain."""
    from conftest import run_hook

    root = _project(tmp_path, 'phase = "warn"\n')
    broken = _broken_copy(tmp_path) / "launcher.py"
    for _ in range(2):
        assert _run(broken, root, tmp_path, {}).returncode == 0
    monkeypatch.chdir(root)
    monkeypatch.delenv("CLAUDE_PROJECT_DIR", raising=False)
    assert cli.main(["report", "--project", str(root), "--json"]) in (0, 3)
    out = json.loads(capsys.readouterr().out)
    assert out["hook_errors"] == 2
    assert out["hook_errors_by_cause"] == {"cannot load the policy": 2}
    env = {"CLAUDE_PROJECT_DIR": str(root), "HOME": str(tmp_path / "home")}
    assert run_hook(json.loads(_payload(root, "Read")), env)[0] == 0
    trail = root / ".claude" / "boundary" / "audit.jsonl"
    assert _spooled(trail) == []
    lines = [json.loads(line) for line in trail.read_text().splitlines()]
    assert [(r.get("unjudged"), r.get("spooled"), r["seq"]) for r in lines] == [
        (True, True, 1),
        (True, True, 2),
        (None, None, 3),
    ]


@pytest.mark.parametrize(
    ("config", "env", "where"),
    [
        ('phase = "warn"\n[audit]\npath = "logs/trail.jsonl"\n', {}, "proj/logs/trail.jsonl"),
        (
            'phase = "warn"\n',
            {"ORCHESTRATOR_BOUNDARY_AUDIT_PATH": "@/u/audit.jsonl"},
            "u/audit.jsonl",
        ),
        ('phase = "warn"\n', {"ORCHESTRATOR_BOUNDARY_AUDIT_PATH": "rel.jsonl"}, None),
    ],
    ids=["[audit] path", "a user-scope trail", "a relative variable is not taken"],
)
def test_the_record_waits_beside_the_trail_the_hook_would_write(
    tmp_path: Path, config: str, env: dict[str, str], where: str | None
) -> None:
    root = _project(tmp_path, config)
    env = {k: v.replace("@", str(tmp_path)) for k, v in env.items()}
    done = _run(_broken_copy(tmp_path) / "launcher.py", root, tmp_path, env)
    assert done.returncode == 0, done.stderr
    trail = tmp_path / where if where else root / ".claude" / "boundary" / "audit.jsonl"
    assert len(_spooled(trail)) == 1


def test_a_trail_that_cannot_take_the_record_gets_it_on_stderr(tmp_path: Path) -> None:
    root = _project(tmp_path, 'phase = "enforce"\n')
    (root / ".claude" / "boundary").write_text("a file where the trail's folder belongs")
    done = _run(_broken_copy(tmp_path) / "launcher.py", root, tmp_path, {})
    assert done.returncode == 2
    assert b"audit trail not writable" in done.stderr
    assert b'"tool_name": "Write"' in done.stderr


def test_a_judgement_out_of_time_still_blocks_under_the_bypass(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The bypass opens only what could not load: how long a judgement takes is in an agent's
    hands (a megabyte word), and TAMPER is still judged under the bypass (ADR 0005)."""
    root = _project(tmp_path, 'phase = "enforce"\n')
    monkeypatch.setenv("CLAUDE_PROJECT_DIR", str(root))
    monkeypatch.setenv("AMPLIFIER_BYPASS_BOUNDARY", "1")
    late = client.HookDeadline("judging this call took more than 8 s")
    code, out, err = client.cannot_load(late, "PreToolUse", _payload(root))
    assert (code, out) == (2, b"")
    assert err.startswith(b"orchestrator-boundary: ran out of time: HookDeadline")
    [rec] = _spooled(root / ".claude" / "boundary" / "audit.jsonl")
    assert (rec["decision"], rec["bypassed"]) == ("deny", False)
    code, _, _ = client.cannot_load(ImportError("x"), "PreToolUse", b"")
    assert code == 0  # the control: what could not load goes through under the bypass


@pytest.mark.parametrize("event", ["PreToolUse", "PostToolUse", "Stop"])
@pytest.mark.parametrize("script", ["launcher", "plugin"])
def test_without_the_package_the_bypass_lets_tool_calls_through(
    tmp_path: Path, event: str, script: str
) -> None:
    """``launcher.py`` of a half-installed package and the plugin's ``hook.py`` on a python3
    without it blocked every tool call under the bypass (the committed launcher's own
    no-installation answer lets them through and says so)."""
    if script == "launcher":
        copy = tmp_path / "site" / "orchestrator_boundary"
        copy.mkdir(parents=True)
        path = copy / "launcher.py"
        path.write_bytes((PACKAGE / "launcher.py").read_bytes())
    else:
        path = tmp_path / "plugin" / "hooks" / "hook.py"
        path.parent.mkdir(parents=True)
        path.write_bytes(HOOK_PY.read_bytes())
        broken = tmp_path / "plugin" / "src" / "orchestrator_boundary"
        broken.mkdir(parents=True)
        (broken / "__init__.py").write_text("")
        (broken / "hook_main.py").write_text("import a_module_that_is_not_there  # noqa\n")
    root = _project(tmp_path, 'phase = "enforce"\n')
    blocked = _run(path, root, tmp_path, {}, event)
    opened = _run(path, root, tmp_path, {"AMPLIFIER_BYPASS_BOUNDARY": "yes"}, event)
    assert blocked.returncode == (2 if event != "Stop" else 0), blocked.stderr
    assert opened.returncode == 0, opened.stderr
    assert b"cannot" in opened.stderr


def test_the_record_carries_no_more_of_the_payload_than_a_judged_line(tmp_path: Path) -> None:
    """Only who called which tool: the input (file contents, commands) stays out, as a judged
    line keeps it out; a payload that is not JSON still gets its record."""
    root = _project(tmp_path, None)
    env = {"CLAUDE_PROJECT_DIR": str(root), "HOME": str(tmp_path)}
    rec = json.loads(client_peer_record(b"\xff not json", env))
    assert rec["input_bytes"] == 10 and "tool_name" not in rec
    assert set(json.loads(client_peer_record(_payload(root), env))) == {
        "ts", "event", "session_id", "tool_name", "tool_use_id", "decision", "would_deny",
        "phase", "bypassed", "error", "input_bytes", "unjudged", "version",
    }  # fmt: skip


def client_peer_record(raw: bytes, env: dict[str, str]) -> bytes:
    from orchestrator_boundary import peer

    assert os.path.isabs(env["CLAUDE_PROJECT_DIR"])
    return peer.unjudged_record(raw, "PreToolUse", "cannot load the policy: X: y", "", 2, False)


def test_the_version_is_the_package_metadatas() -> None:
    """``--version``, the audit line and the evaluator's tag read one place (ADR 0079)."""
    from importlib.metadata import version

    assert wire.package_version() == version("orchestrator-boundary")


def test_version_audit_line_and_evaluator_tag_follow_the_metadata(tmp_path: Path) -> None:
    """The version was written in three places (pyproject, ``__init__``, the plugin manifest):
    an installation whose metadata says 9.9.9 still said 0.1.0 in ``--version`` and on every
    audit line. Now each reads the metadata beside the package (ADR 0079)."""
    site = tmp_path / "site"
    shutil.copytree(
        PACKAGE, site / "orchestrator_boundary", ignore=shutil.ignore_patterns("__pycache__")
    )
    (site / "orchestrator_boundary-9.9.9.dist-info").mkdir()
    code = (
        "import sys; sys.path.insert(0, sys.argv[1]); import contextlib, io\n"
        "from orchestrator_boundary import audit, cli, wire\n"
        "out = io.StringIO()\n"
        "with contextlib.redirect_stdout(out), contextlib.suppress(SystemExit):\n"
        "    cli.main(['--version'])\n"
        "rec = audit.record(None, None, ts=0.0)\n"
        "print(out.getvalue().split()[-1], rec['version'], wire.version_tag().split(b'/')[1].decode())\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, str(site)], capture_output=True, text=True, check=False
    )
    assert done.stdout.split() == ["9.9.9"] * 3, done.stderr


def _trail_check(root: Path, capsys: pytest.CaptureFixture[str]) -> dict[str, str]:
    cli.main(["doctor", "--project", str(root), "--json"])
    checks = json.loads(capsys.readouterr().out)["checks"]
    found: dict[str, str] = next(c for c in checks if c["name"] == "trail")
    return found


def test_doctor_says_when_the_latest_calls_went_unjudged(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``doctor`` said the trail was fine while every call went unjudged; it now warns until a
    judged line follows (the installation works again)."""
    from conftest import run_hook

    root = _project(tmp_path, 'phase = "warn"\n')
    env = {"CLAUDE_PROJECT_DIR": str(root), "HOME": str(tmp_path / "home")}
    assert run_hook(json.loads(_payload(root, "Read")), env)[0] == 0
    monkeypatch.chdir(root)
    assert _trail_check(root, capsys)["status"] == "ok"
    assert _run(_broken_copy(tmp_path) / "launcher.py", root, tmp_path, {}).returncode == 0
    check = _trail_check(root, capsys)
    assert check["status"] == "warn", check
    assert "answered without the policy (1 in all" in check["message"]
    assert "cannot load the policy: ModuleNotFoundError" in check["message"]
    assert run_hook(json.loads(_payload(root, "Read")), env)[0] == 0
    assert _trail_check(root, capsys)["status"] == "ok"


def test_report_counts_the_bypass_a_broken_installation_let_through(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Calls let through unjudged under the bypass are bypassed calls: ``report`` counted none
    (an error record returned before its bypass was read), and told the team that the
    PreToolUse hook "does not run in this project" when it ran and could not load."""
    root = _project(tmp_path, 'phase = "enforce"\n')
    broken = _broken_copy(tmp_path) / "launcher.py"
    for _ in range(2):
        assert _run(broken, root, tmp_path, {"AMPLIFIER_BYPASS_BOUNDARY": "1"}).returncode == 0
    monkeypatch.chdir(root)
    monkeypatch.delenv("CLAUDE_PROJECT_DIR", raising=False)
    assert cli.main(["report", "--project", str(root), "--json"]) == 3
    out = json.loads(capsys.readouterr().out)
    assert (out["bypassed_calls"], out["sessions_with_bypass"]) == (1, 1)  # one tool_use_id
    [note] = out["notes"]
    assert note.startswith("Every one of the trail's 2 hook calls is a hook error")
    assert "does not run in this project" not in note


def test_a_call_that_escapes_the_guard_is_not_opened_by_the_bypass(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Only what could not load is opened by the bypass. A failure after the policy loaded (an
    exception out of ``shell.evaluate``'s own guard, which input might provoke) is judged as
    an internal error: blocked in enforce, bypass or not."""
    from orchestrator_boundary import shell

    root = _project(tmp_path, 'phase = "enforce"\n')
    monkeypatch.setenv("CLAUDE_PROJECT_DIR", str(root))
    monkeypatch.setenv("AMPLIFIER_BYPASS_BOUNDARY", "1")

    def escapes(*_a: object, **_k: object) -> object:
        raise RuntimeError("out of the guard")

    monkeypatch.setattr(shell, "evaluate", escapes)
    code, out, err = client.judge_here(_payload(root), "PreToolUse")
    assert (code, out) == (2, b""), err
    assert err.startswith(b"orchestrator-boundary: internal error (RuntimeError: out of the guard)")
    [rec] = _spooled(root / ".claude" / "boundary" / "audit.jsonl")
    assert (rec["decision"], rec["bypassed"]) == ("deny", False)


def test_a_copy_without_metadata_or_version_still_answers(tmp_path: Path) -> None:
    """The record's version comes from the metadata, else ``__version__``: a half-written
    ``__init__.py`` without it must not turn the answer into a crash (exit 1 lets it through)."""
    copy = _broken_copy(tmp_path)
    (copy / "__init__.py").write_text("")
    root = _project(tmp_path, 'phase = "enforce"\n')
    done = _run(copy / "launcher.py", root, tmp_path, {})
    assert (done.returncode, done.stdout) == (2, b""), done.stderr
    [rec] = _spooled(root / ".claude" / "boundary" / "audit.jsonl")
    assert rec["version"] == "0+unknown"


OLD_PYTHONS = [
    p
    for v in ("3.7.16", "3.8.18", "3.9.18", "3.10.13")
    if (p := Path(f"/root/.pyenv/versions/{v}/bin/python")).exists()
] or [Path(shutil.which("python3.9") or "/nonexistent/python3.9")]


@pytest.mark.parametrize("python", OLD_PYTHONS, ids=lambda p: p.parent.parent.name)
@pytest.mark.parametrize(
    ("config", "env", "code"),
    [
        ('phase = "warn"\n', {}, 0),
        ('phase = "enforce"\n', {}, 2),
        ('phase = "enforce"\n', {"AMPLIFIER_BYPASS_BOUNDARY": "1"}, 0),
    ],
    ids=["warn: through (was blocked)", "enforce: blocked", "bypass: through (was blocked)"],
)
def test_an_interpreter_too_old_answers_as_a_broken_installation(
    tmp_path: Path, python: Path, config: str, env: dict[str, str], code: int
) -> None:
    """The plugin's ``python3`` (macOS' own is 3.9) is too old for the package: the hook took
    the phase only from ORCHESTRATOR_BOUNDARY_PHASE, so a project in warn had every call
    blocked, the bypass too, and nothing was recorded. It now answers as ``cannot_load``."""
    if not python.exists():
        pytest.skip(f"{python} is not here")
    root = _project(tmp_path, config)
    done = subprocess.run(
        [str(python), "-I", "-S", str(HOOK_PY), "PreToolUse"],
        input=_payload(root),
        capture_output=True,
        env={
            "PATH": BARE_PATH,
            "HOME": str(tmp_path / "home"),
            "CLAUDE_PROJECT_DIR": str(root),
            **env,
        },
        timeout=60,
        check=False,
    )
    assert done.returncode == code, done.stderr
    assert done.stderr.startswith(b"orchestrator-boundary needs Python 3.11 or newer")
    assert done.stderr.count(b"\n") == 1, done.stderr
    [rec] = _spooled(root / ".claude" / "boundary" / "audit.jsonl")
    assert str(rec["error"]).startswith("cannot load the policy: Python 3.")
    assert (rec["decision"], rec["bypassed"]) == ("deny" if code else "none", bool(env))


def test_the_broken_paths_constants_agree_with_the_packages() -> None:
    """``peer`` places the record without importing the policy: its copies of the default trail
    and the spool's bound must stay those of ``config_values`` and ``audit_lock``."""
    from orchestrator_boundary import audit_lock, config_values, peer

    assert peer.DEFAULT_AUDIT_PATH == config_values.DEFAULT_AUDIT_PATH
    assert peer.SPOOL_MAX_FILES == audit_lock.SPOOL_MAX_FILES


@pytest.mark.parametrize("argv", [["phase", "warn"], ["report"], ["doctor"], ["--version"]])
def test_the_cli_of_a_broken_installation_says_how_to_roll_back(
    tmp_path: Path, argv: list[str]
) -> None:
    """README's one-command rollback (``phase warn``) is itself the package: with a dependency
    missing, every command, ``--version`` included, died with a traceback. It now says what is
    wrong and how to roll back by hand, which the hooks honour (they read the phase line)."""
    copy = _broken_copy(tmp_path)
    config = copy / "config.py"
    config.write_text(
        config.read_text().replace("\nimport ", "\nimport not_installed_dep\nimport ", 1)
    )
    code = "import sys; sys.path.insert(0, sys.argv[1]); from orchestrator_boundary import cli\nsys.exit(cli.main(sys.argv[2:]))"
    done = subprocess.run(
        [sys.executable, "-I", "-c", code, str(copy.parent), *argv],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=60,
        check=False,
    )
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr
    assert done.stderr.startswith("orchestrator-boundary ")
    assert "cannot load (ModuleNotFoundError: No module named 'not_installed_dep')" in done.stderr
    assert 'write phase = "warn" there' in done.stderr
