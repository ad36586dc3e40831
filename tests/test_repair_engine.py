"""The repair engine (after the seven strategies): what it repairs, what it
refuses, its log, and the twins agreeing on broken JSON."""

from __future__ import annotations

import json

import orjson
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import toolmend
from toolmend import normalize_tool_args
from toolmend.recovery import FIX_CODES, MAX_DEPTH, Fix

SETTINGS = settings(max_examples=300, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])

json_values = st.recursive(
    st.none() | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=10),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner,
                                                                max_size=4),
    max_leaves=14,
)


# ---------------------------------------------------------------------------
# the silently-wrong readings of the object-literal step are gone

@pytest.mark.parametrize("raw,value", [
    ('{"a": 1 "b": 2}', {"a": 1, "b": 2}),
    ("[1 2 3]", [1, 2, 3]),
    ('[{"i":1}{"i":2}]', [{"i": 1}, {"i": 2}]),
    ('{"a":\u200b"foo"}', {"a": "foo"}),
    ("[2.]", [2.0]),
    ("[.5, +5, -.25, 2.e3]", [0.5, 5, -0.25, 2000.0]),
    ('{"n": NaN}', {"n": None}),
    ('{"id": ObjectId("abc")}', {"id": "abc"}),
    ("[/* a */,1,2]", [1, 2]),
    ('{\\"a\\": \\"b\\"}', {"a": "b"}),
])
def test_no_bare_token_swallows_structure(raw, value):
    r = normalize_tool_args(raw)
    assert (r.ok, r.strategy, r.value) == (True, "repair", value), r
    assert json.loads(r.text) == value


@pytest.mark.parametrize("raw,what", [
    ('{"x"::"b"}', "two colons"),
    ('{"a": foo"bar"}', "bare word"),
    ('{"a": "x" + y}', "concatenation"),
    ('{"items": [1, 2, "a": 3]}', "a key inside an array"),
    ('{"a": "b": "c"}', "a colon after a value"),
    ('{"a": 1, "b": {"c": 2, "d": [3, 4}, "e": 5}', "different container"),
    ("{: 1}", "no key"),
    ("I'm sorry, I can't do that.", "prose"),
    ("// only a comment", "only whitespace or comments"),
])
def test_refusals_say_what_and_where(raw, what):
    r = normalize_tool_args(raw)
    assert not r.ok and r.text == raw.strip()
    assert what in r.error and "offset" in r.error
    with pytest.raises(toolmend.RecoveryError):
        toolmend.loads(raw)


@pytest.mark.parametrize("raw", ["[_1]", "{a: _1}", "[_1_000 ]", "[__init__]", "[-_1]", "[_.5]",
                                 "[___1\x1d]"])
def test_twins_agree_on_names_that_look_like_numbers(recover_twins, raw):
    # _1 is a name (Python has no number that starts with _); found by fuzzing
    compiled, pure = recover_twins
    outcomes = []
    for k in (compiled, pure):
        try:
            outcomes.append(k.parse_object_literal(raw))
        except k.Refused as exc:
            outcomes.append(("refused", exc.pos, exc.what))
    assert outcomes[0] == outcomes[1]


@pytest.mark.parametrize("raw", [r'"it\'s"', r'"[\'u"', r'["a", "b\'c"]', r"{'a': 'it\'s'}"])
def test_a_backslash_quote_is_logged_and_the_text_is_json(raw):
    # \' is no JSON escape: reading it as ' changes the text, so it is a
    # repair with its fix, never "parse" with the input as its text (fuzzing)
    r = normalize_tool_args(raw)
    assert r.ok and r.strategy != "parse"
    assert json.loads(r.text) == r.value and "\\'" not in r.text
    assert r.fixes


def test_kernel_refusal_carries_the_offset(recover_kernel):
    with pytest.raises(recover_kernel.Refused) as info:
        recover_kernel.repair_json('{"a": [1, 2, "k": 3]}')
    assert info.value.pos == 16 and info.value.what == "a key inside an array"


# ---------------------------------------------------------------------------
# the repair log

