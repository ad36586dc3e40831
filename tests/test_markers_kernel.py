"""The marker kernel (ext/_markers.pyx and its twin _kernels/_markers_py.py): the twins agree on
every text, and the scans say what the readers need (a value's end, cut or not, comments and
blanks skipped)."""

from __future__ import annotations

import importlib

import pytest
from hypothesis import given, settings, strategies as st

from toolmend._kernels import _markers_py as pure


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
