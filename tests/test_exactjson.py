"""Exact numbers, exact loading and the JSON path syntax."""

from __future__ import annotations

import copy
import json
import pickle

import pytest
from hypothesis import given, settings, strategies as st

from toolmend.json import (
    WILD,
    JSONNumber,
    JSONSyntaxError,
    NestingError,
    PathError,
    dumps,
    format_path,
    load_span,
    loads,
    parse_path,
)


@pytest.mark.parametrize("token, kind, value", [
    ("1.10", JSONNumber, 1.1), ("1E5", JSONNumber, 1e5), ("-0", JSONNumber, 0.0),
    ("1e400", JSONNumber, float("inf")), ("2.50", JSONNumber, 2.5), ("1e-07", JSONNumber, 1e-7),
    ("2.5", float, 2.5), ("0.1", float, 0.1), ("1e+16", float, 1e16), ("-0.0", float, -0.0),
    ("123456789012345678901234567890", int, 123456789012345678901234567890),
    ("18446744073709551616", int, 2 ** 64), ("-9223372036854775809", int, -(2 ** 63) - 1),
    ("42", int, 42),
])
def test_number_representation(token: str, kind: type, value) -> None:
    got = loads(f"[{token}]")[0]
    assert type(got) is kind and got == value
    assert str(got) == token and repr(got) == token
    assert dumps(got) == token
    assert dumps({"n": [got]}) == '{"n":[%s]}' % token


def test_huge_integers_keep_their_text() -> None:
    token = "7" * 5000
    got = loads(token)
    assert str(got) == token and dumps(got) == token


def test_jsonnumber_behaves_as_a_float() -> None:
    n = JSONNumber("1.10")
    assert n + 1 == 2.1 and n * 2 == 2.2 and hash(n) == hash(1.1)
    assert pickle.loads(pickle.dumps(n)).text == "1.10"
    assert copy.deepcopy(n).text == "1.10"
    assert json.loads(json.dumps(n)) == 1.1  # stdlib json writes the float value
    with pytest.raises(ValueError):
        JSONNumber("1.")
    with pytest.raises(ValueError):
        JSONNumber("NaN")


@settings(max_examples=200, deadline=None)
@given(st.lists(st.one_of(
    st.floats(allow_nan=False, allow_infinity=False).map(repr),
    st.integers().map(str),
    st.from_regex(r"-?(0|[1-9][0-9]{0,30})(\.[0-9]{1,20})?([eE][-+]?[0-9]{1,3})?", fullmatch=True),
), max_size=8))
def test_every_number_round_trips_exactly(tokens: list[str]) -> None:
    text = "[" + ", ".join(tokens) + "]"
    values = loads(text)
    assert [str(v) for v in values] == tokens
    assert dumps(values) == "[" + ",".join(tokens) + "]"


def test_loads_errors_and_depth() -> None:
    with pytest.raises(JSONSyntaxError) as info:
        loads('{"a": 1,\n "b": }')
    err = info.value
    assert (err.line, err.column, err.pos) == (2, 7, 15)
    assert "expected a value" in err.message and err.snippet.endswith("^")
    assert isinstance(err, ValueError)
    # deeper than any decoder takes (CPython 3.13's C decoder goes past 5,000)
    deep = "[" * 100_000 + "]" * 100_000
    with pytest.raises(NestingError):
        load_span(deep)
    assert loads(b"\xef\xbb\xbf[1.50]")[0].text == "1.50"


@pytest.mark.parametrize("path, segments", [
    ("", ()), ("$", ()), (".", ()), ("a", ("a",)), ("$.a.b", ("a", "b")), ("a[0]", ("a", 0)),
    ("a[-1].b", ("a", -1, "b")), ("a.0", ("a", "0")), ("*", (WILD,)), ("a[*].b.*", ("a", WILD, "b", WILD)),
    ('a["b.c"]', ("a", "b.c")), ("a['x y']", ("a", "x y")), ('["*"]', ("*",)),
    ('a[ "q\\"t" ]', ("a", 'q"t')), ("données.é", ("données", "é")), ("[0][1]", (0, 1)),
    ("$ref", ("$ref",)), ("a.$ref", ("a", "$ref")), ("a-b.c_d", ("a-b", "c_d")),
    ('a."b c"', ("a", "b c")), ("a*b", ("a*b",)),
])
def test_parse_path(path: str, segments: tuple) -> None:
    assert parse_path(path) == segments


@settings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(st.text(max_size=6), st.integers(-5, 5), st.just(WILD)), max_size=5))
def test_format_path_round_trips(segments: list) -> None:
    assert parse_path(format_path(segments)) == tuple(segments)


@pytest.mark.parametrize("path", ["a..b", "a[", "a[x]", "a]", "a b", '["x', "a.", "a[1",
                                  "a[99999999999999999999]"])
def test_bad_paths(path: str) -> None:
    with pytest.raises(PathError) as info:
        parse_path(path)
    assert "at character" in str(info.value)


def test_a_lone_surrogate_is_written_as_its_escape() -> None:
    """UTF-8 cannot hold one (orjson refuses it); JSON writes it as \\udXXX."""
    import json

    import toolmend

    value = ["\ud800", {"k\udc80": "a\udfffb"}, 2 ** 70]
    for indent in (False, True):
        text = dumps(value, indent=indent)
        assert json.loads(text) == value and "\\ud800" in text and "\\udc80" in text
    r = toolmend.run_tool("@json", {"cmd": "schema", "args": {"text": '["\\ud800"]'}})
    assert r.ok and "\\ud800" in r.output
