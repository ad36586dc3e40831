"""One declaration per verb: its arguments, its help, whether it writes.

Everything else is derived from :data:`TOOL_SPECS`: the provider tool
schemas (``_schemas``), the argument checks of ``run_tool`` (:func:`check`,
through ``ToolArgs``), the command line's options, help and summaries
(``toolmend._cliargs``), and which calls ``run_tools`` runs alone.

An :class:`Arg` has a name, a type (``string``, ``integer``, ``boolean``,
``strings``: a list, or one string with commas), a default, bounds, a help
text, whether it is required or must not be empty, and the spellings the
command line gives it (:class:`Cli`; none given: ``--name VALUE``, a flag
for a boolean). A :class:`VerbSpec` names its implementation, a function
``(ToolArgs, Workspace) -> ToolResult`` given as ``"module:function"`` under
``toolmend.tools``. Adding a verb is that function and one entry here.
"""

from __future__ import annotations

import builtins
import re
from dataclasses import dataclass
from typing import Any, Literal, Mapping

from ..diff import DEFAULT_BUDGET
from ..errors import ToolError
from ..json import FORMATS, QUERY_LIMIT, SCHEMA_DEPTH, SCHEMA_DEPTH_MAX

__all__ = ["Arg", "Cli", "VerbSpec", "ToolSpec", "TOOL_SPECS", "verb_spec", "check", "coerce",
           "mutates", "CONTEXT_MAX", "BUDGET_MAX", "QUERY_LIMIT_MAX", "STRIP_MAX"]

ArgType = Literal["string", "integer", "boolean", "strings"]

#: Most lines of context a diff takes around each change.
CONTEXT_MAX = 50
#: Most changed lines the minimal diff searches (the edit budget).
BUDGET_MAX = 1_000_000
#: Most rows an agent reads from one query (the command line takes any number).
QUERY_LIMIT_MAX = 200
#: Most leading folders ``apply`` drops from the patch's paths.
STRIP_MAX = 64


@dataclass(frozen=True)
class Cli:
    """A command-line spelling of an argument other than the plain ``--name VALUE``.

    ``kind`` says how the value is read: ``path`` (a file; ``-``: standard
    input, as bytes), ``text`` (``-``: standard input, as text), ``dir``,
    ``patch`` (a file whose bytes are the value), ``str``, ``int``, ``flag``,
    ``list``. ``invert``: a flag that sets the argument to false
    (``--no-backup``). ``stdin_arg``: standard input goes to that argument,
    as bytes (``json --text -`` is the document's bytes, read as a file is).
    """

    name: str = ""       # without "--"; default: the argument's name, "_" -> "-"
    kind: str = ""       # default: from the argument's type
    help: str = ""       # default: the argument's help
    metavar: str = ""
    short: str = ""
    invert: bool = False
    stdin_arg: str = ""


@dataclass(frozen=True)
class Arg:
    name: str
    type: ArgType
    help: str
    default: Any = None
    minimum: int | None = None
    maximum: int | None = None
    #: the maximum binds capped callers only (agents); the command line takes any number
    agents_max: bool = False
    choices: tuple[str, ...] = ()
    required: bool = False
    nonempty: bool = False
    #: other Python types taken as they are (bytes: the command line's standard
    #: input; dict/list: a document or path already parsed)
    also: tuple[builtins.type, ...] = ()
    #: the command line's spellings; None: ``--name`` as the type says
    cli: tuple[Cli, ...] | None = None
    #: the default in words, when no value says it (``strip``: found from the paths)
    default_help: str = ""
    #: what it is, in a few words, for the message that asks for one of several
    brief: str = ""

    def bounds_text(self, agents: bool = True, default: bool = True) -> str:
        """``default 3, at most 50`` for help texts ('' when there is nothing to say);
        ``agents``: for capped callers; ``default``: say the default value too."""
        parts = []
        if self.default_help:
            parts.append(f"default: {self.default_help}")
        elif default and self.default is not None and self.type != "boolean" and (
                self.choices or self.type != "string"):
            parts.append(f"default {self.default}")
        if self.minimum not in (None, 0):
            parts.append(f"at least {self.minimum:,}")
        if self.maximum is not None:
            parts.append(f"at most {self.maximum:,}" + (" for agents" if self.agents_max and not agents
                                                        else ""))
        return ", ".join(parts)

    def spellings(self) -> tuple[Cli, ...]:
        return self.cli if self.cli is not None else (Cli(),)


