"""Readings that looked whole but were one of several: each is refused, by ``loads`` as by
``normalize_tool_args``, in both builds (the suite runs once per mode)."""

from __future__ import annotations

import json

import pytest

import toolmend

MIXED = "whether its backslashes are escapes or text"


@pytest.mark.parametrize("text", [
    # (the curly-quote step's value reached loads' fast path without the check the whole path makes)
    "{\u201ccmd\u201d: \u201cgit commit -m \u201cfix bug\u201d}",
    "\u201cgit commit -m \u201cfix bug\u201d",
    "[\u201ca\u201d, \u201csay \u201chi\u201d]",
    "{\u201ecmd\u201c: \u201egit commit -m \u201efix bug\u201c}",       # German
    "{\u00abcmd\u00bb: \u00abgit commit -m \u00abfix bug\u00bb}",       # guillemets, either way
    "{\u00bbcmd\u00ab: \u00bbgit commit -m \u00bbfix bug\u00ab}",
    "{\u2039cmd\u203a: \u2039git commit -m \u2039fix bug\u203a}",
    "{\u2018cmd\u2019: \u2018git commit -m \u2018fix bug\u2019}",       # curly single quotes
    "{\u201ccmd\u201d: \u201cgit commit -m \u201cfix bug\u201d, n: 1}",  # (a bare key: a later step)
])
def test_a_quotation_left_open_in_any_typography_is_refused(text):
    r = toolmend.normalize_tool_args(text)
    assert not r.ok and r.cut is None and "where the string ends is a guess" in r.error, r
    with pytest.raises(toolmend.RecoveryError, match="where the string ends is a guess"):
        toolmend.loads(text)


def test_loads_takes_curly_quotes_that_close_what_they_open_and_no_other():
    with pytest.raises(toolmend.RecoveryError):
        toolmend.loads("{\u201ccmd\u201d: \u201cgit commit -m \u201cfix bug\u201d, \u201cn\u201d: 1}")
    assert toolmend.loads("{\u201ccmd\u201d: \u201cread\u201d}") == {"cmd": "read"}
    text = "{\u201cmsg\u201d: \u201cHe said \u201chi\u201d to me\u201d}"
    assert toolmend.loads(text) == toolmend.normalize_tool_args(text).value == {
        "msg": "He said \u201chi\u201d to me"}
    text = ("{\u201ea\u201c: \u201eEr sagte \u201ehallo\u201c laut\u201c, "
            "\u00abb\u00bb: \u00ab\u00bbx\u00ab\u00bb}")
    assert toolmend.loads(text) == {"a": "Er sagte \u201ehallo\u201c laut", "b": "\u00bbx\u00ab"}
    assert toolmend.loads("{'a': 'say \u00abhi'}") == {"a": "say \u00abhi"}  # (its quotes were ASCII)


@pytest.mark.parametrize("text", [
    '{"a": "x\u201d, "b": "y"}',              # "x" with its closing quote typed curly, or "x\u201d"
    '{"a": "He said \u201chi\u201d, "b": 1}',
    "{'a': 'the users\u2019, 'b': 1}",
    '{"a": "x\u00bb, "b": 2}',
])
def test_a_curly_quote_before_the_comma_of_a_string_that_never_closes_is_refused(text):
    r = toolmend.normalize_tool_args(text)
    assert not r.ok and r.cut is None, r
    assert "curly quote right before a comma" in r.error
    assert f"(offset {text.index(',') - 1})" in r.error
    with pytest.raises(toolmend.RecoveryError):
        toolmend.loads(text)


def test_a_missing_closing_quote_before_a_comma_and_a_key_is_added_unless_a_curly_one_stands_there():
    assert not toolmend.normalize_tool_args('{"a": "x\u201d, "b": "y"}').ok
    for text, value in (('{"a":"b,"c":"d"}', {"a": "b", "c": "d"}),
                        ('{"a": "x\u201d y, "b": 1}', {"a": "x\u201d y", "b": 1})):
        r = toolmend.normalize_tool_args(text)
        assert r.ok and r.value == value, r


