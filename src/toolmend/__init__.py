"""toolmend: the fast path for AI-agent tool calls.

Recover malformed tool-call arguments (:mod:`toolmend.recovery`), answer
questions about JSON/YAML payloads without dumping them (:mod:`toolmend.json`),
and diff and patch files safely (:mod:`toolmend.diff`); :mod:`toolmend.tools`
runs them as the ``@json`` and ``@diff`` tools. Every exception is a
:class:`toolmend.errors.ToolmendError`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ._kernels import compiled
from .errors import (
    BudgetWarning,
    EncodingError,
    JSONError,
    JSONSyntaxError,
    LiteralError,
    MalformedJSONError,
    NestingError,
    PartialJSONError,
    PatchError,
    PathError,
    PathNotFound,
    QueryError,
    RecoveryError,
    SchemaError,
    SchemaWarning,
    ToolError,
    ToolmendError,
    WorkspaceError,
    YAMLDocumentError,
)
from .recovery import (
    Cut,
    Recovered,
    field_for_tool,
    loads,
    looks_like_cli_args,
    normalize_quotes,
    normalize_tool_args,
    register_tool_field,
)

__version__ = "0.1.0"

if TYPE_CHECKING:  # what the lazy attributes below resolve to
    from . import (
        compat as compat,
        diff as diff,
        errors as errors,
        json as json,
        recovery as recovery,
        tools as tools,
    )
    from .recovery import (
        Schema as Schema,
        StreamingArgs as StreamingArgs,
        ToolCall as ToolCall,
        ToolCallStream as ToolCallStream,
        parse_tool_calls as parse_tool_calls,
        tool_schemas as tool_schemas,
    )
    from .tools import (
        ToolResult as ToolResult,
        from_anthropic as from_anthropic,
        from_openai as from_openai,
        run_tool as run_tool,
        run_tools as run_tools,
    )

# Imported on first use, so that `import toolmend` stays light (recovery
# only): attribute -> (module, name in it, or None for the module itself)
_LAZY = {
    "diff": (".diff", None),
    "json": (".json", None),
    "tools": (".tools", None),
    "compat": (".compat", None),
    "run_tool": (".tools", "run_tool"),
    "run_tools": (".tools", "run_tools"),
    "from_openai": (".tools", "from_openai"),
    "from_anthropic": (".tools", "from_anthropic"),
    "ToolResult": (".tools", "ToolResult"),
    "parse_tool_calls": (".recovery", "parse_tool_calls"),
    "ToolCall": (".recovery", "ToolCall"),
    "ToolCallStream": (".recovery", "ToolCallStream"),
    "StreamingArgs": (".recovery", "StreamingArgs"),
    "Schema": (".recovery", "Schema"),
    "tool_schemas": (".recovery", "tool_schemas"),
}


def __getattr__(name: str) -> object:
    if name in _LAZY:
        import importlib

        module_name, attr = _LAZY[name]
        module = importlib.import_module(module_name, __name__)
        value = module if attr is None else getattr(module, attr)
        globals()[name] = value  # loaded once: later lookups are plain attribute reads
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "compiled",
    "__version__",
    # recovery
    "Recovered",
    "Cut",
    "normalize_tool_args",
    "loads",
    "normalize_quotes",
    "looks_like_cli_args",
    "field_for_tool",
    "register_tool_field",
    "parse_tool_calls",
    "ToolCallStream",
    "ToolCall",
    "StreamingArgs",
    "Schema",
    "tool_schemas",
    # tools
    "run_tool",
    "run_tools",
    "ToolResult",
    "from_openai",
    "from_anthropic",
    # subpackages
    "recovery",
    "json",
    "diff",
    "tools",
    "compat",
    "errors",
    # errors
    "ToolmendError",
    "RecoveryError",
    "LiteralError",
    "PatchError",
    "EncodingError",
    "JSONError",
    "JSONSyntaxError",
    "YAMLDocumentError",
    "NestingError",
    "PathError",
    "PathNotFound",
    "QueryError",
    "ToolError",
    "WorkspaceError",
    "PartialJSONError",
    "MalformedJSONError",
    "BudgetWarning",
    "SchemaError",
    "SchemaWarning",
]
