"""Delegation directives: the grammar of ``Intent:`` and ``Scope:``, agent type names, and the
effective scope as sets that must all cover a path (ADR 0027)."""

from __future__ import annotations

import pytest

from orchestrator_boundary.delegation import (
    EffectiveScope,
    ScopeSet,
    disjoint,
    parse_directives,
    resolve_type,
    type_key,
    within,
)
from orchestrator_boundary.paths import Located


@pytest.mark.parametrize(
    ("prompt", "intent", "scope"),
    [
        ("Fix the bug.", None, None),
        ("Fix it.\nIntent: login-fix", "login-fix", None),
        ("Intent:login-fix\n", "login-fix", None),
        ("Intent: \tv2.fix_3 \t", "v2.fix_3", None),
        ("Scope: src/auth/**, tests/test_login.py", None, ("src/auth/**", "tests/test_login.py")),
        ("Scope: src/**,!src/secrets/**", None, ("src/**", "!src/secrets/**")),
        ("x\r\nIntent: a\r\nScope: b/**\r\n", "a", ("b/**",)),
        ("The Intent: here is prose too", None, None),
        ("Intentional: prose", None, None),
        ("Scope of the work: the parser", None, None),
        ("- scope creep is the risk", None, None),
    ],
    ids=[
        "none",
        "intent",
        "no-space",
        "spaces-around",
        "scope",
        "scope-exclusion",
        "crlf",
        "mid-line-is-prose",
        "longer-word-is-prose",
        "key-word-then-more-is-prose",
        "key-word-in-a-list-is-prose",
    ],
)
def test_directives_parse(prompt: str, intent: str | None, scope: tuple[str, ...] | None) -> None:
    d = parse_directives(prompt)
    assert (d.intent, d.scope, d.error) == (intent, scope, None)


@pytest.mark.parametrize(
    ("prompt", "line", "key", "fragment"),
    [
        ("intent: login-fix", 1, "Intent", "write 'Intent:'"),
        ("x\nSCOPE : src/**", 2, "Scope", "write 'Scope:'"),
        ("Intent: two words", 1, "Intent", "not one intent id"),
        ("Intent:", 1, "Intent", "not one intent id"),
        ("Intent: -lead", 1, "Intent", "not one intent id"),
        ("Intent: a\nIntent: b", 2, "Intent", "a second Intent"),
        ("Scope: a/**\nScope: b/**", 2, "Scope", "a second Scope"),
        ("Scope:", 1, "Scope", "an empty pattern"),
        ("Scope: a/**,,b", 1, "Scope", "an empty pattern"),
        ("Scope: `src/**`", 1, "Scope", "unquoted"),
        ("Scope: 'src/**'", 1, "Scope", "unquoted"),
        ("Scope: the login flow in src/auth", 1, "Scope", "holds a space"),
        ("Scope: ../outside/**", 1, "Scope", "'..' segments"),
        ("Scope: !src/secrets/**", 1, "Scope", "only exclusions"),
        ("Scope: " + ",".join(["a"] * 33), 1, "Scope", "more than 32"),
        # ADR 0050: a line a person reads as a directive is one, or an error; never prose
        ("  Intent: fix", 1, "Intent", "plainly at the start"),
        ("\tScope: src/**", 1, "Scope", "plainly at the start"),
        ("- Scope: src/**", 1, "Scope", "plainly at the start"),
        ("1. Intent: fix", 1, "Intent", "plainly at the start"),
        ("**Intent:** fix", 1, "Intent", "plainly at the start"),
        ("> Scope: src/**", 1, "Scope", "plainly at the start"),
        ("## Scope: src/**", 1, "Scope", "plainly at the start"),
        ("`Scope: src/**`", 1, "Scope", "plainly at the start"),
        ("\u0399ntent: fix", 1, "Intent", "plainly at the start"),
        ("S\u0441ope: src/**", 1, "Scope", "plainly at the start"),
        ("\uff29\uff2e\uff34\uff25\uff2e\uff34: fix", 1, "Intent", "plainly at the start"),
        ("Intent\uff1a fix", 1, "Intent", "plainly at the start"),
        ("\u200bIntent: fix", 1, "Intent", "plainly at the start"),
        ("Int\u200dent: fix", 1, "Intent", "plainly at the start"),
        ("Scope\u2236 src/**", 1, "Scope", "plainly at the start"),
        ("Intent: fix\u2028Scope: docs/**", 1, "Intent", "not one intent id"),
        ("Intent: fix\x85Scope: docs/**", 1, "Intent", "not one intent id"),
        ("Scope: src/**\fIntent: fix", 1, "Scope", "holds a space"),
        ("```\nIntent: a\n```\nIntent: b", 4, "Intent", "a second Intent"),
    ],
    ids=[
        "lowercase-key",
        "upper-key-space",
        "two-words",
        "empty-intent",
        "bad-id",
        "two-intents",
        "two-scopes",
        "empty-scope",
        "empty-item",
        "backticks",
        "quotes",
        "prose",
        "dotdot",
        "only-exclusion",
        "too-many",
        "indented",
        "tab-indented",
        "list-item",
        "numbered",
        "bold",
        "quoted",
        "heading",
        "code-span",
        "greek-iota",
        "cyrillic-es",
        "full-width",
        "full-width-colon",
        "zero-width-space-before",
        "zero-width-joiner-inside",
        "ratio-colon",
        "line-separator-is-no-line-break",
        "next-line-is-no-line-break",
        "form-feed-is-no-line-break",
        "fenced-example-and-real-line",
    ],
)
def test_directives_that_do_not_parse(prompt: str, line: int, key: str, fragment: str) -> None:
    d = parse_directives(prompt)
    assert d.error is not None and (d.error.line, d.error.key) == (line, key)
    assert fragment in d.error.problem
    assert (d.intent, d.scope) == (None, None)


