"""Tool definitions to register with a provider: ``schemas("openai" | "anthropic")``.

The tools are named ``json`` and ``diff`` (legal everywhere:
``^[a-zA-Z0-9_-]{1,64}$``; ``run_tool`` accepts ``@json``/``@diff`` too). Each
takes ``{"cmd": VERB, "args": {...}}``; the JSON Schema lists every verb in
``cmd`` and every argument in ``args``, each saying which verbs take it.
"""

from __future__ import annotations

import copy
from typing import Any

from ._diff_io import BUDGET_MAX, CONTEXT_MAX
from ._json_tool import QUERY_LIMIT_MAX

__all__ = ["schemas", "TOOL_SCHEMAS", "VERB_ARGS", "PROVIDERS"]

PROVIDERS = ("openai", "anthropic")

_STR: dict[str, Any] = {"type": "string"}
_Arg = tuple[dict[str, Any], str]

# tool -> verb -> (what it does, {argument: (schema, description)}, required arguments)
VERB_ARGS: dict[str, dict[str, tuple[str, dict[str, tuple[dict[str, Any], str]], tuple[str, ...]]]] = {}

_DOC: dict[str, _Arg] = {
    "file": (_STR, "the JSON or YAML file, a path inside the workspace (up to 20 MB); or give text"),
    "text": (_STR, "the document itself, instead of file"),
    "format": ({"type": "string", "enum": ["auto", "json", "yaml"], "default": "auto"},
               "how to read it: auto (by extension, then by content), json or yaml"),
}
_PATH: _Arg = (_STR, "where in the document: a.b[0].c, [-1] from the end, * or [*] to fan out, "
               "items[0:5] for a slice, quoted keys a[\"b.c\"], $ for the root")
VERB_ARGS["json"] = {
    "get": ("the value at a path (numbers exactly as written)", {**_DOC, "path": _PATH}, ("path",)),
    "keys": ("the keys at a path, each with a summary of its value", {**_DOC, "path": _PATH}, ()),
    "query": ("the rows of an array that match a condition", {
        **_DOC, "path": (_STR, "the array to query (default: the root)"),
        "where": (_STR, "conditions joined by && and || (&& binds tighter): field=value, !=, "
                        "~regex, !~regex, <, <=, >, >=; fields are dotted paths, . is the row "
                        "itself, labels[*].name=bug matches when any element does"),
        "select": ({"anyOf": [{"type": "array", "items": _STR}, _STR]},
                   "the fields to show, a list or one string with commas"),
        "limit": ({"type": "integer", "minimum": 0, "maximum": QUERY_LIMIT_MAX, "default": 20},
                  f"most rows to show (at most {QUERY_LIMIT_MAX})"),
        "offset": ({"type": "integer", "minimum": 0, "default": 0}, "rows to skip first"),
        "sort": (_STR, "a field to order the rows by (null, booleans, numbers, strings)"),
        "desc": ({"type": "boolean", "default": False}, "sort in descending order"),
    }, ()),
    "schema": ("the inferred shape of the document, with how often each key occurs", {
        **_DOC, "path": _PATH,
        "depth": ({"type": "integer", "minimum": 1, "maximum": 8, "default": 3}, "how deep to describe"),
    }, ()),
    "validate": ("whether the document is valid, and where it breaks if not", dict(_DOC), ()),
    "pretty": ("the document (or the value at a path) re-indented", {
        **_DOC, "path": _PATH,
        "compact": ({"type": "boolean", "default": False}, "one line instead of a 2-space indent"),
    }, ()),
}
_CONTEXT: _Arg = ({"type": "integer", "minimum": 0, "maximum": CONTEXT_MAX, "default": 3},
            f"lines of context around each change (at most {CONTEXT_MAX})")
_BUDGET: _Arg = ({"type": "integer", "minimum": 0, "maximum": BUDGET_MAX, "default": 8000},
           "most changed lines diffed minimally; past it the middle is one block, with a warning")
VERB_ARGS["diff"] = {
    "files": ("a unified diff of two files (up to 4 MB each)", {
        "a": (_STR, "the old file, a path inside the workspace"),
        "b": (_STR, "the new file, a path inside the workspace"),
        "context": _CONTEXT, "budget": _BUDGET,
    }, ("a", "b")),
    "text": ("a unified diff of two strings", {
        "a": (_STR, "the old text"), "b": (_STR, "the new text"), "context": _CONTEXT, "budget": _BUDGET,
    }, ("a", "b")),
    "dirs": ("the files added, removed and changed between two directories", {
        "a": (_STR, "the old directory"), "b": (_STR, "the new directory"),
        "glob": (_STR, "only the files that match this pattern, e.g. *.py"),
        "unified": ({"type": "boolean", "default": False},
                    "also the patch that turns the old tree into the new one (apply takes it)"),
        "context": _CONTEXT, "budget": _BUDGET,
    }, ("a", "b")),
    "apply": ("check a unified diff against its files, and with dry_run false apply it, all or "
              "nothing (each original backed up first)", {
        "file": (_STR, "the file to patch, a path inside the workspace (default: every file the "
                       "patch names)"),
        "patch": (_STR, "the unified diff; a cut one (its first line says so) is refused"),
        "dry_run": ({"type": "boolean", "default": True},
                    "true (the default): only report what would change; false: write the files"),
        "backup": ({"type": "boolean", "default": True}, "keep each original as <file>.bak"),
        "reverse": ({"type": "boolean", "default": False}, "undo the patch instead"),
        "dir": (_STR, "the folder the patch's paths are relative to (default: the workspace)"),
        "strip": ({"type": "integer", "minimum": 0, "maximum": 64},
                  "leading folders to drop from the patch's paths (as patch -p)"),
    }, ("patch",)),
}

_TOOL_DOC: dict[str, str] = {
    "json": "Answer questions about a JSON or YAML document without reading all of it: get a value at a "
            "path, list keys, query rows, infer its schema, validate it, pretty-print it.",
    "diff": "Minimal unified diffs of two files, two texts or two directories, and strict patching: "
            "apply refuses any mismatch and backs the file up first.",
}


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
        if provider.lower() == "openai":
            out.append({"type": "function",
                        "function": {"name": tool, "description": _TOOL_DOC[tool], "parameters": params}})
        else:
            out.append({"name": tool, "description": _TOOL_DOC[tool], "input_schema": params})
    return out