@pytest.mark.parametrize("text", [
    r'{"path": "\\server\share"}',    # a UNC path as written (\\server) or escaped (\server)
    r'{"a": "x\\y\q"}',
    r'{"re": "^\\s*\d+$"}',
    r'{path: "\\server\share", b: 1}',  # the object literal
    r"{'p': '\\server\share'}",
    r'["\\host\c$", 1]',
])
def test_an_escaped_backslash_beside_one_json_does_not_read_is_refused(text):
    r = toolmend.normalize_tool_args(text)
    assert not r.ok and r.cut is None and MIXED in r.error, r
    with pytest.raises(toolmend.RecoveryError, match=MIXED):
        toolmend.loads(text)


def test_backslashes_of_one_kind_are_read_and_mixed_ones_are_not():
    assert not toolmend.normalize_tool_args(r'{"path": "\\server\share"}').ok
    for text, value in (
        (r'{"path": "\\\\server\\share"}', {"path": "\\\\server\\share"}),  # every backslash escaped
        (r'{"path": "C:\Users\me"}', {"path": "C:\\Users\\me"}),           # none
        (r'{"a": "\\n", b: 1}', {"a": "\\n", "b": 1}),
        (r'{"re": "\d+\.\d+"}', {"re": "\\d+\\.\\d+"}),
    ):
        r = toolmend.normalize_tool_args(text)
        assert r.ok and r.value == value, r


@pytest.mark.parametrize("text", [
    "{path: /tmp/x # the temp dir}",   # a path and a comment, as Python and YAML read it, or one text
    "{title: Fix issue #5, n: 1}",
    '{"cmd": ls -la # list files}',
])
def test_a_hash_after_a_blank_in_a_bare_value_is_no_text_of_the_object_literal(text):
    r = toolmend.normalize_tool_args(text)
    assert not r.ok and r.strategy != "object_literal", r
    with pytest.raises(toolmend.RecoveryError):
        toolmend.loads(text)


def test_a_hash_inside_a_word_or_after_a_number_is_read_as_before_and_after_a_word_is_not():
    assert not toolmend.normalize_tool_args("{path: /tmp/x # the temp dir}").ok
    for text, value in (("{lang: C#, n: 1}", {"lang": "C#", "n": 1}), ("{tag: a#b}", {"tag": "a#b"}),
                        ("{a: 5 # five\n}", {"a": 5})):
        r = toolmend.normalize_tool_args(text)
        assert r.ok and r.value == value, r


@pytest.mark.parametrize("text", [
    '{"a": 1}<think>no, {"a": 2}</think>',          # the second value is reasoning
    '{"a": 1} wait</think>{"a": 2}',                 # the first one was
    '{"a": 1}<think>hmm</think>{"a": 2}',            # the model answered twice
    '{"a": 1}\n<think>should it be {"a": 2}?',
])
def test_reasoning_between_two_values_is_refused(text):
    r = toolmend.normalize_tool_args(text)
    assert not r.ok and r.cut is None and "reasoning" in r.error, r
    tag = min(k for k in (text.find("<think>"), text.find("</think>")) if k >= 0)
    assert f"(offset {tag})" in r.error
    with pytest.raises(toolmend.RecoveryError):
        toolmend.loads(text)


@pytest.mark.parametrize("text", ['Sure.\n<think>maybe {"a": 1}', 'Let me think. <think>{"a": 1}'])
def test_a_value_inside_reasoning_left_open_after_prose_is_refused(text):
    r = toolmend.normalize_tool_args(text)
    assert not r.ok and "only reasoning" in r.error, r


def test_reasoning_around_one_answer_is_dropped_and_between_two_is_not():
    assert not toolmend.normalize_tool_args('{"a": 1}<think>hmm</think>{"a": 2}').ok
    for text, value in (('{"a": 1}<think>done</think>', {"a": 1}),
                        ('Sure <think>a</think> {"a": 1}', {"a": 1}),
                        ('<think>x</think>{"a": 1} and {"b": 2}', [{"a": 1}, {"b": 2}])):
        r = toolmend.normalize_tool_args(text)
        assert r.ok and r.value == value, r


