"""Round twelve, the hook shell: ``install`` run from uvx or ``pipx run`` (ADR 0084).

Tried for real with uv 0.9 and pipx 1.18: ``uvx orchestrator-boundary install --scope local``
registered ``~/.cache/uv/archive-v0/<id>/bin/python`` and its ``launcher.py``, ``pipx run``
registered ``~/.cache/pipx/<hash>/bin/python``. Both caches are cleaned without notice (``uv
cache clean``/``prune``; pipx drops an environment it has not run for 14 days), and then every
call is answered by the gone guard: by the phase, unjudged, unrecorded. ``uv tool install`` and
``pipx install`` make lasting environments (``~/.local/share/uv/tools/...``,
``~/.local/share/pipx/venvs/...``). Both caches carry a ``CACHEDIR.TAG`` at their root; uv also
tags every venv it makes, lasting ones included, so only a tag above the environment counts.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from orchestrator_boundary.doctor_hooks_off import CACHE_TAG, cache_root, cached_install


def tag(folder: Path, text: bytes = CACHE_TAG + b"\n# cache\n") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "CACHEDIR.TAG").write_bytes(text)
    return folder


@pytest.mark.parametrize(
    ("layout", "found"),
    [
        ("cache/uv/archive-v0/ab12", "cache/uv"),  # uvx
        ("cache/pipx/b97b2694f250b9a", "cache/pipx"),  # pipx run
        ("share/uv/tools/orchestrator-boundary", None),  # uv tool install: its own tag only
        ("share/pipx/venvs/orchestrator-boundary", None),  # pipx install
        ("work/repo/.venv", None),  # a project's venv (uv tags it)
    ],
)
def test_an_environment_inside_a_tagged_cache_is_found(
    tmp_path: Path, layout: str, found: str | None
) -> None:
    env = tmp_path / layout
    tag(env)  # uv tags every environment it makes
    if layout.startswith("cache/"):
        tag(tmp_path / found) if found else None
    assert cache_root(str(env)) == (str(tmp_path / found) if found else None)


def test_a_cachedir_tag_without_the_signature_is_not_a_cache(tmp_path: Path) -> None:
    tag(tmp_path / "c", b"not a cache\n")
    assert cache_root(str(tmp_path / "c" / "env")) is None


def venv_in(folder: Path) -> Path:
    """A venv-like interpreter whose ``sys.prefix`` is ``folder`` (this one's libraries)."""
    (folder / "bin").mkdir(parents=True)
    python = folder / "bin" / "python"
    python.symlink_to(os.path.realpath(sys.executable))
    cfg = Path(sys.prefix) / "pyvenv.cfg"
    if cfg.exists():
        (folder / "pyvenv.cfg").write_text(cfg.read_text())
        (folder / "lib").symlink_to(Path(sys.prefix) / "lib")
    else:
        pytest.skip("needs a venv to borrow from")
    return python


def install(python: Path, root: Path, home: Path, scope: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("CLAUDE", "ORCHESTRATOR"))}
    env["HOME"] = str(home)
    argv = [str(python), "-m", "orchestrator_boundary.cli", "install", "--project", str(root)]
    return subprocess.run(
        [*argv, "--scope", scope, "--json"],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        check=False,
    )


@pytest.mark.parametrize("scope", ["local", "user"])
def test_install_from_a_cache_refuses_to_register_its_interpreter(
    tmp_path: Path, scope: str
) -> None:
    cache = tag(tmp_path / "home" / ".cache" / "uv")
    python = venv_in(cache / "archive-v0" / "ab12")
    root = tmp_path / "repo"
    root.mkdir()
    done = install(python, root, tmp_path / "home", scope)
    assert done.returncode == 1, done.stdout + done.stderr
    said = json.loads(done.stdout)
    assert said["error"].startswith("not registering: ") and str(cache) in said["error"]
    assert "uv tool install orchestrator-boundary" in said["error"]
    assert not (root / ".claude" / "settings.local.json").exists()
    assert not (tmp_path / "home" / ".claude" / "settings.json").exists()


def test_a_project_install_from_a_cache_says_the_pointer_will_not_last(tmp_path: Path) -> None:
    """The committed entries name no interpreter; only this user's pointer does, and the
    launcher looks further when it is gone: installed, with a note."""
    cache = tag(tmp_path / "home" / ".cache" / "pipx")
    python = venv_in(cache / "b97b2694f250b9a")
    root = tmp_path / "repo"
    root.mkdir()
    done = install(python, root, tmp_path / "home", "project")
    assert done.returncode == 0, done.stdout + done.stderr
    notes = json.loads(done.stdout)["notes"]
    assert [n for n in notes if f"inside the cache {cache}" in n and "only while" in n], notes


def test_a_lasting_environment_installs_without_a_word_about_caches(tmp_path: Path) -> None:
    python = venv_in(tag(tmp_path / "home" / ".local" / "share" / "uv" / "tools" / "ob"))
    root = tmp_path / "repo"
    root.mkdir()
    done = install(python, root, tmp_path / "home", "local")
    assert done.returncode == 0, done.stdout + done.stderr
    assert not [n for n in json.loads(done.stdout)["notes"] if "cache" in n]
    assert cached_install("local", str(tmp_path)) == ""


def test_doctor_warns_when_the_registered_interpreter_lives_in_a_cache(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Entries written from uvx before ``install`` refused them: doctor said every command
    answers, and nothing about the cache they will vanish with."""
    from orchestrator_boundary import cli, registration
    from orchestrator_boundary import settings_files as sf

    monkeypatch.setenv(sf.MANAGED_ENV, str(tmp_path / "no-managed.json"))
    cache = tag(tmp_path / "cache" / "uv")
    python = venv_in(cache / "archive-v0" / "ab12")
    root = tmp_path / "repo"
    (root / ".claude").mkdir(parents=True)
    entries = registration.entries("local", "warn", python=str(python))
    hooks = {
        e: [{**({"matcher": "*"} if registration.matcher(e) else {}), "hooks": [h]}]
        for e, h in entries.items()
    }
    (root / ".claude" / "settings.local.json").write_text(json.dumps({"hooks": hooks}))
    cli.main(["doctor", "--project", str(root), "--json"])
    checks = {c["name"]: c for c in json.loads(capsys.readouterr().out)["checks"]}
    assert checks["commands"]["status"] == "warn", checks["commands"]
    assert f"inside the cache {cache}" in checks["commands"]["message"]
