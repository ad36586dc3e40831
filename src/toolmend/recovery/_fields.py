"""Which argument field a tool's bare value belongs in, and the CLI heuristic.

Used by the ``wrap_plain`` strategy: a model that sends ``main.go`` to
``read_file`` meant ``{"file": "main.go"}``.
"""

from __future__ import annotations

import re
import threading
from types import MappingProxyType
from typing import Mapping

#: How a tool's primary field is filled:
#: "value"      - any bare text is the value (a file name, a search term, a shell
#:                command line such as ``ls -l``);
#: "subcommand" - the value is a subcommand line (``read --file x``) that the
#:                caller's CLI parser should see itself; prose is refused.
STYLES = ("value", "subcommand")

_BUILTIN: dict[str, tuple[str, str]] = {}


def _add(names: str, field: str, style: str = "value") -> None:
    for name in names.split():
        _BUILTIN[name] = (field, style)


_add("read_file read write_file write patch_file patch rollback_file rollback", "file")
_add("list_directory tree run_tests test clean_backups clean", "dir")
_add("git_status git-status git_diff git-diff git_log git-log git_changed git-changed "
     "git_branch git-branch", "dir")
_add("search_files search", "term")
_add("run_command exec", "cmd")
_add("@coder coder", "cmd", "subcommand")
_add("bash shell Bash", "command")
_add("Read Write Edit", "file_path")
_add("Glob Grep", "pattern")

#: Subcommands of the ``@coder`` tool: a first word from this set makes a
#: text look like a CLI argument line.
SUBCOMMANDS = frozenset(
    "read write patch tree search exec test rollback clean "
    "git-status git-diff git-log git-changed git-branch".split()
)

_lock = threading.Lock()
# Replaced whole on every registration (copy-on-write), so readers on other
# threads never see a half-built table and need no lock.
_exact: dict[str, tuple[str, str]] = dict(_BUILTIN)
_folded: dict[str, tuple[str, str] | None] = {}


def _fold(table: dict[str, tuple[str, str]]) -> dict[str, tuple[str, str] | None]:
    """Case-folded lookup; None marks names whose case variants disagree."""
    folded: dict[str, tuple[str, str] | None] = {}
    for name, entry in table.items():
        key = name.lower()
        if key in folded and folded[key] != entry:
            folded[key] = None
        else:
            folded[key] = entry
    return folded


_folded = _fold(_exact)


def _lookup(tool: str) -> tuple[str, str] | None:
    exact = _exact
    entry = exact.get(tool)
    if entry is None and tool.startswith("@"):
        entry = exact.get(tool[1:])
    if entry is None:
        key = tool.lower()
        entry = _folded.get(key) or (_folded.get(key[1:]) if key.startswith("@") else None)
    return entry


def field_for_tool(tool: str) -> str | None:
    """The primary field of ``tool``, or None when it is unknown.

    Exact name first, then a leading ``@`` ignored, then case-insensitive where
    that is unambiguous (``GREP`` -> ``pattern``; ``READ`` is both ``read`` and
    ``Read`` and so has no field).
    """
    entry = _lookup(tool)
    return entry[0] if entry else None


def tool_style(tool: str) -> str | None:
    """"value", "subcommand", or None for an unknown tool."""
    entry = _lookup(tool)
    return entry[1] if entry else None


def register_tool_field(tool: str, field: str, *, style: str = "value") -> None:
    """Register (or override) ``tool``'s primary field.

    ``style="subcommand"`` marks a tool whose field holds a subcommand line:
    CLI-looking text and prose are then left to the caller instead of being
    wrapped.
    """
    global _exact, _folded
    if not isinstance(tool, str) or not tool.strip():
        raise ValueError("register_tool_field: the tool name must be a non-empty string")
    if not isinstance(field, str) or not field:
        raise ValueError(f"register_tool_field: the field for {tool!r} must be a non-empty string")
    if style not in STYLES:
        raise ValueError(f"register_tool_field: style must be one of {STYLES}, not {style!r}")
    with _lock:
        table = dict(_exact)
        table[tool] = (field, style)
        _exact, _folded = table, _fold(table)


def registered_tools() -> Mapping[str, str]:
    """A read-only view of every known tool name and its field."""
    return MappingProxyType({name: entry[0] for name, entry in _exact.items()})


_LONG_FLAG = re.compile(r"--[A-Za-z0-9][\w.-]*(?:=.*)?\Z", re.S)
_SHORT_FLAG = re.compile(r"-[A-Za-z][A-Za-z0-9]*\Z")


def looks_like_cli_args(text: str) -> bool:
    """The CLI-argument heuristic.

    At least two words, and either a later word that is a ``--flag`` or a
    short ``-x`` flag, or a first word (any case) that is a known subcommand
    (``read --file x``, ``tree ./src``, ``git-log -n 5``).
    """
    words = text.split()
    if len(words) < 2:
        return False
    if words[0].lower() in SUBCOMMANDS:
        return True
    return any(_LONG_FLAG.match(w) or _SHORT_FLAG.match(w) for w in words[1:])
