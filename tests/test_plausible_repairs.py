"""Issue 19, item 3: the everyday breakage other projects repair, repaired when only one reading
is plausible, each with its fix code, and refused (with the offset) when two readings are; with
the rules of items 1 and 2 at the edges they meet (reasoning only, prose between values, a lone
carriage return after a comment). Every case also runs on both twins of the engine side by side:
the same value, text and log."""

from __future__ import annotations

import pytest

import toolmend


def _codes(r: toolmend.Recovered) -> list[str]:
    return [f.code for f in r.fixes]


@pytest.mark.parametrize("text, value, code", [
    # a missing closing quote before ', "key":' (one reading: the colon says a key follows)
    ('{"url":"https://www.bible.com/,"id":2}', {"url": "https://www.bible.com/", "id": 2}, "quote"),
    ('{"a":"b,"c":"d"}', {"a": "b", "c": "d"}, "quote"),
    ('{a:"b,c,"d":"e"}', {"a": "b,c", "d": "e"}, "quote"),
    ('{"a": "b,\n  "c": 1}', {"a": "b", "c": 1}, "quote"),
    # a missing comma between a string and a number
    ('["a" 1]', ["a", 1], "comma"),
    ('["foo)" 2]', ["foo)", 2], "comma"),
    ('[",", -2]', [",", -2], None),
    # a doubled comma, in an array as in an object
    ("[1,,2]", [1, 2], "comma"),
    ('{"a":1,,,"b":2}', {"a": 1, "b": 2}, "comma"),
    ('{"a":"b",,"c":"d"}', {"a": "b", "c": "d"}, "comma"),
    ('["x",,]', ["x"], "comma"),
    # Python's u prefix, on values and keys
    ("{'a': u'b'}", {"a": "b"}, "quote"),
    ("{u'a': u'b'}", {"a": "b"}, "quote"),
    ('[u"a", U"b"]', ["a", "b"], "quote"),
    # invisible format characters are whitespace, before a number or anywhere between tokens
    ('{"a": \u200b1}', {"a": 1}, "whitespace"),
    ('{"a":\u180e"foo"}', {"a": "foo"}, "whitespace"),
    ("[\u2060]", [], "whitespace"),
    ("[1, \u2060 2]", [1, 2], "whitespace"),
])
def test_one_plausible_reading_is_repaired_with_its_fix(text, value, code):
    r = toolmend.normalize_tool_args(text)
    assert r.ok, r.error
    assert r.value == value
    if code is not None:
        assert code in _codes(r)


@pytest.mark.parametrize("text, offset", [
    ('["hello,"world"]', 8),             # ["hello", "world"] or ["hello,\"world"]
    ('[\n"abc,\n"def"\n]', 8),
    ("[1 000.0]", 3),                    # 1000.0 or [1, "000.0"]
    ("[1, 2 007]", 6),
])
def test_two_plausible_readings_are_refused_with_the_offset(text, offset):
    r = toolmend.normalize_tool_args(text)
    assert not r.ok and r.cut is None
    assert f"(offset {offset})" in r.error


@pytest.mark.parametrize("text", ['{"a": "say "x", "b": 1}', '{"msg": "Tell him "yes", "priority": "high"}',
                                  '{"q": "SELECT * FROM t WHERE name = "bob", "db": "main"}',
                                  '{"a": "x "y"}', '{"cmd": "grep "-r", "path": "."}'])
def test_a_quotation_inside_a_string_closed_by_the_strings_own_quote_is_refused(text):
    # 'Tell him "yes' (a quotation left open) or 'Tell him "yes"' (the string's closer dropped):
    # one quote is missing, and which it is cannot be told
    r = toolmend.normalize_tool_args(text)
    assert not r.ok and r.cut is None and "where the string ends is a guess" in r.error, r
    opened = text.index(' "', 8) + 1
    assert f"offset {opened}" in r.error


@pytest.mark.parametrize("text, value", [
    ('{"a": "say "yes" now", "b": 1}', {"a": 'say "yes" now', "b": 1}),  # (the quotation closed)
    ('{"a": "He said "hi"", "b": 1}', {"a": 'He said "hi"', "b": 1}),
    # (in a word)
    ('{"a": "v"alue"}', {"a": 'v"alue'}), ('{"a": "He is 6\'2" tall"}', {"a": 'He is 6\'2" tall'}),
])
def test_a_quote_inside_a_string_that_opens_no_quotation_left_open_is_read(text, value):
    r = toolmend.normalize_tool_args(text)
    assert r.ok and r.value == value, r


