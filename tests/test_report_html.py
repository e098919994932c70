"""The HTML report, opened in a real headless browser (Debian's chromium).

This test is never skipped: when chromium is missing it FAILS and says how to install it
(``apt-get update && apt-get install -y chromium``); CI installs it.
"""

from __future__ import annotations

import re
import shutil
import struct
import subprocess
import zlib
from pathlib import Path

import pytest
from report_trails import TODAY, build, keep_notes

from orchestrator_boundary import audit
from orchestrator_boundary.report import Thresholds, compute, load_trail
from orchestrator_boundary.report_html import render_html

CHROMIUM_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--window-size=1200,1600",
]


def chromium() -> str:
    for name in ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable"):
        found = shutil.which(name)
        if found:
            return found
    pytest.fail(
        "chromium is not installed; the HTML report test needs a real browser: "
        "run `apt-get update && apt-get install -y chromium`",
        pytrace=False,
    )


def browser(page: Path, tmp: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    profile = tmp / "profile"
    profile.mkdir(exist_ok=True)
    return subprocess.run(
        [chromium(), *CHROMIUM_FLAGS, f"--user-data-dir={profile}", *extra, page.as_uri()],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


# ------------------------------------------------------------- a small PNG reader (no PIL)


def png_pixels(data: bytes) -> tuple[int, int, int, list[bytes]]:
    """(width, height, bytes per pixel, rows) of an 8-bit RGB/RGBA/grey PNG, unfiltered."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat, header = 8, b"", None
    while pos < len(data):
        (length,) = struct.unpack(">I", data[pos : pos + 4])
        kind, body = data[pos + 4 : pos + 8], data[pos + 8 : pos + 8 + length]
        pos += 12 + length
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
    assert header is not None
    width, height, depth, color, _, _, interlace = header
    assert depth == 8 and interlace == 0, header
    bpp = {0: 1, 2: 3, 4: 2, 6: 4}[color]
    raw = zlib.decompress(idat)
    stride = width * bpp
    rows: list[bytes] = []
    prev = bytearray(stride)
    for y in range(height):
        start = y * (stride + 1)
        kind, line = raw[start], bytearray(raw[start + 1 : start + 1 + stride])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if kind == 1:
                line[i] = (line[i] + a) & 0xFF
            elif kind == 2:
                line[i] = (line[i] + b) & 0xFF
            elif kind == 3:
                line[i] = (line[i] + (a + b) // 2) & 0xFF
            elif kind == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                pred = a if pa <= pb and pa <= pc else b if pb <= pc else c
                line[i] = (line[i] + pred) & 0xFF
        rows.append(bytes(line))
        prev = line
    return width, height, bpp, rows


def colour_counts(data: bytes, step: int = 3) -> dict[str, int]:
    """Sampled pixel counts: non-white, green-ish (PASS/READY) and red-ish (FAIL/NOT READY)."""
    _, _, bpp, rows = png_pixels(data)
    counts = {"non_white": 0, "green": 0, "red": 0, "blue": 0, "sampled": 0}
    for row in rows[::step]:
        for i in range(0, len(row) - bpp + 1, bpp * step):
            r, g, b = (row[i], row[i + 1], row[i + 2]) if bpp >= 3 else (row[i],) * 3
            counts["sampled"] += 1
            if min(r, g, b) < 235:
                counts["non_white"] += 1
            if g > 100 and g > r + 40 and g > b + 30:
                counts["green"] += 1
            if r > 150 and g < 70 and b < 90:
                counts["red"] += 1
            if b > 180 and b > r + 60 and b > g + 30:
                counts["blue"] += 1
    return counts


# ------------------------------------------------------------------------------ tests


def page_for(b, tmp: Path, name: str) -> tuple[Path, object]:
    trail = load_trail(audit.trail_files(str(b.audit)))
    rep = compute(trail.records, Thresholds(), TODAY, malformed=trail.malformed)
    page = tmp / f"{name}.html"
    page.write_text(render_html(rep, trail_path=str(b.audit)), encoding="utf-8")
    return page, rep


@pytest.fixture(scope="module")
def ready_page(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("html-ready")
    return page_for(build(tmp / "proj"), tmp, "ready")


def test_page_is_self_contained(ready_page):
    page, _ = ready_page
    html = page.read_text()
    assert "<script" not in html.lower()
    assert not re.search(r"(?i)(https?:|//[a-z0-9.-]+\.[a-z]{2,}/|src=|href=|@import|url\()", html)
    assert "<style>" in html and html.count("<svg") == 2


def test_chromium_renders_verdict_and_charts(ready_page, tmp_path):
    page, rep = ready_page
    proc = browser(page, tmp_path, "--dump-dom")
    assert proc.returncode == 0, proc.stderr[-2000:]
    dom = proc.stdout
    assert re.search(r'id="verdict"[^>]*>READY<', dom), dom[:2000]
    assert 'id="chart-per-day"' in dom and 'id="chart-by-tool"' in dom
    per_day = dom.split('id="chart-per-day"', 1)[1].split("</svg>", 1)[0]
    assert per_day.count('class="bar"') == sum(1 for d in rep.per_day)
    assert "<polyline" in per_day
    by_tool = dom.split('id="chart-by-tool"', 1)[1].split("</svg>", 1)[0]
    assert by_tool.count('class="bar"') == len(rep.by_tool) == 2
    assert dom.count('data-ok="true"') == 8  # no analysis misses: the eighth (ADR 0029)
    assert 'id="notes"' not in dom and 'id="write-allow"' not in dom


def test_chromium_screenshot_is_not_blank(ready_page, tmp_path):
    page, _ = ready_page
    shot = tmp_path / "ready.png"
    proc = browser(page, tmp_path, f"--screenshot={shot}")
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert shot.exists() and shot.stat().st_size > 20_000
    width, height, _, _ = png_pixels(shot.read_bytes())
    assert (width, height) == (1200, 1600)
    counts = colour_counts(shot.read_bytes())
    assert counts["non_white"] > counts["sampled"] * 0.02, counts
    assert counts["green"] > 200, counts  # the READY badge and the PASS rows
    assert counts["blue"] > 200, counts  # the chart bars
    assert counts["red"] < 50, counts


def test_chromium_shows_not_ready_in_red(tmp_path):
    page, rep = page_for(build(tmp_path / "proj", writes=lambda d: d // 5), tmp_path, "rising")
    assert not rep.ready
    dom = browser(page, tmp_path, "--dump-dom").stdout
    assert re.search(r'id="verdict"[^>]*>NOT READY<', dom)
    assert dom.count('data-ok="false"') == 1
    shot = tmp_path / "rising.png"
    proc = browser(page, tmp_path, f"--screenshot={shot}")
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert colour_counts(shot.read_bytes())["red"] > 200


def test_chromium_shows_the_intended_write_and_the_error_causes(tmp_path):
    b = build(tmp_path / "proj")
    keep_notes(b, range(20))
    for raw in (b"{not json", b"{not json either"):
        b.call(3, "ignored", raw=raw)
    page, rep = page_for(b, tmp_path, "notes")
    assert rep.intended is not None and rep.by_cause
    proc = browser(page, tmp_path, "--dump-dom")
    assert proc.returncode == 0, proc.stderr[-2000:]
    dom = proc.stdout
    assert re.search(r'id="verdict"[^>]*>NOT READY<', dom)
    assert dom.count('data-ok="false"') == 1 and "intended orchestrator writes" in dom
    notes = dom.split('id="notes"', 1)[1].split("</div>", 1)[0]
    assert "The top violation, STATE.md, looks like a file the orchestrator" in notes
    pre = re.search(r'<pre id="write-allow">(.*?)</pre>', notes, re.S)
    assert pre and pre[1] == '[orchestrator]\nwrite_allow = ["STATE.md"]'  # text: quotes as is
    causes = dom.split('id="errors-by-cause"', 1)[1].split("</div>", 1)[0]
    assert '<code>input is not valid JSON</code></td><td class="n">2</td>' in causes, causes


def test_empty_report_renders(tmp_path):
    rep = compute([], Thresholds(), TODAY)
    html = render_html(rep)
    assert "no tool uses" in html and "no violations" in html and "NOT READY" in html


def test_names_are_escaped(tmp_path):
    recs = [
        {
            "ts": "2026-01-01T00:00:00+00:00",
            "event": "PreToolUse",
            "session_id": "s",
            "tool_name": "<script>alert(1)</script>",
            "paths": ["<b>x</b>"],
            "would_deny": True,
            "error": None,
        }
    ]
    html = render_html(compute(recs, Thresholds(), TODAY))
    assert "<script>" not in html and "&lt;script&gt;" in html and "<b>x" not in html


def test_long_tool_names_are_shown_in_full_below_the_chart():
    tool = "mcp__a_really_long_server_name__and_a_long_tool_name"
    recs = [
        {
            "ts": "2026-01-01T00:00:00+00:00",
            "event": "PreToolUse",
            "session_id": "s",
            "tool_name": name,
            "would_deny": True,
            "error": None,
        }
        for name in (tool, "Write")
    ]
    html = render_html(compute(recs, Thresholds(), TODAY))
    chart = html.split('id="chart-by-tool"', 1)[1].split("</svg>", 1)[0]
    assert f">{tool}<" not in chart and "\u2026" in chart  # the chart's label is shortened
    full = html.split('id="tools-in-full"', 1)[1].split("</div>", 1)[0]
    assert f"<code>{tool}</code>" in full and "<code>Write</code>" in full
    short = render_html(compute(recs[1:], Thresholds(), TODAY))
    assert 'id="tools-in-full"' not in short