@dataclass(frozen=True)
class VerbSpec:
    tool: str
    name: str
    #: what the verb does, for an agent (the schema's ``cmd`` description)
    help: str
    #: what it does, for a person (``toolmend TOOL VERB --help``)
    summary: str
    #: its implementation, ``"module:function"`` under toolmend.tools
    run: str
    args: tuple[Arg, ...]
    #: the options that words which are not options fill, in order (the files)
    positional: tuple[str, ...] = ()
    #: the boolean argument that keeps the call read-only while true ("" : it never writes)
    writes_unless: str = ""
    #: options of the command line only, that are not tool arguments (``-r``)
    cli_extra: tuple[Cli, ...] = ()
    #: arguments of which exactly one is given (the document: file or text)
    one_of: tuple[str, ...] = ()

    @property
    def read_only(self) -> bool:
        return not self.writes_unless

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(a.name for a in self.args)

    @property
    def required(self) -> tuple[str, ...]:
        return tuple(a.name for a in self.args if a.required)

    def arg(self, name: str) -> Arg:
        for a in self.args:
            if a.name == name:
                return a
        raise ToolError(f"internal error: @{self.tool} {self.name} declares no argument {name!r}")


@dataclass(frozen=True)
class ToolSpec:
    name: str
    help: str
    verbs: tuple[VerbSpec, ...]

    def verb(self, name: str) -> VerbSpec | None:
        return next((v for v in self.verbs if v.name == name), None)


# ---------------------------------------------------------------------------
# @json

_PATH_HELP = ("where in the document: a.b[0].c, [-1] from the end, * or [*] to fan out, "
              "items[0:5] for a slice, quoted keys a[\"b.c\"], $ for the root")
_PATH_CLI = (Cli(help="where in the document: a.b[0].c, [-1], * to fan out, items[0:5]", metavar="PATH"),)
_DOC = (
    Arg("file", "string", "the JSON or YAML file, a path inside the workspace (up to 20 MB); or give text",
        nonempty=True, also=(bytes, bytearray), brief="a path inside the workspace",
        cli=(Cli(kind="path", help="the JSON or YAML file ('-': standard input)"),)),
    Arg("text", "string", "the document itself, instead of file", also=(dict, list),
        brief="the JSON/YAML document itself",
        cli=(Cli(kind="text", help="the document itself ('-': standard input)", stdin_arg="file"),)),
    Arg("format", "string", "how to read it: auto (by extension: .yaml/.yml YAML, .jsonl/.ndjson "
        "JSON Lines; then by content), json, yaml or jsonl", default="auto", choices=FORMATS,
        cli=(Cli(help="auto (.yaml/.yml files are YAML, .jsonl/.ndjson JSON Lines), json, yaml or jsonl",
                 metavar="FORMAT"),)),
)
_ONE_DOC = ("file", "text")
_PATH = Arg("path", "string", _PATH_HELP, default="", also=(list,), cli=_PATH_CLI)


def _json(name: str, help: str, summary: str, run: str, *args: Arg, path: bool = True,
          extra: tuple[Cli, ...] = ()) -> VerbSpec:
    return VerbSpec("json", name, help, summary, run, (*_DOC, *((_PATH,) if path else ()), *args),
                    positional=("file",), cli_extra=extra, one_of=_ONE_DOC)