@pytest.mark.parametrize("text, key", [
    ('{"a": 1, "b": "say "hi", "a": "2"}', "a"),
    # the text a model put in a patch wrote over the call's dry_run: the write must not run on it
    ('{"dry_run": true, "patch": "+say "hi", "dry_run": "false\\n"}', "dry_run"),
    ('[{"k": {"x": 1, "y": "a "b", "x": 2}}]', "x"),
])
def test_an_inner_quote_read_as_a_strings_end_that_writes_over_a_key_is_refused(text, key):
    r = toolmend.normalize_tool_args(text)
    assert not r.ok and r.cut is None
    assert f"key {key!r} twice with two values" in r.error and "offset" in r.error


@pytest.mark.parametrize("text", [
    '{"command": "git commit -m "fix bug"',     # the last quote may be one more of the text's
    '{"sql": "select * from t where name = "bob"',
    '{"args": ["-c", "print("x"',
    '{"a": "say "hi""',
])
def test_text_ending_on_a_quote_of_a_string_holding_unescaped_ones_is_cut(text):
    r = toolmend.normalize_tool_args(text)
    assert not r.ok and r.cut is not None and "its last quote may be one of" in r.error


@pytest.mark.parametrize("text", [
    '{"cmd": ["python", "-c", "print("a", "b")"]}',   # one element or two
    '["bash", "-c", "echo "hi" "there""]',
    '{"cmd": "echo "a", "b": "c""}',                  # one string or a member b
])
def test_two_strings_of_unescaped_quotes_one_after_the_other_are_two_readings(text):
    r = toolmend.normalize_tool_args(text)
    assert not r.ok and r.cut is None and "two readings" in r.error


def test_an_inner_quote_read_as_a_strings_end_is_repaired_when_no_key_is_written_over():
    for text, value in (('{"cmd": "echo "hi"", "cwd": "/tmp"}', {"cmd": 'echo "hi"', "cwd": "/tmp"}),
                        ('["echo "hi"", "ls"]', ['echo "hi"', "ls"])):
        r = toolmend.normalize_tool_args(text)
        assert r.ok and r.value == value and "inner_quote" in _codes(r)
    # ('say "hi': the quotation the inner quote opens is closed by the string's own quote)
    for text in ('{"a": 1, "b": "say "hi", "c": "2"}', '{"a": "2", "b": "say "hi", "a": "2"}'):
        r = toolmend.normalize_tool_args(text)
        assert not r.ok and "where the string ends is a guess" in r.error


@pytest.mark.parametrize("text", [
    "<think>The user wants {\"x\": 0}. Let me think",      # reasoning, never closed
    "<think>a {\"x\": 0}</think>",                           # nothing after the reasoning
    "plan: {\"x\": 0}</think>   \n",
])
def test_reasoning_alone_is_refused(text):
    r = toolmend.normalize_tool_args(text)
    assert not r.ok and "reasoning" in r.error


def test_several_reasoning_blocks_are_all_skipped():
    r = toolmend.normalize_tool_args('<think>{"x": 0}</think>\n<think>{"x": 2}</think>{"x": 1}')
    assert r.ok and r.value == {"x": 1}


def test_a_closing_think_inside_the_answer_is_data():
    r = toolmend.normalize_tool_args('{"note": "ends with </think>", "x": 1}')
    assert r.ok and r.value == {"note": "ends with </think>", "x": 1}


@pytest.mark.parametrize("text, value", [
    ('{"a":1} and {"b":2} and that is all', [{"a": 1}, {"b": 2}]),
    ('Here: {"a":1}\nor, better: [1, 2]', [{"a": 1}, [1, 2]]),
    ('{"a":1} see [note] for more', {"a": 1}),          # no value in the prose: it is dropped
])
def test_prose_between_values_keeps_every_value(text, value):
    r = toolmend.normalize_tool_args(text)
    assert r.ok and r.value == value
    assert "prose" in _codes(r)


def test_two_values_apart_are_not_one_tools_arguments():
    r = toolmend.normalize_tool_args('{"a":1} and {"b":2}', tool="read_file")
    assert not r.ok


