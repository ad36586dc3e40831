"""The marker kernel (ext/_markers.pyx and its twin _kernels/_markers_py.py): the twins agree on
every text, and the scans say what the readers need (a value's end, cut or not, comments and
blanks skipped)."""

from __future__ import annotations

import importlib
import json

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from toolmend._kernels import _markers_py as pure

# Every test here takes the builds themselves (never the package's choice of one), so a
# run in the pure mode beside one in the compiled mode may leave them to that one
# (--builds-tested-elsewhere, tests/conftest.py).
pytestmark = pytest.mark.builds_side_by_side


def _compiled():
    try:
        return importlib.import_module("toolmend._kernels._markers")
    except ImportError:
        pytest.skip("the compiled kernels are not built")


TWINS = ["pure", "compiled"]


@pytest.fixture(params=TWINS)
def kernel(request):
    return pure if request.param == "pure" else _compiled()


_pieces = st.sampled_from(['{', '}', '[', ']', '"', "'", '\\', ':', ',', ' ', '\n', '\t', '\u00a0',
                           '\ufeff', '/', '//', '/*', '*/', '*', '<', '<tool_call', 'a', '1', 'é',
                           '\U0001F600', '"k": '])
_texts = st.lists(_pieces, max_size=40).map("".join)


@settings(max_examples=600, deadline=None)
@given(_texts, st.integers(0, 200), st.integers(0, 200), st.sampled_from([None, "<tool_call", "<", ""]))
def test_the_twins_agree_on_extent(text, at, cut, stop):
    compiled = _compiled()
    opens = [k for k, c in enumerate(text) if c in "{["]
    if not opens:
        return
    i = opens[at % len(opens)]
    limit = i + 1 + cut % (len(text) - i)
    assert compiled.extent(text, i, limit, stop) == pure.extent(text, i, limit, stop), (text, i, limit)


@settings(max_examples=400, deadline=None)
@given(_texts, st.integers(0, 200), st.integers(0, 200))
def test_the_twins_agree_on_skip_space(text, at, cut):
    compiled = _compiled()
    i = at % (len(text) + 1)
    limit = i + cut % (len(text) - i + 1)
    assert compiled.skip_space(text, i, limit) == pure.skip_space(text, i, limit), (text, i, limit)


@pytest.mark.parametrize(("text", "i", "stop", "end"), [
    ('{"a": 1} tail', 0, None, 8),
    ('x [1, [2, {"k": "v}"}]] y', 2, None, 23),
    ('{"a": "b\\"}"}', 0, None, 13),                # an escaped quote inside a string
    ('{"a": "b\\\\"}', 0, None, 12),                # an escaped backslash before the quote
    ("{'a': 'it''s'}", 0, None, 14),               # single quotes where a value starts
    ("{cmd: it's done}", 0, None, 16),             # an apostrophe in a bare word is text
    ('{"a": [1, 2}', 0, None, 12),                  # the outer closer closes the inner bracket
    ('{"a": 1]', 0, None, 7),                       # a stray closer ends the value before it
    ('{"a": 1 // }\n}', 0, None, 14),              # a comment after a blank is skipped
    ('{"a": "http://x"}', 0, None, 17),            # not a comment inside a string
    ('{"a": 1 /* } */ }', 0, None, 17),
    ('{"a": "b', 0, None, -1),                      # cut inside a string
    ('{"a": [1, 2', 0, None, -1),                   # cut inside the value
    ('{"a": 1 <tool_call>{"b": 2}}', 0, "<tool_call", -1),  # the next tag, outside a string
    ('{"a": "<tool_call>"}', 0, "<tool_call", 20),  # a tag inside a string is text
    ('{"a": 1 < 2}', 0, "<tool_call", 12),
])
def test_extent(kernel, text, i, stop, end):
    assert kernel.extent(text, i, len(text), stop) == end


def test_extent_stops_at_the_limit_and_never_recurses(kernel):
    assert kernel.extent('{"a": 1}', 0, 7, None) == -1
    deep = "[" * 200_000 + "]" * 200_000
    assert kernel.extent(deep, 0, len(deep), None) == len(deep)
    assert kernel.extent(deep, 0, len(deep) - 1, None) == -1


