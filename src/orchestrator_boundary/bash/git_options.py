"""The options git's reading subcommands are known to take harmlessly (ADR 0038).

``git status``, ``log``, ``diff``, ... are read-only only with options from their table here.
Parsing follows git's parse-options: short options cluster (``-sb``), a short option's value is
attached or the next word (``-n5``, ``-n 5``), an optional value only attached (``-M90``),
``--name=value`` or ``--name value``, any unambiguous prefix of a long option (``--name-st``),
and ``--no-NAME`` for a known ``--NAME``. A word that names or abbreviates an option that writes
(``--output``) or runs a program (``--ext-diff``, ``--textconv``, ``grep -O``) is reported as
such, even where git would call the abbreviation ambiguous; any other option is ``unknown``.
"""

from __future__ import annotations

from orchestrator_boundary.bash.options import Spec, spec
from orchestrator_boundary.bash.opts import Parsed
from orchestrator_boundary.bash.readonly_data import GIT_RUNNING_KEYS, GIT_SAFE_CONFIG_PREFIXES
from orchestrator_boundary.bash.words import Word
from orchestrator_boundary.protect_git import program_key
from orchestrator_boundary.values import field, frozen

# Options of the reading subcommands that write a file, and ones that run a program (a diff
# driver, a textconv or clean/smudge filter, gpg, a pager on the matches, a remote command).
WRITING = ("--output", "--output-directory", "--lost-found")
RUNS_TEXT = ("--open-files-in-pager", "--exec", "--upload-pack", "--receive-pack")  # the value
RUNS_CONFIG = (  # a program the configuration or the environment names
    *("--ext-diff", "--textconv", "--filters", "--show-signature", "--web", "--info", "--man"),
    "--edit",
)
RUNNING = RUNS_TEXT + RUNS_CONFIG
DIGITS = "0123456789"


@frozen
class Judged:
    parsed: Parsed
    writing: str | None = None  # the word naming a writing option (``--outp``)
    running: str | None = None  # the word naming an option that runs a program
    unknown: list[str] = field(default_factory=list)


def table(flags: str = "", valued: str = "", longs: str = "", optional: str = "") -> Spec:
    return spec(flags, valued, longs, optional)


# --- shared groups ----------------------------------------------------------------------------
DIFF_LONGS = """
patch no-patch raw patch-with-raw patch-with-stat indent-heuristic no-indent-heuristic minimal
patience histogram anchored= diff-algorithm= stat[=] stat-width= stat-name-width=
stat-graph-width= stat-count= compact-summary numstat shortstat dirstat[=] cumulative
dirstat-by-file[=] summary name-only name-status submodule[=] color[=] no-color color-moved[=]
no-color-moved color-moved-ws= no-color-moved-ws word-diff[=] word-diff-regex= color-words[=]
no-renames rename-empty no-rename-empty check ws-error-highlight= full-index binary abbrev[=]
no-abbrev break-rewrites[=] find-renames[=] find-copies[=] find-copies-harder
irreversible-delete diff-filter= find-object= pickaxe-all pickaxe-regex skip-to= rotate-to=
relative[=] no-relative text ignore-cr-at-eol ignore-space-at-eol ignore-space-change
ignore-all-space ignore-blank-lines ignore-matching-lines= inter-hunk-context= function-context
no-function-context exit-code quiet no-ext-diff no-textconv ignore-submodules[=] src-prefix=
dst-prefix= no-prefix default-prefix line-prefix= ita-invisible-in-index ita-visible-in-index
output-indicator-new= output-indicator-old= output-indicator-context= unified[=] cc
combined-all-paths
"""
DIFF_FLAGS, DIFF_VALUED, DIFF_OPTIONAL = "pusazRbwWDcm", "lSGOI", "UBMCX"

