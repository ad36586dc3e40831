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
missing colon, a missing value). ``schema=`` is not
supported: it raises ``RecoveryError`` naming it rather than being ignored.

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
from typing import IO, Any

from ..errors import RecoveryError
from ..recovery import Fix, Recovered, normalize_tool_args

__all__ = ["repair_json", "loads", "load", "from_file"]


def _check(schema: Any, schema_repair_mode: str, strict: bool) -> None:
    if schema is not None:
        raise RecoveryError("toolmend.compat.json_repair does not support schema= "
                            "(schema-guided repair): validate the repaired value yourself, "
                            "for example with jsonschema")
    if schema_repair_mode != "standard":
        raise RecoveryError("schema_repair_mode='salvage' requires schema, which "
                            "toolmend.compat.json_repair does not support")


# strict=True: repairs json-repair's strict mode refuses, with its words
_STRICT = {
    "concatenated": "Multiple top-level JSON elements",
    "colon": "Missing ':' after key",
    "value": "Parsed value is empty",
}


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
        if not result.ok:
            raise RecoveryError(f"could not repair the JSON: {result.error}", result.text)
        for fix in result.fixes:
            if fix.code in _STRICT:
                raise RecoveryError(f"{_STRICT[fix.code]} (offset {fix.offset}); strict mode "
                                    "does not repair it", result.text)
    if not result.ok:
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
    if not result.ok:
        return [{"text": result.text, "context": f"not recovered: {result.error}"}]
    text = source if isinstance(source, str) else bytes(source).decode("utf-8", "replace")
    return [{"text": fix.message,
             "context": f"{fix.code} at offset {fix.offset}: "
                        f"{text[max(0, fix.offset - 10):fix.offset + 10]}"}
            for fix in [*result.fixes, *added]]


def _dumps(result: Recovered, value: Any, ensure_ascii: bool, json_dumps_args: dict[str, Any]) -> str:
    if not result.ok or value == "":  # json-repair: nothing (or "") is ''
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
    if logging:
        return value, _log(result, json_str, added)
    if return_objects:
        return value
    return _dumps(result, value, ensure_ascii, json_dumps_args)


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
