"""The command line's options: one table per verb, one parser, the help text.

Rules, the same for every command: ``--name VALUE`` or ``--name=VALUE``; a
value option takes the next word as its value even when it starts with ``-``
(``--text "---"``, ``--where -x``); ``-`` as the value of a file or text
option means standard input; a list option may be given several times
(``--select id --select name``) or as ``a,b``; ``-h``/``--help`` anywhere
prints the help of the command. The files of a verb may also come as words
of their own, where jq and diff take them (``json get FILE``, ``diff files A
B``), before or after the options; ``--`` ends the options, so that a file
named ``-x`` or ``--b`` is a file.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any

__all__ = ["Option", "COMMON", "UsageError", "HelpWanted", "parse",
           "verb_help", "parse_size", "verbs", "positional", "summary"]


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
    short: str = ""      # a one-letter spelling ("r" for -r), if any
    invert: bool = False  # a flag that sets its tool argument to false (--no-backup, --write)
    stdin_arg: str = ""  # '-' gives standard input's bytes to this tool argument instead

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
            return f"-{self.short}, --{self.name}" if self.short else f"--{self.name}"
        meta = self.metavar or {"path": "FILE", "dir": "DIR", "int": "N", "text": "TEXT",
                                "list": "A,B", "patch": "FILE", "size": "SIZE"}.get(self.kind, "VALUE")
        return f"--{self.name} {meta}"


def _options(spec: Any) -> list[Option]:
    """The options of a verb, as its declaration (``toolmend.tools._verbspec``) spells them."""
    kinds = {"integer": "int", "boolean": "flag", "strings": "list", "string": "str"}
    out = []
    for arg in spec.args:
        for cli in arg.spellings():
            kind = cli.kind or kinds[arg.type]
            bounds = arg.bounds_text(agents=False)
            text = (cli.help or arg.help) + (f" ({bounds})" if bounds and not cli.invert else "")
            out.append(Option(cli.name or arg.name.replace("_", "-"), kind, text, arg=arg.name,
                              metavar=cli.metavar, short=cli.short, invert=cli.invert,
                              stdin_arg=cli.stdin_arg))
    out.extend(Option(c.name, c.kind, c.help, metavar=c.metavar, short=c.short) for c in spec.cli_extra)
    return out


@functools.cache
def verbs() -> dict[tuple[str, str], list[Option]]:
    """(tool, verb) -> its options, derived from the verbs' declarations."""
    from .tools._verbspec import TOOL_SPECS

    return {(tool, verb.name): _options(verb) for tool, spec in TOOL_SPECS.items() for verb in spec.verbs}


@functools.cache
def positional() -> dict[tuple[str, str], tuple[str, ...]]:
    """(tool, verb) -> the options the words that are not options fill, in order (the files)."""
    from .tools._verbspec import TOOL_SPECS

    return {(tool, verb.name): verb.positional for tool, spec in TOOL_SPECS.items()
            for verb in spec.verbs if verb.positional}


def summary(tool: str, verb: str) -> str:
    from .tools._verbspec import verb_spec

    return verb_spec(tool, verb).summary


def __getattr__(name: str) -> Any:  # VERBS and POSITIONAL, built on first use
    if name == "VERBS":
        return verbs()
    if name == "POSITIONAL":
        return positional()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


#: Options of every json/diff verb.
COMMON = [
    Option("workspace", "str", "confine every path to this folder, as for an agent",
           metavar="DIR"),
    Option("max-size", "size", "refuse an input larger than SIZE bytes (K, M, G: 1024, 1024^2, "
                               "1024^3; default: no limit)", arg="max_size"),
    Option("max-bytes", "int", "cap the output at N bytes (default: the whole result)",
           arg="max_bytes"),
    Option("json", "flag", "print the result as JSON: ok, output, data, warnings, truncated"),
]


