"""``toolmend.tools``: the ``@json`` and ``@diff`` tools, above the libraries.

    run_tool(name, args, workspace=".")    -> ToolResult(ok, output, data); never raises
    run_tools(calls, workspace=".", max_workers=None) -> [ToolResult], reads in parallel, writes in order
    schemas("openai" | "anthropic")        -> the tool definitions to register (tools json and diff)
    from_openai(obj), from_anthropic(obj)  -> [ToolCall] from a provider's response (SDK object or dict)
    to_openai(call, result), to_anthropic(call, result)  -> the provider's tool-result message / block

A tool call is ``{"cmd": VERB, "args": {...}}``, as a dict or as (possibly
malformed) text that goes through argument recovery first. ``output`` is what
an agent reads, capped (``OUTPUT_CAPS``); ``data`` the structured result. Paths
are confined to the :class:`Workspace`; the one mutation (``@diff apply``
with ``dry_run: false``) backs up first and replaces atomically.
"""

from __future__ import annotations

from ._batch import is_mutation, run_tools
from ._output import CappedOutput, cap_text
from ._providers import anthropic_results, from_anthropic, from_openai, to_anthropic, to_openai
from ._runner import ERROR_CAP, OUTPUT_CAPS, TOOLS, ToolArgs, ToolResult, run_tool, run_verb
from ._schemas import TOOL_SCHEMAS, VERB_ARGS, schemas
from ._workspace import Workspace

__all__ = ["run_tool", "run_tools", "run_verb", "is_mutation", "ToolResult", "ToolArgs", "TOOLS",
           "OUTPUT_CAPS", "ERROR_CAP", "Workspace", "CappedOutput", "cap_text", "schemas",
           "TOOL_SCHEMAS", "VERB_ARGS", "from_openai", "from_anthropic", "to_openai", "to_anthropic",
           "anthropic_results"]
