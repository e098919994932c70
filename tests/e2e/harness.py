"""Run the real Claude Code CLI offline, in a throwaway project, against the scripted stand-in.

    harness = Harness(claude_binary(), tmp_path)
    project = harness.project(hooks=Hooks.commands(pre=[cmd], post=[cmd]))
    run = harness.run(project, {"main": [Call("Write", {...}), Text()]})
    run.result_for("main", 0).text      # what the model was told about the Write

Each run gets its own project folder (with ``.claude/settings.json``, custom agents and
``.claude/boundary.toml`` as asked), its own HOME and TMPDIR, and an environment built from
scratch, so nothing of the real user (or of a Claude Code session running the tests) leaks in.
"""

from __future__ import annotations

import contextlib
import json
import os
import shlex
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from fake_api import Answered, FakeAPI, Step, ToolResult, marker

RUN_TIMEOUT = 90.0
MAIN_SCRIPT = "main"


def python_command(script: Path | str, *args: str) -> str:
    """A hook command running ``script`` with this interpreter, quoted for the shell."""
    return " ".join(shlex.quote(str(p)) for p in (sys.executable, script, *args))


_RUNTIME: list[str] = []


def _runtime_dir() -> str:
    if not _RUNTIME:
        _RUNTIME.append(tempfile.mkdtemp(prefix="ob-e2e-"))
    return _RUNTIME[0]


@dataclass(frozen=True)
class Hooks:
    """How hooks reach the CLI: commands written to the project's settings.json, or a plugin
    directory passed with ``--plugin-dir`` (which registers its own hooks), or none."""

    pre: tuple[str, ...] = ()
    post: tuple[str, ...] = ()
    # Other events (SubagentStop, SubagentStart, ...) -> commands.
    other: tuple[tuple[str, tuple[str, ...]], ...] = ()
    plugin_dir: Path | None = None
    timeout: int = 30

    @classmethod
    def commands(
        cls,
        pre: Sequence[str] = (),
        post: Sequence[str] = (),
        other: Mapping[str, Sequence[str]] | None = None,
        timeout: int = 30,
    ) -> Hooks:
        return cls(
            pre=tuple(pre),
            post=tuple(post),
            other=tuple((k, tuple(v)) for k, v in (other or {}).items()),
            timeout=timeout,
        )

    @classmethod
    def plugin(cls, plugin_dir: Path) -> Hooks:
        return cls(plugin_dir=Path(plugin_dir))

    def settings(self) -> dict[str, Any]:
        def entry(commands: Sequence[str], matcher: str | None) -> list[dict[str, Any]]:
            hooks = [{"type": "command", "command": c, "timeout": self.timeout} for c in commands]
            block: dict[str, Any] = {"hooks": hooks}
            if matcher is not None:
                block["matcher"] = matcher
            return [block]

        hooks: dict[str, Any] = {}
        if self.pre:
            hooks["PreToolUse"] = entry(self.pre, "*")
        if self.post:
            hooks["PostToolUse"] = entry(self.post, "*")
        for event, commands in self.other:
            hooks[event] = entry(commands, None)
        return {"hooks": hooks} if hooks else {}


NO_HOOKS = Hooks()


@dataclass(frozen=True)
class Agent:
    """A custom agent type, written to ``.claude/agents/NAME.md``."""

    name: str
    description: str = "A test agent."
    tools: Sequence[str] | None = None
    body: str = "You do what the prompt says."

    def markdown(self) -> str:
        lines = ["---", f"name: {self.name}", f"description: {self.description}"]
        if self.tools is not None:
            lines.append(f"tools: {', '.join(self.tools)}")
        lines += ["---", "", self.body, ""]
        return "\n".join(lines)


