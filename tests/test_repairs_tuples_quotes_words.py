"""Issue 19, item 3, the rest of the everyday breakage peers repair, each where one reading is
plausible: Python tuples as values, German and guillemet quotes, and bare values of several words
next to another fault. Each form is also cut (a cut is refused as cut, never passed for whole),
nested, with comments, CRLF, unicode and long (past 4,096 characters the compiled engine runs
without the GIL); both twins give the same value, text and log, or the same refusal."""

from __future__ import annotations

import pytest

import toolmend


def _codes(r: toolmend.Recovered) -> list[str]:
    return [f.code for f in r.fixes]


def _refused_at(r: toolmend.Recovered, offset: int) -> None:
    assert not r.ok and r.cut is None, (r.value, r.error)
    assert f"(offset {offset})" in r.error, r.error


# ---------------------------------------------------------------- tuples

@pytest.mark.parametrize("text, value", [
    ('{"pt": (1, 2)}', {"pt": [1, 2]}),
    ('{"coords": (1, 2), "ok": true}', {"coords": [1, 2], "ok": True}),
    ('{"empty": ()}', {"empty": []}),
    ('{"one": (1,)}', {"one": [1]}),
    ('{"one": ("x" , )}', {"one": ["x"]}),
    ('{"g": (1)}', {"g": 1}),                     # Python's (1) is 1: parentheses group
    ('{"g": ("x")}', {"g": "x"}),
    ('{"g": ((1, 2))}', {"g": [1, 2]}),
    ('("a", "b", "c")', ["a", "b", "c"]),
    ("((1, 2), (3, 4))", [[1, 2], [3, 4]]),
    ("(1)", 1),
    ("()", []),
    ('[(1, 2), (3, [4, (5,)])]', [[1, 2], [3, [4, [5]]]]),
    ("{'a': (1, None, True), b: ('x', u'y')}", {"a": [1, None, True], "b": ["x", "y"]}),
    ('{"a": (1, 2), // c\r\n "b": ("\u00fc", "\u4e2d", "\U0001f600"),}',
     {"a": [1, 2], "b": ["\u00fc", "\u4e2d", "\U0001f600"]}),
    ('{"a": (1, 2) "b": (3,)}', {"a": [1, 2], "b": [3]}),   # and a missing comma
    ('{"a": ({"k": 1}, [2])}', {"a": [{"k": 1}, [2]]}),
    ('{"a": (1, 2]}', {"a": [1, 2]}),            # the closer of the other kind: one reading
    ('[1, (2, 3}]', [1, [2, 3]]),
])
def test_a_python_tuple_is_an_array(text, value):
    r = toolmend.normalize_tool_args(text)
    assert r.ok, r.error
    assert r.value == value
    assert "tuple" in _codes(r)
    assert r.strategy == "repair"


@pytest.mark.parametrize("text, offset", [
    ('{"a": f(1), "b": 007}', 6),         # a call, not a tuple
    ('{"a": foo(1, 2)}', 6),
    ('{"a": (x, y)}', 7),                 # names inside: Python variables, not strings
    ("(1) Introduction", 4),              # a numbered note, or a value and prose
    ("(1) see (2)", 4),                   # a tuple, or prose in parentheses
    ("{(1, 2): 3}", 1),                   # a tuple where a key belongs
])
def test_what_is_not_a_tuple_stays_refused(text, offset):
    _refused_at(toolmend.normalize_tool_args(text), offset)


@pytest.mark.parametrize("text", [
    '(see below) {"a": 1}', '(1) Keep this note.\n\n```json\n{"a": 1}\n```', '(1) first: {"a": 1}',
])
def test_prose_in_parentheses_before_the_json_is_still_prose(text):
    r = toolmend.normalize_tool_args(text)
    assert r.ok and r.value == {"a": 1} and "prose" in _codes(r)


def test_a_top_level_tuple_cut_is_refused_as_cut():
    r = toolmend.normalize_tool_args("((1, 2), (3")
    assert not r.ok and r.cut is not None and r.value == [[1, 2], [3]]