@pytest.mark.parametrize("text, value", [
    ('{"a": 1, # c\r"b": 2}', {"a": 1, "b": 2}),
    ('{"a": 1, // c\r\n"b": 2}', {"a": 1, "b": 2}),
    ('[1, // one\r2]', [1, 2]),
])
def test_line_comments_end_at_any_line_break(text, value):
    r = toolmend.normalize_tool_args(text)
    assert r.ok and r.value == value


@pytest.mark.parametrize("text, value", [
    ('{"a": [```json\n1, 2\n```]}', {"a": [1, 2]}),
    ('{```\n"a": 1\n```}', {"a": 1}),
])
def test_fences_inside_containers_are_dropped(text, value):
    r = toolmend.normalize_tool_args(text)
    assert r.ok and r.value == value and "prose" in _codes(r)


def test_a_fence_in_a_bare_word_is_not_taken_as_text_by_the_object_literal():
    r = toolmend.normalize_tool_args("{a: ```json, b: 1}")
    assert r.strategy != "object_literal"
    assert not r.ok or "```json" not in str(r.value)


@pytest.mark.parametrize("text, value", [
    ("[1e999, 2]", [None, 2]), ("{a: -1E400}", {"a": None}), ("[0.5e99999, 007]", [None, "007"]),
])
def test_a_number_beyond_a_double_is_null_as_nan_is(text, value):
    r = toolmend.normalize_tool_args(text)
    assert r.ok and r.value == value and "nan" in _codes(r)
    assert "Infinity" not in r.text and "e999" not in r.text.lower()


CASES = [
    '{"url":"https://www.bible.com/,"id":2}', '{"a": "b,\n  \t"c": 1}', '["a" 1]', "[1,,2]",
    '["hello,"world"]', "[1 000.0]", "{u'a': u'b'}", '{"a": \u200b1}', "[\u2060]", '"say "hi" now"',
    '{"a":1} and {"b":2}', '<think>{"x": 0}</think>{"x": 1}', "x</think>", '{"a": 1, // c\r"b": 2}',
    '[```\n{"a":"b"}\n```]', '{"zip": 02134}', "[-05, +007, 0.5, 00.]", "[1e999, -1e400, 1.5]",
    '"The TV is 72""', '{"a": "b",, "c": 1}', '{"a": "x" 1}', "[1, 2 007]",
    '["a "b" c, "d" e"]', '[{"a": 1}, """" "b": 2]', '{"a": "first, b: "second"}', "-Infinity",
    "+inf", "{sig\\u03A3ma: 1}", '{"a": "x, y-z: "w", "c": 1}',
]


@pytest.mark.parametrize("text", CASES)
def test_the_twins_agree(recover_twins, text):
    compiled, pure = recover_twins
    got = []
    for k in (compiled, pure):
        try:
            got.append(repr(k.repair_json(text)))
        except k.Refused as exc:
            got.append(repr((exc.pos, exc.what)))
    assert got[0] == got[1]


@pytest.mark.parametrize("text, value", [
    ('```json\n{"a": 1, "b": 2\n```', {"a": 1, "b": 2}),      # the fence ends the number
    ('{"key": "value, value2"```', {"key": "value, value2"}),  # a fence closes the string
    ('```json\n{"a": [1, 2\n```', {"a": [1, 2]}),
])
def test_a_closing_fence_after_json_cut_before_its_brackets(text, value):
    r = toolmend.normalize_tool_args(text)
    assert r.ok and r.value == value and "truncated" in _codes(r)


def test_a_closing_fence_does_not_close_a_cut_string():
    r = toolmend.normalize_tool_args('```json\n{"a": 1, "b": "x\n```')
    assert not r.ok and r.cut is not None


@pytest.mark.parametrize("text, offset", [
    # after an unescaped quote, a quote after a comma in an array's string: still two readings
    ('["lorem "ipsum" dolor, "sit" amet"]', 23),
    # a quote after ', name:' in an object's string: a member with a bare key, or prose
    ('{"a": "first, b: "second"}', 17),
    ('{"msg": "Hello, world: "quoted"}', 23),
    # four quotes: an empty key with no colon would be a member made of stray quotes
    ('[{"lorem": 1}, """" "lorem": 2]', 27),  # in an array: a key where an element belongs
    ('{"" "b"}', 4),
    ('{"x": 1, """" "lorem": 2}', 11),
])
def test_stray_quotes_with_two_readings_are_refused(text, offset):
    r = toolmend.normalize_tool_args(text)
    assert not r.ok and r.cut is None
    assert f"(offset {offset})" in r.error


