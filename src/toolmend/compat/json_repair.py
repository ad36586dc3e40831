"""json-repair's API (``repair_json``, ``loads``, ``load``, ``from_file``) on
toolmend's recovery, for code that already calls json-repair.

    from toolmend.compat import json_repair
    json_repair.loads("{'a': 1,}")          # {'a': 1}

Like json-repair: text that cannot be repaired gives ``''`` (``repair_json``)
or ``''`` as the value (``loads``); ``logging=True`` returns ``(value, log)``
with an empty log for valid input; the JSON text is ``json.dumps`` of the
value with the flags given (``", "`` and ``": "`` separators unless told
otherwise). Differences, by design: toolmend refuses what it would have to
invent (a piece without a colon, a key inside an array, a bare word where a
value belongs) instead of guessing, and then the log says why;
``strict=True`` raises ``toolmend.RecoveryError`` instead, and also for the
repairs json-repair's strict mode refuses (several top-level values, a
missing colon, a missing value, an unescaped or doubled quote in a string, a
key an object holds twice).
Text cut off inside a value is completed, as json-repair completes it (that
is its purpose; toolmend's own ``Recovered`` marks such a reading ``cut`` and
not ok), and the log's ``cut`` entry says where.

``schema=`` (a JSON Schema dict or a Pydantic v2 model class) checks the
repaired value against it with :class:`toolmend.Schema`: the coercions that
have one reading (``"1"`` -> ``1`` for an integer, a JSON object written as
a string, one value where an array is wanted), absent optional properties
given their ``default`` (as json-repair does), and a ``ValueError``
(``RecoveryError``) naming every problem, in json-repair's words first, for
a value that still does not fit (and for text that could not be recovered
at all, naming what the schema wants). Never invented, unlike json-repair: a value
for a missing member (``{"n": }`` stays ``null``), a repair that turns a
value of the wrong type into an empty one. ``schema_repair_mode="salvage"``
also recovers a malformed JSON object or array written as a string.

Text in, as in json-repair: anything but ``str``/``bytes`` (``None``, a ``dict``, a
``list``, a number) raises ``TypeError`` (json-repair raises ``TypeError`` for ``None``
and numbers, ``KeyError`` for a ``dict`` and gives ``''`` for a ``list``). The output
is JSON: it never holds ``Infinity`` or ``NaN``. A number too large for a float
(``1e999``, ``-1e400``) becomes ``null``, as ``NaN`` and ``Infinity`` do, with a
``nan`` entry in the log (``strict=True`` raises instead); json-repair writes
``Infinity``.
"""

from __future__ import annotations

import json
import math
import os
import re
from typing import IO, Any

from ..errors import RecoveryError
from ..recovery import Fix, Recovered, normalize_tool_args

__all__ = ["repair_json", "loads", "load", "from_file"]


def _check(schema: Any, schema_repair_mode: str, strict: bool) -> None:
    if schema_repair_mode not in ("standard", "salvage"):
        raise RecoveryError("schema_repair_mode must be one of: standard, salvage.")
    if schema is not None and strict:
        raise RecoveryError("schema and strict cannot be used together")
    if schema is None and schema_repair_mode == "salvage":
        raise RecoveryError("schema_repair_mode='salvage' requires schema")


# json-repair's words for a schema problem (its tests match them), then ours
_PY_NAMES = {"string": "str", "integer": "int", "number": "float", "boolean": "bool",
             "null": "NoneType", "array": "list", "object": "dict"}
_EXPECTED = re.compile(r"expected (\w+)(?: or \w+)*, got (\w+)")


def _their_words(problem: Any) -> str:
    path, message, keyword = problem
    if keyword == "type":
        m = _EXPECTED.match(message)
        if m:
            return f"Expected {m.group(1)} at {path}, got {_PY_NAMES.get(m.group(2), m.group(2))}."
    if keyword == "required":
        parent, _, name = path.rpartition(".")
        return f"Missing required properties at {parent}: {name}"
    if keyword in ("enum", "const"):
        return f"Value at {path} does not match {keyword}."
    if keyword == "minItems":
        return f"Array at {path} does not meet minItems."
    if keyword == "minProperties":
        return f"Object at {path} does not meet minProperties."
    return f"{path}: {message}"


def _schema_value(value: Any, schema: Any, mode: str) -> tuple[Any, list[Any]]:
    """The repaired value checked against ``schema``: (value, fixes), or
    RecoveryError listing every problem."""
    from ..recovery import Schema

    compiled = Schema(schema)
    salvaged: list[Any] = []
    if mode == "salvage":
        value = _salvage(value, compiled, salvaged)
    result = compiled.check(value, fill_defaults=True)
    if not result.ok:
        first = _their_words(result.problems[0])
        raise RecoveryError(f"{first} ({result.error})", json.dumps(value, default=str)[:200])
    return result.value, salvaged + result.fixes