@pytest.mark.parametrize("text, reading", [
    ('{"pt": (1, 2', {"pt": [1, 2]}),
    ('{"pt": (1, ', {"pt": [1]}),
    ('{"pt": (', {"pt": []}),
    ('[(1, "ab', [[1, "ab"]]),
    ('{"a": ((1, 2), (3', {"a": [[1, 2], [3]]}),
])
def test_a_tuple_cut_is_refused_as_cut(text, reading):
    r = toolmend.normalize_tool_args(text)
    assert not r.ok and r.cut is not None, r.error
    assert r.value == reading


def test_a_tuple_ending_at_the_end_of_the_text_is_closed_not_cut():
    r = toolmend.normalize_tool_args('{"pt": (1, 2)')
    assert r.ok and r.value == {"pt": [1, 2]} and "truncated" in _codes(r)


# ---------------------------------------------------------------- German and guillemet quotes

@pytest.mark.parametrize("text, value", [
    ("{\u201ea\u201c: \u201eb\u201c}", {"a": "b"}),                    # „a“
    ("{\u201ea\u201d: \u201eb\u201d}", {"a": "b"}),                    # „a” (Polish)
    ("{\u00aba\u00bb: \u00abb\u00bb}", {"a": "b"}),                    # «a»
    ("{\u00bba\u00ab: \u00bbb\u00ab}", {"a": "b"}),                    # »a« (German, Danish)
    ("{\u2039a\u203a: \u2039b\u203a}", {"a": "b"}),                    # ‹a›
    ("[\u00abx\u00bb, \u201ey\u201c, \u2039z\u203a, \u201cw\u201d]", ["x", "y", "z", "w"]),
    ("{\u00ab a \u00bb: 1}", {" a ": 1}),                              # the spaces are content
    ("{\u00abq\u00bb: \u00absay \"hi\"\u00bb}", {"q": 'say "hi"'}),
    ("{\u00abq\u00bb: \u00ab\u201ehi\u201c and \u2039so\u203a\u00bb}",
     {"q": "\u201ehi\u201c and \u2039so\u203a"}),
    ("{\u00ab\u4e2d\u6587\u00bb: \u201e\u00fcber\u201c}", {"\u4e2d\u6587": "\u00fcber"}),
])
def test_german_and_guillemet_quotes_are_string_quotes(text, value):
    r = toolmend.normalize_tool_args(text)
    assert r.ok, r.error
    assert r.value == value


@pytest.mark.parametrize("text, value", [
    ("{\u00aba\u00bb: \u00abb\u00bb, \u201ec\u201c: [1, 2,], // note\r\n d: 007}",
     {"a": "b", "c": [1, 2], "d": "007"}),
    ("{\u00aba\u00bb: [\u00abx\u00bb, \u00aby\u00bb], b: 007}", {"a": ["x", "y"], "b": "007"}),
    ("{\u00aba\u00bb: \u00absay \"hi\"\u00bb, \u201eb\u201c: (1, 2)}", {"a": 'say "hi"', "b": [1, 2]}),
    ("[\u00abx\u00bb, \u00aby\u00bb\r\n, 007]", ["x", "y", "007"]),
])
def test_guillemet_quotes_next_to_other_faults(text, value):
    r = toolmend.normalize_tool_args(text)
    assert r.ok, r.error
    assert r.value == value


def test_fix_offsets_point_into_the_input_after_an_escaped_inner_quote():
    text = "{\u00aba\u00bb: \u00absay \"hi\"\u00bb, \u201eb\u201c: 1, // note\n c: 007}"
    r = toolmend.normalize_tool_args(text)
    assert r.ok and r.value == {"a": 'say "hi"', "b": 1, "c": "007"}
    by_code = {f.code: f.offset for f in r.fixes}
    assert by_code["comment"] == text.index("//")
    assert by_code["number"] == text.index("007")