_JSON = ToolSpec("json", "Answer questions about a JSON or YAML document without reading all of it: get a "
                         "value at a path, list keys, query rows, infer its schema, validate it, "
                         "pretty-print it.", (
    _json("get", "the value at a path (numbers exactly as written)",
          "The value at --path (a list of values when * fans out), numbers exact.", "_json_tool:_tool_get",
          extra=(Cli("raw", "flag", "a string as its text, without quotes or escapes; one value a line "
                                    "(jq -r)", short="r"),)),
    _json("keys", "the keys at a path, each with a summary of its value",
          "The keys one level below --path, each with a type summary.", "_json_tool:_tool_keys"),
    VerbSpec("json", "query", "the rows of an array that match a condition",
             "The rows of the array at --path that match --where.", "_json_tool:_tool_query", (
        *_DOC,
        Arg("path", "string", "the array to query (default: the root)", default="", also=(list,),
            cli=_PATH_CLI),
        Arg("where", "string", "conditions joined by && and || (&& binds tighter): field=value, !=, "
            "~regex, !~regex, <, <=, >, >=; fields are dotted paths, . is the row itself, "
            "labels[*].name=bug matches when any element does", default="",
            cli=(Cli(help="conditions: field=value, !=, ~regex, !~regex, <, <=, >, >=, joined by && "
                          "and ||", metavar="COND"),)),
        Arg("select", "strings", "the fields to show, a list or one string with commas",
            cli=(Cli(help="the fields to keep from each row (repeatable, or A,B)"),)),
        Arg("limit", "integer", "most rows to show", default=QUERY_LIMIT, minimum=0,
            maximum=QUERY_LIMIT_MAX, agents_max=True),
        Arg("offset", "integer", "rows to skip first", default=0, minimum=0),
        Arg("sort", "string", "a field to order the rows by (null, booleans, numbers, strings)",
            cli=(Cli(metavar="FIELD"),)),
        Arg("desc", "boolean", "sort in descending order", default=False),
    ), positional=("file",), one_of=_ONE_DOC),
    _json("schema", "the inferred shape of the document, with how often each key occurs",
          "The inferred shape of the value at --path, sampled.", "_json_tool:_tool_schema",
          Arg("depth", "integer", "how deep to describe", default=SCHEMA_DEPTH, minimum=1,
              maximum=SCHEMA_DEPTH_MAX, cli=(Cli(help="object levels"),))),
    _json("validate", "whether the document is valid, and where it breaks if not",
          "Whether the document is valid JSON (or YAML); the place of the first error. Exit status 1 "
          "when it is not.", "_json_tool:_tool_validate", path=False),
    _json("pretty", "the document (or the value at a path) re-indented",
          "The value at --path re-indented (or compact), key order and numbers kept.",
          "_json_tool:_tool_pretty",
          Arg("compact", "boolean", "one line instead of a 2-space indent", default=False)),
))

# ---------------------------------------------------------------------------
# @diff

_CONTEXT = Arg("context", "integer", "lines of context around each change", default=3, minimum=0,
               maximum=CONTEXT_MAX)
_BUDGET = Arg("budget", "integer", "most changed lines diffed minimally; past it the middle is one block, "
              "with a warning", default=DEFAULT_BUDGET, minimum=0, maximum=BUDGET_MAX,
              cli=(Cli(help="edit budget: most changed lines searched for a minimal diff"),))


def _sides(what: str, kind: str, cli_what: str, stdin: bool = True) -> tuple[Arg, Arg]:
    """The arguments a and b: the old and the new ``what``."""
    inside = ", a path inside the workspace" if kind == "path" else ""
    a, b = (Arg(side, "string", f"the {age} {what}{inside}", required=True, nonempty=kind != "text",
                also=(bytes, bytearray) if kind == "path" else (),
                cli=(Cli(kind=kind, help=f"the {age} {cli_what}"
                         + (" ('-': standard input)" if stdin else "")),))
            for side, age in (("a", "old"), ("b", "new")))
    return a, b