@pytest.mark.parametrize(
    "prompt",
    [
        "**Scope:** only the auth module, please.",
        "- Scope: keep the change small",
        "## Scope: what this task covers",
        "1. Intent: make the login flow work again",
        "scope: the tests only",
        "**Intent**: fix the bug the user reported",
        "  Scope: src/auth and its tests",
    ],
    ids=["bold", "list", "heading", "numbered", "lowercase", "bold-key", "indented"],
)
def test_a_decorated_key_before_prose_is_prose(prompt: str) -> None:
    """An orchestrator that writes Markdown prose about the scope meant no contract: its
    Agent call is not refused (ADR 0050). Only a value that would parse was meant as one."""
    assert parse_directives(f"Fix the login bug.\n{prompt}\nThanks.") == parse_directives("")


@pytest.mark.parametrize(
    ("requested", "resolved"),
    [
        (None, "general-purpose"),
        ("", "general-purpose"),
        ("generalpurpose", "general-purpose"),
        ("General_Purpose", "general-purpose"),
        ("EXPLORE", "Explore"),
        ("Coder", "coder"),
        ("co der", "coder"),
        ("fork", "fork"),
        ("Nope", "Nope"),
    ],
    ids=["omitted", "empty", "joined", "underscored", "upper", "custom", "spaced", "fork", "bad"],
)
def test_agent_types_resolve_as_the_cli_does(requested: str | None, resolved: str) -> None:
    assert resolve_type(requested, ["coder", "*"]) == resolved


def test_type_key_folds_width_and_dashes() -> None:
    assert type_key("\uff23\uff2f\uff24\uff25\uff32") == type_key("co-der") == "coder"


def _at(rel: str) -> Located:
    return Located(rel, (f"/p/{rel}",), (rel,), "")


SETS = EffectiveScope(
    (
        ScopeSet("agents.coder.write_scope", ("src/**", "tests/**")),
        ScopeSet('intents."auth".owned_scope', ("src/auth/**", "!src/auth/keys/**")),
        ScopeSet("Scope: line", ("src/auth/login.py", "src/auth/keys/k.pem")),
    )
)


@pytest.mark.parametrize(
    ("rel", "source", "why"),
    [
        ("src/auth/login.py", None, None),
        ("src/auth/session.py", "Scope: line", "no pattern covers it"),
        ("src/billing.py", 'intents."auth".owned_scope', "no pattern covers it"),
        ("docs/x.md", "agents.coder.write_scope", "no pattern covers it"),
        ("src/auth/keys/k.pem", 'intents."auth".owned_scope', "excluded by '!src/auth/keys/**'"),
    ],
    ids=["inside-all", "outside-scope-line", "outside-intent", "outside-profile", "excluded"],
)
def test_every_set_must_cover_the_path(rel: str, source: str | None, why: str | None) -> None:
    miss = within(_at(rel), SETS, False)
    assert (miss.source if miss else None, miss.why if miss else None) == (source, why)


def test_a_path_outside_the_root_is_covered_by_no_relative_set() -> None:
    outside = Located("/etc/passwd", ("/etc/passwd",), (), "outside the project root")
    miss = within(outside, SETS, False)
    assert miss is not None and miss.why == "outside the project root"


def test_no_sets_narrow_nothing() -> None:
    assert within(_at("anything.py"), EffectiveScope(), False) is None


def test_narrowing_keeps_the_parent_sets_first_and_once() -> None:
    parent = EffectiveScope((ScopeSet("a", ("x/**",)),))
    child = parent.narrowed(ScopeSet("a", ("x/**",)), ScopeSet("b", ("x/y/**",)))
    assert child.sets == (ScopeSet("a", ("x/**",)), ScopeSet("b", ("x/y/**",)))


@pytest.mark.parametrize(
    ("patterns", "outer", "apart"),
    [
        (["src/auth/**"], ["src/**"], []),
        (["src/**"], ["src/auth/**"], []),
        (["docs/**"], ["src/**"], ["docs/**"]),
        (["src/a.py"], ["src/b.py"], ["src/a.py"]),
        (["**/x.py"], ["src/**"], []),
        (["src/*.py"], ["*/auth/**"], []),
        (["SRC/**"], ["src/**"], []),
        (["/tmp/**"], ["src/**"], ["/tmp/**"]),
        (["docs/**", "src/x"], ["src/**", "!src/x"], ["docs/**"]),
    ],
    ids=[
        "narrower",
        "wider-overlaps",
        "apart",
        "two-files",
        "wild-root",
        "wild-outer",
        "case",
        "absolute",
        "exclusions-are-not-inclusions",
    ],
)
def test_disjoint_reports_only_what_provably_shares_nothing(
    patterns: list[str], outer: list[str], apart: list[str]
) -> None:
    assert disjoint(patterns, outer) == apart