def test_a_cut_offset_points_into_the_input_after_an_escaped_inner_quote():
    text = "{\u00aba\u00bb: \u00absay \"hi\"\u00bb, \u201eb\u201c: \u201ecut her"
    r = toolmend.normalize_tool_args(text)
    assert not r.ok and r.cut is not None
    assert r.cut.offset == text.index("\u201ecut")
    assert r.value == {"a": 'say "hi"', "b": "cut her"}


@pytest.mark.parametrize("text", [
    "{\u00aba\u00bb: \u00abcut her",
    "[\u201eab",
    "{\u2039k\u203a: [\u00bbx",
])
def test_a_string_cut_inside_new_quotes_is_refused_as_cut(text):
    r = toolmend.normalize_tool_args(text)
    assert not r.ok and r.cut is not None, r.error


@pytest.mark.parametrize("text", [
    '{"a": "\u00abb\u00bb"}', '{"a": "x \u201ey\u201c z"}', "[\"\u2039\u203a\"]",
])
def test_the_new_quotes_inside_a_string_are_content(text):
    r = toolmend.normalize_tool_args(text)
    assert r.ok and r.strategy == "parse" and r.text == text


def test_a_guillemet_in_a_bare_word_stays_content():
    r = toolmend.normalize_tool_args("{a: x\u00bby, b: 1}")
    assert r.ok and r.value == {"a": "x\u00bby", "b": 1}


# ---------------------------------------------------------------- bare values of several words

@pytest.mark.parametrize("text, value", [
    ("{cmd: read the file, path: 'a b' // c\n n: 1}", {"cmd": "read the file", "path": "a b", "n": 1}),
    ("{msg: hello world, n: 007,}", {"msg": "hello world", "n": "007"}),
    ("{msg: hello world,}  // done", {"msg": "hello world"}),
    ("{a: hello world\r\n, b: [1, 2}", {"a": "hello world", "b": [1, 2]}),
    ("{a: h\u00e9llo w\u00f6rld \u4e2d\u6587, b: 007}",
     {"a": "h\u00e9llo w\u00f6rld \u4e2d\u6587", "b": "007"}),
    ("{a: it's fine, b: 007}", {"a": "it's fine", "b": "007"}),
    ("{a: ls -la /tmp, \"b\": 007}", {"a": "ls -la /tmp", "b": "007"}),
    ("{a: x  y\tz   , b: 007}", {"a": "x  y\tz", "b": "007"}),
    ("{a: {b: deep down here}, c: 007}", {"a": {"b": "deep down here"}, "c": "007"}),
    ("[hello world, 007]", ["hello world", "007"]),
    ("[\"x\", hello world]  # c", ["x", "hello world"]),
    ("{cmd: read the file} extra", {"cmd": "read the file"}),
    ('{"key": some value "key2": "value2" }', {"key": "some value", "key2": "value2"}),
    ("{\"key\": value 'key2' : 1, \"n\": 007}", {"key": "value", "key2": 1, "n": "007"}),
])
def test_a_bare_value_of_several_words_next_to_another_fault(text, value):
    r = toolmend.normalize_tool_args(text)
    assert r.ok, r.error
    assert r.value == value
    assert "word" in _codes(r)


@pytest.mark.parametrize("text, offset", [
    ("{cmd: read the file, then close it, path: x}", 19),   # a comma inside the value or not
    ("{cmd: read the file, then close it}", 19),
    ("[hello world, foo bar, 007]", 12),
    ("{a: foo (bar), n: 007}", 4),                          # a parenthesis: a call
    ("{a: x: y, b: 007}", 4),                               # a colon after the word
    ("{a: fix issue #5, b: 007}", 14),                      # a comment or content
    ("{a: say \"hi\" now, b: 007}", 8),
    ("{a: true love, b: 007}", 9),
    ("{a: 1.5 apples, b: 007}", 8),
    ("{a: a\u200bb c, b: 007}", 4),
    ("{a: C\\dir x, b: 007}", 4),
    ("{a: C \\dir x, b: 007}", 6),
    ("{a: x y: z, b: 007}", 7),                             # a colon inside them
    ("{a: x y\u200bz, b: 007}", 7),
])
def test_several_words_stay_refused_where_two_readings_remain(text, offset):
    _refused_at(toolmend.normalize_tool_args(text), offset)