def _schema_reading(json_str: Any, result: Recovered, value: Any, schema: Any) -> tuple[Recovered, Any]:
    """A refusal the schema settles (``["a": 1]`` for an array of objects):
    its one reading that fits, else the refusal as it was."""
    from ..recovery import Schema
    from ..recovery._toolschema import objects_array_reading

    alt = objects_array_reading(json_str, result, Schema(schema))
    return (result, value) if alt is None else (alt, alt.value)


def _unrecovered(result: Recovered, schema: Any) -> None:
    """With a schema, text that could not be recovered is a ValueError naming
    what the schema wants (json-repair raises for a value that does not fit;
    ``''`` would say nothing about why)."""
    from ..recovery import Schema

    root = Schema(schema)._root
    want = " or ".join(root.types) if root.types else "a value"
    raise RecoveryError(f"Expected {want} at $: the text could not be recovered ({result.error})",
                        result.text)


def _salvage(value: Any, compiled: Any, log: list[Any]) -> Any:
    """``schema_repair_mode="salvage"``: a string member holding malformed
    JSON (``"{a: 1}"``) repaired where the schema wants an object or array
    there, before the check (valid JSON in a string is decoded by the check
    itself)."""
    from ..recovery import Schema

    if not isinstance(value, dict) or compiled.is_valid(value):
        return value
    props = compiled.source.get("properties", {}) if isinstance(compiled.source, dict) else {}
    out = value
    for key, member in value.items():
        sub = props.get(key)
        if not isinstance(member, str) or not isinstance(sub, dict):
            continue
        want = sub.get("type")
        text = member.strip()
        if (want == "object" and text.startswith("{")) or (want == "array" and text.startswith("[")):
            repaired = normalize_tool_args(text)
            if repaired.ok and Schema(sub).is_valid(repaired.value):
                out = dict(out) if out is value else out
                out[key] = repaired.value
                log.append(Fix("schema", -1, f"$.{key}: the malformed {want} written as a string "
                                             "repaired (salvage)"))
    return out


# strict=True: repairs json-repair's strict mode refuses, with its words
_STRICT = {
    "concatenated": "Multiple top-level JSON elements",
    "colon": "Missing ':' after key",
    "value": "Parsed value is empty",
    "inner_quote": "Unescaped or doubled quotes inside a string",
}


# The tokens of valid JSON that the duplicate-key check reads: strings and
# the structural characters (numbers and literals are skipped).
_JSON_TOKENS = re.compile(r'"(?:[^"\\]|\\.)*"|[{}\[\]:,]')


def _duplicate_key(text: str) -> str | None:
    """The first key an object of the valid JSON ``text`` holds twice, or None
    (json-repair's strict mode refuses one: the first value would be lost).
    One pass with a stack of the open containers, no recursion: the text may
    nest as deep as the engine allows."""
    stack: list[set[str] | None] = []  # per open container: its keys (an object) or None
    key_next = False
    for m in _JSON_TOKENS.finditer(text):
        token = m.group(0)
        if token == "{":
            stack.append(set())
            key_next = True
        elif token == "[":
            stack.append(None)
        elif token in "}]":
            stack.pop()
        elif token == ",":
            key_next = bool(stack) and stack[-1] is not None
        elif token != ":" and key_next:
            keys = stack[-1]
            assert keys is not None
            key = json.loads(token)
            if key in keys:
                return key  # type: ignore[no-any-return]
            keys.add(key)
            key_next = False
    return None


def _usable(result: Recovered) -> bool:
    """Whether json-repair would return a value: recovered, or cut and completed."""
    return result.ok or result.cut is not None


def _finite(value: Any) -> tuple[Any, int]:
    """``value`` with every float that is not finite replaced by None, and how many were."""
    count = 0
    if isinstance(value, float) and not math.isfinite(value):
        return None, 1
    root = [value]
    todo: list[list[Any] | dict[str, Any]] = [root]
    while todo:  # no recursion: the value may nest as deep as MAX_DEPTH
        container = todo.pop()
        keys = range(len(container)) if isinstance(container, list) else list(container)
        for key in keys:
            item = container[key]  # type: ignore[index]
            if isinstance(item, (list, dict)):
                todo.append(item)
            elif isinstance(item, float) and not math.isfinite(item):
                container[key] = None  # type: ignore[index]
                count += 1
    return root[0], count


def _recover(json_str: str | bytes, strict: bool) -> tuple[Recovered, Any, list[Fix]]:
    """(toolmend's result, the value json-repair's API gives, the log entries it adds)."""
    if not isinstance(json_str, (str, bytes, bytearray)):
        raise TypeError(f"json_str must be str or bytes, not {type(json_str).__name__}")
    result = normalize_tool_args(bytes(json_str) if isinstance(json_str, bytearray) else json_str)
    if strict:
        if not _usable(result):
            raise RecoveryError(f"could not repair the JSON: {result.error}", result.text)
        for fix in result.fixes:
            if fix.code in _STRICT:
                raise RecoveryError(f"{_STRICT[fix.code]} (offset {fix.offset}); strict mode "
                                    "does not repair it", result.text)
            if fix.code == "nan" and "too large" in fix.message:  # the engine's null for 1e999
                raise RecoveryError(f"a number too large for a float (offset {fix.offset}; Infinity "
                                    "is not JSON); strict mode does not repair it", result.text)
        if result.ok and "{" in result.text and (key := _duplicate_key(result.text)) is not None:
            raise RecoveryError(f"Duplicate key {key!r} in an object: strict mode does not drop "
                                "its first value", result.text)
    if not _usable(result):
        return result, "", []
    value, count = _finite(result.value)
    if not count:
        return result, value, []
    if strict:
        raise RecoveryError(f"{count} number(s) too large for a float (Infinity is not JSON); "
                            "strict mode does not repair them", result.text)
    return result, value, [Fix("nan", 0, f"{count} number(s) too large for a float written as null, "
                                         "as NaN and Infinity are")]


