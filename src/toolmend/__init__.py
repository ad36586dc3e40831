"""toolmend: the fast path for AI-agent tool calls.

Recover malformed tool-call arguments, answer questions about JSON/YAML
payloads without dumping them, and diff and patch files safely.
"""

from __future__ import annotations

from ._kernels import compiled
from .errors import PatchError, RecoveryError
from .quotes import normalize_quotes
from .recovery import Recovered, loads, normalize_tool_args
from .toolfields import field_for_tool, looks_like_cli_args, register_tool_field

__version__ = "0.1.0"

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
    "__version__",
]