@pytest.mark.parametrize(("text", "i", "end"), [
    ("  \t\r\n\ufeffx", 0, 6),
    ("// a comment\n  x", 0, 15),
    ("/* a */ /* b */x", 0, 15),
    ("/* never closed", 0, 15),
    ("// no newline", 0, 13),
    ("x  ", 0, 0),
    ("\u00a0x", 0, 0),   # only the blanks JSON allows (and a BOM)
    ("/x", 0, 0),
])
def test_skip_space(kernel, text, i, end):
    assert kernel.skip_space(text, i, len(text)) == end


# -- items: the members of an object, the elements of an array --------------------------------------

_item_pieces = st.sampled_from(['{', '}', '[', ']', '"k"', "'k'", 'k', '"k\\"x"', "'a\\'b'", '"\\u0061"', ':',
                                ',', ' ', '\n', '\t', '\r', '1', 'true', '"v"', '"', "'", '\\', '//c\n',
                                '/*c*/', '$', '@', '-', '.', 'é', '\u00b2', '\U0001F600', '\ufeff'])
_items_texts = st.lists(_item_pieces, max_size=30).map("".join)


@settings(max_examples=1000, deadline=None)
@given(_items_texts, st.integers(0, 200), st.integers(0, 200), st.booleans())
def test_the_twins_agree_on_items(text, at, cut, is_object):
    compiled = _compiled()
    text = ("{" if is_object else "[") + text
    i = 0 if at % 2 else at % len(text)
    limit = i + 1 + cut % (len(text) - i)
    got = compiled.items(text, i, limit, is_object)
    assert got == pure.items(text, i, limit, is_object), (text, i, limit)


@pytest.mark.parametrize(("text", "is_object", "found", "closed", "end", "broken"), [
    ('{"a": 1, \'b\': [1, {"c": "}"}], c$-@.: x , }', True,
     [("a", 7), ("b", 29), ("c$-@.", 39)], True, 43, False),
    # (a comment after a bare token is read as part of it, as the whole scan reads bare tokens)
    ('{"a": 1 // a comment\n, "b": "x"} tail', True, [("a", 20), ("b", 31)], True, 32, False),
    ('{"a": "cut', True, [("a", None)], False, None, False),
    ('{"a": ', True, [("a", None)], False, None, False),
    ('{"a" 1}', True, [], False, 5, True),
    ('{"a": ]}', True, [], False, 6, True),
    ('{?: 1}', True, [], False, 1, True),
    ('[1, "two", {"three": 3}, tru  ', False, [("0", 2), ("1", 9), ("2", 23), ("3", 28)], False, None, False),
    ('[1, 2]', False, [("0", 2), ("1", 5)], True, 6, False),
    ('[}]', False, [], False, 1, True),
])
def test_items(kernel, text, is_object, found, closed, end, broken):
    got, got_closed, got_end, got_broken, escaped = kernel.items(text, 0, len(text), is_object)
    assert [(k, e) for k, _, e in got] == found
    assert (got_closed, got_end, got_broken, escaped) == (closed, end, broken, False)


def test_items_leaves_a_key_with_escapes_as_written(kernel):
    got, closed, _, _, escaped = kernel.items('{"a\\"b": 1, \'c\\\'d\': 2, "e": 3}', 0, 40, True)
    assert [k for k, _, _ in got] == ['"a\\"b"', "'c\\'d'", "e"] and closed and escaped


def test_items_refuses_positions_outside_the_text(kernel):
    with pytest.raises(IndexError):
        kernel.items("{}", 2, 2, True)


# -- tag_body: the everyday Hermes body ---------------------------------------------------------

_body_pieces = st.sampled_from(['{', '}', '"name"', '"id"', '"arguments"', '"x"', '"n\\u0061me"', ':', ',',
                                ' ', '\n', '\u3000', '\x1c', '"', '\\', '[1]', '{"a": 1}', '</tool_call>',
                                '</tool_call', '</TOOL_CALL>', '<tool_call>', '<', '>', 'é', '\U0001F600'])
_bodies = st.lists(_body_pieces, max_size=30).map("".join)


