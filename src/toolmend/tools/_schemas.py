"""Tool definitions to register with a provider: ``schemas("openai" | "anthropic")``.

The tools are named ``json`` and ``diff`` (legal everywhere:
``^[a-zA-Z0-9_-]{1,64}$``; ``run_tool`` accepts ``@json``/``@diff`` too). Each
takes ``{"cmd": VERB, "args": {...}}``; the JSON Schema lists every verb in
``cmd`` and every argument in ``args``, each saying which verbs take it.
"""

from __future__ import annotations

import copy
from typing import Any

from ._verbspec import TOOL_SPECS, Arg

__all__ = ["schemas", "TOOL_SCHEMAS", "VERB_ARGS", "PROVIDERS", "arg_schema"]

PROVIDERS = ("openai", "anthropic")

_STR: dict[str, Any] = {"type": "string"}


def arg_schema(arg: Arg) -> dict[str, Any]:
    """The JSON Schema of one argument, without its description. A default is
    shown for the typed values (free text says its default in words)."""
    if arg.type == "strings":
        return {"anyOf": [{"type": "array", "items": dict(_STR)}, dict(_STR)]}
    schema: dict[str, Any] = {"type": arg.type}
    if arg.choices:
        schema["enum"] = list(arg.choices)
    if arg.minimum is not None:
        schema["minimum"] = arg.minimum
    if arg.maximum is not None:
        schema["maximum"] = arg.maximum
    if arg.default is not None and (arg.type != "string" or arg.choices):
        schema["default"] = arg.default
    return schema


def _description(arg: Arg) -> str:
    """The help, with the bounds (and a default said in words) the schema's keywords also give."""
    bounds = arg.bounds_text(agents=True, default=False)
    return arg.help + (f" ({bounds})" if bounds else "")


#: tool -> verb -> (what it does, {argument: (schema, description)}, required arguments),
#: as the declarations (:data:`toolmend.tools._verbspec.TOOL_SPECS`) say
VERB_ARGS: dict[str, dict[str, tuple[str, dict[str, tuple[dict[str, Any], str]], tuple[str, ...]]]] = {
    tool: {verb.name: (verb.help, {a.name: (arg_schema(a), _description(a)) for a in verb.args},
                       verb.required) for verb in spec.verbs}
    for tool, spec in TOOL_SPECS.items()}


def _tool_schema(tool: str) -> dict[str, Any]:
    verbs = VERB_ARGS[tool]
    properties: dict[str, Any] = {}
    docs: dict[str, dict[str, list[str]]] = {}  # argument -> description -> the verbs it is for
    for verb, (_, args, _required) in verbs.items():
        for name, (schema, doc) in args.items():
            properties.setdefault(name, copy.deepcopy(schema))
            docs.setdefault(name, {}).setdefault(doc, []).append(verb)
    for name, by_doc in docs.items():
        taken = [v for vs in by_doc.values() for v in vs]
        if len(by_doc) == 1:
            doc = next(iter(by_doc))
            properties[name]["description"] = doc + (f" ({', '.join(taken)})" if len(taken) < len(verbs)
                                                     else "")
        else:
            properties[name]["description"] = "; ".join(f"{', '.join(vs)}: {doc}"
                                                        for doc, vs in by_doc.items())
    cmd_doc = "; ".join(f"{verb}: {what}" + (f" (needs {', '.join(req)})" if req else "")
                        for verb, (what, _, req) in verbs.items())
    return {
        "type": "object",
        "properties": {
            "cmd": {"type": "string", "enum": list(verbs), "description": cmd_doc},
            "args": {"type": "object", "properties": properties, "additionalProperties": False,
                     "description": "the verb's arguments"},
        },
        "required": ["cmd", "args"],
        "additionalProperties": False,
    }


#: tool name -> the JSON Schema of its arguments
TOOL_SCHEMAS: dict[str, dict[str, Any]] = {tool: _tool_schema(tool) for tool in VERB_ARGS}


def schemas(provider: str = "openai") -> list[dict[str, Any]]:
    """Ready-to-register definitions of the ``json`` and ``diff`` tools.

    ``"openai"``: ``[{"type": "function", "function": {"name", "description", "parameters"}}]``
    for Chat Completions ``tools=``; ``"anthropic"``: ``[{"name", "description", "input_schema"}]``
    for Messages ``tools=``. Each call returns fresh dicts.
    """
    if not isinstance(provider, str) or provider.lower() not in PROVIDERS:
        from ..errors import ToolError

        raise ToolError(f"schemas: unknown provider {provider!r}; the providers are {', '.join(PROVIDERS)}")
    out: list[dict[str, Any]] = []
    for tool, schema in TOOL_SCHEMAS.items():
        params = copy.deepcopy(schema)
        doc = TOOL_SPECS[tool].help
        if provider.lower() == "openai":
            out.append({"type": "function",
                        "function": {"name": tool, "description": doc, "parameters": params}})
        else:
            out.append({"name": tool, "description": doc, "input_schema": params})
    return out
