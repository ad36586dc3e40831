"""toolmend: the fast path for AI-agent tool calls.

Recover malformed tool-call arguments, answer questions about JSON/YAML
payloads without dumping them, and diff and patch files safely.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ._kernels import compiled
from .errors import PatchError, RecoveryError
from .quotes import normalize_quotes
from .recovery import Recovered, loads, normalize_tool_args
from .toolfields import field_for_tool, looks_like_cli_args, register_tool_field

__version__ = "0.1.0"

if TYPE_CHECKING:  # what the lazy attributes below resolve to
    from . import diff as diff
    from .runner import ToolResult as ToolResult
    from .runner import run_tool as run_tool
    from .toolcalls import ToolCall as ToolCall
    from .toolcalls import parse_tool_calls as parse_tool_calls

# Imported on first use, so that `import toolmend` stays light:
# attribute -> (module, name in it, or None for the module itself)
_LAZY = {
    "diff": (".diff", None),
    "run_tool": (".runner", "run_tool"),
    "ToolResult": (".runner", "ToolResult"),
    "parse_tool_calls": (".toolcalls", "parse_tool_calls"),
    "ToolCall": (".toolcalls", "ToolCall"),
}


def __getattr__(name: str) -> object:
    if name in _LAZY:
        import importlib

        module_name, attr = _LAZY[name]
        module = importlib.import_module(module_name, __name__)
        return module if attr is None else getattr(module, attr)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "compiled",
    "Recovered",
    "RecoveryError",
    "PatchError",
    "normalize_tool_args",
    "loads",
    "normalize_quotes",
    "looks_like_cli_args",
    "field_for_tool",
    "register_tool_field",
    "run_tool",
    "ToolResult",
    "diff",
    "parse_tool_calls",
    "ToolCall",
    "__version__",
]
