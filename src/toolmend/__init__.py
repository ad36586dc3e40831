"""toolmend: the fast path for AI-agent tool calls.

Recover malformed tool-call arguments, answer questions about JSON/YAML
payloads without dumping them, and diff and patch files safely.
"""

from __future__ import annotations

from ._kernels import compiled
from .errors import PatchError, RecoveryError
from .quotes import normalize_quotes
from .recovery import Recovered, loads, normalize_tool_args
from .runner import ToolResult, run_tool
from .toolfields import field_for_tool, looks_like_cli_args, register_tool_field

__version__ = "0.1.0"

# Submodules imported on first use, so that `import toolmend` stays light.
_LAZY = {"diff": ".diff"}


def __getattr__(name: str) -> object:
    if name in _LAZY:
        import importlib

        return importlib.import_module(_LAZY[name], __name__)
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
    "__version__",
]
