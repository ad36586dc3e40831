"""``run_tools``: many calls at once, reads in parallel, writes in order.

A batch keeps the order the model asked for where it matters: the calls
between two mutations (``@diff apply`` with ``dry_run: false``) are read-only
and run in parallel; a mutation waits for every call before it and runs
alone, so a read that follows a write sees it. Results come back in call
order, one per call, and like ``run_tool`` this never raises for a bad call.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from typing import Any, Iterable, Sequence

from ..errors import ToolError
from ..recovery import ToolCall, normalize_tool_args
from ._runner import ToolResult, _fit_schema, run_tool, unclosed_brackets
from ._verbspec import TOOL_SPECS, mutates
from ._workspace import Workspace

__all__ = ["run_tools", "is_mutation"]


def _parts(call: Any) -> tuple[Any, Any, str | None]:
    """(name, args, error) of a ToolCall, a (name, args) pair or a {"name", "args"} dict."""
    if isinstance(call, ToolCall):
        if not call.ok:
            return call.name, None, call.error or "its arguments could not be read"
        if is_mutation(call.name, call.args) and unclosed_brackets(normalize_tool_args(call.raw_args,
                                                                                       call.name)):
            return call.name, None, ("it writes, and its arguments end before their closing brackets: "
                                     "they may have been cut between two arguments")
        return call.name, _as_written(call), None
    if isinstance(call, dict):
        return call.get("name"), call.get("args", call.get("arguments", call.get("input"))), None
    if isinstance(call, (tuple, list)) and len(call) == 2:
        return call[0], call[1], None
    return None, None, f"a call must be a ToolCall, a (name, args) pair or a dict, not {type(call).__name__}"


def _as_written(call: ToolCall) -> Any:
    """What runs for an ok call: its arguments' text when that reads as its arguments and they
    hold a float (a document given inline to ``@json`` keeps its numbers as written, ``1.10``
    and ``1e5``, as ``run_tool`` on the text does), else its parsed arguments."""
    raw, args = call.raw_args, call.args
    if not raw or not _holds_float(args):
        return args
    r = normalize_tool_args(raw, call.name)
    return raw if r.ok and r.value == args else args


def _holds_float(value: Any) -> bool:
    stack = [value]
    while stack:
        v = stack.pop()
        if isinstance(v, float):
            return True
        if isinstance(v, dict):
            stack.extend(v.values())
        elif isinstance(v, list):
            stack.extend(v)
    return False


def is_mutation(name: Any, args: Any) -> bool:
    """True for a call that writes (``@diff apply`` with ``dry_run`` false: the
    verbs whose declaration says so). Arguments that cannot be read count as a
    write (the safe side)."""
    tool = name.strip().lstrip("@").lower() if isinstance(name, str) else None
    if tool not in TOOL_SPECS or all(v.read_only for v in TOOL_SPECS[tool].verbs):
        return False
    if isinstance(args, (str, bytes, bytearray)):
        r = normalize_tool_args(args, "@" + tool)
        if not r.ok:
            return True
        args = r.value
    if not isinstance(args, dict):
        return True
    cmd = args.get("cmd")
    if not isinstance(cmd, str):
        return True
    verb = TOOL_SPECS[tool].verb(cmd.strip().lower())
    if verb is None or verb.read_only:
        return False
    inner = args.get("args", {})
    if isinstance(inner, (str, bytes)):
        r = normalize_tool_args(inner)
        inner = r.value if r.ok else None
    if not isinstance(inner, dict):
        return True
    merged = {**{k: v for k, v in args.items() if k not in ("cmd", "args")}, **inner}
    fitted, _ = _fit_schema(tool, verb.name, merged)  # as run_tool reads it: "dry-run" is dry_run
    return mutates(tool, verb.name, fitted)


def _one(call: Any, workspace: Any) -> ToolResult:
    name, args, error = _parts(call)
    if error is not None:
        label = name if isinstance(name, str) and name else "the call"
        return ToolResult(False, f"error: could not run {label}: {error}", None)
    return run_tool(name, args, workspace=workspace)


def run_tools(calls: Iterable[Any], workspace: str | Workspace | None = ".",
              max_workers: int | None = None) -> list[ToolResult]:
    """Run every call; read-only ones in parallel, mutations one at a time in order.

    ``calls`` are :class:`~toolmend.ToolCall` objects (a call that is not ok
    gets an error result naming why), ``(name, args)`` pairs or ``{"name":
    ..., "args": ...}`` dicts. ``max_workers`` bounds the threads (default: up to
    8; 1 runs everything in order on this thread). ``workspace`` None is the
    current folder.
    """
    todo: Sequence[Any] = list(calls)
    if max_workers is not None and (not isinstance(max_workers, int) or isinstance(max_workers, bool)
                                    or max_workers < 1):
        raise ToolError(f"run_tools: max_workers must be a positive integer, not {max_workers!r}")
    ws = workspace if isinstance(workspace, Workspace) else Workspace(workspace)
    results: list[ToolResult | None] = [None] * len(todo)
    workers = min(max_workers or 8, max(1, len(todo)))
    if workers == 1:
        return [_one(c, ws) for c in todo]
    with ThreadPoolExecutor(max_workers=workers, thread_name_prefix="toolmend") as pool:
        batch: list[int] = []

        def flush() -> None:
            for i, result in zip(batch, pool.map(lambda k: _one(todo[k], ws), batch), strict=False):
                results[i] = result
            batch.clear()

        for i, call in enumerate(todo):
            name, args, error = _parts(call)
            if error is None and is_mutation(name, args):
                flush()
                results[i] = _one(call, ws)
            else:
                batch.append(i)
        flush()
    return [r if r is not None else ToolResult(False, "error: internal error (no result)", None)
            for r in results]