def test_fixes_name_each_change_with_its_offset():
    raw = '  {"cmd": "ls" "dir": "/tmp", // where\n "n": 007, "all": true'
    r = normalize_tool_args(raw)
    assert r.ok and r.cut is None and r.value == {"cmd": "ls", "dir": "/tmp", "n": "007", "all": True}
    assert [(f.code, f.offset) for f in r.fixes] == [
        ("comma", 15), ("comment", 30), ("number", 45), ("truncated", 61)]
    assert all(isinstance(f, Fix) and f.message for f in r.fixes)
    text, ok, strategy, value = r  # still four fields
    assert (ok, strategy) == (True, "repair")


def test_strategies_log_one_fix_each():
    r = normalize_tool_args("  {'a': 1}")
    assert r.fixes == [Fix("single_quotes", 3, r.fixes[0].message)]
    assert normalize_tool_args('{"a": 1}').fixes == []
    assert normalize_tool_args("main.go", "read_file").fixes[0].code == "wrap_plain"


def test_the_log_is_bounded():
    raw = "[" + ", ".join(["'x'"] * 500) + ", True"
    r = normalize_tool_args(raw)
    assert r.ok and len(r.value) == 501
    assert len(r.fixes) == 101 and r.fixes[-1].code == "more"
    assert "more fixes not listed" in r.fixes[-1].message


@SETTINGS
@given(text=st.lists(st.sampled_from(list("{}[]:,'\"\\ \nab1-.eE/*#+") + [
    "true", "None", "NaN", "...", "\u2026", "\u00a0", "\u200b", "\\u00e9", "ObjectId(",
    ")", "0x1F", "007", "\U0001f600"]), max_size=30).map("".join))
def test_twins_agree_on_broken_text(recover_twins, text):
    compiled, pure = recover_twins
    assert _outcome(compiled.repair_json, text) == _outcome(pure.repair_json, text)


@SETTINGS
@given(value=json_values, cut=st.integers(min_value=0, max_value=400),
       noise=st.sampled_from(["", "'", ",", "}", "]", " x", "//c\n", "\u00a0", "\""]))
def test_twins_agree_on_damaged_json(recover_twins, value, cut, noise):
    text = json.dumps(value)
    text = text[:cut] + noise + text[cut:]
    compiled, pure = recover_twins
    assert _outcome(compiled.repair_json, text) == _outcome(pure.repair_json, text)


def _outcome(fn, text):
    try:
        value, rebuilt, fixes = fn(text)
    except ValueError as exc:  # the kernel's Refused
        return ("error", exc.pos, exc.what)
    for code, offset, message in fixes:
        assert code in FIX_CODES and 0 <= offset <= len(text) and message
    assert json.loads(rebuilt) == value or value != value
    return ("ok", rebuilt, fixes, repr(value))


# ---------------------------------------------------------------------------
# values between prose: the search for the next '{' and '[' answers from the last one

PROSE_UNITS = ['{"a":1}', "[1]", "{x}", "[x]", "{", "[", "{}", "[]", '{"b": [2, {"c": 3}]}',
               "[true]", "[-1]", " x ", " see ", "\n", ". ", "(1)", "{'k': 'v'}", "{k: v}",
               "true", '"s"', "}", "]", ","]


@pytest.mark.parametrize("text", [
    '{"a":1} x ' * 3000,
    "[1] x " * 3000,
    '{"a":1} x ' * 1500 + "[1] y " * 2500,
    "[1] y " * 2500 + '{"a":1} x ' * 1500,
    '{"a":1} see [x] ' * 2000,
    "[1] see {x} " * 2500,
    "Here: " + '{"a":1} x ' * 2000 + "[1]",
    "[" + "true 01, " * 3000 + "]",
], ids=["objects", "arrays", "objects then arrays", "arrays then objects",
        "brackets in the prose", "braces in the prose", "one array at the end", "digit groups"])
def test_twins_agree_on_values_between_prose(recover_twins, text):
    compiled, pure = recover_twins
    got = _outcome(compiled.repair_json, text)
    assert got[0] == "ok" and got == _outcome(pure.repair_json, text)


@SETTINGS
@given(text=st.lists(st.sampled_from(PROSE_UNITS), max_size=40).map("".join))
def test_twins_agree_on_values_and_prose_in_any_order(recover_twins, text):
    compiled, pure = recover_twins
    assert _outcome(compiled.repair_json, text) == _outcome(pure.repair_json, text)