@dataclass
class Project:
    root: Path
    home: Path
    tmp: Path
    hooks: Hooks

    def path(self, relative: str) -> Path:
        return self.root / relative

    def neutral(self, text: str) -> str:
        """Replace this run's temporary folders with stable neutral paths."""
        for real, neutral in (
            (str(self.root), "/home/user/project"),
            (str(self.tmp), "/tmp"),
            (str(self.home), "/home/user"),
        ):
            text = text.replace(real, neutral)
        # The CLI names per-project folders after the path with / turned into -.
        dashed = str(self.root).replace("/", "-").replace(".", "-").replace("_", "-")
        return text.replace(dashed, "-home-user-project")


@dataclass
class Run:
    """The outcome of one CLI invocation."""

    project: Project
    api: FakeAPI
    args: list[str]
    returncode: int
    stdout: str
    stderr: str
    seconds: float
    result: dict[str, Any] = field(default_factory=dict)

    @property
    def permission_denials(self) -> list[dict[str, Any]]:
        return list(self.result.get("permission_denials") or [])

    def tool_results(self) -> dict[str, ToolResult]:
        return self.api.tool_results()

    def tool_result(self, tool_use_id: str) -> ToolResult:
        results = self.api.tool_results()
        assert tool_use_id in results, self.explain(f"no tool_result for {tool_use_id}")
        return results[tool_use_id]

    def result_for(self, script: str, step: int, position: int = 0) -> ToolResult:
        """The tool_result of the call made at ``step`` of ``script`` (fails clearly if the
        CLI never answered it, e.g. because the script was never reached)."""
        got = self.api.result_for(script, step, position)
        assert got is not None, self.explain(f"no tool_result for {script}[{step}]")
        return got

    def calls(self, script: str | None = None) -> list[Answered]:
        return self.api.answered(script)

    def context_after(self, script: str, step: int) -> str:
        """Everything the model was given back for a step (tool result plus the text blocks
        beside it, where hook additionalContext lands), as one text."""
        got = self.result_for(script, step)
        return "\n".join([got.text, *got.siblings])

    def explain(self, headline: str) -> str:
        lines = [
            headline,
            f"command: {shlex.join(self.args)}",
            f"exit {self.returncode} after {self.seconds:.1f}s",
            f"stderr: {self.stderr[-3000:]}",
            f"result: {json.dumps(self.result)[:2000]}",
            "requests:",
        ]
        for r in self.api.requests:
            lines.append(
                f"  #{r.index} {r.method} {r.path} script={r.script} step={r.step} "
                f"answered={[a.call.name for a in r.answered]}"
            )
        results = self.api.tool_results()
        lines.append("tool results:")
        for tool_use_id, res in results.items():
            lines.append(f"  {tool_use_id} error={res.is_error}: {res.text[:300]!r}")
        return "\n".join(lines)


