"""What issue 19's items 1 and 2 ask of the repair engine, on the inputs other projects' suites
(and the issue) exercise: skips never drop data, reasoning is never the value, line comments end
at any line break, fences inside containers are not data; digits are data and no value holds
Infinity or NaN.

The engine is being reworked for these items: each test that fails on this build is marked
``xfail(strict=True)`` with the item it waits for, so the marker has to go (and the test pass)
when the engine delivers it. The tests that already pass guard what must not regress."""

from __future__ import annotations

import math

import pytest

import toolmend

ITEM1 = "issue 19, item 1 (skips never drop data): the repair engine's rework"
ITEM2 = "issue 19, item 2 (digits are data; no Infinity or NaN): the repair engine's rework"


def _recover(text: str | bytes, tool: str | None = None) -> toolmend.Recovered:
    return toolmend.normalize_tool_args(text, tool=tool)


def _floats(value: object) -> list[float]:
    found, todo = [], [value]
    while todo:
        x = todo.pop()
        if isinstance(x, float):
            found.append(x)
        elif isinstance(x, dict):
            todo.extend(x.values())
        elif isinstance(x, list):
            todo.extend(x)
    return found


# ------------------------------------------------------------------ item 1

@pytest.mark.xfail(strict=True, reason=ITEM1 + ": a top-level string with inner quotes loses its tail")
@pytest.mark.parametrize("text, value", [
    ('"say "hi" now"', 'say "hi" now'),                                  # the issue
    ('"The TV has a 24" screen"', 'The TV has a 24" screen'),            # josdejong/jsonrepair
    ('"He is six feet (72") tall"', 'He is six feet (72") tall'),        # josdejong/jsonrepair
    ('"the list [1, 2"] more"', 'the list [1, 2"] more'),                # josdejong/jsonrepair
])
def test_a_top_level_string_keeps_what_follows_an_inner_quote(text, value):
    r = _recover(text)
    assert not r.ok or r.value == value


@pytest.mark.xfail(strict=True, reason=ITEM1 + ": prose between two values keeps only the first")
@pytest.mark.parametrize("text, both", [
    ('{"a":1} and {"b":2}', [{"a": 1}, {"b": 2}]),                       # the issue
    ('```json\n{"a":1}\n```\nand then\n```json\n{"b":2}\n```', [{"a": 1}, {"b": 2}]),
    ('lorem ```json {"key":"value"} ``` ipsum ```json [1,2,3,True] ``` 42',   # json-repair's suite
     [{"key": "value"}, [1, 2, 3, True]]),
])
def test_two_values_apart_are_both_returned_or_refused(text, both):
    r = _recover(text)
    assert not r.ok or r.value == both


@pytest.mark.xfail(strict=True, reason=ITEM1 + ": a value inside the reasoning wins over the answer")
@pytest.mark.parametrize("text", [
    '<think>The user wants {"x": 0}? No.</think>\n{"x": 1}',            # the issue
    'The user wants {"x": 0}? No.</think>\n{"x": 1}',                   # a bare </think>
])
def test_reasoning_is_never_the_value(text):
    r = _recover(text)
    assert r.ok and r.value == {"x": 1}


@pytest.mark.xfail(strict=True, reason=ITEM1 + ": a line comment ends only at \\n")
@pytest.mark.parametrize("text, value", [
    ('{"a": 1, // c\r"b": 2 "d": 4}', {"a": 1, "b": 2, "d": 4}),        # the issue
    ('{"a": 1, # c\r"b": 2}', {"a": 1, "b": 2}),
    ("{\r    // the following string contains an escaped `\\r`\r    a: 'line 1 \\\rline 2'\r}\r",
     {"a": "line 1 \\\rline 2"}),                                        # json5-tests, escaped-cr.json5
])
def test_a_line_comment_ends_at_a_lone_carriage_return(text, value):
    r = _recover(text)
    assert r.ok and r.value == value


def test_a_line_comment_ends_at_crlf_and_lf():
    assert _recover('{"a": 1, // c\r\n"b": 2}').value == {"a": 1, "b": 2}
    assert _recover('{"a": 1, // c\n"b": 2}').value == {"a": 1, "b": 2}


@pytest.mark.xfail(strict=True, reason=ITEM1 + ": fence markers inside an array become string elements")
@pytest.mark.parametrize("text", ['[```\n{"a":"b"}\n```]', '[```json\n{"a":"b"}\n```]'])  # josdejong
def test_fences_inside_a_container_are_not_data(text):
    r = _recover(text)
    assert not r.ok or r.value in ({"a": "b"}, [{"a": "b"}])


# ------------------------------------------------------------------ item 2

_ZEROS_DROPPED = pytest.mark.xfail(strict=True, reason=ITEM2 + ": leading zeros are dropped")


def _dropped(text: str, value: object) -> object:
    return pytest.param(text, value, marks=_ZEROS_DROPPED)


# A bare number that runs to the end of the text may have been cut (``2`` may be ``20``), so the
# whole-text cases are refused as cut today: safe, and they pass; the others wait for item 2.
@pytest.mark.parametrize("text, value", [
    _dropped('{"zip": 02134}', {"zip": "02134"}),                        # the issue
    ("0789", "0789"), ("000789", "000789"), ("001.2", "001.2"), _dropped("[0789]", ["0789"]),  # josdejong
    _dropped("{value:0789}", {"value": "0789"}), ("-05", "-05"), _dropped('{"n": 05}', {"n": "05"}),
    _dropped("[-012]", ["-012"]), _dropped("[012]", ["012"]),           # JSONTestSuite
    _dropped("010\n", "010"), _dropped("-0123\n", "-0123"),             # json5-tests
])
def test_leading_zeros_stay_digits(text, value):
    r = _recover(text)
    assert not r.ok or r.value == value


@pytest.mark.xfail(strict=True, reason=ITEM2 + ": step 7 gives s: 7 where the seed gives the string")
def test_step_7_gives_the_seeds_outcome_for_leading_zeros():
    r = _recover("{n: 1.50, s: 007}", tool="@coder")
    assert r.ok and r.value == {"n": 1.5, "s": "007"} and '"n":1.50' in r.text.replace(" ", "")


@pytest.mark.parametrize("text, value", [("[.5, 5., +5]", [0.5, 5.0, 5]), ("[0x1F]", [31]),
                                         ("[2.e3]", [2000.0])])
def test_lossless_number_forms_become_numbers_with_their_fix_logged(text, value):
    r = _recover(text)
    assert r.ok and r.value == value
    assert "number" in [f.code for f in r.fixes]


_INFINITE = pytest.mark.xfail(strict=True, reason=ITEM2 + ": a number too large for a float gives inf")


@pytest.mark.parametrize("text", ["1e999"] + [pytest.param(t, marks=_INFINITE) for t in
                                             ("[1e999]", '{"v": -1e400}', "[1.5e+9999]", "[-123123e100000]")])
def test_no_value_holds_infinity(text):
    r = _recover(text)
    if r.ok:
        assert all(math.isfinite(f) for f in _floats(r.value))
        assert "Infinity" not in r.text and "NaN" not in r.text


@pytest.mark.parametrize("text", ["[NaN]", "[Infinity, -Infinity]", "{a: NaN}"])
def test_nan_and_infinity_are_mapped_to_null(text):
    r = _recover(text)
    assert r.ok and all(math.isfinite(f) for f in _floats(r.value))
    assert "Infinity" not in r.text and "NaN" not in r.text