@settings(max_examples=800, deadline=None)
@given(_bodies, st.integers(0, 200), st.integers(0, 200))
def test_the_twins_agree_on_tag_body(text, at, cut):
    compiled = _compiled()
    text = '{"name": "f", ' + text if at % 3 else text
    b = at % (len(text) + 1)
    limit = b + cut % (len(text) - b + 1)
    assert compiled.tag_body(text, b, limit) == pure.tag_body(text, b, limit), (text, b, limit)


@pytest.mark.parametrize(("text", "parts"), [
    ('{"name": "f", "arguments": {"a": 1}}</tool_call>', ('"f"', None, '{"a": 1}', "")),
    ('{ "id" : "c1" ,\n "name":"g","arguments" :{} \u3000}\n</tool_call >x', ('"g"', '"c1"', '{}', "x")),
    ('{"name": "f", "arguments": "s"}</tool_call>', ('"f"', None, '"s"', "")),  # the caller refuses it
    ('{"arguments": {}}</tool_call>', (None, None, '{}', "")),
])
def test_tag_body(kernel, text, parts):
    ns, ne, is_, ie, k, end, close_end = kernel.tag_body(text, 0, len(text))
    assert (text[ns:ne] if ns >= 0 else None, text[is_:ie] if is_ >= 0 else None, text[k:end],
            text[close_end:]) == parts


@pytest.mark.parametrize("text", [
    '{"name": "f", "arguments": {}}',                                  # no closer
    '{"name": "f", "arguments": {}} <tool_call>{}</tool_call>',        # the next tag comes first
    '{"name": "f", "arguments": {}}</TOOL_CALL>',                      # the closer in upper case
    '{"name": "f", "arguments": {}}</tool_call',                       # cut in the closer
    '{"name": "f", "arguments": {}} x</tool_call>',                    # text after the body
    '{"name": "f", "name": "g", "arguments": {}}</tool_call>',         # a key twice
    '{"name": "f", "type": "function", "arguments": {}}</tool_call>',  # another member first
    '{"name": 1, "arguments": {}}</tool_call>',                        # a name that is not a string
    '{"n\\u0061me": "f", "arguments": {}}</tool_call>',                # keys compared as written
    '{"name": "f" "arguments": {}}</tool_call>',                       # no comma
    '["name", "f"]</tool_call>',
    '',
])
def test_tag_body_leaves_other_shapes_to_the_general_reader(kernel, text):
    assert kernel.tag_body(text, 0, len(text)) is None
    assert kernel.tag_body(text, 0, len(text) // 2) is None


def test_tag_body_refuses_positions_outside_the_text(kernel):
    text = '{"name": "f", "arguments": {}}</tool_call>'
    assert kernel.tag_body(text, -1, len(text)) is None
    assert kernel.tag_body(text, 0, len(text) + 5) is None
    assert kernel.tag_body(text, len(text), len(text)) is None


# -- call_body: a plain call object whose end is known ------------------------------------------

@settings(max_examples=800, deadline=None)
@given(_bodies, st.integers(0, 200), st.integers(0, 200), st.sampled_from(['"arguments"', '"parameters"']))
def test_the_twins_agree_on_call_body(text, at, cut, key):
    compiled = _compiled()
    text = '{"name": "f", ' + text.replace('"arguments"', key) if at % 3 else text
    b = at % (len(text) + 1)
    end = b + cut % (len(text) - b + 1)
    assert compiled.call_body(text, b, end) == pure.call_body(text, b, end), (text, b, end)


@pytest.mark.parametrize(("text", "parts"), [
    ('{"name": "f", "arguments": {"a": 1}}', ('"f"', None, False, '{"a": 1}')),
    ('{ "id" : "c1" ,\n "name":"g","arguments" :{} \u3000}', ('"g"', '"c1"', False, '{}')),
    ('{"name": "f", "parameters": [1]}', ('"f"', None, True, '[1]')),
    ('{"arguments": {}, "name": "f"}', (None, None, False, '{}, "name": "f"')),  # not JSON: refused after
])
def test_call_body(kernel, text, parts):
    ns, ne, is_, ie, by_parameters, k, end = kernel.call_body(text, 0, len(text))
    assert (text[ns:ne] if ns >= 0 else None, text[is_:ie] if is_ >= 0 else None, by_parameters,
            text[k:end]) == parts


@pytest.mark.parametrize("text", [
    '{"name": "f", "name": "g", "arguments": {}}',          # a key twice
    '{"name": "f", "type": "function", "arguments": {}}',   # another member first
    '{"name": 1, "arguments": {}}',                          # a name that is not a string
    '{"name": "f", "arguments": {}} ',                        # its end said to be past its brace
    '["name", "f"]',
    '',
])
def test_call_body_leaves_other_shapes_to_the_general_reader(kernel, text):
    assert kernel.call_body(text, 0, len(text)) is None


# -- JsonPrefix: a JSON value read as it arrives -----------------------------------------------

_json_pieces = st.sampled_from(['{', '}', '[', ']', '"', '"k"', ': ', ',', ' ', '\n', '1', '-', '.', 'e',
                                '+', '0', '12.5e-3', 'true', 'tr', 'null', 'fal', '\\', '\\u00', '\\n',
                                'é', '\U0001F600', '<', '</tool_call>', '<|tool_call_end|>', 'x', '\x01'])
_stop_sets = st.sampled_from([("</tool_call", "<tool_call"), ("<|tool_call_end|>",), (), ("[call", "x<")])


def _fed(kernel, stops, text, cuts):
    j = kernel.JsonPrefix(stops)
    out, at = [], 0
    for cut in sorted(cuts) + [len(text)]:
        out.append((j.feed(text[at:cut]), j.in_string))
        at = max(at, cut)
    return out, j.buf, j.done, j.failed


@settings(max_examples=1500, deadline=None)
@given(st.lists(_json_pieces, max_size=30).map("".join), st.lists(st.integers(0, 120), max_size=8),
       _stop_sets)
def test_the_twins_agree_on_json_prefix(text, cuts, stops):
    cuts = [c % (len(text) + 1) for c in cuts]
    assert _fed(_compiled(), stops, text, cuts) == _fed(pure, stops, text, cuts), (text, cuts)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.recursive(st.none() | st.booleans() | st.integers() | st.text()
                    | st.floats(allow_nan=False, allow_infinity=False),
                    lambda kids: st.lists(kids, max_size=4)
                    | st.dictionaries(st.text(max_size=5), kids, max_size=4), max_leaves=12),
       st.lists(st.integers(0, 400), max_size=10), st.sampled_from([None, 2]))