REV_LONGS = """
max-count= skip= since= after= until= before= since-as-filter= max-age= min-age= author=
committer= grep-reflog= grep= all-match invert-grep regexp-ignore-case basic-regexp
extended-regexp fixed-strings perl-regexp remove-empty merges no-merges min-parents=
max-parents= no-min-parents no-max-parents first-parent exclude-first-parent-only not all
branches[=] tags[=] remotes[=] glob= exclude= exclude-hidden= reflog alternate-refs
single-worktree ignore-missing bisect stdin cherry-mark cherry-pick left-only right-only cherry
walk-reflogs merge boundary simplify-by-decoration show-pulls full-history dense sparse
simplify-merges ancestry-path[=] date-order author-date-order topo-order reverse no-walk[=]
do-walk in-commit-order pretty[=] format= abbrev-commit no-abbrev-commit oneline encoding=
expand-tabs[=] no-expand-tabs notes[=] no-notes show-notes[=] standard-notes
no-standard-notes relative-date date= parents children left-right graph no-graph
show-linear-break[=] count objects objects-edge objects-edge-aggressive indexed-objects unpacked
object-names no-object-names header timestamp bisect-vars bisect-all disk-usage[=]
no-kept-objects[=] use-bitmap-index progress= no-progress full-diff log-size follow
no-follow decorate[=] no-decorate decorate-refs= decorate-refs-exclude= clear-decorations source
use-mailmap no-use-mailmap mailmap no-mailmap diff-merges= no-diff-merges dd
"""
REV_FLAGS, REV_VALUED = "iEFPgrt" + DIGITS + "q", "nL"

_LOG = table(
    DIFF_FLAGS + REV_FLAGS,
    DIFF_VALUED + REV_VALUED,
    DIFF_LONGS + REV_LONGS,
    DIFF_OPTIONAL,
)
_DIFF = table(
    DIFF_FLAGS + "0123",
    DIFF_VALUED,
    DIFF_LONGS + "cached staged merge-base no-index base ours theirs",
    DIFF_OPTIONAL,
)
_DIFF_PLUMBING = table(
    DIFF_FLAGS + "0123rtvq",
    DIFF_VALUED,
    DIFF_LONGS + "cached merge-base root stdin no-commit-id base ours theirs pretty[=] format=",
    DIFF_OPTIONAL,
)
_GREP = table(
    "aiIrwvhHEGPFnlLzocpWq" + DIGITS,
    "ABCefm",
    """text no-textconv ignore-case max-depth= recursive no-recursive word-regexp invert-match
    full-name extended-regexp basic-regexp perl-regexp fixed-strings line-number column
    files-with-matches name-only files-without-match null only-matching count color[=] no-color
    break heading show-function after-context= before-context= context= function-context
    threads= and or not all-match quiet cached untracked no-index exclude-standard
    no-exclude-standard recurse-submodules max-count= ext-grep""",
)
_STATUS = table(
    "vsbzM",
    "",
    """verbose short branch show-stash ahead-behind no-ahead-behind porcelain[=] long null
    untracked-files[=] ignored[=] ignore-submodules[=] column[=] no-column renames no-renames
    find-renames[=]""",
    "u",
)
_LS_FILES = table(
    "cdmoiskutvfz",
    "xX",
    """cached deleted modified others ignored stage killed unmerged directory no-empty-directory
    empty-directory eol deduplicate exclude= exclude-from= exclude-per-directory=
    exclude-standard error-unmatch with-tree= full-name recurse-submodules abbrev[=] debug
    sparse format= resolve-undo""",
)
_BLAME = table(
    "blcfnsetwp",
    "LS",
    """root show-stats reverse porcelain line-porcelain incremental encoding= contents= date=
    progress no-progress ignore-rev= ignore-revs-file= color-lines color-by-age score-debug
    show-name show-number show-email abbrev[=] first-parent minimal""",
    "MC",
)
_LS_TREE = table(
    "drtlz",
    "",
    """long name-only name-status object-only full-name full-tree abbrev[=] format=""",
)
_CAT_FILE = table(
    "tsepz",
    "",
    """batch[=] batch-check[=] batch-command[=] batch-all-objects buffer follow-symlinks
    unordered allow-unknown-type use-mailmap no-use-mailmap mailmap no-mailmap path=""",
)
_SIMPLE: dict[str, Spec] = {
    "describe": table(
        "",
        "",
        """dirty[=] broken[=] all tags contains abbrev[=] candidates= exact-match debug long
        match= exclude= always first-parent""",
    ),
    "ls-remote": table(
        "qt",
        "o",
        """heads tags refs quiet exit-code get-url sort= symref server-option=""",
    ),
    "check-ignore": table("qvnz", "", "quiet verbose stdin non-matching no-index"),
    "check-attr": table("az", "", "all cached stdin source="),
    "cherry": table("v", "", "abbrev[=]"),
    "show-ref": table(
        "dsq",
        "",
        """head verify exists tags heads branches dereference hash[=] abbrev[=] quiet
        exclude-existing[=]""",
    ),
    "show-branch": table(
        "arg",
        "",
        """all remotes topo-order date-order current color[=] no-color sparse more[=] list
        independent merge-base no-name sha1-name topics reflog[=]""",
    ),
    "name-rev": table(
        "",
        "",
        "tags refs= exclude= all stdin annotate-stdin name-only undefined no-undefined always",
    ),
    "for-each-ref": table(
        "sp",
        "",
        """count= sort= format= color[=] shell perl python tcl points-at= merged[=] no-merged[=]
        contains[=] no-contains[=] ignore-case omit-empty exclude=""",
    ),
    "merge-base": table("a", "", "all octopus independent is-ancestor fork-point"),
    "var": table("l"),
    "help": table("avgc", "", "all verbose no-verbose guides config user-interfaces"
               " developer-interfaces external-commands no-external-commands aliases no-aliases"),
    "version": table("", "", "build-options"),
    "count-objects": table("vH", "", "verbose human-readable"),
    "fsck": table(
        "v",
        "",
        """unreachable dangling no-dangling root tags cache no-reflogs full no-full
        connectivity-only strict verbose name-objects progress no-progress""",
    ),
    "range-diff": table(
        DIFF_FLAGS,
        DIFF_VALUED,
        DIFF_LONGS + "creation-factor= no-dual-color left-only right-only notes[=] no-notes",
        DIFF_OPTIONAL,
    ),
}  # fmt: skip