@SETTINGS
@given(text=st.text(alphabet="{[x ", max_size=40),
       starts=st.lists(st.integers(min_value=0, max_value=41), max_size=20))
def test_the_search_for_the_next_opener_is_a_find(text, starts):
    # the pure twin's search, kept from the last answer, against str.find from
    # anywhere in any order (the compiled twin's is the same code)
    from toolmend._kernels._recover_repair import _Engine

    eng = _Engine(text)
    for i in starts:
        i = min(i, len(text))
        for c in "{[":
            assert eng.next_opener(c, i) == text.find(c, i)


# ---------------------------------------------------------------------------
# truncation: any valid document cut anywhere

def _complete_members(value, text_of=json.dumps):
    """(path, value, end offset) of every member and element, and the text."""
    out: list[tuple[tuple, object, int]] = []
    parts: list[str] = []
    pos = 0

    def emit(s):
        nonlocal pos
        parts.append(s)
        pos += len(s)

    todo: list = [("value", (), value)]
    while todo:
        op, path, v = todo.pop()
        if op == "text":
            emit(v)
            continue
        if op == "end":
            out.append((path, v, pos))
            continue
        if isinstance(v, dict):
            emit("{")
            items = list(v.items())
            seq: list = []
            for k, (key, item) in enumerate(items):
                if k:
                    seq.append(("text", None, ", "))
                seq.append(("text", None, json.dumps(key) + ": "))
                seq.append(("value", path + (key,), item))
                seq.append(("end", path + (key,), item))
            seq.append(("text", None, "}"))
            todo.extend(reversed(seq))
        elif isinstance(v, list):
            emit("[")
            seq = []
            for k, item in enumerate(v):
                if k:
                    seq.append(("text", None, ", "))
                seq.append(("value", path + (k,), item))
                seq.append(("end", path + (k,), item))
            seq.append(("text", None, "]"))
            todo.extend(reversed(seq))
        else:
            emit(text_of(v))
    return out, "".join(parts)


def _at(value, path):
    for step in path:
        value = value[step]
    return value


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(value=st.dictionaries(st.text(max_size=6), json_values, min_size=1, max_size=5)
       | st.lists(json_values, min_size=1, max_size=5), data=st.data())
def test_any_cut_repairs_and_keeps_what_was_complete(value, data):
    members, text = _complete_members(value)
    assert json.loads(text) == value
    cut = data.draw(st.integers(min_value=1, max_value=len(text)))
    prefix = text[:cut]
    r = normalize_tool_args(prefix)  # never raises
    if not r.ok and r.cut is None:
        return
    # a cut prefix is refused, and its completed reading (for display) keeps what was complete
    got = json.loads(r.text)
    assert got == r.value or r.value != r.value
    for path, item, end in members:
        if end <= cut and all(not isinstance(s, int) or True for s in path):
            assert _at(r.value, path) == item, (prefix, path)


def test_cut_documents_are_logged_as_cut():
    r = normalize_tool_args('{"cmd": "read", "file": "main.go"')
    assert r.ok and "truncated" in [f.code for f in r.fixes]


def _depth(v):
    depth = 0
    while isinstance(v, (list, dict)) and v:
        v = v[-1] if isinstance(v, list) else list(v.values())[-1]
        depth += 1
    return depth


# (opener, closer, a value) at each level: brackets alone, members, bare keys,
# commas, single quotes
LEVELS = [("[", "]", "1"), ('{"a": ', "}", "1"), ("{a: ", "}", "1"), ("[1, ", "]", "2"),
          ("[{'k': ", "}]", "'v'")]


@pytest.mark.parametrize("opener,closer,leaf", LEVELS)
def test_nesting_repairs_up_to_the_bound_in_both_twins(recover_kernel, opener, closer, leaf):
    per = opener.count("[") + opener.count("{")
    n = MAX_DEPTH // per
    for raw in (opener * n + leaf, opener * n + leaf + closer * n):  # cut, then whole
        value, text, _ = recover_kernel.repair_json(raw)
        assert _depth(value) == n * per == _depth(orjson.loads(text))


