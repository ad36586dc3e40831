"""What issue 19's items 1 and 2 ask of the repair engine, on the inputs other projects' suites
(and the issue) exercise: skips never drop data, reasoning is never the value, line comments end
at any line break, fences inside containers are not data; digits are data and no value holds
Infinity or NaN.

Each case runs on both twins (the suite runs compiled and with TOOLMEND_PURE_PYTHON=1)."""

from __future__ import annotations

import math

import pytest

import toolmend


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

@pytest.mark.parametrize("text, value", [
    ('"say "hi" now"', 'say "hi" now'),                                  # the issue
    ('"The TV has a 24" screen"', 'The TV has a 24" screen'),            # josdejong/jsonrepair
    ('"He is six feet (72") tall"', 'He is six feet (72") tall'),        # josdejong/jsonrepair
    ('"the list [1, 2"] more"', 'the list [1, 2"] more'),                # josdejong/jsonrepair
])
def test_a_top_level_string_keeps_what_follows_an_inner_quote(text, value):
    r = _recover(text)
    assert r.ok and r.value == value
    assert "inner_quote" in [f.code for f in r.fixes] and "prose" not in [f.code for f in r.fixes]


@pytest.mark.parametrize("text, both", [
    ('{"a":1} and {"b":2}', [{"a": 1}, {"b": 2}]),                       # the issue
    ('```json\n{"a":1}\n```\nand then\n```json\n{"b":2}\n```', [{"a": 1}, {"b": 2}]),
    ('lorem ```json {"key":"value"} ``` ipsum ```json [1,2,3,True] ``` 42',   # json-repair's suite
     [{"key": "value"}, [1, 2, 3, True]]),
])
def test_two_values_apart_are_both_returned_or_refused(text, both):
    r = _recover(text)
    assert r.ok and r.value == both


@pytest.mark.parametrize("text", [
    '<think>The user wants {"x": 0}? No.</think>\n{"x": 1}',            # the issue
    'The user wants {"x": 0}? No.</think>\n{"x": 1}',                   # a bare </think>
])
def test_reasoning_is_never_the_value(text):
    r = _recover(text)
    assert r.ok and r.value == {"x": 1}


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


@pytest.mark.parametrize("text", ['[```\n{"a":"b"}\n```]', '[```json\n{"a":"b"}\n```]'])  # josdejong
def test_fences_inside_a_container_are_not_data(text):
    r = _recover(text)
    assert r.ok and r.value in ({"a": "b"}, [{"a": "b"}])


# ------------------------------------------------------------------ item 2

# A bare number that runs to the end of the text may have been cut (``2`` may be ``20``), so the
# whole-text cases are refused as cut (their completed reading is the string).
@pytest.mark.parametrize("text, value", [
    ('{"zip": 02134}', {"zip": "02134"}),                        # the issue
    ("0789", "0789"), ("000789", "000789"), ("001.2", "001.2"), ("[0789]", ["0789"]),  # josdejong
    ("{value:0789}", {"value": "0789"}), ("-05", "-05"), ('{"n": 05}', {"n": "05"}),
    ("[-012]", ["-012"]), ("[012]", ["012"]),           # JSONTestSuite
    ("010\n", "010"), ("-0123\n", "-0123"),             # json5-tests
])
def test_leading_zeros_stay_digits(text, value):
    r = _recover(text)
    if r.cut is not None:  # the completed reading, kept for display, is the string too
        assert not r.ok and r.value == value
    else:
        assert r.ok and r.value == value
    assert [f for f in r.fixes if f.code == "number"]


def test_step_7_gives_the_seeds_outcome_for_leading_zeros():
    r = _recover("{n: 1.50, s: 007}", tool="@coder")
    assert r.ok and r.value == {"n": 1.5, "s": "007"} and '"n":1.50' in r.text.replace(" ", "")


@pytest.mark.parametrize("text, value", [("[.5, 5., +5]", [0.5, 5.0, 5]), ("[0x1F]", [31]),
                                         ("[2.e3]", [2000.0])])
def test_lossless_number_forms_become_numbers_with_their_fix_logged(text, value):
    r = _recover(text)
    assert r.ok and r.value == value
    assert "number" in [f.code for f in r.fixes]


@pytest.mark.parametrize("text", ["1e999", "[1e999]", '{"v": -1e400}', "[1.5e+9999]", "[-123123e100000]",
                                  "{a: 1e999}", "{'a': [2, 1E400]}", '{"a": 1e999, "b": 2'])
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
