"""``orchestrator-boundary report``: text fits 80 columns, --json for programs, exit codes."""

from __future__ import annotations

import io
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from report_trails import build, keep_notes

from orchestrator_boundary.cli import main

SRC = str(Path(__file__).resolve().parents[1] / "src")


@pytest.fixture(scope="module")
def ready(tmp_path_factory):
    return build(tmp_path_factory.mktemp("cli-ready") / "proj")


@pytest.fixture(scope="module")
def not_ready(tmp_path_factory):
    return build(tmp_path_factory.mktemp("cli-bypass") / "proj", bypass_sessions=3)


def run(capsys, *argv):
    code = main(["report", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_ready_exits_0_and_every_line_fits_80_columns(capsys, ready):
    code, out, err = run(capsys, "--project", str(ready.root))
    assert code == 0
    assert "Verdict for enforce: READY" in out
    assert err == ""  # no progress noise when stderr is not a terminal
    for line in out.splitlines():
        assert len(line) <= 80, line


def test_not_ready_exits_3_and_names_the_red_criterion(capsys, not_ready):
    code, out, _ = run(capsys, "--project", str(not_ready.root))
    assert code == 3
    assert "Verdict for enforce: NOT READY" in out
    fails = [line for line in out.splitlines() if "[FAIL]" in line]
    assert len(fails) == 1 and "bypass" in fails[0]
    assert max(map(len, out.splitlines())) <= 80


def squash(text: str) -> str:
    return re.sub(r"\s+", "", text)


def test_long_values_wrap_within_80_columns_and_none_is_cut(capsys, tmp_path):
    deep = "x" * 120
    long_path = f"src/{deep}/very_long_module_name_{deep}.py"
    tool = "mcp__a_really_long_server_name__and_an_even_longer_tool_name_that_goes_on"
    b = build(tmp_path / ("p" * 60), writes=lambda d: 1)
    b.call(3, "s-long", "Write", path=long_path)
    b.call(3, "s-long", tool)
    b.call(3, "s-long", raw=b"{not json")
    page = tmp_path / ("h" * 90 + ".html")
    code, out, _ = run(capsys, "--project", str(b.root), "--html", str(page))
    assert code == 0
    assert max(map(len, out.splitlines())) <= 80
    assert "..." not in out and "\u2026" not in out  # wrapped, never elided
    data = json.loads(run(capsys, "--project", str(b.root), "--json")[1])
    values = [str(b.audit), long_path, tool, str(page)]
    values += [c["value"] for c in data["criteria"]] + [c["needed"] for c in data["criteria"]]
    values += list(data["violations_by_rule"]) + list(data["hook_errors_by_cause"])
    for value in values:
        assert squash(value) in squash(out), value


def test_control_characters_in_names_never_reach_the_terminal(capsys, tmp_path):
    b = build(tmp_path / "proj", writes=lambda d: 1)
    b.call(3, "s-odd", "Write", path="src/\x1b[31mred\x1b[0m\nsecond line.py")
    out = run(capsys, "--project", str(b.root))[1]
    assert "\x1b" not in out and "\r" not in out
    assert "src/\\x1b[31mred\\x1b[0m\\nsecond line.py" in re.sub(r"\n +", "", out)
    assert max(map(len, out.splitlines())) <= 80


def test_json_is_one_object_with_all_numbers(capsys, ready):
    code, out, _ = run(capsys, "--project", str(ready.root), "--json")
    assert code == 0
    data = json.loads(out)  # exactly one JSON document
    assert data["verdict"] == "READY" and data["ready"] is True
    assert data["tool_uses"] == 124 and data["sessions"] == 20
    assert data["trail_files"] == [str(ready.audit)]
    assert all(c["ok"] for c in data["criteria"])


def test_explicit_audit_file_and_since(capsys, ready, tmp_path):
    code, out, _ = run(
        capsys,
        "--audit",
        str(ready.audit),
        "--project",
        str(tmp_path),
        "--since",
        "2026-03-15",
        "--json",
    )
    data = json.loads(out)
    assert code == 3
    assert data["first_day"] == "2026-03-15" and data["span_days"] == 7
    assert [c["key"] for c in data["criteria"] if not c["ok"]] == ["days", "tool_uses"]


def test_flags_override_config_thresholds(capsys, tmp_path):
    b = build(
        tmp_path / "proj",
        days=8,
        sessions_per_day=2,
        writes=lambda d: 1,
        config="[report]\nmin_days = 30\n",
    )
    assert run(capsys, "--project", str(b.root))[0] == 3
    (b.root / ".claude" / "boundary.toml").write_text("[report]\nmin_days = 5\n")
    assert run(capsys, "--project", str(b.root))[0] == 0
    assert run(capsys, "--project", str(b.root), "--min-days", "9")[0] == 3
    _, out, _ = run(capsys, "--project", str(b.root), "--min-days", "9", "--json")
    assert json.loads(out)["thresholds"]["min_days"] == 9


def test_missing_trail_and_broken_config_exit_2(capsys, tmp_path):
    code, out, err = run(capsys, "--project", str(tmp_path), "--json")
    assert code == 2
    assert json.loads(out)["error"].startswith("there is no audit trail at ")
    assert "no audit trail" in err
    (tmp_path / ".claude").mkdir()
    (tmp_path / ".claude" / "boundary.toml").write_text("[report]\nmin_dayz = 1\n")
    code, _, err = run(capsys, "--project", str(tmp_path))
    assert code == 2 and "min_dayz" in err


def test_bad_since_exits_2(capsys, ready):
    code, _, err = run(capsys, "--project", str(ready.root), "--since", "someday")
    assert code == 2 and "--since" in err


def test_malformed_lines_reported_in_text(capsys, tmp_path):
    b = build(tmp_path / "proj")
    b.garbage(["not json", "{}"])
    code, out, _ = run(capsys, "--project", str(b.root))
    assert code == 0
    assert "2 malformed" in out


def test_html_flag_writes_the_page(capsys, ready, tmp_path):
    page = tmp_path / "r.html"
    code, out, _ = run(capsys, "--project", str(ready.root), "--html", str(page))
    assert code == 0 and page.exists()
    assert f"html: {page}" in out
    assert 'id="verdict"' in page.read_text()


def test_piped_subprocess_is_quiet_on_stderr(ready):
    env = {**os.environ, "PYTHONPATH": SRC}
    env.pop("CLAUDE_PROJECT_DIR", None)
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "orchestrator_boundary.cli",
            "report",
            "--project",
            str(ready.root),
            "--json",
        ],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""
    assert json.loads(proc.stdout)["verdict"] == "READY"


class FakeTTY(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_report_shows_progress_on_a_terminal(capsys, ready):
    from orchestrator_boundary.cli import build_parser
    from orchestrator_boundary.cmd_report import run as run_report

    tty = FakeTTY()
    args = build_parser().parse_args(["report", "--project", str(ready.root), "--json"])
    assert run_report(args, progress_stream=tty) == 0
    shown = tty.getvalue()
    assert "report: reading audit trail" in shown
    assert shown.endswith("\r")  # cleared before the result is printed
    assert json.loads(capsys.readouterr().out)["verdict"] == "READY"


SINGULAR_NOUNS = r"days?|records?|files?|calls?|sessions?|errors?|times?|violations?|lines?"


@pytest.mark.parametrize(
    "kwargs",
    [{"days": 1, "bad_inputs": 1, "writes": lambda d: 1}, {"days": 2, "bypass_sessions": 1}],
    ids=["one-day", "two-days"],
)
def test_counted_nouns_agree_with_their_numbers(capsys, tmp_path, kwargs):
    b = build(tmp_path / "proj", **kwargs)
    texts = [run(capsys, "--project", str(b.root))[1]]
    texts.append(json.dumps(json.loads(run(capsys, "--project", str(b.root), "--json")[1])))
    for text in texts:
        ones = re.findall(rf"(?<![\d.])\b1 ({SINGULAR_NOUNS})\b", text)
        assert all(not noun.endswith("s") for noun in ones), ones
        many = re.findall(rf"\b(?:[02-9]|\d\d+) ({SINGULAR_NOUNS})\b", text)
        assert all(noun.endswith("s") for noun in many), many
    assert (
        "1 day with records (over 1 day)" in texts[0]
        or "2 days with records (over 2 days)" in texts[0]
    )


@pytest.fixture(scope="module")
def notes_project(tmp_path_factory):
    b = build(tmp_path_factory.mktemp("cli-notes") / "proj")
    keep_notes(b, range(20))
    return b


def test_intended_writes_are_named_with_the_line_to_add(capsys, notes_project):
    code, out, _ = run(capsys, "--project", str(notes_project.root))
    assert code == 3
    fails = [line for line in out.splitlines() if "[FAIL]" in line]
    assert len(fails) == 1 and "intended orchestrator writes" in fails[0]
    assert "STATE.md" in fails[0]
    said = " ".join(out.split())
    assert (
        "The top violation, STATE.md, looks like a file the orchestrator changes on purpose: the "
        "main agent wrote it 40 times in 20 sessions." in said
    )
    assert "put the lines below into .claude/boundary.toml" in said
    assert out.endswith('\n    [orchestrator]\n    write_allow = ["STATE.md"]\n')
    data = json.loads(run(capsys, "--project", str(notes_project.root), "--json")[1])
    assert data["write_allow_suggestion"]["toml"] == '[orchestrator]\nwrite_allow = ["STATE.md"]'
    assert data["intended_write"]["path"] == "STATE.md"
    assert data["notes"] and " ".join(data["notes"][0].split()) in said


def test_adding_the_suggested_line_makes_the_project_ready(capsys, notes_project, tmp_path):
    config = tmp_path / "boundary.toml"
    data = json.loads(run(capsys, "--project", str(notes_project.root), "--json")[1])
    config.write_text(data["write_allow_suggestion"]["toml"] + "\n")
    os.environ["ORCHESTRATOR_BOUNDARY_CONFIG"] = str(config)
    try:
        code, out, _ = run(capsys, "--project", str(notes_project.root))
    finally:
        del os.environ["ORCHESTRATOR_BOUNDARY_CONFIG"]
    assert code == 0, out
    said = " ".join(out.split())
    assert "now allowed by write_allow 40 not counted" in said
    assert (
        f"40 recorded violations are allowed by the current write_allow in {config}, so they are "
        "not counted." in said
    )


def test_every_message_is_a_sentence(capsys, notes_project, tmp_path):
    messages = json.loads(run(capsys, "--project", str(notes_project.root), "--json")[1])["notes"]
    for argv in (
        ["--project", str(tmp_path)],
        ["--project", str(notes_project.root), "--since", "someday"],
    ):
        assert run(capsys, *argv)[0] == 2
        messages.append(json.loads(run(capsys, *argv, "--json")[1])["error"])
    unwritable = ["--project", str(notes_project.root), "--html", str(tmp_path / "no" / "r.html")]
    assert run(capsys, *unwritable)[0] == 2
    messages.append(json.loads(run(capsys, *unwritable, "--json")[1])["error"])
    (tmp_path / ".claude").mkdir()
    (tmp_path / ".claude" / "boundary.toml").write_text("[report]\nmin_dayz = 1\n")
    messages.append(json.loads(run(capsys, "--project", str(tmp_path), "--json")[1])["error"])
    assert len(messages) == 5
    for message in messages:
        assert re.fullmatch(r"[-A-Za-z].*[.?]", message, re.S), message
        assert not re.search(r"  | [,.;:](\s|$)", message), message


def test_project_report_is_what_the_command_says(capsys, notes_project, tmp_path):
    """Other commands (``phase enforce``) gate on the same verdict, config and allow lists."""
    from datetime import UTC, datetime

    from orchestrator_boundary.cmd_report import NoReport, project_report

    today = datetime.now(UTC).date()
    made = project_report(str(notes_project.root), {}, today)
    data = json.loads(run(capsys, "--project", str(notes_project.root), "--json")[1])
    assert made.trail == data.pop("trail") and made.files == data.pop("trail_files")
    assert data.pop("html") is None
    assert made.report.to_json() == data and made.report.verdict == "NOT READY"
    config = tmp_path / "team.toml"
    config.write_text('[orchestrator]\nwrite_allow = ["STATE.md"]\n')
    env = {"ORCHESTRATOR_BOUNDARY_CONFIG": str(config)}
    assert project_report(str(notes_project.root), env, today).report.ready
    with pytest.raises(NoReport, match=r"^there is no audit trail at .*\?$"):
        project_report(str(tmp_path), {}, today)