READING: dict[str, Spec] = {
    **dict.fromkeys(("log", "show", "whatchanged", "rev-list", "reflog"), _LOG),
    "shortlog": table(
        DIFF_FLAGS + REV_FLAGS + "nsec",
        DIFF_VALUED + "L",
        DIFF_LONGS + REV_LONGS + "numbered summary email committer group=",
        DIFF_OPTIONAL + "w",
    ),
    "diff": _DIFF,
    **dict.fromkeys(("diff-tree", "diff-files", "diff-index"), _DIFF_PLUMBING),
    "grep": _GREP,
    "status": _STATUS,
    "ls-files": _LS_FILES,
    "blame": _BLAME,
    "annotate": _BLAME,
    "ls-tree": _LS_TREE,
    "cat-file": _CAT_FILE,
    **_SIMPLE,
}
# rev-parse prints its options back when it does not know them; every one it knows only prints
REV_PARSE = table(
    "q",
    "",
    """parseopt sq-quote keep-dashdash stop-at-non-option stuck-long revs-only no-revs flags
    no-flags default= prefix= verify quiet sq short[=] not abbrev-ref[=] symbolic
    symbolic-full-name all branches[=] tags[=] remotes[=] glob= exclude= exclude-hidden=
    disambiguate= local-env-vars path-format= git-dir git-common-dir resolve-git-dir git-path
    show-toplevel show-superproject-working-tree shared-index-path absolute-git-dir
    is-inside-git-dir is-inside-work-tree is-bare-repository is-shallow-repository show-cdup
    show-prefix show-object-format[=] show-ref-format since= after= until= before=""",
)
READING["rev-parse"] = REV_PARSE