def _log(result: Recovered, source: str | bytes, added: list[Fix]) -> list[dict[str, str]]:
    if not _usable(result):
        return [{"text": result.text, "context": f"not recovered: {result.error}"}]
    text = source if isinstance(source, str) else bytes(source).decode("utf-8", "replace")
    return [{"text": fix.message,
             "context": f"{fix.code} at offset {fix.offset}: "
                        f"{text[max(0, fix.offset - 10):fix.offset + 10]}"}
            for fix in [*result.fixes, *added]]


def _dumps(result: Recovered, value: Any, ensure_ascii: bool, json_dumps_args: dict[str, Any]) -> str:
    if not _usable(result) or value == "":  # json-repair: nothing (or "") is ''
        return ""
    try:
        return json.dumps(value, ensure_ascii=ensure_ascii, **json_dumps_args)
    except RecursionError:  # deeper than json.dumps goes: the compact text
        return result.text


def repair_json(
    json_str: str = "",
    return_objects: bool = False,
    skip_json_loads: bool = False,
    logging: bool = False,
    json_fd: IO[str] | None = None,
    ensure_ascii: bool = True,
    chunk_length: int = 0,
    stream_stable: bool = False,
    strict: bool = False,
    schema: Any | None = None,
    schema_repair_mode: str = "standard",
    **json_dumps_args: Any,
) -> Any:
    """Repair ``json_str`` (or the text of ``json_fd``); return JSON text, or
    the value with ``return_objects=True``, or ``(value, log)`` with
    ``logging=True``. ``skip_json_loads``, ``chunk_length`` and
    ``stream_stable`` are accepted for compatibility and change nothing."""
    _check(schema, schema_repair_mode, strict)
    if json_fd is not None:
        json_str = json_fd.read()
    result, value, added = _recover(json_str, strict)
    if schema is not None and not _usable(result):
        result, value = _schema_reading(json_str, result, value, schema)
    log = _log(result, json_str, added) if logging else []
    if schema is not None and not _usable(result) and json_str.strip():
        _unrecovered(result, schema)
    if schema is not None and _usable(result):
        value, fixes = _schema_value(value, schema, schema_repair_mode)
        log += [{"text": _schema_log(fix.message), "context": fix.message} for fix in fixes]
        if value is not result.value:
            result = Recovered(json.dumps(value), True, result.strategy, value)
    if logging:
        return value, log
    if return_objects:
        return value
    return _dumps(result, value, ensure_ascii, json_dumps_args)


def _schema_log(message: str) -> str:
    """json-repair's log text for a schema coercion (its tests look for it)."""
    if "object written as a JSON string" in message:
        return "Unwrapped JSON string to object to match schema"
    if "array written as a JSON string" in message:
        return "Unwrapped JSON string to array to match schema"
    for kind in ("object", "array"):
        if f"malformed {kind} written as a string" in message:
            return f"Repaired malformed JSON string to {kind} to match schema"
    return message


def loads(json_str: str, skip_json_loads: bool = False, logging: bool = False,
          stream_stable: bool = False, strict: bool = False, schema: Any | None = None,
          schema_repair_mode: str = "standard") -> Any:
    """The repaired value (``""`` when nothing could be recovered)."""
    return repair_json(json_str, return_objects=True, logging=logging, strict=strict,
                       schema=schema, schema_repair_mode=schema_repair_mode)


def load(fd: IO[str], skip_json_loads: bool = False, logging: bool = False,
         chunk_length: int = 0, stream_stable: bool = False, strict: bool = False,
         schema: Any | None = None, schema_repair_mode: str = "standard") -> Any:
    """The repaired value of the text read from ``fd``."""
    return repair_json(json_fd=fd, return_objects=True, logging=logging, strict=strict,
                       schema=schema, schema_repair_mode=schema_repair_mode)


def from_file(filename: str | os.PathLike[str], skip_json_loads: bool = False,
              logging: bool = False, chunk_length: int = 0, stream_stable: bool = False,
              strict: bool = False, schema: Any | None = None,
              schema_repair_mode: str = "standard") -> Any:
    """The repaired value of a file's text (UTF-8)."""
    with open(filename, encoding="utf-8") as fd:
        return load(fd, logging=logging, strict=strict, schema=schema,
                    schema_repair_mode=schema_repair_mode)