@pytest.mark.parametrize("text, offset", [
    # a quote written twice inside a single-quoted string: one quote (SQL's, YAML's), two, or two
    # strings Python joins ('It' 's' is 'Its'): three readings
    ("{'a': 'It''s'}", 9), ("{'note': 'say ''hi'' now', 'n': 1}", 14), ("['a''b', 'c']", 3),
])
def test_a_quote_written_twice_inside_a_string_is_refused(text, offset):
    r = toolmend.normalize_tool_args(text)
    assert not r.ok and "a quote written twice" in r.error and f"(offset {offset})" in r.error


@pytest.mark.parametrize("text, value", [
    ('"The TV is 72""', 'The TV is 72"'),  # (an inch mark, then the string's end)
    # in double quotes, code far more often than an escape: read as written, as other quotes are
    ('{"code": "print("")"}', {"code": 'print("")'}), ('{"a": "say ""hi"" now"}', {"a": 'say ""hi"" now'}),
    ("{'a': '', 'b': 'x'}", {"a": "", "b": "x"}), ("{'a': 'It\\'s'}", {"a": "It's"}),
])
def test_what_is_no_quote_written_twice(text, value):
    r = toolmend.normalize_tool_args(text)
    assert r.ok and r.value == value


@pytest.mark.parametrize("text", ["-Infinity", "+Infinity", " -inf\n", "-NaN"])
def test_a_signed_infinity_alone_is_null_as_infinity_is(text):
    r = toolmend.normalize_tool_args(text)
    assert r.ok and r.value is None and _codes(r) == ["nan"]


@pytest.mark.parametrize("text", ["-true", "+Infinity x", "-foo"])
def test_a_sign_before_another_word_is_not_a_value(text):
    assert not toolmend.normalize_tool_args(text).ok


@pytest.mark.parametrize("text, value", [
    ('{sig\\u03A3ma: "x"}', {"sig\u03a3ma": "x"}),             # the text step
    ("{sig\\u03A3ma: x, b: 1}", {"sig\u03a3ma": "x", "b": 1}),  # the object literal
    ("{a\\uD83D\\uDE00: x}", {"a\U0001f600": "x"}),            # a surrogate pair is one character
    ('{a\\u00: 1}', {"a\\u00": 1}),                             # not an escape: kept as written
    ('{a\\x: 1}', {"a\\x": 1}),
])
def test_a_unicode_escape_in_a_bare_key_is_read_as_json5_reads_it(text, value):
    r = toolmend.normalize_tool_args(text)
    assert r.ok and r.value == value


@pytest.mark.parametrize("text", [
    r'{"path": "C:\Users\bob\repos\test.py"}',   # \U kept: \b, \r and \t may be text too
    r'{"re": "\bword\b \d+"}',
    r'{"tex": "\frac{1}{2} \alpha"}',
    r"{'p': 'C:\Users\new'}",
    r'{path: "C:\Users\bob\test.py", x: 1}',
])
def test_a_string_with_escapes_json_lacks_beside_control_escapes_is_refused(text):
    r = toolmend.normalize_tool_args(text)
    assert not r.ok and "whether its backslashes are escapes or text" in r.error


@pytest.mark.parametrize("text, value", [
    (r'{"path": "C:\Users\me\docs"}', {"path": "C:\\Users\\me\\docs"}),   # no escape JSON reads
    (r'{"re": "\d+\.\d+"}', {"re": "\\d+\\.\\d+"}),
    (r'{"a": "x\ny", b: 1}', {"a": "x\ny", "b": 1}),                      # escapes only
])
def test_backslashes_of_one_kind_are_read_as_that_kind(text, value):
    r = toolmend.normalize_tool_args(text)
    assert r.ok and r.value == value