_DIFF = ToolSpec("diff", "Minimal unified diffs of two files, two texts or two directories, and strict "
                         "patching: apply refuses any mismatch and backs the file up first.", (
    VerbSpec("diff", "files", "a unified diff of two files (up to 4 MB each)",
             "The unified diff of two files, byte for byte (GNU patch and git apply take it). Exit "
             "status 0 identical, 1 different, 2 trouble.", "_diff_tool:diff_files",
             (*_sides("file", "path", "file"), _CONTEXT, _BUDGET), positional=("a", "b")),
    VerbSpec("diff", "text", "a unified diff of two strings",
             "The unified diff of two texts. Exit status 0 identical, 1 different.", "_diff_tool:diff_text",
             (*_sides("text", "text", "text"), _CONTEXT, _BUDGET)),
    VerbSpec("diff", "dirs", "the files added, removed and changed between two directories",
             "The files added, removed and changed between two folders; --unified also writes the patch "
             "of the two trees. Exit status 0 same, 1 different.", "_diff_tool:diff_dirs", (
        *_sides("directory", "dir", "folder", stdin=False),
        Arg("glob", "string", "only the files that match this pattern, e.g. *.py",
            cli=(Cli(help="only files matching this pattern", metavar="GLOB"),)),
        Arg("unified", "boolean", "also the patch that turns the old tree into the new one (apply "
            "takes it)", default=False,
            cli=(Cli(help="write the patch of the two trees (diff -ruN), not only the names"),)),
        _CONTEXT, _BUDGET), positional=("a", "b")),
    VerbSpec("diff", "apply", "check a unified diff against its files, and with dry_run false apply it, "
             "all or nothing (each original backed up first)",
             "Apply a unified patch strictly: every hunk must match at its line. A dry run unless --write; "
             "each original is kept as <file>.bak.", "_diff_apply:diff_apply", (
        Arg("file", "string", "the file to patch, a path inside the workspace (default: every file the "
            "patch names)", nonempty=True,
            cli=(Cli(help="the file to patch (default: every file the patch names)", metavar="FILE"),)),
        Arg("patch", "string", "the unified diff; a cut one (its first line says so) is refused",
            required=True, nonempty=True, also=(bytes, bytearray),
            cli=(Cli(kind="patch", help="the patch file ('-': standard input)"),
                 Cli("patch-text", "text", "the patch itself, inline"))),
        Arg("dry_run", "boolean", "true (the default): only report what would change; false: write the "
            "files", default=True,
            cli=(Cli("write", "flag", "write the result (without it: a dry run that writes nothing)",
                     invert=True),
                 Cli("dry-run", "str", "true or false (the tool's own spelling of --write)",
                     metavar="BOOL"))),
        Arg("backup", "boolean", "keep each original as <file>.bak", default=True,
            cli=(Cli("no-backup", "flag", "do not keep <file>.bak", invert=True),)),
        Arg("reverse", "boolean", "undo the patch instead", default=False,
            cli=(Cli(help="undo the patch instead (patch -R)"),)),
        Arg("dir", "string", "the folder the patch's paths are relative to (default: the workspace)",
            default=".", cli=(Cli(help="the folder the patch's paths are relative to", metavar="DIR"),)),
        Arg("strip", "integer", "leading folders to drop from the patch's paths (as patch -p)",
            minimum=0, maximum=STRIP_MAX, default_help="1 when they all start a/ or b/, else 0",
            cli=(Cli(help="leading folders to drop from the patch's paths (patch -p)"),)),
    ), writes_unless="dry_run"),
))

#: tool name -> its declaration, in the order the tools are listed
TOOL_SPECS: dict[str, ToolSpec] = {spec.name: spec for spec in (_JSON, _DIFF)}


def verb_spec(tool: str, verb: str) -> VerbSpec:
    """The declaration of ``@tool verb``; ToolError naming the valid ones."""
    spec = TOOL_SPECS.get(tool)
    if spec is None:
        raise ToolError(f"unknown tool {tool!r}; the tools are "
                        f"{', '.join('@' + t for t in sorted(TOOL_SPECS))}")
    found = spec.verb(verb)
    if found is None:
        raise ToolError(f"@{tool} has no verb {verb!r}; the verbs are "
                        f"{', '.join(v.name for v in spec.verbs)}")
    return found


# ---------------------------------------------------------------------------
# the checks

_INT_TEXT = re.compile(r"[-+]?[0-9]{1,18}")
_TRUE = ("true", "yes", "1", "on")
_FALSE = ("false", "no", "0", "off")