@pytest.mark.parametrize("text, reading", [
    ("{a: hello wor", {"a": "hello wor"}),
    ("{a: 007, b: hello world", {"a": "007", "b": "hello world"}),
    ("[1, hello big world", [1, "hello big world"]),
])
def test_several_words_cut_at_the_end_are_refused_as_cut(text, reading):
    r = toolmend.normalize_tool_args(text)
    assert not r.ok and r.cut is not None, r.error
    assert r.value == reading


# ---------------------------------------------------------------- both twins, long texts

PAD = ", ".join(f"k{i}: 'v{i}'" for i in range(600))  # ~8 KB of members

LONG = [
    "{" + PAD + ', "pt": (1, 2), "e": (), "g": ("x"), "n": ((1,), [2, (3)])}',
    "{" + PAD + ', "pt": (1, 2',
    "{" + PAD + ", \u00aba\u00bb: \u00absay \"hi\"\u00bb, \u201eb\u201c: \u2039c\u203a}",
    "{" + PAD + ", \u00aba\u00bb: \u00abcut her",
    "{" + PAD + ", cmd: read the whole file, path: 'a b', n: 007}",
    "{" + PAD + ", cmd: read the whole file, then stop}",
    "{" + PAD + ', "x": f(1), "y": 007}',
    "{" + PAD + ", msg: hello \u4e2d world",
]

CASES = [
    '{"pt": (1, 2)}', '{"e": ()}', '{"one": (1,)}', '{"g": (1)}', "(1)", "()", '("x")', "((1, 2), (3, 4))",
    '{"a": f(1), "b": 007}', '{"a": (x, y)}', '{"a": (1, 2]}', '[1, (2, 3}]', "(1) Introduction",
    '{"pt": (1, 2', '[(1, "ab', '{"pt": (1, ', "{(1, 2): 3}", "((1, 2), (3", '(1) first: {"a": 1}',
    "(1) see (2)", '(see below) {"a": 1}', '{"a": ((1, 2))}',
    "{cmd: read the file, path: 'a b' // c\n n: 1}", "{msg: hello world, n: 007,}",
    "{cmd: read the file, then close it, path: x}", "[hello world, foo bar, 007]", "{a: foo (bar), n: 007}",
    "{a: x: y, b: 007}", "{a: fix issue #5, b: 007}", "{a: hello wor", "[1, hello big world",
    "{a: h\u00e9llo w\u00f6rld \u4e2d\u6587, b: 007}", "{a: x  y\tz   , b: 007}", "{a: a\u200bb c, b: 007}",
    "[hello world, 007]", "{a: hello world\r\n, b: [1, 2}", '{"key": some value "key2": "value2" }',
    '{"key":value "key2":"value2" }', '{"a": say "hi" now}',
]

QUOTE_CASES = [
    "{\u201ea\u201c: \u201eb\u201c}", "{\u00bba\u00ab: \u00bbb\u00ab}",
    "{\u00abq\u00bb: \u00absay \"hi\"\u00bb}",
    "{\u00aba\u00bb: \u00abcut her", "[\u201eab", "{a: x\u00bby, b: 1}", "{\u00ab a \u00bb: 1}",
    "{\u00abq\u00bb: \u00ab\u201ehi\u201c and \u2039so\u203a\u00bb}", "{\u201ca\u201d: \u201cb", "\u2018abc",
    "{a: \u2018quoted\u2019 text}",
]


def _outcome(k, fn, text):  # noqa: ANN001, ANN202
    try:
        return repr(getattr(k, fn)(text))
    except k.Refused as exc:
        return repr(("refused", exc.pos, exc.what))


@pytest.mark.parametrize("text", CASES + LONG, ids=range(len(CASES + LONG)))
def test_the_twins_agree_on_the_engine(recover_twins, text):
    compiled, pure = recover_twins
    assert _outcome(compiled, "repair_json", text) == _outcome(pure, "repair_json", text)


