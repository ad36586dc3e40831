"""``toolmend.recovery``: malformed tool-call arguments made usable.

    normalize_tool_args(raw, tool=None, *, schema=None)
                                         -> Recovered(text, ok, strategy, value, error, fixes, cut)
    Cut(offset, what, message)           where a cut text ends (Recovered.cut; None when whole)
    loads(raw, tool=None, *, schema=None) -> the value, or RecoveryError
    Schema(schema)                       a JSON Schema compiled: .is_valid, .check, .validate
    tool_schemas(tools)                  OpenAI / Anthropic / MCP tool lists -> {name: Schema}
    check_tool_calls(calls, tools)       each call's arguments checked against its tool's schema
    normalize_quotes(text, path=None)    curly quotes -> ASCII (code files only, with a path)
    looks_like_cli_args(text)            the CLI-argument heuristic
    field_for_tool(tool), register_tool_field(tool, field)
    parse_tool_calls(text, *, format=None, tools=None)
                                         -> [ToolCall] found in model text, in every open model's format
    ToolCallStream(format=None, tools=None) .feed(delta) -> [events]; .close() -> [events];
                                         .finish() -> [ToolCall] as parse_tool_calls gives them
                                         (events: TextDelta, CallStarted, ArgsDelta, CallFinished)
    StreamingArgs(tool=None, schema=None) .feed(chunk); .value: best value so far;
                                         .appended(*path): a string's new text; .finish() -> Recovered
    MAX_DEPTH                            the deepest nesting recovered (1024, as orjson reads);
                                         deeper text is refused at the bracket past it

The strategies run in the documented order (see ``STRATEGIES``); the text
rewriting happens in the compiled kernel (or its pure twin).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .._text import MAX_DEPTH
from ._fields import field_for_tool, looks_like_cli_args, register_tool_field, registered_tools
from ._quotes import CODE_EXTENSIONS, CODE_FILENAMES, is_code_path, normalize_quotes
from ._result import CUT_KINDS, FIX_CODES, Cut, Fix
from ._strategies import QUOTE_MODES, STRATEGIES, Recovered, json_text, loads, normalize_tool_args

if TYPE_CHECKING:
    from ._streaming import StreamingArgs as StreamingArgs
    from ._toolcalls import (
        ToolCall as ToolCall,
        not_runnable as not_runnable,
        parse_tool_calls as parse_tool_calls,
    )
    from ._toolschema import (
        Checked as Checked,
        Problem as Problem,
        Schema as Schema,
        check_tool_calls as check_tool_calls,
        tool_schemas as tool_schemas,
    )
    from ._toolstream import (
        ArgsDelta as ArgsDelta,
        CallFinished as CallFinished,
        CallStarted as CallStarted,
        TextDelta as TextDelta,
        ToolCallStream as ToolCallStream,
    )

__all__ = [
    "Recovered", "Fix", "FIX_CODES", "Cut", "CUT_KINDS",
    "normalize_tool_args", "loads", "json_text", "STRATEGIES", "QUOTE_MODES",
    "normalize_quotes", "is_code_path", "CODE_EXTENSIONS", "CODE_FILENAMES",
    "field_for_tool", "register_tool_field", "registered_tools", "looks_like_cli_args",
    "ToolCall", "parse_tool_calls", "not_runnable", "StreamingArgs", "MAX_DEPTH",
    "ToolCallStream", "TextDelta", "CallStarted", "ArgsDelta", "CallFinished",
    "Schema", "Checked", "Problem", "tool_schemas", "check_tool_calls",
]


_LAZY = {
    **dict.fromkeys(("ToolCall", "parse_tool_calls", "not_runnable"), "._toolcalls"),
    **dict.fromkeys(("ToolCallStream", "TextDelta", "CallStarted", "ArgsDelta", "CallFinished"),
                    "._toolstream"),
    **dict.fromkeys(("Schema", "Checked", "Problem", "tool_schemas", "check_tool_calls"), "._toolschema"),
    "StreamingArgs": "._streaming",
}


def __getattr__(name: str) -> object:
    # The tool-call finder loads on first use: argument recovery alone stays
    # light to import (no dataclasses, no html). A name loaded is kept here:
    # later lookups are plain attribute reads.
    module = _LAZY.get(name)
    if module is not None:
        import importlib

        value = globals()[name] = getattr(importlib.import_module(module, __name__), name)
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