def _running_short(sub: str) -> str:
    return "O" if sub == "grep" else ""


def judge(sub: str, args: list[Word], known: Spec) -> Judged:
    """Options and operands of ``git SUB ARGS`` under ``known`` (the harmless options)."""
    out = Parsed()
    writing = running = None
    unknown: list[str] = []
    i = 0
    while i < len(args):
        value = args[i].value
        if value is None or value == "-" or not value.startswith("-"):
            out.pos.append(args[i])
        elif value in ("--", "--end-of-options"):
            out.pos.extend(args[i + 1 :])
            break
        elif value.startswith("--"):
            given, eq, attached = value.partition("=")
            danger = _danger(given, known)
            name = None if danger else _resolve(given, known)
            if danger in WRITING:
                writing = writing or given
                out.opts.append((danger, Word(args[i].text, attached) if eq else _next(args, i)))
            elif danger:
                running = running or given
            elif name is None or (eq and name in known.long_flags):
                unknown.append(given)
            elif eq:
                out.opts.append((name, Word(args[i].text, attached)))
            elif name in known.long_valued:
                if i + 1 >= len(args):
                    unknown.append(given)
                out.opts.append((name, _next(args, i)))
                i += 1
            else:
                out.opts.append((name, None))
        else:
            i, ran = _short(args, i, known, _running_short(sub), out, unknown)
            running = running or ran
        i += 1
    return Judged(out, writing, running, unknown)


def _next(args: list[Word], i: int) -> Word | None:
    return args[i + 1] if i + 1 < len(args) else None


def _names(known: Spec) -> frozenset[str]:
    return known.long_flags | known.long_valued | known.long_optional


def _danger(given: str, known: Spec) -> str | None:
    """The writing or running option ``given`` names or abbreviates, unless it is exactly a
    harmless one (``--text`` is not ``--textconv``)."""
    if given in _names(known):
        return None
    return next((name for name in (*WRITING, *RUNNING) if name.startswith(given)), None)


def _resolve(given: str, known: Spec) -> str | None:
    names = _names(known)
    if given in names:
        return given
    matches = [name for name in known.long_names if name.startswith(given)]
    if len(matches) == 1:
        return matches[0]
    if given.startswith("--no-") and not matches:
        positive = _resolve("--" + given[5:], known)
        if positive is not None and _danger("--" + given[5:], known) is None:
            return given  # the negation of a harmless option
    return None


def _short(
    args: list[Word], i: int, known: Spec, runs: str, out: Parsed, unknown: list[str]
) -> tuple[int, str | None]:
    value = args[i].value or ""
    for j in range(1, len(value)):
        letter, rest = value[j], value[j + 1 :]
        if letter in runs:
            return i, "-" + letter
        if letter in known.optional:
            out.opts.append(("-" + letter, Word(rest, rest) if rest else None))
            return i, None
        if letter in known.valued:
            if rest:
                out.opts.append(("-" + letter, Word(rest, rest)))
                return i, None
            if i + 1 >= len(args):
                unknown.append("-" + letter)
            out.opts.append(("-" + letter, _next(args, i)))
            return i + 1, None
        if letter not in known.flags:
            unknown.append("-" + letter)
            return i, None
        out.opts.append(("-" + letter, None))
    return i, None


def safe_setting(setting: str) -> bool:
    """`git -c KEY=VALUE` with a KEY known to run nothing (ADR 0049: `log.showSignature` runs
    gpg although `log.` is a safe prefix)."""
    key = setting.lower().partition("=")[0]
    if key not in GIT_RUNNING_KEYS and program_key(key) is None:  # init.templateDir: ADR 0082
        return key.startswith(GIT_SAFE_CONFIG_PREFIXES)
    return False
