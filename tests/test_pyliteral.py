"""The everyday pythonic call read without ast (``_formats/_pyliteral``) reads as ast does.

``pythonic_at`` tries ``simple_call_args`` first and falls back to :mod:`ast`; the
two must never differ. Each generated call (literals of every kind, written with
every quote and escape, keywords and junk among them, then mutated a character at
a time) is read both ways, the fast reading switched off for the second: the
calls must be equal field for field, whichever way the fast reader answered.
"""

from __future__ import annotations

import math

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from toolmend.recovery._formats import _pythonic
from toolmend.recovery._formats._pyliteral import simple_call_args

_CHARS = st.sampled_from(list("ab Z09_-.,:;=()[]{}#'\"\\\n\r\t\x00\x0c\x85\u2028\ud800é😀nrtux"))
_TEXT = st.text(_CHARS, max_size=12)


def _string(draw: st.DrawFn, value: str, clean: bool) -> str:
    style = draw(st.sampled_from(["repr", "single", "double"] if clean else
                                 ["repr", "single", "double", "raw", "triple", "prefixed"]))
    if style == "repr":
        return repr(value)
    if style == "triple":
        return "'''" + value.replace("\\", "\\\\") + "'''"
    if style == "prefixed":
        return draw(st.sampled_from("rbuRf")) + repr(value)
    q = {"single": "'", "double": '"', "raw": draw(st.sampled_from("'\""))}[style]
    body = value if style == "raw" else value.replace("\\", "\\\\").replace(q, "\\" + q).replace("\n", "\\n")
    return q + body + q


@st.composite
def _literal(draw: st.DrawFn, clean: bool, depth: int = 0) -> str:
    kinds = ["str", "int", "float", "word"] + (["list", "dict"] if depth < 3 else [])
    kind = draw(st.sampled_from(kinds + (["tuple", "junk"] if not clean and depth < 3 else [])))
    if kind == "str":
        return _string(draw, draw(_TEXT), clean)
    if kind == "int":
        n = draw(st.one_of(st.integers(-10**6, 10**6), st.integers(-10**120, 10**120)))
        return str(n) if clean else draw(st.sampled_from([str(n), f"{n:_}", hex(abs(n)), "0" + str(abs(n))]))
    if kind == "float":
        x = draw(st.floats(allow_nan=not clean, allow_infinity=not clean))
        odd = [repr(x), f"{x:e}", "1e400", ".5", "1.", "1j", "- 2"]
        return repr(x) if clean else draw(st.sampled_from(odd))
    if kind == "word":
        return draw(st.sampled_from(["True", "False", "None", "true", "false", "null"] +
                                    ([] if clean else ["x", "nan", "__debug__"])))
    if kind == "junk":
        return draw(st.sampled_from(["f(1)", "a.b", "1 + 2", "[1][0]", "{1, 2}", "{**x}", "*x", "(1)"]))
    items = draw(st.lists(_literal(clean, depth + 1), max_size=4))
    trail = draw(st.sampled_from(["", ",", " ,"] + ([] if clean else [",,"]))) if items else ""
    if kind == "list":
        return "[" + ", ".join(items) + trail + "]"
    if kind == "tuple":
        return "(" + ", ".join(items) + trail + ")"
    key = _TEXT.map(repr) if clean else st.one_of(_TEXT.map(repr), st.sampled_from(["1", "True", "a"]))
    keys = draw(st.lists(key,
                         min_size=len(items), max_size=len(items), unique=clean))
    return "{" + ", ".join(f"{k}: {v}" for k, v in zip(keys, items, strict=True)) + trail + "}"


_NAMES = ["f", "get_weather", "a.b.call", "match", "print", "_"]
_KEYS = ["a", "b", "city", "match", "a1", "_x"]


@st.composite
def _call(draw: st.DrawFn) -> str:
    clean = draw(st.integers(0, 3)) > 0  # (most calls the everyday kind, the rest anything)
    names = _NAMES + ([] if clean else ["x.class", "None", "é"])
    keys = _KEYS if clean else _KEYS + ["from", "class", "True", "__debug__", "é", "*", "**", ""]
    args = []
    for key in draw(st.lists(st.sampled_from(keys), max_size=4, unique=clean)):
        value = draw(_literal(clean))
        args.append(f"{key}={value}" if key and key[0] != "*" else key + value)
    sep = draw(st.sampled_from([", ", ",", ",\n  ", " , "]))
    blank = draw(st.sampled_from(["", " ", "\n", "\t"]))
    return draw(st.sampled_from(names)) + draw(st.sampled_from(["", " "])) + "(" + blank + sep.join(args) + \
        draw(st.sampled_from(["", ",", "\n"])) + ")" + ("" if clean else draw(st.sampled_from(["", " # c"])))


def _fields(text: str) -> tuple:
    call, end = _pythonic.pythonic_at(text, 0, len(text))
    if call is None:
        return None, end
    return (call.name, call.raw_args, repr(call.args), call.ok, call.span, call.error, call.fixes), end


def _both(text: str, monkeypatch: pytest.MonkeyPatch) -> None:
    fast = _fields(text)
    with monkeypatch.context() as m:
        m.setattr(_pythonic, "simple_call_args", lambda source: None)
        slow = _fields(text)
    assert fast == slow, text


@settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(_call(), st.data())
def test_the_fast_reading_is_ast_s(monkeypatch: pytest.MonkeyPatch, text: str, data: st.DataObject) -> None:
    _both(text, monkeypatch)
    if text:  # (and the call with a character dropped or put in)
        i = data.draw(st.integers(0, len(text) - 1))
        _both(text[:i] + text[i + 1:], monkeypatch)
        _both(text[:i] + data.draw(_CHARS) + text[i:], monkeypatch)


@pytest.mark.parametrize("source, args", [
    ("f(a=1, b='x', c=[1, 2.5, None], d={'k': True})",
     {"a": 1, "b": "x", "c": [1, 2.5, None], "d": {"k": True}}),
    ("f()", {}),
    ("a.b(x='it\\'s', y=\"\\n\", z=-0.0, w=null)", {"x": "it's", "y": "\n", "z": -0.0, "w": None}),
    ("f(\n  a=1,\n)", {"a": 1}),
])
def test_everyday_calls_are_read(source: str, args: dict) -> None:
    got = simple_call_args(source)
    assert got == args
    if "z" in args:
        assert math.copysign(1, got["z"]) == -1


@pytest.mark.parametrize("source", [
    "f(1)", "f(a=1, a=1)", "f(from=1)", "f(a='\\d')", "f(a='''x''')", "f(a=r'x')", "f(a='x' 'y')",
    "f(a=1) # c", "f(a=(1))", "f(a={1: 2})", "f(a=1e400)", "f(a=0x10)", "f(a=1_0)", "f(**k)",
    "x.class(a=1)", "f(a='\x00')", "f(a='\ud800')", "f(a=[1][0])", "f(__debug__=1)", "f(a=1\r)",
])
def test_anything_else_is_left_to_ast(source: str) -> None:
    assert simple_call_args(source) is None