def test_text_after_the_value_that_holds_a_member_is_no_prose_to_drop():
    # the value may end later ("He typed "} and left": the quote was the text's)
    for text in ('{"text": "He typed "} and left", "rm": true}', '{"path": "a.py"} with "content": "x"'):
        r = toolmend.normalize_tool_args(text)
        assert not r.ok and "holds a member" in r.error
    r = toolmend.normalize_tool_args('Here: {"a": 1} done.')  # prose without one is dropped
    assert r.ok and r.value == {"a": 1}


def test_a_bare_value_that_opens_with_a_key_and_a_colon_is_refused():
    r = toolmend.normalize_tool_args('"command": "rm -rf /tmp/x", "timeout": 5}', "bash")
    assert not r.ok and "without the object's '{'" in r.error


@pytest.mark.parametrize("text, tool, value", [
    ('"C:\\Users\\me\\x"', "read_file", {"path": "C:\\Users\\me\\x"}),  # one quoted string: its text
    ("'src/a.py'", "read_file", {"path": "src/a.py"}),
    ('"ls" | grep "x"', "bash", {"command": '"ls" | grep "x"'}),      # quotes inside a command: as written
    ('"ls" -la', "bash", {"command": '"ls" -la'}),
])
def test_a_quoted_bare_value_gives_its_text_and_a_command_stays_as_written(text, tool, value):
    r = toolmend.normalize_tool_args(text, tool)
    field = next(iter(r.value)) if r.ok else None
    assert r.ok and r.value == {field: next(iter(value.values()))}


@pytest.mark.parametrize("text, tool", [('"src/main.', "read_file"), ('"{\\"command\\": \\"ls\\"', "bash")])
def test_a_quoted_bare_value_cut_before_its_closing_quote_is_cut(text, tool):
    r = toolmend.normalize_tool_args(text, tool)
    assert not r.ok and r.cut is not None


@pytest.mark.parametrize("text", ["{command: git ", "[foo ", "{command: git"])
def test_a_bare_word_at_the_end_with_or_without_a_space_is_cut(text):
    # (more words may have followed: "git status")
    r = toolmend.normalize_tool_args(text)
    assert not r.ok and r.cut is not None


@pytest.mark.parametrize("text", [
    "{cmd: ls // list\n}",                 # a comment among the words
    "{'a': os.system('rm -rf /')}",         # a call
    "{a: foo(1)}",
    "{'pattern': r'\\bTODO\\b'}",         # Python's raw string: a quote among the characters
    '{"content": """line1\nline2"""}',      # Python's triple quotes
])
def test_code_where_a_value_belongs_is_refused_not_kept_as_a_string(text):
    r = toolmend.normalize_tool_args(text)
    assert not r.ok


@pytest.mark.parametrize("text, value", [
    ("{url: https://www.bible.com/}", {"url": "https://www.bible.com/"}),   # a URL's // is no comment
    ("{msg: don't stop}", {"msg": "don't stop"}),
    ('["This is C(2)", This is F(3)]', ["This is C(2)", "This is F(3)"]),   # words, not a call
    ("{command: git\n}", {"command": "git"}),
])
def test_words_that_look_like_code_in_part_are_still_words(text, value):
    r = toolmend.normalize_tool_args(text)
    assert r.ok and r.value == value


def test_digits_after_a_number_and_a_comma_with_leading_zeros_are_two_readings():
    r = toolmend.normalize_tool_args('{"range": [0, 1,000]}')  # 1000, or 1 and "000"
    assert not r.ok and "digit group (1,000)" in r.error
    r = toolmend.normalize_tool_args("[1, 007]")  # a blank after the comma: an element of its own
    assert r.ok and r.value == [1, "007"]


def test_what_the_text_of_a_double_encoded_object_needed_is_logged():
    r = toolmend.normalize_tool_args('"{\\"command\\": \\"ls\\"} then rm it"', "bash")
    assert r.ok and r.value == {"command": "ls"}
    assert [f.code for f in r.fixes] == ["double_encoded", "prose"]


@pytest.mark.parametrize("text", ['{"cmd": `ls -la`}', '{"cmd": `ls -la`, "x": 1}', "{cmd: `x`}",
                                  "[`a`, `b`]"])
def test_a_bare_value_in_backticks_is_refused(text):
    # a JavaScript template or Markdown's code: with or without its backticks, the text is a guess
    # (and a shell runs `...` as a command)
    r = toolmend.normalize_tool_args(text)
    assert not r.ok and r.cut is None and "is not plain text" in r.error, r
    assert toolmend.normalize_tool_args('{"a": "`x`"}').value == {"a": "`x`"}  # (in a string: text)