class Harness:
    """Makes projects and runs the CLI in them. One per test (it lives under tmp_path)."""

    def __init__(self, claude: Path, base: Path) -> None:
        self.claude = Path(claude)
        self.base = Path(base)
        self._count = 0

    def project(
        self,
        hooks: Hooks = NO_HOOKS,
        *,
        agents: Sequence[Agent] = (),
        boundary_toml: str | None = None,
        files: Mapping[str, str] | None = None,
        git: bool = False,
    ) -> Project:
        self._count += 1
        top = self.base / f"e2e{self._count}"
        root, home, tmp = top / "project", top / "home", top / "tmp"
        for folder in (root / ".claude", home, tmp):
            folder.mkdir(parents=True, exist_ok=True)
        settings = hooks.settings()
        if settings:
            (root / ".claude" / "settings.json").write_text(
                json.dumps(settings, indent=2) + "\n", encoding="utf-8"
            )
        if agents:
            (root / ".claude" / "agents").mkdir(exist_ok=True)
            for agent in agents:
                (root / ".claude" / "agents" / f"{agent.name}.md").write_text(
                    agent.markdown(), encoding="utf-8"
                )
        if boundary_toml is not None:
            (root / ".claude" / "boundary.toml").write_text(boundary_toml, encoding="utf-8")
        for relative, content in (files or {}).items():
            target = root / relative
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(content, encoding="utf-8")
        if git:
            subprocess.run(["git", "init", "-q", str(root)], check=True, timeout=30)
        return Project(root=root.resolve(), home=home.resolve(), tmp=tmp.resolve(), hooks=hooks)

    def env(
        self, project: Project, api_url: str, extra: Mapping[str, str] | None
    ) -> dict[str, str]:
        # This interpreter's folder first, so that a plugin's ``python3`` hook command finds
        # the same environment (and packages) as the tests.
        path = os.pathsep.join(
            [str(Path(sys.executable).parent), os.environ.get("PATH", "/usr/bin:/bin")]
        )
        env = {
            "PATH": path,
            "HOME": str(project.home),
            "TMPDIR": str(project.tmp),
            "LANG": "C.UTF-8",
            "TERM": "dumb",
            "ANTHROPIC_BASE_URL": api_url,
            "ANTHROPIC_API_KEY": "dummy",
            "DISABLE_AUTOUPDATER": "1",
            "DISABLE_TELEMETRY": "1",
            "DISABLE_ERROR_REPORTING": "1",
            "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
            # The product's hooks hand calls to a resident evaluator (ADR 0009): give it a short
            # private runtime folder (socket paths must stay under ~100 bytes) and a short idle
            # time, so the real route is exercised and no evaluator outlives the run for long.
            "ORCHESTRATOR_BOUNDARY_RUNTIME_DIR": _runtime_dir(),
            "ORCHESTRATOR_BOUNDARY_DAEMON_IDLE": "20",
        }
        env.update(extra or {})
        return env

    def run(
        self,
        project: Project,
        scripts: Mapping[str, Sequence[Step]],
        *,
        main: str = MAIN_SCRIPT,
        prompt: str | None = None,
        agent: str | None = None,
        tools: Sequence[str] | None = None,
        env: Mapping[str, str] | None = None,
        extra_args: Sequence[str] = (),
        timeout: float = RUN_TIMEOUT,
    ) -> Run:
        """Run ``claude -p`` once; the main conversation plays ``scripts[main]``."""
        if main not in scripts:
            raise ValueError(f"no script named {main!r}")
        prompt = prompt if prompt is not None else f"Please do the task. {marker(main)}"
        args = [
            str(self.claude),
            "-p",
            prompt,
            "--output-format",
            "json",
            "--permission-mode",
            "acceptEdits",
        ]
        if project.hooks.plugin_dir is not None:
            args += ["--plugin-dir", str(project.hooks.plugin_dir)]
        if agent is not None:
            args += ["--agent", agent]
        if tools is not None:
            args += ["--tools", ",".join(tools)]
        args += list(extra_args)
        with FakeAPI(dict(scripts)) as api:
            started = time.monotonic()
            proc = subprocess.Popen(
                args,
                cwd=project.root,
                env=self.env(project, api.url, env),
                stdin=subprocess.DEVNULL,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
                start_new_session=True,
            )
            try:
                stdout, stderr = proc.communicate(timeout=timeout)
            except subprocess.TimeoutExpired:
                _kill_group(proc)
                stdout, stderr = proc.communicate(timeout=10)
                run = Run(project, api, args, -9, stdout, stderr, time.monotonic() - started)
                raise AssertionError(run.explain(f"claude did not finish in {timeout}s")) from None
            finally:
                # Also ends anything the CLI left behind in its process group.
                _kill_group(proc)
            seconds = time.monotonic() - started
        run = Run(project, api, args, proc.returncode, stdout, stderr, seconds)
        try:
            parsed = json.loads(stdout) if stdout.strip() else {}
        except ValueError:
            parsed = {}
        run.result = parsed if isinstance(parsed, dict) else {"value": parsed}
        if proc.returncode != 0 or not run.result:
            raise AssertionError(run.explain("claude failed"))
        return run


def _kill_group(proc: subprocess.Popen[str]) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.killpg(proc.pid, signal.SIGKILL)
