"""The plugins a project holds: the files that make Claude Code run their code. ADR 0078.

A project can be a plugin itself (``.claude-plugin/plugin.json`` at its root, loaded with
``--plugin-dir .``), a marketplace of plugins (``.claude-plugin/marketplace.json`` listing
``"source": "./plugins/fmt"``), or name a marketplace in a folder of its own from its settings
(``extraKnownMarketplaces`` with a ``directory`` source, the plugins enabled by
``enabledPlugins``). A plugin's hooks (``hooks/hooks.json``, or the files and the inline
object its manifest's ``hooks`` names), its MCP servers (``.mcp.json``, ``mcpServers``) and its
language servers (``.lsp.json``, ``lspServers``) run for every teammate who enables it, with
no PreToolUse hook asked: whoever changes them changes what runs as a hook.

``plugin_sources`` lists those files with the plugin's root (``${CLAUDE_PLUGIN_ROOT}``):
``protect_hooks`` protects each that exists and reads the commands in it. A plugin is taken
whether or not it is enabled, since enabling is one settings line away. Bounded: at most
``MAX_PLUGINS`` plugins, manifests of at most ``MANIFEST_MAX_BYTES``.
"""

from __future__ import annotations

import json
import ntpath
import posixpath

from orchestrator_boundary.paths import FileSystem

MANIFEST_MAX_BYTES = 256 * 1024
MAX_PLUGINS = 16  # plugin roots read per project
MAX_MARKETPLACES = 8
PLUGIN_JSON = ".claude-plugin/plugin.json"
MARKETPLACE_JSON = ".claude-plugin/marketplace.json"
# files a plugin runs code from by default, and the manifest keys that name more of them
DEFAULT_FILES = ("hooks/hooks.json", ".mcp.json", ".lsp.json")
NAMING_KEYS = ("hooks", "mcpServers", "lspServers")
SETTINGS = (".claude/settings.json", ".claude/settings.local.json")

# (path, how a label shows it, the plugin's root): a file whose commands Claude Code runs
# for a plugin, or (root None) a marketplace manifest that says which plugins there are
Source = tuple[str, str, str | None]


def _json(fs: FileSystem, path: str) -> object:
    text = fs.script_text(path, MANIFEST_MAX_BYTES)
    if not text:
        return None
    try:
        return json.loads(text)
    except ValueError:
        return None


def _join(fs: FileSystem, base: str, rel: str) -> str:
    if fs.windows:
        return ntpath.normpath(ntpath.join(base, rel))
    return posixpath.normpath(posixpath.join(base, rel))


def _marketplace_roots(root: str, fs: FileSystem) -> list[str]:
    """The project root, and each folder the project's settings name as a local marketplace
    (a ``directory`` source's ``path``, or a ``file`` source's marketplace.json)."""
    out = [root]
    for rel in SETTINGS:
        data = _json(fs, _join(fs, root, rel))
        known = data.get("extraKnownMarketplaces") if isinstance(data, dict) else None
        for entry in known.values() if isinstance(known, dict) else ():
            source = entry.get("source") if isinstance(entry, dict) else None
            path = source.get("path") if isinstance(source, dict) else None
            if not isinstance(path, str) or not path or "\x00" in path:
                continue
            folder = _join(fs, root, path)
            if folder.replace("\\", "/").endswith("/" + MARKETPLACE_JSON):  # a `file` source
                folder = _join(fs, folder, "../..")
            out.append(folder)
    return list(dict.fromkeys(out))[:MAX_MARKETPLACES]


def _listed(market: str, fs: FileSystem) -> list[str]:
    """The plugin roots a marketplace's manifest lists with a relative source."""
    data = _json(fs, _join(fs, market, MARKETPLACE_JSON))
    if not isinstance(data, dict):
        return []
    meta = data.get("metadata")
    base = meta.get("pluginRoot") if isinstance(meta, dict) else None
    base = base if isinstance(base, str) else ""
    out = []
    plugins = data.get("plugins")
    for plugin in plugins if isinstance(plugins, list) else ():
        source = plugin.get("source") if isinstance(plugin, dict) else None
        if isinstance(source, dict):  # {"source": "local", "path": "./x"} and the like
            source = source.get("path")
        if isinstance(source, str) and source and "://" not in source and "\x00" not in source:
            # a bare name is below the marketplace's pluginRoot; ./x and ../x below its folder
            where = source if source.startswith(".") else posixpath.join(base, source)
            out.append(_join(fs, market, where))
    return out


def plugin_roots(root: str, fs: FileSystem) -> list[str]:
    """Every folder the project holds or names that is a plugin: one with a plugin manifest,
    or one a local marketplace lists."""
    out: list[str] = []
    for market in _marketplace_roots(root, fs):
        if fs.identity(_join(fs, market, PLUGIN_JSON)) is not None:
            out.append(market)
        out += _listed(market, fs)
    return list(dict.fromkeys(out))[:MAX_PLUGINS]


def _shown(root: str, path: str) -> str:
    """``path`` as a label shows it: relative to the root when below it."""
    rel = path[len(root) :].replace("\\", "/").lstrip("/")
    return rel if path.startswith(root) and rel else path


def plugin_sources(root: str, fs: FileSystem) -> list[Source]:
    """The manifests, and the files of each plugin root whose commands Claude Code runs."""
    out: list[Source] = []
    for market in _marketplace_roots(root, fs):
        if market != root:  # the root's own .claude-plugin/ is protected as a folder
            path = _join(fs, market, MARKETPLACE_JSON)
            out.append((path, _shown(root, path), None))
    for plugin in plugin_roots(root, fs):
        manifest = _join(fs, plugin, PLUGIN_JSON)
        out.append((manifest, _shown(root, manifest), plugin))  # its inline hooks are read too
        named = list(DEFAULT_FILES)
        data = _json(fs, manifest)
        for key in NAMING_KEYS:
            value = data.get(key) if isinstance(data, dict) else None
            values = value if isinstance(value, list) else [value]
            named += [v for v in values if isinstance(v, str) and v and "\x00" not in v]
        for rel in dict.fromkeys(named):
            path = _join(fs, plugin, rel)
            out.append((path, _shown(root, path), plugin))
    return out
