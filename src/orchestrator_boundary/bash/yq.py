"""yq, in both of its common forms: kislyuk's (a jq wrapper: `-i`/`--in-place` edits the files)
and mikefarah's (Go: `-i`/`--inplace` edits them, `-s`/`--split-exp EXPR` writes one file per
result, named by the expression).

Which one is installed cannot be told from the text, so an option either has the same harmless
meaning in both, or counts for the one that writes. An option in neither table is ``opaque``
(ADR 0038, 0062).
"""

from __future__ import annotations

from orchestrator_boundary.bash.model import EffectKind, Status
from orchestrator_boundary.bash.outcome import Env, Outcome, checked, opaque, read_only
from orchestrator_boundary.bash.readonly_data import names
from orchestrator_boundary.bash.words import Word

W = EffectKind.WRITE

# short options with no value in both forms (jq's own for kislyuk's, which hands them on)
_FLAGS = frozenset("yYcrjaCMSenNPReVhx0")
# short options that take the next word (or an attached rest)
_VALUED = frozenset("owpIfL")
# long options, whole names only: an abbreviation is opaque unless it can only mean in-place
_LONG_FLAGS = names(
    """--yaml-output --yml-output --yaml-roundtrip --yml-roundtrip --indentless-lists
    --indentless --version --help --explicit-start --explicit-end --xml-output --toml-output
    --seq --stream --raw-input --null-input --compact-output --tab --color-output
    --monochrome-output --ascii-output --unbuffered --sort-keys --raw-output --join-output
    --exit-status --prettyPrint --unwrapScalar --no-doc --colors --no-colors --tojson
    --nul-output --verbose --header-preprocess --no-header-preprocess"""
)
_LONG_VALUED = names(
    """--width --indent --yaml-output-grammar-version --yml-out-ver --output-format
    --input-format --from-file --front-matter --expression"""
)
_LONG_TWO = names("--arg --argjson --slurpfile --rawfile")  # NAME VALUE
_IN_PLACE = ("--in-place", "--inplace")
_SPLIT = "--split-exp"


def _long(name: str) -> str:
    """What a long option means here: "in-place", "split", "flag", "valued", "two" or ""."""
    if len(name) > 3 and any(full.startswith(name) for full in _IN_PLACE):
        return "in-place"  # `--in`, `--in-pl`: only in-place begins so
    if len(name) > 3 and _SPLIT.startswith(name):
        return "split"
    if name in _LONG_FLAGS:
        return "flag"
    if name in _LONG_VALUED:
        return "valued"
    return "two" if name in _LONG_TWO else ""


def _short(cluster: str) -> tuple[str, bool]:
    """(what the cluster ``-xyz`` means, whether it takes the next word as a value)."""
    for k, letter in enumerate(cluster):
        if letter == "i":
            return "in-place", False
        if letter == "s":
            return "split", False
        if letter in _VALUED:
            return "flag", k == len(cluster) - 1
        if letter not in _FLAGS:
            return "", False
    return "flag", False


def yq(prog: str, args: list[Word], env: Env) -> Outcome:
    in_place = False
    operands: list[Word] = []
    unknown: list[str] = []
    i = 0
    while i < len(args):
        value = args[i].value
        if value is None or not value.startswith("-") or value == "-":
            operands.append(args[i])
        elif value == "--":
            operands += args[i + 1 :]
            break
        else:
            name = value.partition("=")[0]
            meaning, takes = _long(name), False
            if not value.startswith("--"):
                meaning, takes = _short(value[1:])
            elif "=" not in value:
                takes = meaning in ("valued", "two")
                i += meaning == "two"
            if meaning == "split":  # mikefarah's: a file per result, named by EXPR
                return opaque(prog, "yq -s/--split-exp writes files its expression names")
            in_place = in_place or meaning == "in-place"
            if not meaning:
                unknown.append(value)
            i += takes
        i += 1
    if not in_place:
        return checked(prog, unknown, read_only(prog, "yq prints to stdout"))
    files = (
        operands[2:]
        if operands and operands[0].value in ("eval", "e", "eval-all", "ea")
        else operands[1:]
    )
    fx = env.fx_many(W, files, "yq -i target")
    return checked(prog, unknown, Outcome(prog, Status.WRITES, tuple(fx), ""))