@pytest.mark.parametrize("text", ['{"file": "a.txt", "force"}', '{"a": 1, "b", "c": 2}', '{"a" , "b": 1}',
                                  '{"cmd": "cut -d"," -f1 f", "cwd": "/x"}',
                                  '{"msg": "use "," as separator"}',
                                  '{"code": "print(",".join(x))", "path": "a.py"}'])
def test_a_key_alone_is_refused_never_given_a_null(text):
    # (a flag's true, a null, a string of a list: what it holds is a guess; a quoted "," inside a
    # string makes one, and the null would have cut a command short)
    r = toolmend.normalize_tool_args(text)
    assert not r.ok and "neither colon nor value" in (r.error or ""), (r.value, r.error)


@pytest.mark.parametrize("text", [r'{"path": "C:\Users\me\", "recursive": true}', r'{"path": "C:\", "b": 1}',
                                  r'{"cwd": "D:\projects\app\", "cmd": "dir"}', r'{"sep": "\", "n": 1}',
                                  r'{"msg": "He said \"hi\", "to": "bob"}'])
def test_an_escaped_quote_where_a_string_would_close_is_refused(text):
    # (C:\Users\me\ then its closing quote, or a quote in the text and the closing one left out)
    r = toolmend.normalize_tool_args(text)
    assert not r.ok and "escaped quote right before a comma" in (r.error or ""), (r.value, r.error)
    # (a backslash escaped, then the closing quote: one reading)
    assert toolmend.normalize_tool_args(r'{"path": "C:\\", "b": 1}').value == {"path": "C:\\", "b": 1}


@pytest.mark.parametrize("text, tool", [("file: main.go", "read_file"),
                                        ("file: main.go, offset: 10", "read_file"),
                                        ("command: ls -la", "bash"), ("  Command : ls", "bash")])
def test_a_bare_text_opening_with_the_tools_field_and_a_colon_is_no_bare_value(text, tool):
    # (the members without their object's braces: {"file": "main.go"}, not the file "file: main.go")
    r = toolmend.normalize_tool_args(text, tool)
    assert not r.ok and "starts with a key and a colon" in (r.error or ""), r.value
    assert toolmend.normalize_tool_args("main.go", "read_file").value == {"file": "main.go"}
    schema = {"type": "object", "properties": {"file_path": {"type": "string"}}, "required": ["file_path"]}
    assert not toolmend.normalize_tool_args("file_path: /src/main.go", "Read", schema=schema).ok
    bare = toolmend.normalize_tool_args("/src/main.go", "Read", schema=schema)
    assert bare.value == {"file_path": "/src/main.go"}


@pytest.mark.parametrize("text", ['{"a": {"x": 1], "b": 4}', '{"a": {"x": 1, "y": 2], "b": 4}',
                                  '{"a": {"x": 1]], "b": 4}'])
def test_a_stray_closer_that_puts_what_follows_in_another_object_is_refused(text):
    # (a ']' mistyped for '}' puts "b" in the outer object, a stray one in the inner: two readings)
    r = toolmend.normalize_tool_args(text)
    assert not r.ok and "two readings" in (r.error or ""), r.value


@pytest.mark.parametrize("text, value", [('{"a": {"x": 1]}', {"a": {"x": 1}}), ('{"a": 1]', {"a": 1}),
                                         ('{"a": {"x": 1], "b": 4}}', {"a": {"x": 1, "b": 4}})])
def test_a_stray_closer_with_one_reading_is_dropped(text, value):
    # (nothing after it, or the brackets balance without it: the readings agree)
    assert toolmend.normalize_tool_args(text).value == value


@pytest.mark.parametrize("text", ['{\u201ccmd\u201d: \u201cls\u201d, \u201cdir\u201d: /tmp\u201d}',
                                  '{\u201ca\u201d: \u201c1\u201d, \u201cb\u201d: true\u201d}',
                                  '{\u201cfile\u201d: main.py\u201d}', '{a: 1, b: 2\u201d}'])
