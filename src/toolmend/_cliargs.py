"""The command line's options: one table per verb, one parser, the help text.

Rules, the same for every command: ``--name VALUE`` or ``--name=VALUE``; a
value option takes the next word as its value even when it starts with ``-``
(``--text "---"``, ``--where -x``); ``-`` as the value of a file or text
option means standard input; a list option may be given several times
(``--select id --select name``) or as ``a,b``; ``-h``/``--help`` anywhere
prints the help of the command.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Option", "VERBS", "COMMON", "UsageError", "HelpWanted", "parse", "verb_help"]


class UsageError(Exception):
    """A command line that does not parse (exit status 2)."""


class HelpWanted(Exception):
    """``--help`` was given."""


@dataclass(frozen=True)
class Option:
    name: str            # the option, without "--"
    kind: str            # path | text | dir | str | int | flag | list | patch
    help: str
    arg: str | None = None  # the tool argument it sets (default: the name, "-" -> "_")
    metavar: str = ""

    @property
    def key(self) -> str:
        """The option's name as a key of ``parse``'s result."""
        return self.name.replace("-", "_")

    @property
    def tool_arg(self) -> str:
        """The tool argument the option sets."""
        return self.arg or self.key

    @property
    def takes_value(self) -> bool:
        return self.kind != "flag"

    def usage(self) -> str:
        if not self.takes_value:
            return f"--{self.name}"
        meta = self.metavar or {"path": "FILE", "dir": "DIR", "int": "N", "text": "TEXT",
                                "list": "A,B", "patch": "FILE"}.get(self.kind, "VALUE")
        return f"--{self.name} {meta}"


_FORMAT = Option("format", "str", "auto (default), json or yaml", metavar="FORMAT")
_DOC = [Option("file", "path", "the JSON or YAML file ('-': standard input)"),
        Option("text", "text", "the document itself ('-': standard input)"), _FORMAT]
_PATH = Option("path", "str", "where in the document: a.b[0].c, [-1], * to fan out, items[0:5]",
               metavar="PATH")
_CONTEXT = Option("context", "int", "lines of context around each change (default 3, at most 50)")
_BUDGET = Option("budget", "int", "edit budget: most changed lines searched for a minimal diff "
                                  "(default 8000)")

#: (tool, verb) -> its options
VERBS: dict[tuple[str, str], list[Option]] = {
    ("json", "get"): [*_DOC, _PATH],
    ("json", "keys"): [*_DOC, _PATH],
    ("json", "query"): [
        *_DOC, _PATH,
        Option("where", "str", "conditions: field=value, !=, ~regex, !~regex, <, <=, >, >=, "
                               "joined by && and ||", metavar="COND"),
        Option("select", "list", "the fields to keep from each row"),
        Option("limit", "int", "rows at most (default 20, at most 200 for agents)"),
        Option("offset", "int", "rows to skip first"),
        Option("sort", "str", "a field to sort the rows by", metavar="FIELD"),
        Option("desc", "flag", "sort in descending order"),
    ],
    ("json", "schema"): [*_DOC, _PATH, Option("depth", "int", "object levels (default 3, at most 8)")],
    ("json", "validate"): [*_DOC],
    ("json", "pretty"): [*_DOC, _PATH, Option("compact", "flag", "no whitespace at all")],
    ("diff", "files"): [Option("a", "path", "the old file ('-': standard input)"),
                        Option("b", "path", "the new file ('-': standard input)"), _CONTEXT, _BUDGET],
    ("diff", "text"): [Option("a", "text", "the old text ('-': standard input)"),
                       Option("b", "text", "the new text ('-': standard input)"), _CONTEXT, _BUDGET],
    ("diff", "dirs"): [Option("a", "dir", "the old folder"), Option("b", "dir", "the new folder"),
                       Option("glob", "str", "only files matching this pattern", metavar="GLOB"),
                       Option("unified", "flag", "write the patch of the two trees (diff -ruN), "
                                                 "not only the names"),
                       _CONTEXT, _BUDGET],
    ("diff", "apply"): [
        Option("file", "str", "the file to patch (default: every file the patch names)",
               metavar="FILE"),
        Option("patch", "patch", "the patch file ('-': standard input)"),
        Option("patch-text", "text", "the patch itself, inline", arg="patch"),
        Option("write", "flag", "write the result (without it: a dry run that writes nothing)"),
        Option("dry-run", "str", "true or false (the tool's own spelling of --write)",
               metavar="BOOL"),
        Option("no-backup", "flag", "do not keep <file>.bak", arg="no_backup"),
        Option("reverse", "flag", "undo the patch instead (patch -R)"),
        Option("dir", "str", "the folder the patch's paths are relative to", metavar="DIR"),
        Option("strip", "int", "leading folders to drop from the patch's paths (patch -p)"),
    ],
}

#: Options of every json/diff verb.
COMMON = [
    Option("workspace", "str", "confine every path to this folder, as for an agent",
           metavar="DIR"),
    Option("max-bytes", "int", "cap the output at N bytes (default: the whole result)",
           arg="max_bytes"),
    Option("json", "flag", "print the result as JSON: ok, output, data, warnings, truncated"),
]


def parse(words: list[str], options: list[Option]) -> dict[str, object]:
    """``{key: value}`` of the options in ``words`` (strings; flags True;
    lists as lists). Raises UsageError or HelpWanted."""
    by_name = {o.name: o for o in options}
    out: dict[str, object] = {}
    i = 0
    while i < len(words):
        word = words[i]
        if word in ("-h", "--help"):
            raise HelpWanted()
        if not word.startswith("--") or word == "--":
            raise UsageError(f"unexpected {word!r}: options are written --name VALUE")
        name, eq, value = word[2:].partition("=")
        opt = by_name.get(name) or by_name.get(name.replace("_", "-"))
        if opt is None:
            if "-h" in words[i:] or "--help" in words[i:]:
                raise HelpWanted()
            known = ", ".join(o.usage().split()[0] for o in options)
            raise UsageError(f"unknown option --{name}; the options are {known}")
        if not opt.takes_value:
            if eq and value.strip().lower() not in ("true", "false", "yes", "no", "1", "0"):
                raise UsageError(f"--{name} takes no value (or true/false), not {value!r}")
            out[opt.key] = (not eq) or value.strip().lower() in ("true", "yes", "1")
            i += 1
            continue
        if not eq:
            if i + 1 >= len(words):
                raise UsageError(f"--{name} needs a value")
            value = words[i + 1]
            i += 1
        i += 1
        if opt.kind == "list":
            before = out.get(opt.key)
            items = [v.strip() for v in value.split(",") if v.strip()]
            out[opt.key] = (before if isinstance(before, list) else []) + items
        elif opt.key in out:
            raise UsageError(f"--{name} is given twice")
        else:
            out[opt.key] = value
    return out


def verb_help(tool: str, verb: str, summary: str) -> str:
    options = VERBS[(tool, verb)] + COMMON
    width = max(len(o.usage()) for o in options) + 2
    lines = [f"usage: toolmend {tool} {verb} [options]", "", summary, "", "options:"]
    lines.extend(f"  {o.usage():<{width}}{o.help}" for o in options)
    lines.append(f"  {'-h, --help':<{width}}this help")
    return "\n".join(lines)
