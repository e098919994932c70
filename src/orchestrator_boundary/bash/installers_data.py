"""The options package managers take harmlessly in their reading forms (ADR 0038).

npm's option parser (nopt), pip's (optparse) and getopt all take a unique prefix of a long
option, as ``options.parse`` does. An option outside these tables makes a reading form opaque:
``npm ls --logs-dir=src`` writes its log there, ``pip list --python ./x`` runs ``./x``.
"""

from __future__ import annotations

from orchestrator_boundary.bash.options import spec

_NODE_COMMON = """json long parseable global all depth= omit= include= workspace= workspaces
include-workspace-root no-workspaces registry= prod production dev link loglevel= silent quiet
verbose color= no-color unicode no-unicode location= package-lock-only recursive filter= dir=
only="""
# npm / pnpm / yarn / bun: ls, view, outdated, why, search, whoami, audit, root, prefix, ...
NODE_READ = spec(
    "gaplsdDPr",
    "wCF",
    _NODE_COMMON + " searchlimit= searchopts= searchexclude= description no-description"
    " audit-level= expand logs-dir= logs-max=",
)
NODE_PACK = spec("sw", "", "dry-run ignore-scripts json pack-destination= workspace= workspaces")
NODE_CONFIG = spec("gl", "", "json long global location= workspace= workspaces")
NODE_VERSION_FLAGS = ("--version", "-v", "-V")

_PIP_COMMON = """isolated require-virtualenv verbose quiet no-input retries= timeout=
trusted-host= cert= client-cert= proxy= no-cache-dir disable-pip-version-check no-color
no-python-version-warning use-feature= use-deprecated= keyring-provider= log="""
_PIP_INDEX = "index-url= extra-index-url= no-index find-links= pre"
# pip list, freeze, check, inspect, hash, index, search, debug, cache dir/info/list, help
# (``--log FILE`` is parsed to be reported: it writes FILE)
PIP_READ = spec(
    "vqouel",
    "ifar",
    f"""{_PIP_COMMON} {_PIP_INDEX} outdated uptodate editable local user path= format=
    not-required exclude-editable include-editable exclude= strict system requirement= all
    algorithm= index=""",
)
PIP_SHOW = spec("vqf", "", f"{_PIP_COMMON} files")
PIP_VERSION_FLAGS = ("--version", "-V")

# apt / apt-cache / brew / dnf / gem / ...: list, show, search, info, policy, ...
SYS_READ = spec(
    "aqvdl1re",
    "",
    """all-versions installed upgradable manual-installed quiet names-only full json[=] cask
    casks formula formulae versions pinned multiple verbose debug local remote details exact
    all no-all-versions recurse""",
)
# conda / mamba config: reading options and writing ones
CONDA_CONFIG = spec(
    "q",
    "",
    """show[=] show-sources get[=] describe validate json quiet file= system env global set=
    add= append= prepend= remove= remove-key= stdin""",
)
CONDA_CONFIG_WRITES = (
    *("--set", "--add", "--append", "--prepend", "--remove", "--remove-key", "--stdin"),
)

UV_READ = spec("qv", "d", "quiet verbose short output-format= frozen locked depth= prune=")
UV_LOCK_FREE = ("--frozen", "--locked")