@pytest.mark.parametrize("text", [
    "{\u201ccmd\u201d: \u201cgit commit -m \u201cfix bug\u201d} // note",           # the comments step
    "{/* c */ \u201ccmd\u201d: /* d */ \u201cgit commit -m \u201cfix bug\u201d}",
    "{cmd: \u201cgit commit -m \u201cfix bug\u201d, n: 007}",                   # the repair engine
    "{cmd: \u201cgit commit -m \u201cfix bug\u201d, n: x}",                     # the object literal
])
def test_a_curly_quotation_left_open_is_refused_past_the_text_steps(text):
    r = toolmend.normalize_tool_args(text)
    assert not r.ok and r.cut is None and "where the string ends is a guess" in r.error, r
    with pytest.raises(toolmend.RecoveryError, match="where the string ends is a guess"):
        toolmend.loads(text)


@pytest.mark.parametrize("text, value", [
    ("{/* c */ \u201cn\u201d: 1}", {"n": 1}),        # (not the key \u201cn\u201d, its quotes kept)
    ("{\u201ccmd\u201d: \u201cls\u201d, // c\n \u201cn\u201d: 1}", {"cmd": "ls", "n": 1}),
])
def test_curly_quotes_after_a_comment_are_straightened_as_the_others(text, value):
    assert toolmend.normalize_tool_args(text).value == value
    assert toolmend.loads(text) == value


def test_curly_quotations_closed_or_in_a_code_block_are_read_as_before_and_open_ones_are_not():
    assert not toolmend.normalize_tool_args("{cmd: \u201cgit commit -m \u201cfix bug\u201d, n: x}").ok
    text = "{cmd: \u201csay \u201chi\u201d now\u201d, n: x}"
    assert toolmend.loads(text) == {"cmd": "say \u201chi\u201d now", "n": "x"}
    r = toolmend.normalize_tool_args(
        "```json\n{\u201ccmd\u201d: \u201cgit commit -m \u201cfix bug\u201d}\n```")
    assert not r.ok and "where the string ends is a guess" in r.error


@pytest.mark.parametrize("text", ["\u201cx\\ud83d\u201d", "  \u00abx\\udc00\u00bb"])
def test_curly_quotes_around_a_lone_surrogate_give_json_text_not_the_input(text):
    # (orjson refuses the escape, so the engine reads it; its text was the input, called "parse")
    r = toolmend.normalize_tool_args(text)
    assert r.ok and r.strategy != "parse" and "\u201c" not in r.text, r
    assert toolmend.normalize_tool_args(r.text).value == r.value


@pytest.mark.parametrize("text, value", [
    ('"\u201cb\u201d \\ud83d"', '"b" \ud83d'),
    ("\u201ca \u201cb\u201d \\ud83d\u201d", 'a "b" \ud83d'),
])
def test_quotes_always_keeps_the_value_of_a_string_holding_a_lone_surrogate(text, value):
    # (the straightened text went back to orjson, which refuses the escape: the value was None)
    r = toolmend.normalize_tool_args(text, quotes="always")
    assert r.ok and r.value == value, r


def test_a_json_string_holding_an_array_of_objects_is_no_bare_value_for_a_tool():
    # (two calls encoded twice, given as bash's arguments, became the command's text)
    calls = json.dumps([{"name": "bash", "arguments": {"command": "ls"}},
                        {"name": "bash", "arguments": {"command": "rm -rf build"}}])
    for raw in (json.dumps(calls), json.dumps(calls[:-2]), json.dumps(' [ {"x": 1}]')):
        r = toolmend.normalize_tool_args(raw, "bash")
        assert not r.ok and "array of objects" in (r.error or ""), raw
    # a string that only starts with a bracket is the field's value, as before
    for text in ("[ -f x ] && echo yes", "[1, 2]", "[draft].md"):
        r = toolmend.normalize_tool_args(json.dumps(text), "bash")
        assert r.ok and r.value == {"command": text}
