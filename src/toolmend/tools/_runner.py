"""``run_tool``: one entry point for the tools, errors as results.

A tool call arrives as ``{"cmd": VERB, "args": {...}}``, as a dict or as
(possibly malformed) text that goes through argument recovery first. Each
tool module exposes ``VERBS``, a mapping from verb name to a function
``(ToolArgs, Workspace) -> ToolResult``; verbs raise ToolError for bad input
and ``run_tool`` turns that into ``ok=False`` with the message. Nothing a
caller sends makes ``run_tool`` raise.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field, replace
from typing import Any, Callable, Mapping

from ..errors import ToolError, ToolmendError
from ..recovery import Cut, Recovered, normalize_tool_args
from ._output import cap_text
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

#: tool name (without "@") -> module that defines VERBS (imported on first use)
TOOLS = {"json": "toolmend.tools._json_tool", "diff": "toolmend.tools._diff_tool"}

_MISSING: Any = object()


class ToolArgs:
    """Typed, checked access to a verb's arguments, with clear errors.

    Agents send numbers as strings and booleans as "true"; the accessors
    accept those and refuse anything else by naming the argument.
    """

    def __init__(self, tool: str, verb: str, args: Mapping[str, Any], *,
                 limit: int | None = None) -> None:
        self.tool = tool
        self.verb = verb
        self.raw = dict(args)
        #: Bytes of output the caller reads at most (None: the whole result).
        self.limit = limit
        #: Notes about the arguments (a value clamped to its range).
        self.notes: list[str] = []

    def _where(self, name: str) -> str:
        return f"@{self.tool} {self.verb}: argument {name!r}"

    def has(self, name: str) -> bool:
        return self.raw.get(name) is not None

    def text(self, name: str, default: Any = _MISSING, *, allow_empty: bool = True) -> Any:
        value = self.raw.get(name)
        if value is None:
            if default is _MISSING:
                raise ToolError(f"{self._where(name)} is required")
            return default
        if isinstance(value, bool) or not isinstance(value, (str, int, float)):
            raise ToolError(f"{self._where(name)} must be a string, not {type(value).__name__}")
        value = value if isinstance(value, str) else str(value)
        if not allow_empty and not value.strip():
            raise ToolError(f"{self._where(name)} must not be empty")
        return value

    def integer(self, name: str, default: int, *, minimum: int | None = None,
                maximum: int | None = None) -> int:
        """An integer. One rule for every verb: a value outside its range is
        clamped to the nearest bound, and a note says so."""
        value = self.raw.get(name)
        if value is None:
            return default
        if isinstance(value, bool):
            raise ToolError(f"{self._where(name)} must be an integer, not a boolean")
        if isinstance(value, float) and value.is_integer():
            value = int(value)
        if isinstance(value, str):
            try:
                value = int(value.strip())
            except ValueError:
                raise ToolError(f"{self._where(name)} must be an integer, not {value!r}") from None
        if not isinstance(value, int):
            raise ToolError(f"{self._where(name)} must be an integer, not {type(value).__name__}")
        if minimum is not None and value < minimum:
            self.notes.append(f"note: {name} {value:,} is below the minimum of {minimum:,}: "
                              f"{minimum:,} is used")
            value = minimum
        if maximum is not None and value > maximum:
            self.notes.append(f"note: {name} {value:,} is above the maximum of {maximum:,}: "
                              f"{maximum:,} is used")
            value = maximum
        return value

    def flag(self, name: str, default: bool) -> bool:
        value = self.raw.get(name)
        if value is None:
            return default
        if isinstance(value, bool):
            return value
        if isinstance(value, int) and value in (0, 1):
            return bool(value)
        if isinstance(value, str) and value.strip().lower() in ("true", "yes", "1", "on"):
            return True
        if isinstance(value, str) and value.strip().lower() in ("false", "no", "0", "off"):
            return False
        raise ToolError(f"{self._where(name)} must be true or false, not {value!r}")

    def strings(self, name: str, default: Any = None) -> Any:
        """A list of strings; a single string "a,b" is split on commas."""
        value = self.raw.get(name)
        if value is None:
            return default
        if isinstance(value, str):
            return [part.strip() for part in value.split(",") if part.strip()]
        if isinstance(value, list) and all(isinstance(v, str) for v in value):
            return list(value)
        raise ToolError(f"{self._where(name)} must be a list of strings")

    def check_known(self, allowed: set[str] | frozenset[str]) -> None:
        """Refuse arguments the verb does not know (a typo should not be ignored)."""
        unknown = sorted(set(self.raw) - set(allowed))
        if unknown:
            raise ToolError(f"@{self.tool} {self.verb}: unknown argument(s) "
                            f"{', '.join(map(repr, unknown))}; it takes {', '.join(sorted(allowed))}")


def _verbs(tool: str) -> Mapping[str, Verb]:
    module = importlib.import_module(TOOLS[tool])
    return module.VERBS  # type: ignore[no-any-return]


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
    if escaped or not result.ok:
        out, cut = cap_text(out, cap, "[... cut: the message was too long]")
        if not escaped and not cut:
            return result
    elif out is result.output:
        return result
    return replace(result, output=out)


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
        raise ToolError(f"@{tool} needs \"cmd\": one of {', '.join(_verbs(tool))}")
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
        inner = recovered.value
    if not isinstance(inner, Mapping):
        raise ToolError(f"@{tool} {verb}: \"args\" must be an object, not {type(inner).__name__}")
    extra = set(args) - {"cmd", "args"}
    if extra:
        # {"cmd": "get", "file": "x"}: arguments given at the top level.
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
    checked = Schema(TOOL_SCHEMAS[tool]).check({"cmd": verb, "args": dict(inner)})
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
    if tool != "diff" or verb != "apply":
        return False
    try:
        return not ToolArgs(tool, verb, inner).flag("dry_run", True)
    except ToolError:
        return True


def _cut_message(what: str, cut: Cut) -> str:
    return (f"{what} were {cut.message}: the text ends before they are whole, so the call is "
            "not run")


def _dispatch(tool: str, verb: str, inner: Mapping[str, Any], workspace: str | Any,
              limit: int | None) -> ToolResult:
    if tool not in TOOLS:
        raise ToolError(f"unknown tool {tool!r}; the tools are "
                        f"{', '.join('@' + t for t in sorted(TOOLS))}")
    verbs = _verbs(tool)
    if verb not in verbs:
        raise ToolError(f"@{tool} has no verb {verb!r}; the verbs are {', '.join(verbs)}")
    ws = workspace if isinstance(workspace, Workspace) else Workspace(workspace)
    args = ToolArgs(tool, verb, inner, limit=limit)
    result = verbs[verb](args, ws)
    if args.notes:
        result = replace(result, warnings=(*args.notes, *result.warnings))
    return result
