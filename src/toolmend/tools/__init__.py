"""``toolmend.tools``: the ``@json`` and ``@diff`` tools, above the libraries.

    run_tool(name, args, workspace=".")  -> ToolResult(ok, output, data); never raises

A tool call is ``{"cmd": VERB, "args": {...}}``, as a dict or as (possibly
malformed) text that goes through argument recovery first. ``output`` is what
an agent reads, capped (``OUTPUT_CAPS``); ``data`` the structured result. Paths
are confined to the :class:`Workspace`; the one mutation (``@diff apply``
with ``dry_run: false``) backs up first and replaces atomically.
"""

from __future__ import annotations

from ._output import CappedOutput, cap_text
from ._runner import ERROR_CAP, OUTPUT_CAPS, TOOLS, ToolArgs, ToolResult, run_tool, run_verb
from ._workspace import Workspace

__all__ = ["run_tool", "run_verb", "ToolResult", "ToolArgs", "TOOLS", "OUTPUT_CAPS", "ERROR_CAP", "Workspace",
           "CappedOutput", "cap_text"]
