"""The field measures the Bash analysis (issue 12 point 11, ADR 0029): what a call really
changed under the project root, set against what the analysis predicted.

Core: plain values in, plain values out. The shell (``field_check``) gathers what changed
(Claude Code's ``bashEditDiff`` or two bounded tree snapshots, ``field_scan``) and what the
analysis said; this module decides which changes were predicted, which were not, and which
the analysis never claimed to know (``opaque``), and writes the audit value.

A change is *predicted* when a resolved effect target is the changed path or a folder above
it (``rm -r build`` predicts everything below ``build``). A command rated ``opaque`` or
``unparseable``, or with an effect whose target could not be resolved, has said it does not
know what it writes: its unpredicted changes are recorded as ``opaque``, not as misses. A
*miss* is an unpredicted change by a command rated ``read_only`` or ``writes``: the analysis
claimed to know, and was wrong.
"""

from __future__ import annotations

import posixpath
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from orchestrator_boundary.bash.model import BashAnalysis, Status
from orchestrator_boundary.values import frozen

MAX_LISTED = 20  # paths kept per list in the audit line; the counts say how many there were
KNOWING = frozenset({Status.READ_ONLY.value, Status.WRITES.value})  # labels that can miss


def norm(path: str, *, fold: bool) -> str:
    """A path for comparison: ``/`` separators, ``..`` collapsed, no trailing ``/``,
    case-folded where the file system ignores case."""
    path = posixpath.normpath(path.replace("\\", "/")) if path else path
    return path.casefold() if fold else path


@frozen
class Prediction:
    """What the analysis said a command changes."""

    label: str  # the analysis's status: read_only, writes, opaque, unparseable
    targets: tuple[str, ...] = ()  # resolved effect targets (absolute, as the analysis wrote)
    unresolved: bool = False  # an effect whose target is unknown: it may be anywhere

    @property
    def knows(self) -> bool:
        """Did the analysis claim to know every file the command changes?"""
        return self.label in KNOWING and not self.unresolved


def prediction(analysis: BashAnalysis | None) -> Prediction:
    if analysis is None:
        return Prediction(Status.OPAQUE.value, (), True)
    targets = tuple(dict.fromkeys(e.resolved for e in analysis.effects if e.resolved))
    unresolved = any(not e.resolved for e in analysis.effects)
    return Prediction(analysis.status.value, targets, unresolved)


def covered(path: str, targets: Iterable[str]) -> bool:
    """Is normalised absolute ``path`` a target or below one (targets normalised too)?"""
    return any(path == t or path.startswith(t if t.endswith("/") else t + "/") for t in targets)


@frozen
class EditDiff:
    """Claude Code's own list of the files a Bash call changed (``bashEditDiff``)."""

    changed: tuple[str, ...]  # absolute paths, as sent
    truncated: bool  # the CLI cut the list (200 at most): some changes are not named
    unavailable: bool  # the CLI said it could not make the list


def edit_diff(response: object) -> EditDiff | None:
    """The ``bashEditDiff`` of a Bash PostToolUse ``tool_response``; None when absent.
    ``changedFiles`` is cut when shorter than ``len(files) + moreFiles`` (2.1.330)."""
    if not isinstance(response, Mapping):
        return None
    d = response.get("bashEditDiff")
    if not isinstance(d, Mapping):
        return None
    sent_files, sent_more = d.get("files"), d.get("moreFiles")
    files: list[Any] = sent_files if isinstance(sent_files, list) else []
    more = sent_more if isinstance(sent_more, int) and not isinstance(sent_more, bool) else 0
    listed = d.get("changedFiles")
    if isinstance(listed, list):
        changed = tuple(p for p in listed if isinstance(p, str) and p)
    else:  # an older shape: the shown files only
        shown = [f.get("filePath") for f in files if isinstance(f, Mapping)]
        changed = tuple(p for p in shown if isinstance(p, str) and p)
    truncated = len(changed) < len(files) + max(more, 0)
    unavailable = d.get("unavailable") is True or d.get("skipped") is True
    return EditDiff(changed, truncated, unavailable)


def relative(path: str, root: str, *, fold: bool) -> str | None:
    """``path`` relative to ``root`` with ``/`` separators; None when outside the root."""
    p, r = norm(path, fold=False), norm(root, fold=False)
    pk, rk = (p.casefold(), r.casefold()) if fold else (p, r)
    base = rk if rk.endswith("/") else rk + "/"
    if not pk.startswith(base):
        return None
    return p[len(base) :] or None


@frozen
class Finding:
    """The comparison of one call, as the audit line records it."""

    source: str  # "scan", "bashEditDiff", or both joined by "+"
    label: str
    changed: tuple[str, ...]  # relative to the root, sorted
    missed: tuple[str, ...]  # changed, not predicted, by a command that claimed to know
    opaque: tuple[str, ...]  # changed, not predicted, by a command that said it did not know
    partial: bool  # some of the tree (or of the CLI's list) could not be compared
    overlapped: bool  # another tool call ran at the same time: changes may be its

    def audit(self, **extra: Any) -> dict[str, Any]:
        out: dict[str, Any] = {
            "source": self.source,
            "label": self.label,
            "changed": list(self.changed[:MAX_LISTED]),
            "changed_count": len(self.changed),
            "missed": list(self.missed[:MAX_LISTED]),
            "missed_count": len(self.missed),
        }
        if self.opaque:
            out["opaque"] = list(self.opaque[:MAX_LISTED])
            out["opaque_count"] = len(self.opaque)
        out["partial"], out["overlapped"] = self.partial, self.overlapped
        return {**out, **extra}


def compare(
    p: Prediction,
    changed: Sequence[str],
    root: str,
    *,
    fold: bool,
    source: str,
    partial: bool,
    overlapped: bool,
) -> Finding:
    """Set the changed paths (relative to ``root``) against the prediction. ``p.targets``
    may hold extra spellings of a target (its resolved form): any one covers."""
    targets = [norm(t, fold=fold) for t in p.targets]
    base = norm(root, fold=fold)
    unpredicted = [
        rel
        for rel in changed
        if not covered(norm(posixpath.join(base, norm(rel, fold=fold)), fold=False), targets)
    ]
    missed, opaque = (unpredicted, []) if p.knows else ([], unpredicted)
    return Finding(
        source,
        p.label,
        tuple(sorted(changed)),
        tuple(sorted(missed)),
        tuple(sorted(opaque)),
        partial,
        overlapped,
    )