def coerce(arg: Arg, value: Any, where: str, notes: list[str] | None = None, capped: bool = True) -> Any:
    """``value`` (not None) read as ``arg`` says, or ToolError naming it. Agents
    send numbers as strings and booleans as "true": those are read; an
    integer outside its bounds is clamped to the nearest one, with a note."""
    if arg.also and isinstance(value, arg.also):
        return value
    if arg.type == "integer":
        return _integer(arg, value, where, notes, capped)
    if arg.type == "boolean":
        if isinstance(value, bool):
            return value
        if isinstance(value, int) and value in (0, 1):
            return bool(value)
        if isinstance(value, str) and value.strip().lower() in _TRUE + _FALSE:
            return value.strip().lower() in _TRUE
        raise ToolError(f"{where} must be true or false, not {value!r}")
    if arg.type == "strings":
        if isinstance(value, str):
            return [part.strip() for part in value.split(",") if part.strip()]
        if isinstance(value, list) and all(isinstance(v, str) for v in value):
            return list(value)
        raise ToolError(f"{where} must be a list of strings")
    if isinstance(value, bool) or not isinstance(value, (str, int, float)):
        raise ToolError(f"{where} must be a string, not {type(value).__name__}")
    if isinstance(value, float):  # (1.10 arrives as 1.1: the text as written is lost)
        raise ToolError(f"{where} must be a string, not the number {value!r}: a number's text as written "
                        "(1.10, 1e3) does not survive reading it, so write it in quotes")
    text = value if isinstance(value, str) else str(value)
    if arg.nonempty and not text.strip():
        raise ToolError(f"{where} must not be empty")
    if arg.choices and not text.strip():
        return arg.default  # blank: as if not given
    if arg.choices and text.strip().lower() not in arg.choices:
        raise ToolError(f"{where} must be one of {', '.join(arg.choices)}, not {text!r}")
    return text


def _integer(arg: Arg, value: Any, where: str, notes: list[str] | None, capped: bool) -> int:
    if isinstance(value, bool):
        raise ToolError(f"{where} must be an integer, not a boolean")
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if isinstance(value, str):
        # (ASCII digits only: int() also reads "1_0" as 10 and "1\u0662" as 12, readings no one wrote)
        if _INT_TEXT.fullmatch(value.strip()) is None:
            raise ToolError(f"{where} must be an integer, not {value!r}")
        value = int(value.strip())
    if not isinstance(value, int):
        raise ToolError(f"{where} must be an integer, not {type(value).__name__}")
    name = arg.name
    if arg.minimum is not None and value < arg.minimum:
        if notes is not None:
            notes.append(f"note: {name} {value:,} is below the minimum of {arg.minimum:,}: "
                         f"{arg.minimum:,} is used")
        value = arg.minimum
    if arg.maximum is not None and value > arg.maximum and (capped or not arg.agents_max):
        if notes is not None:
            notes.append(f"note: {name} {value:,} is above the maximum of {arg.maximum:,}: "
                         f"{arg.maximum:,} is used")
        value = arg.maximum
    return int(value)


def where(spec: VerbSpec, name: str) -> str:
    return f"@{spec.tool} {spec.name}: argument {name!r}"


def check(spec: VerbSpec, raw: Mapping[str, Any], notes: list[str], capped: bool = True) -> dict[str, Any]:
    """Every argument of a call: known, given when required, of its type, within
    its bounds. Returns the values read (absent ones: not in the result)."""
    unknown = sorted(set(raw) - set(spec.names), key=str)
    if unknown:
        raise ToolError(f"@{spec.tool} {spec.name}: unknown argument(s) {', '.join(map(repr, unknown))}; "
                        f"it takes {', '.join(sorted(spec.names))}")
    values: dict[str, Any] = {}
    for arg in spec.args:
        value = raw.get(arg.name)
        if value is None:
            if arg.required:
                raise ToolError(f"{where(spec, arg.name)} is required")
            continue
        values[arg.name] = coerce(arg, value, where(spec, arg.name), notes, capped)
    if spec.one_of:
        given = [n for n in spec.one_of if n in values]
        if len(given) > 1:
            raise ToolError(f"@{spec.tool} {spec.name}: give either {' or '.join(map(repr, given))}, "
                            "not both")
        if not given:
            raise ToolError(f"@{spec.tool} {spec.name} needs " + " or ".join(
                f"{n!r} ({spec.arg(n).brief})" if spec.arg(n).brief else repr(n) for n in spec.one_of))
    return values


def mutates(tool: str, verb: str, raw: Mapping[str, Any]) -> bool:
    """Whether a call writes: a verb that may, unless its ``writes_unless``
    argument is true (one that cannot be read counts as a write, the safe side)."""
    found = TOOL_SPECS[tool].verb(verb) if tool in TOOL_SPECS else None
    if found is None or found.read_only:
        return False
    flag = found.arg(found.writes_unless)
    value = raw.get(flag.name)
    if value is None:
        return not flag.default
    try:
        return not coerce(flag, value, where(found, flag.name))
    except ToolError:
        return True
