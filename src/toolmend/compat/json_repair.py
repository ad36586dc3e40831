"""json-repair's API (``repair_json``, ``loads``, ``load``, ``from_file``) on
toolmend's recovery, for code that already calls json-repair.

    from toolmend.compat import json_repair
    json_repair.loads("{'a': 1,}")          # {'a': 1}

Differences, by design: toolmend refuses what it would have to invent (a
piece without a colon, concatenated objects, truncated text); like
json-repair, such input then gives an empty string (``""``), and with
``logging=True`` the log says why. ``strict=True`` raises
``toolmend.RecoveryError`` instead.
"""

from __future__ import annotations

import json
import os
from typing import IO, Any

from ..errors import RecoveryError
from ..recovery import Recovered, normalize_tool_args

__all__ = ["repair_json", "loads", "load", "from_file"]


def _recover(json_str: str | bytes, strict: bool) -> Recovered:
    result = normalize_tool_args(json_str)
    if strict and not result.ok:
        raise RecoveryError(f"could not repair the JSON: {result.error}", result.text)
    return result


def _log(result: Recovered) -> list[dict[str, str]]:
    if result.ok:
        return [{"text": result.text, "context": f"recovered by strategy {result.strategy}"}]
    return [{"text": result.text, "context": f"not recovered: {result.error}"}]


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
    **json_dumps_args: Any,
) -> Any:
    """Repair ``json_str`` (or the text of ``json_fd``); return JSON text, or
    the value with ``return_objects=True``, or ``(value, log)`` with
    ``logging=True``. ``skip_json_loads``, ``chunk_length`` and
    ``stream_stable`` are accepted for compatibility and change nothing."""
    if json_fd is not None:
        json_str = json_fd.read()
    result = _recover(json_str, strict)
    value = result.value if result.ok else ""
    if logging:
        return value, _log(result)
    if return_objects:
        return value
    if result.ok and not json_dumps_args and ensure_ascii is False:
        return result.text
    return json.dumps(value, ensure_ascii=ensure_ascii, **json_dumps_args)


def loads(json_str: str, skip_json_loads: bool = False, logging: bool = False,
          stream_stable: bool = False, strict: bool = False) -> Any:
    """The repaired value (``""`` when nothing could be recovered)."""
    return repair_json(json_str, return_objects=True, logging=logging, strict=strict)


def load(fd: IO[str], skip_json_loads: bool = False, logging: bool = False,
         chunk_length: int = 0, stream_stable: bool = False, strict: bool = False) -> Any:
    """The repaired value of the text read from ``fd``."""
    return repair_json(json_fd=fd, return_objects=True, logging=logging, strict=strict)


def from_file(filename: str | os.PathLike[str], skip_json_loads: bool = False,
              logging: bool = False, chunk_length: int = 0, stream_stable: bool = False,
              strict: bool = False) -> Any:
    """The repaired value of a file's text (UTF-8)."""
    with open(filename, encoding="utf-8") as fd:
        return load(fd, logging=logging, strict=strict)