@pytest.mark.parametrize("opener,closer,leaf", LEVELS)
@pytest.mark.parametrize("levels", [MAX_DEPTH + 1, 100_000])
def test_nesting_past_the_bound_is_refused_at_the_bracket(recover_kernel, opener, closer, leaf,
                                                          levels):
    per = opener.count("[") + opener.count("{")
    n = -(-levels // per)
    for raw in (opener * n + leaf, opener * n + leaf + closer * n):
        with pytest.raises(recover_kernel.Refused) as info:
            recover_kernel.repair_json(raw)
        assert info.value.what == f"nesting deeper than {MAX_DEPTH} levels"
        # the offset is that of the first bracket past the bound
        assert info.value.pos < len(opener) * (MAX_DEPTH // per + 1)
        assert raw[info.value.pos] in "{["
        assert sum(raw.count(b, 0, info.value.pos) for b in "{[") == MAX_DEPTH


def test_deep_text_is_refused_with_the_reason():
    for raw in ("[" * 5000, '{"a": ' * 5000 + "1", "[" * 5000 + "]" * 5000):
        r = normalize_tool_args(raw)
        assert not r.ok and f"nesting deeper than {MAX_DEPTH} levels" in r.error
        assert "offset" in r.error
        with pytest.raises(toolmend.RecoveryError):
            toolmend.loads(raw)


# ---------------------------------------------------------------------------
# exact numbers, agent-loop inputs

def test_the_parse_step_keeps_big_integers_exact():
    assert toolmend.loads('{"big": 123456789012345678901234567890}') == {
        "big": 123456789012345678901234567890}
    r = normalize_tool_args('{"big": -123456789012345678901234567890, "f": 1.5}')
    assert (r.strategy, r.value) == ("parse", {"big": -123456789012345678901234567890, "f": 1.5})
    assert toolmend.loads("{'id': 9007199254740993123}") == {"id": 9007199254740993123}
    assert toolmend.loads('{"id": "12345678901234567890123"}') == {"id": "12345678901234567890123"}


def test_repaired_numbers_keep_their_digits_in_text():
    r = normalize_tool_args('{"p": 1.10, "big": 123456789012345678901234567890 "x": 1.0e5}')
    assert r.text == '{"p":1.10,"big":123456789012345678901234567890,"x":1.0e5}'
    assert r.value["big"] == 123456789012345678901234567890


def test_agent_loop_inputs():
    r = normalize_tool_args({"file": "x"})
    assert (r.ok, r.strategy, r.value, r.text) == (True, "parsed", {"file": "x"}, '{"file":"x"}')
    assert toolmend.loads({"a": [1]}) == {"a": [1]}
    for raw in (None, ""):
        r = normalize_tool_args(raw, "git_status")
        assert (r.ok, r.strategy, r.value) == (True, "empty", {})
        assert toolmend.loads(raw, "git_status") == {}
    assert not normalize_tool_args(None).ok
    with pytest.raises(TypeError):
        normalize_tool_args(3.5)  # type: ignore[arg-type]


def test_loads_of_text_reaches_fences_and_prose():
    assert toolmend.loads('```json\n{"a": 1}\n```') == {"a": 1}
    assert toolmend.loads('Sure: {"a": 1} done') == {"a": 1}
    assert orjson.loads(normalize_tool_args('x {"a": 1}').text) == {"a": 1}


def test_cli_repair_explain_prints_the_log(capsys):
    from toolmend.cli import main

    assert main(["repair", "--explain", '{"a": 1 "b": [007]']) == 0
    out, err = capsys.readouterr()
    assert out.strip() == '{"a":1,"b":["007"]}'
    assert "strategy: repair" in err
    assert "fix: comma at offset 8: missing comma added" in err
    assert "fix: truncated at offset 18" in err
    assert main(["repair", '{"a": 1 "b": 007']) == 1  # cut inside a number: never passed off as whole
    assert "cut off inside a number at offset 13" in capsys.readouterr().err
    assert main(["repair", '{"a": [1, 2, "k": 3]}']) == 1
    assert "a key inside an array" in capsys.readouterr().err