def parse(words: list[str], options: list[Option],
          positional: tuple[str, ...] = ()) -> dict[str, object]:
    """``{key: value}`` of the options in ``words`` (strings; flags True;
    lists as lists). Words that are not options fill the options named in
    ``positional``, in order (``-`` alone is such a word: standard input);
    after ``--`` every word is one. Raises UsageError or HelpWanted."""
    by_name = {o.name: o for o in options}
    by_short = {o.short: o for o in options if o.short}
    out: dict[str, object] = {}
    rest: list[str] = []
    i = 0
    while i < len(words):
        word = words[i]
        if word == "--":
            rest.extend(words[i + 1:])
            break
        if word in ("-h", "--help"):
            raise HelpWanted()
        if word == "-" or not word.startswith("-"):
            rest.append(word)
            i += 1
            continue
        if not word.startswith("--"):
            shorts = word[1:]
            if shorts and all(c in by_short and not by_short[c].takes_value for c in shorts):
                for c in shorts:
                    out[by_short[c].key] = True
                i += 1
                continue
            if "-h" in words[i:] or "--help" in words[i:]:
                raise HelpWanted()
            known = ", ".join(f"-{c}" for c in by_short)
            raise UsageError(f"unknown option {word}; options are written --name VALUE"
                             + (f" (and {known})" if known else "")
                             + f"; a file named {word} is written -- {word} or ./{word}")
        name, eq, value = word[2:].partition("=")
        opt = by_name.get(name) or by_name.get(name.replace("_", "-"))
        if opt is None:
            if "-h" in words[i:] or "--help" in words[i:]:
                raise HelpWanted()
            known = ", ".join(o.usage().split()[-2 if o.takes_value else -1] for o in options)
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
    _fill(out, rest, options, positional)
    return out


def _fill(out: dict[str, object], rest: list[str], options: list[Option],
          positional: tuple[str, ...]) -> None:
    """Give the words that are not options to the options ``positional``
    names, in order, skipping those given as options."""
    if not rest:
        return
    by_key = {o.key: o for o in options}
    free = [key for key in positional if key not in out]
    if not positional:
        raise UsageError(f"unexpected {rest[0]!r}: options are written --name VALUE")
    if len(rest) > len(free):
        names = " and ".join(f"--{by_key[k].name}" for k in positional)
        given = [k for k in positional if k in out]
        extra = rest[len(free):]
        why = (f" (--{by_key[given[0]].name} is given as an option too)" if given else "")
        raise UsageError(f"unexpected {extra[0]!r}: the files are {names}, "
                         f"{len(positional)} at most{why}")
    for key, word in zip(free, rest, strict=False):
        out[key] = word


_SIZE = {"": 1, "b": 1, "k": 1024, "kb": 1024, "kib": 1024, "m": 1024 ** 2, "mb": 1024 ** 2,
         "mib": 1024 ** 2, "g": 1024 ** 3, "gb": 1024 ** 3, "gib": 1024 ** 3}


def parse_size(value: str, option: str = "--max-size") -> int:
    """Bytes of ``10M``, ``512k``, ``2G`` or ``1048576`` (K, M, G are 1024,
    1024^2, 1024^3)."""
    text = value.strip().lower().replace("_", "")
    digits = text.rstrip("kmgib")
    unit = text[len(digits):]
    try:
        number = float(digits) if digits else -1.0
    except ValueError:
        number = -1.0
    if unit not in _SIZE or number < 0 or number != number or number == float("inf"):
        raise UsageError(f"{option} takes a size in bytes, such as 500000, 64M or 2G, "
                         f"not {value!r}")
    return int(number * _SIZE[unit])


def verb_help(tool: str, verb: str) -> str:
    options = verbs()[(tool, verb)] + COMMON
    width = max(len(o.usage()) for o in options) + 2
    words = positional().get((tool, verb), ())
    kinds = {o.key: o.kind for o in options}
    shown = " ".join("FILE" if kinds[k] == "path" and len(words) == 1 else
                     ("DIR_" if kinds[k] == "dir" else "") + k.upper() for k in words)
    usage = f"usage: toolmend {tool} {verb} [options]" + (f" [--] [{shown}]" if shown else "")
    lines = [usage, "", summary(tool, verb), "", "options:"]
    lines.extend(f"  {o.usage():<{width}}{o.help}" for o in options)
    lines.append(f"  {'-h, --help':<{width}}this help")
    return "\n".join(lines)
