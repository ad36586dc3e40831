"""``run_tool``: one entry point for the tools, errors as results.

A tool call arrives as ``{"cmd": VERB, "args": {...}}``, as a dict or as
(possibly malformed) text that goes through argument recovery first. Each
verb is declared once (:mod:`._verbspec`): its arguments are checked against
that declaration before its function ``(ToolArgs, Workspace) -> ToolResult``
runs; verbs raise ToolError for bad input and ``run_tool`` turns that into
``ok=False`` with the message. Nothing a caller sends makes ``run_tool`` raise.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field, replace
from typing import Any, Callable, Mapping

from ..errors import ToolError, ToolmendError
from ..recovery import Cut, Recovered, normalize_tool_args
from ._output import cap_text
from ._verbspec import TOOL_SPECS, check, mutates, verb_spec, where
from ._workspace import Workspace

__all__ = ["ToolResult", "ToolArgs", "run_tool", "run_verb", "TOOLS", "OUTPUT_CAPS"]


@dataclass(frozen=True)
class ToolResult:
    """``output`` is what an agent reads (capped); ``data`` the structured result.

    ``warnings`` are the notes about the call itself (an argument clamped to
    its range, an edit budget exceeded): ``run_tool`` shows them at the top of
    ``output``, the command line writes them to stderr, never into a patch.
    ``truncated`` is True when ``output`` was cut at its cap. ``raw`` is the
    exact bytes of ``output`` when they are not UTF-8 (a diff of Latin-1
    files: ``output`` then shows U+FFFD for them), else None.
    """

    ok: bool
    output: str
    data: Any = None
    warnings: tuple[str, ...] = ()
    truncated: bool = False
    raw: bytes | None = field(default=None, repr=False)


Verb = Callable[["ToolArgs", Workspace], ToolResult]

#: tool name (without "@") -> its declaration (:mod:`._verbspec`): verbs, arguments, help
TOOLS = TOOL_SPECS


class ToolArgs:
    """Checked access to a verb's arguments, as its declaration says.

    :meth:`check` (run by ``run_tool`` and ``run_verb`` before the verb)
    refuses an unknown argument, a missing required one, or a value of the
    wrong type, naming it and what was expected; an integer out of its
    bounds is clamped, with a note. The accessors then return the values
    read, or the declared defaults; they take no defaults or bounds of
    their own, so the declaration is the only place that says them.
    """

    def __init__(self, tool: str, verb: str, args: Mapping[str, Any], *,
                 limit: int | None = None) -> None:
        self.tool = tool
        self.verb = verb
        self.spec = verb_spec(tool, verb)
        self.raw = dict(args)
        #: Bytes of output the caller reads at most (None: the whole result).
        self.limit = limit
        #: Notes about the arguments (a value clamped to its range).
        self.notes: list[str] = []
        self._values: dict[str, Any] | None = None

    def check(self) -> None:
        """Read every argument as declared (ToolError for the first that does not fit)."""
        self._values = check(self.spec, self.raw, self.notes, capped=self.limit is not None)

    def has(self, name: str) -> bool:
        self.spec.arg(name)
        return self.raw.get(name) is not None

    def _get(self, name: str, kind: str) -> Any:
        arg = self.spec.arg(name)
        if arg.type != kind:
            raise ToolError(f"internal error: {where(self.spec, name)} is declared {arg.type}, "
                            f"read as {kind}")
        if self._values is None:
            self.check()
        assert self._values is not None
        return self._values.get(name, arg.default)

    def text(self, name: str) -> Any:
        """A string argument (or one of the other shapes it declares), or its default."""
        return self._get(name, "string")

    def integer(self, name: str) -> int:
        """An integer argument, clamped to its declared bounds, or its default
        (one declared without a default is read only when ``has`` it)."""
        value = self._get(name, "integer")
        if not isinstance(value, int):
            raise ToolError(f"internal error: {where(self.spec, name)} has no default")
        return value

    def flag(self, name: str) -> bool:
        return bool(self._get(name, "boolean"))

    def strings(self, name: str) -> Any:
        """A list of strings; a single string "a,b" is split on commas."""
        return self._get(name, "strings")


def _verbs(tool: str) -> dict[str, Verb]:
    """verb -> its implementation, as the declaration names it (looked up once a tool)."""
    out = _verb_table.get(tool)
    if out is None:
        out = {}
        for spec in TOOL_SPECS[tool].verbs:
            module, _, attr = spec.run.partition(":")
            out[spec.name] = getattr(importlib.import_module(f"toolmend.tools.{module}"), attr)
        _verb_table[tool] = out
    return out


_verb_table: dict[str, dict[str, Verb]] = {}
_tool_schemas: dict[str, Any] = {}  # tool -> its Schema


#: Most bytes of ``output`` an agent reads from each tool; error messages get less.
OUTPUT_CAPS = {"json": 24_000, "diff": 30_000}
ERROR_CAP = 4_000


def run_tool(name: str, args: Any, workspace: str | Any = ".") -> ToolResult:
    """Run tool ``name`` ("@json"/"json", "@diff"/"diff") on ``args``.

    ``args`` is ``{"cmd": VERB, "args": {...}}`` as a dict, or as text
    (malformed text is recovered first). ``workspace`` is a folder or a
    :class:`Workspace` (None: the current folder). Errors come back as
    ``ok=False`` with a message that says what was wrong; this never raises.
    Text cut off inside a value (``Recovered.cut``) is never run, for any tool
    or verb: the message says what was cut and where. A write (``@diff apply``
    with ``dry_run`` false) given as text also needs every closing bracket:
    text that lacks them may have been cut between two arguments.
    """
    result = _guarded(_run, name, args, workspace)
    if result.warnings:
        # An agent reads one text: the notes about its call come first.
        result = replace(result, output="\n".join(result.warnings) + "\n" + result.output)
    return _readable(result, name)


def run_verb(tool: str, verb: str, args: Mapping[str, Any], workspace: str | Any = ".", *,
             limit: int | None = None) -> ToolResult:
    """Run one verb with checked arguments; ``limit`` caps the output in
    bytes (None: the whole result, as the command line writes it). Errors come
    back as ``ok=False``; warnings stay apart, in ``ToolResult.warnings``."""
    return _guarded(_dispatch, tool, verb, args, workspace, limit)


def _guarded(fn: Callable[..., ToolResult], *args: Any) -> ToolResult:
    try:
        return fn(*args)
    except ToolmendError as exc:
        return ToolResult(False, f"error: {exc}", None)
    except RecursionError:
        return ToolResult(False, "error: the input is nested too deeply to process", None)
    except MemoryError:
        return ToolResult(False, "error: out of memory while processing the input", None)
    except Exception as exc:  # a bug of ours: report it, never crash the agent loop
        return ToolResult(False, f"error: internal error ({type(exc).__name__}: {exc})", None)


def _readable(result: ToolResult, name: Any) -> ToolResult:
    """Output an agent can always read: UTF-8 (a lone surrogate from the input
    is shown as a \\udXXX escape) and within the cap (errors echo arguments,
    which may be huge: they get a smaller one)."""
    out = result.output
    escaped = False
    if not out.isascii():
        try:
            out.encode("utf-8")
        except UnicodeEncodeError:
            out = out.encode("utf-8", "backslashreplace").decode("utf-8")
            escaped = True
    tool = name.strip().lstrip("@").lower() if isinstance(name, str) else ""
    cap = OUTPUT_CAPS.get(tool, min(OUTPUT_CAPS.values())) if result.ok else ERROR_CAP
    cut = False
    if escaped or not result.ok:
        out, cut = cap_text(out, cap, "[... cut: the message was too long]")
        if not escaped and not cut:
            return result
    elif out is result.output:
        return result
    # (a result the escapes made longer than its cap is cut: it says so, never passing for whole)
    return replace(result, output=out, truncated=result.truncated or (cut and result.ok))


def _run(name: str, args: Any, workspace: str | Any) -> ToolResult:
    if not isinstance(name, str):
        raise ToolError(f"the tool name must be a string, not {type(name).__name__}")
    tool = name.strip().lstrip("@").lower()
    if tool not in TOOLS:
        raise ToolError(f"unknown tool {name!r}; the tools are "
                        f"{', '.join('@' + t for t in sorted(TOOLS))}")
    unclosed = False  # the text lacked closing brackets (a cut between two members?)
    if isinstance(args, (str, bytes, bytearray)):
        recovered = normalize_tool_args(args, "@" + tool)
        unclosed = unclosed_brackets(recovered)
        if recovered.cut is not None:
            raise ToolError(_cut_message(f"the arguments of @{tool}", recovered.cut))
        if not recovered.ok:
            raise ToolError(f"could not read the arguments of @{tool}: {recovered.error}")
        _runnable(tool, args, recovered)
        args = recovered.value
        if tool == "json":
            # A document given inline as an object keeps its numbers exactly
            # (orjson would turn 1.10 into 1.1): re-read the recovered text.
            from ..json import loads as exact_loads

            args = exact_loads(recovered.text)
    if not isinstance(args, Mapping):
        raise ToolError(f"@{tool} takes an object {{\"cmd\": VERB, \"args\": {{...}}}}, "
                        f"not {type(args).__name__}")
    cmd = args.get("cmd")
    if not isinstance(cmd, str) or not cmd.strip():
        raise ToolError(f"@{tool} needs \"cmd\": one of {', '.join(v.name for v in TOOLS[tool].verbs)}")
    verb = cmd.strip().lower()
    inner = args.get("args", {})
    if inner is None:
        inner = {}
    if isinstance(inner, (str, bytes)):
        recovered = normalize_tool_args(inner, None)
        if recovered.cut is not None:
            raise ToolError(_cut_message(f"@{tool} {verb}: \"args\"", recovered.cut))
        unclosed = unclosed or unclosed_brackets(recovered)
        if not recovered.ok or not isinstance(recovered.value, dict):
            raise ToolError(f"@{tool} {verb}: could not read \"args\" as an object"
                            + (f": {recovered.error}" if recovered.error else ""))
        _runnable(tool, inner, recovered)
        inner = recovered.value
    if not isinstance(inner, Mapping):
        raise ToolError(f"@{tool} {verb}: \"args\" must be an object, not {type(inner).__name__}")
    extra = set(args) - {"cmd", "args"}
    if extra:
        # {"cmd": "get", "file": "x"}: arguments given at the top level; one given there and in
        # "args" with another value is two readings ({"dry_run": true, "args": {"dry_run": false}})
        twice = sorted(k for k in extra if k in inner and inner[k] != args[k])
        if twice:
            raise ToolError(f"@{tool} {verb}: {twice[0]!r} is given both beside \"args\" "
                            f"({args[twice[0]]!r}) and in it ({inner[twice[0]]!r}): which is meant is a "
                            "guess, so the call is not run")
        inner = {**{k: args[k] for k in extra}, **inner}
    inner, misfit = _fit_schema(tool, verb, inner)
    if unclosed and writes(tool, verb, inner):
        raise ToolError(f"@{tool} {verb} writes, and its arguments end before their closing brackets: "
                        "the text may have been cut between two arguments, so the call is not run")
    try:
        return _dispatch(tool, verb, inner, workspace, OUTPUT_CAPS[tool])
    except ToolError as exc:
        if misfit and type(exc) is ToolError:  # the verb's reason, then the close names
            raise ToolError(f"{exc}; {misfit}") from None
        raise


def _runnable(tool: str, text: str | bytes | bytearray, recovered: Recovered) -> None:
    """Refuse arguments the repair read that are no call to run (values left out, NaN, a key
    given no value, text after them): the rule a tool call found in model text is held to."""
    from ..recovery import not_runnable

    raw = text if isinstance(text, str) else bytes(text).decode("utf-8", "replace")
    why = not_runnable(f"@{tool}", raw, recovered)
    if why is not None:
        raise ToolError(why)


def _fit_schema(tool: str, verb: str, inner: Mapping[str, Any]) -> tuple[Mapping[str, Any], str]:
    """The arguments checked against the tool's own schema (``toolmend.tools.schemas``):
    the coercions with one reading made (a property name in another case or with
    ``-`` for ``_``, a number or boolean written as a string), and the close
    declared names of the unknown ones, by JSON path ('' when none). The verb
    has the last word: it knows which arguments each verb takes and clamps a
    number past its range (with a note); a call it refuses gets the names too."""
    from ..recovery import Schema
    from ._schemas import TOOL_SCHEMAS

    if tool not in TOOL_SCHEMAS or verb not in _verbs(tool):
        return inner, ""  # an unknown verb: _dispatch names the verbs
    schema = _tool_schemas.get(tool)
    if schema is None:
        schema = _tool_schemas[tool] = Schema(TOOL_SCHEMAS[tool])  # (compiled once a tool)
    checked = schema.check({"cmd": verb, "args": dict(inner)})
    fitted = checked.value.get("args") if isinstance(checked.value, dict) else None
    hints = "; ".join(str(p) for p in checked.problems if "did you mean" in p.message)
    return (fitted if isinstance(fitted, Mapping) else inner), hints


def unclosed_brackets(recovered: Recovered) -> bool:
    """Whether recovery had to close brackets the text left open."""
    return recovered.ok and recovered.strategy == "repair" and any(
        f.code == "truncated" for f in recovered.fixes)


def writes(tool: str, verb: str, inner: Mapping[str, Any]) -> bool:
    """Whether a call writes: ``@diff apply`` unless ``dry_run`` is true
    (an unreadable ``dry_run`` counts as a write, the safe side)."""
    return mutates(tool, verb, inner)


def _cut_message(what: str, cut: Cut) -> str:
    return (f"{what} were {cut.message}: the text ends before they are whole, so the call is "
            "not run")


def _dispatch(tool: str, verb: str, inner: Mapping[str, Any], workspace: str | Any,
              limit: int | None) -> ToolResult:
    args = ToolArgs(tool, verb, inner, limit=limit)  # an unknown tool or verb: named, with the valid ones
    ws = workspace if isinstance(workspace, Workspace) else Workspace(workspace)
    args.check()
    result = _verbs(tool)[verb](args, ws)
    if args.notes:
        result = replace(result, warnings=(*args.notes, *result.warnings))
    return result