def test_a_bare_value_holding_a_curly_quote_is_refused(text):
    # (its opening quote dropped: "/tmp" was meant, and a boolean would become a string)
    assert not toolmend.normalize_tool_args(text).ok


@pytest.mark.parametrize("text", [
    "{'cmd': 'git commit -m 'Fix login bug', 'cwd': '/repo'}",   # a quotation in single quotes
    "{'cmd': 'sed -i 's/a/b/g', 'file': 'f.txt'}",
    "{'msg': 'Hello ' 'world', 'n': 1}",                          # Python's strings side by side
    "{\u201ccmd\u201d: \u201cgit commit -m \u201cfix bug\u201d, \u201ccwd\u201d: \u201c/r\u201d}",
])
def test_a_quotation_whose_closing_quote_was_taken_for_the_strings_end_is_refused(text):
    # (one quote is missing: where the string ends is a guess, as with double quotes)
    r = toolmend.normalize_tool_args(text)
    assert not r.ok and "quotation" in (r.error or "")


@pytest.mark.parametrize("text, value", [
    ("{'a': 'it's fine', 'b': 1}", {"a": "it's fine", "b": 1}),
    ("{'a': 'say 'hi' now', 'b': 1}", {"a": "say 'hi' now", "b": 1}),
    ("{'q': 'O'Brien', 'n': 1}", {"q": "O'Brien", "n": 1}),
    ("{\u201ccmd\u201d: \u201cgit commit -m \u201cfix bug\u201d\u201d}",
     {"cmd": "git commit -m \u201cfix bug\u201d"}),
])
def test_quotes_inside_a_string_that_close_their_quotation_are_kept(text, value):
    r = toolmend.normalize_tool_args(text)
    assert r.ok and r.value == value


def test_an_integer_past_a_doubles_range_is_exact_in_valid_json():
    # (a 309-digit integer, an RSA modulus's size: a double cannot hold it, an int can)
    n = 2 * 10 ** 308
    for text in (f'{{"n": {n}}}', f"[{n}]", f"{{n: {n}}}"):
        r = toolmend.normalize_tool_args(text)
        assert r.ok and (r.value == {"n": n} or r.value == [n]), text
    assert toolmend.normalize_tool_args(f'{{"n": {n}.5}}').value == {"n": None}  # (a fraction: a double)


@pytest.mark.parametrize("text, value", [('{"timeout": 1e999}', {"timeout": None}),
                                         ('{"a": [-1e400, 2]}', {"a": [None, 2]})])
def test_streamed_arguments_past_a_doubles_range_finish_as_recovery_reads_them(text, value):
    stream = toolmend.StreamingArgs()
    stream.feed(text)
    done = stream.finish()
    assert done.ok and done.value == value == toolmend.normalize_tool_args(text).value


@pytest.mark.parametrize("text", ['"C:\\Users\\me\\notes.txt', '"C:\\new\\a.txt"',
                                  '"C:\\Users\\me\\notes.txt"'])
def test_one_quoted_string_the_engine_cannot_read_is_no_bare_value_with_its_quotes(text):
    # (a file name holding the quotes is never what the model meant: which backslashes escape is a guess)
    r = toolmend.normalize_tool_args(text, "read_file")
    assert not r.ok and "one quoted string" in (r.error or "")
    assert toolmend.normalize_tool_args('"main.go"', "read_file").value == {"file": "main.go"}
    assert toolmend.normalize_tool_args('"ls" | grep "x"', "bash").value == {"command": '"ls" | grep "x"'}


@pytest.mark.parametrize("text", ['{"level": Inf', '{"level": Infinity', '{"a": -Inf', "[1, NaN"])
def test_a_word_for_a_number_json_lacks_ending_an_open_value_is_cut(text):
    # ({"level": Inf may be Info, Infra: the text ends inside the value, maybe inside the word)
    r = toolmend.normalize_tool_args(text)
    assert not r.ok and r.cut is not None and r.cut.what == "inside a word"


@pytest.mark.parametrize("text, value", [('{"level": true', {"level": True}), ('{"a": null', {"a": None}),
                                         ('{"a": None}', {"a": None}), ("None", None),
                                         ('{"a": None', {"a": None}), ("{'done': False", {"done": False})])
def test_a_literal_that_is_whole_stays_whole(text, value):
    r = toolmend.normalize_tool_args(text)
    assert r.ok and r.value == value