def test_json_prefix_reads_valid_json_whole_however_it_is_cut(kernel, value, cuts, indent):
    text = json.dumps({"v": value}, indent=indent, ensure_ascii=False).replace("<", "\\u003c")
    cuts = [c % (len(text) + 1) for c in cuts]
    out, buf, done, failed = _fed(kernel, ("</tool_call", "<tool_call"), text, cuts)
    assert "".join(read for read, _ in out) == text and done and not failed and buf == ""
    assert not out[-1][1]


@pytest.mark.parametrize(("pieces", "read", "done"), [
    (['{"a": 1.', '5}'], ['{"a": ', '1.5}'], True),        # a number cut after its point waits
    (['{"a": 1e', '-5}'], ['{"a": ', '1e-5}'], True),
    (['{"a": -', '0]'], ['{"a": ', '-0'], False),            # -0, then "]": not this object's closer
    (['{"a": "x</tool', '_call>"}'], ['{"a": "', ''], False),  # a stop inside a string (its run waits)
    (['{"a": tr', 'ue}'], ['{"a": ', 'true}'], True),
    (['{"a": "\\u00', 'e9"}'], ['{"a": "', '\\u00e9"}'], True),
])
def test_json_prefix(kernel, pieces, read, done):
    j = kernel.JsonPrefix()
    assert [j.feed(p) for p in pieces] == read and j.done == done


@pytest.mark.parametrize(("text", "inside"), [('{"a": "x', True), ('{"a": "x"', False), ('{"a": "x\\"', True),
                                              ('{"', True), ('{"a": 1', False), ('["x", "y\\\\"', False)])