@pytest.mark.parametrize("text", QUOTE_CASES + LONG, ids=range(len(QUOTE_CASES + LONG)))
def test_the_twins_agree_on_the_quote_scanner(recover_twins, text):
    compiled, pure = recover_twins
    ours, theirs = compiled.normalize_structural_quotes(text), pure.normalize_structural_quotes(text)
    assert ours == theirs
    assert (ours is text) == (theirs is text)


def test_long_texts_are_repaired():
    values = [toolmend.normalize_tool_args(t) for t in LONG]
    assert values[0].ok and values[0].value["pt"] == [1, 2] and values[0].value["n"] == [[1], [2, 3]]
    assert values[0].value["e"] == [] and values[0].value["g"] == "x"
    assert values[1].cut is not None
    assert values[2].ok and values[2].value["a"] == 'say "hi"' and values[2].value["b"] == "c"
    assert values[3].cut is not None
    assert values[4].ok and values[4].value["cmd"] == "read the whole file" and values[4].value["n"] == "007"
    assert not values[5].ok and values[5].cut is None
    assert not values[6].ok and values[6].cut is None
    assert values[7].cut is not None and values[7].value["msg"] == "hello \u4e2d world"


# ---------------------------------------------------------------- ["a": 1] and the schema (issue 21)

OBJECTS = {"type": "array", "items": {"type": "object", "properties": {"a": {"type": "integer"}},
                                      "required": ["a"]}}


@pytest.mark.parametrize("text", ['["a": 1]', "[ 'a' : 1 ]", '["a": 1,]', '["a": 1 // c\r\n]'])
def test_a_key_in_an_array_is_an_object_when_the_schema_wants_objects(text):
    r = toolmend.normalize_tool_args(text, schema=OBJECTS)
    assert r.ok, r.error
    assert r.value == [{"a": 1}]
    assert r.fixes[0].code == "schema" and r.fixes[0].offset == text.index("[")
    assert all(0 <= f.offset <= len(text) for f in r.fixes)


def test_the_json_repair_drop_in_reads_it_with_the_schema():
    from toolmend.compat import json_repair

    assert json_repair.repair_json('["a": 1]', schema=OBJECTS, return_objects=True) == [{"a": 1}]


@pytest.mark.parametrize("text, schema", [
    ('["a": 1]', None),                                   # [{"a": 1}] or {"a": 1}: two readings
    ('["a": 1]', {}),                                     # the schema takes both
    ('["a": 1]', {"type": "object"}),                     # the object alone fits: not ours to pick
    ('["a": 1, "b": 2]', {"type": "array", "items": {"type": "object"}}),   # one object or two
    ('["a": "x"]', OBJECTS),                              # the reading does not fit either
    ('[1, "a": 2]', OBJECTS),
])
def test_a_key_in_an_array_stays_refused_without_one_reading(text, schema):
    r = toolmend.normalize_tool_args(text, schema=schema)
    assert not r.ok and r.cut is None


@pytest.mark.parametrize("text", ['{"cmd": ("git commit -m x && "\n        "git push"), "cwd": "/r"}',
                                  "{'msg': ('Hello '\n  'world')}", '{"a": ("x" "y")}'])
def test_strings_side_by_side_in_parentheses_are_refused_not_a_tuple(text):
    # (Python joins them: ("a" "b") is the string "ab"; or a comma is missing: two readings)
    r = toolmend.normalize_tool_args(text)
    assert not r.ok and "Python joins them" in (r.error or "")
    assert toolmend.normalize_tool_args('{"a": ("x", "y")}').value == {"a": ["x", "y"]}


@pytest.mark.parametrize("text", ['{"a": [*range(3)]}', '{"a": -(1)}', "{'a': **kwargs(x)}"])
def test_python_code_in_an_object_literal_is_refused_not_its_text(text):
    # (its value is what Python makes of it, not '*range(3)' or '-(1)')
    assert not toolmend.normalize_tool_args(text).ok
    for plain, value in (("{a: *.py}", "*.py"), ("{a: -x}", "-x")):  # (a glob, a flag: text)
        assert toolmend.normalize_tool_args(plain).value == {"a": value}
