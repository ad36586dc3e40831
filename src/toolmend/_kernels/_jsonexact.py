"""The exact-number reader of the kernels: pure-Python twin of
``ext/_jsonexact.pxi``, exported by the JSON kernel as ``load_exact``.

``load_exact(text, on_int, on_float, max_depth)`` is the value of the valid
JSON ``text`` (a str) with every number token handed, as written, to a hook:
``on_int`` for a token without a fraction or an exponent (``-0`` included),
``on_float`` for the others, as the stdlib's parse_int / parse_float are.
Past ``max_depth`` levels of nesting it raises RecursionError. The text must
be valid JSON (the scanner said so): nothing here checks the grammar.

The stdlib's C decoder does the work; where its recursion could stop before
``max_depth`` (or does), a reader with an explicit stack reads the text, so
the depth bound is the compiled twin's, whatever the interpreter's.
"""

from __future__ import annotations

import json
import re
import sys
from typing import Any, Callable

__all__ = ["load_exact"]

_scanstring = json.decoder.scanstring  # type: ignore[attr-defined]

# one token of valid JSON, after its whitespace: an opener, a closer, a comma
# or a colon, a string's opening quote, a number, a literal
_TOKEN = re.compile(r'[ \t\n\r]*(?:([{\[])|([}\]])|([,:])|(")|([-0-9][-+.eE0-9]*)|(true|false|null))')
_WORDS = {"true": True, "false": False, "null": None}


def load_exact(text: str, on_int: Callable[[str], Any], on_float: Callable[[str], Any],
               max_depth: int) -> Any:
    """The value of the valid JSON ``text``, its number tokens read by the hooks."""
    if max_depth >= sys.getrecursionlimit():  # the decoder stops first, if at all
        try:
            return json.JSONDecoder(parse_int=on_int, parse_float=on_float).decode(text)
        except RecursionError:
            pass
    return _read(text, on_int, on_float, max_depth)


def _read(text: str, on_int: Callable[[str], Any], on_float: Callable[[str], Any],
          max_depth: int) -> Any:
    """``load_exact`` without recursion: the open containers on a stack, with
    the keys their next values go under."""
    stack: list[Any] = []
    keys: list[str] = []
    want_key = False
    i = 0
    match = _TOKEN.match
    while True:
        m = match(text, i)
        assert m is not None, "load_exact takes valid JSON only"
        i = m.end()
        opener, closer, punct, quote, number, word = m.groups()
        if opener:
            if len(stack) >= max_depth:
                raise RecursionError(f"nesting deeper than {max_depth} levels")
            stack.append({} if opener == "{" else [])
            want_key = opener == "{"
            continue
        if punct:
            want_key = punct == "," and type(stack[-1]) is dict
            continue
        value: Any
        if closer:
            value = stack.pop()
        elif quote:
            value, i = _scanstring(text, i)
            if want_key:
                keys.append(value)
                want_key = False
                continue
        elif number:
            value = on_float(number) if any(c in number for c in ".eE") else on_int(number)
        else:
            value = _WORDS[word]
        if not stack:
            return value
        top = stack[-1]
        if type(top) is dict:
            top[keys.pop()] = value
        else:
            top.append(value)