def test_json_prefix_says_when_what_it_read_ends_inside_a_string(kernel, text, inside):
    j = kernel.JsonPrefix(())
    j.feed(text)
    assert j.in_string == inside and not j.failed


# ---------------------------------------------------------------------------
# next_start: where the scan's token pattern can next begin

_FIRSTS = "<[`\u25c1"
_LINE_FIRSTS = "`~[{>"
_WORDS = ("Action:", "functools", "function call<|role_sep|>", "\u00e9t\u00e9", "\u4e2d\u6587")
_start_pieces = st.sampled_from(["a", " ", "\t", "\n", "\n\n  ", "<", "[", "{", "~", ">", "`", "\u25c1",
                                 "Action:", "Action", "functools", "functool", "function call<|role_sep|>",
                                 "function call", "\u00e9t\u00e9", "\u00e9t", "\u4e2d\u6587", "\u4e2d",
                                 "x\n{", "\U0001F600", "\u00a0", "A\u4e2d", "Ab", "Ac", "q", "co", "com"])
# (words told apart by their first two characters: one of one character, one whose second is wide)
_PAIR_WORDS = ("", "", ("A\u4e2d", "Ab", "q", "commentary", "Action:"))


def _next_start_reference(text, pos, limit, firsts, line_firsts, words):
    """What next_start must return, read character by character."""
    limit = min(limit, len(text))
    for k in range(max(pos, 0), limit):
        if text[k] in firsts:
            return k
        if text[k] == "\n":
            e = k + 1
            while e < limit and text[e] in " \t\n":
                e += 1
            if e < limit and text[e] in line_firsts:
                return k
        if any(text.startswith(w, k) and k + len(w) <= limit for w in words):
            return k
    return limit


@settings(max_examples=600, deadline=None)
@given(st.lists(_start_pieces, max_size=30).map("".join), st.integers(-2, 200), st.integers(0, 220),
       st.sampled_from([(_FIRSTS, _LINE_FIRSTS, _WORDS), ("", _LINE_FIRSTS, ()), (_FIRSTS, "", ("Action:",)),
                        ("\u25c1", "\u25c1{", ("\u4e2d\u6587",)), _PAIR_WORDS]))
def test_next_start_finds_the_first_place_a_token_can_begin(text, pos, limit, table):
    want = _next_start_reference(text, pos, limit, *table)
    for kernel in (pure, _compiled()):
        got = kernel.next_start(text, pos, limit, kernel.start_table(*table))
        assert got == want, (kernel.__name__, text, pos, limit)


@settings(max_examples=300, deadline=None)
@given(st.lists(_start_pieces, max_size=30).map("".join), st.lists(st.tuples(st.integers(-2, 60),
       st.integers(0, 70)), min_size=1, max_size=12), st.sampled_from([(_FIRSTS, _LINE_FIRSTS, _WORDS),
                                                                        (_FIRSTS, "", ("Action:",)),
                                                                        _PAIR_WORDS]))
def test_next_start_with_one_table_for_many_searches_answers_each_alike(text, searches, table):
    # the scan keeps one table for a parse, and the twin remembers its last searches in it
    for kernel in (pure, _compiled()):
        t = kernel.start_table(*table)
        for pos, limit in searches + [(p, len(text)) for p, _ in searches]:
            want = _next_start_reference(text, pos, limit, *table)
            assert kernel.next_start(text, pos, limit, t) == want, (kernel.__name__, text, pos, limit)
        other = text + "Action:"  # another text, the same table
        want = _next_start_reference(other, 0, len(other), *table)
        assert kernel.next_start(other, 0, len(other), t) == want


def test_next_start_skips_a_run_of_blank_lines_once(kernel):
    table = kernel.start_table("<", "{", ())
    text = "prose" + "\n \n\t" * 100_000 + "x {"
    assert kernel.next_start(text, 0, len(text), table) == len(text)  # "{" does not open its line
    assert kernel.next_start(text + "\n{", 0, len(text) + 2, table) == len(text)


def test_start_table_refuses_an_empty_word_and_next_start_a_foreign_table(kernel):
    with pytest.raises(ValueError):
        kernel.start_table("<", "{", ("a", ""))
    with pytest.raises(TypeError):
        kernel.next_start("abc", 0, 3, object())
