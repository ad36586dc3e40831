"""StreamingArgs: arguments read a chunk at a time, in linear time, never passed off as whole when cut."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings, strategies as st

import toolmend
from toolmend import StreamingArgs

partial_json_parser = pytest.importorskip("partial_json_parser")

_scalars = st.one_of(st.none(), st.booleans(), st.integers(-10**20, 10**20),
                     st.floats(allow_nan=False, allow_infinity=False), st.text(max_size=12))
_json = st.recursive(_scalars, lambda kids: st.one_of(st.lists(kids, max_size=4),
                                                      st.dictionaries(st.text(max_size=6), kids, max_size=4)),
                     max_leaves=20)
_containers = st.one_of(st.lists(_json, max_size=4), st.dictionaries(st.text(max_size=6), _json, max_size=4))


def _chunks(text: str, sizes: list[int]) -> list[str]:
    out, i, k = [], 0, 0
    while i < len(text):
        n = sizes[k % len(sizes)] if sizes else 3
        out.append(text[i:i + n])
        i += n
        k += 1
    return out


@settings(max_examples=150, deadline=None)
@given(_json, st.lists(st.integers(1, 9), min_size=1, max_size=5), st.booleans())
def test_any_chunking_gives_the_document(value, sizes, ascii_only):
    text = json.dumps(value, ensure_ascii=ascii_only)
    s = StreamingArgs()
    for chunk in _chunks(text, sizes):
        s.feed(chunk)
    r = s.finish()
    assert r.ok and r.value == json.loads(text)


@settings(max_examples=100, deadline=None)
@given(_containers, st.lists(st.integers(1, 7), min_size=1, max_size=4))
def test_every_partial_value_is_what_partial_json_parser_gives(value, sizes):
    """At each chunk, the value so far is partial_json_parser's with strings and containers
    allowed partial (numbers and literals only when whole, keys only with a value)."""
    text = json.dumps(value, separators=(",", ":"))
    allow = partial_json_parser.Allow.STR | partial_json_parser.Allow.COLLECTION
    s = StreamingArgs()
    seen = ""
    for chunk in _chunks(text, sizes):
        seen += chunk
        s.feed(chunk)
        got = s.value
        if seen[-1].isspace():
            continue  # partial-json-parser strips the text first: a cut string loses its last spaces
        assert json.dumps(got, sort_keys=True) == json.dumps(partial_json_parser.loads(seen, allow),
                                                             sort_keys=True), seen


def test_a_cut_string_is_closed_where_it_was_cut_and_escapes_wait():
    s = StreamingArgs()
    s.feed('{"cmd": "ap')
    assert s.value == {"cmd": "ap"}
    s.feed('ply", "patch": "a\\')
    assert s.value == {"cmd": "apply", "patch": "a"}
    s.feed('n\\u00')
    assert s.value == {"cmd": "apply", "patch": "a\n"}
    s.feed('e9\\ud83d')
    assert s.value == {"cmd": "apply", "patch": "a\n\u00e9\ud83d"}
    s.feed('\\ude00"')
    assert s.value == {"cmd": "apply", "patch": "a\n\u00e9\U0001F600"}
    s.feed(', "n": 1')
    assert s.value == {"cmd": "apply", "patch": "a\n\u00e9\U0001F600"}  # 1 may become 10
    s.feed("0}")
    assert s.value == {"cmd": "apply", "patch": "a\n\u00e9\U0001F600", "n": 10}
    assert s.complete and s.finish().ok


def test_bytes_split_inside_a_character():
    data = '{"city": "S\u00e3o Paulo"}'.encode()
    s = StreamingArgs("get_weather")
    for i in range(len(data)):
        s.feed(data[i:i + 1])
    assert s.finish().value == {"city": "S\u00e3o Paulo"}


@pytest.mark.parametrize(("text", "what", "offset", "shown"), [
    ('{"cmd": "rm -rf build/di', "inside a string", 8, {"cmd": "rm -rf build/di"}),
    ('{"limit": 2', "inside a number", 10, {"limit": 2}),
    ('{"city": ', "after a colon", 9, {}),
    ('{"term": "leak", ', "after a comma", 17, {"term": "leak"}),
    ('{"ok": tr', "inside a literal", 7, {"ok": True}),
    ('{"a"', "after a key", 4, {}),
    ('{"a', "inside a key", 1, {}),
    ('{"a": "x\\u00', "inside an escape", 8, {"a": "x"}),
    ("{", "after an opening bracket", 1, {}),
])
def test_finish_refuses_a_stream_cut_inside_a_value(text, what, offset, shown):
    s = StreamingArgs("run_command")
    s.feed(text)
    r = s.finish()
    assert not r.ok and r.cut == (offset, what, f"cut off {what} at offset {offset}")
    assert f"cut off {what} at offset {offset}" in r.error
    assert r.value == shown  # the completed reading, for display only


def test_a_stream_that_lacks_only_closing_brackets_is_whole():
    s = StreamingArgs()
    s.feed('{"cmd": "ls", "dirs": ["a", "b"]')
    r = s.finish()
    assert r.ok and r.cut is None and r.value == {"cmd": "ls", "dirs": ["a", "b"]}


def test_finish_recovers_what_argument_recovery_recovers():
    s = StreamingArgs("read_file")
    s.feed("{'file': ")
    s.feed("'main.go'}")  # not JSON: the value stops growing
    assert s.value == {}
    r = s.finish()
    assert r.ok and r.value == {"file": "main.go"} and r.strategy == "single_quotes"
    s = StreamingArgs("read_file")
    s.feed("main.go")
    assert s.finish().value == {"file": "main.go"}
    empty = StreamingArgs("git_status")
    assert empty.finish().value == {}


def test_a_whole_top_level_scalar_and_a_closed_stream():
    s = StreamingArgs()
    s.feed("4")
    s.feed("2")
    assert s.finish().value == 42
    with pytest.raises(ValueError):
        s.feed("x")
    with pytest.raises(TypeError):
        StreamingArgs().feed(42)  # type: ignore[arg-type]


def test_the_work_is_linear_in_the_stream():
    """Characters are read once: feeding 10x more text does about 10x more parser steps
    (counted, not timed: the parser's calls to its string scanner)."""
    import toolmend.recovery._streaming as mod

    calls = {"n": 0}
    real = mod._str_run

    def counting(s, i):  # type: ignore[no-untyped-def]
        calls["n"] += 1
        return real(s, i)

    def steps(n: int) -> int:
        calls["n"] = 0
        doc = json.dumps({"rows": [{"id": k, "name": f"row {k}"} for k in range(n)]})
        s = StreamingArgs()
        for i in range(0, len(doc), 3):
            s.feed(doc[i:i + 3])
        assert s.finish().ok
        return calls["n"]

    mod._str_run = counting
    try:
        small, big = steps(50), steps(500)
    finally:
        mod._str_run = real
    assert big < 12 * small


def test_nesting_past_the_bound_stops_the_stream_with_the_reason():
    deep = toolmend.recovery.MAX_DEPTH
    ok = StreamingArgs()
    ok.feed("[" * deep)
    ok.feed("]" * deep)
    assert ok.complete and ok.finish().ok
    s = StreamingArgs()
    for chunk in ("[" * 600, "[" * 600, "1" + "]" * 1200):
        s.feed(chunk)
    assert not s.complete
    r = s.finish()
    assert not r.ok and f"nesting deeper than {deep} levels" in r.error and "offset 1024" in r.error
    big = StreamingArgs()
    for _ in range(100):  # a million levels, a chunk at a time: the parser stops at the bound
        big.feed("[" * 10_000)
    assert not big.finish().ok


@pytest.mark.parametrize("chunks,at", [
    ([b'{"a": "x\xff\xfey"}'], 8),            # not UTF-8 at all
    ([b'{"a": "x', b"\xc3", b'(y"}'], 8),      # a lead byte, then no continuation
    ([b'{"a": "x\xc3'], 8),                    # a character cut at the end
    ([b'{"a": 1}', b"\xff"], 8),               # after a whole value
])
def test_bytes_that_are_not_utf8_are_refused_as_normalize_tool_args_refuses_them(chunks, at):
    # replacing them with U+FFFD would pass a changed value off as what was sent
    s = StreamingArgs()
    for chunk in chunks:
        s.feed(chunk)
    r = s.finish()
    assert not r.ok and r.error == f"the arguments are not valid UTF-8 (byte {at})"
    assert toolmend.normalize_tool_args(b"".join(chunks)).error == r.error


def test_a_character_split_between_byte_chunks_is_whole():
    s = StreamingArgs()
    for chunk in (b'{"a": "x', b"\xc3", b'\xa9y", "e": "\xe2', b"\x82", b'\xac"}'):
        s.feed(chunk)
    r = s.finish()
    assert r.ok and r.value == {"a": "x\u00e9y", "e": "\u20ac"}


def test_exported():
    assert toolmend.StreamingArgs is StreamingArgs
    assert "StreamingArgs" in toolmend.__all__


def test_feed_returns_nothing_and_the_value_is_read_when_asked():
    s = StreamingArgs()
    assert s.value is None
    assert s.feed('{"path": "a.py", "content": "li') is None
    first = s.value
    assert first == {"path": "a.py", "content": "li"}
    for c in "ne 1\\nline 2":
        s.feed(c)
    assert s.value is first and first == {"path": "a.py", "content": "line 1\nline 2"}
    assert s.value == {"path": "a.py", "content": "line 1\nline 2"}  # read again: the same


_texts = st.text(alphabet=st.sampled_from(['a', 'é', '"', '\\', '\n', '\t', '\x01', '\U0001F600', '\ud83d',
                                           ' ', '/']), max_size=40)


@settings(max_examples=150, deadline=None)
@given(_texts, st.lists(st.integers(1, 6), min_size=1, max_size=5), st.lists(st.booleans(), max_size=30),
       st.booleans())
def test_appended_hands_out_a_growing_string_once_whatever_the_chunks(content, sizes, reads, ascii_only):
    doc = {"path": "a.py", "content": content, "after": [content, {"k": content}]}
    text = json.dumps(doc, ensure_ascii=ascii_only)
    s = StreamingArgs()
    got: dict[tuple[object, ...], list[str]] = {("content",): [], ("after", 0): [], ("after", 1, "k"): []}
    for k, chunk in enumerate(_chunks(text, sizes)):
        s.feed(chunk)
        if reads and reads[k % len(reads)]:
            s.value  # noqa: B018 - joining the open string must not lose what appended has not handed out
        for path, out in got.items():
            if k % 3 == len(path) % 3:
                out.append(s.appended(*path))
    for path, out in got.items():
        out.append(s.appended(*path))
        assert "".join(out) == content, path
        assert s.appended(*path) == ""
    assert s.finish().value == doc


def test_appended_before_during_and_after_the_string():
    s = StreamingArgs()
    assert s.appended("content") == ""  # nothing yet
    s.feed('{"content": ')
    assert s.appended("content") == ""
    s.feed('"ab')
    assert s.appended("content") == "ab"
    assert s.appended("content") == ""
    s.feed('c\\ud83d')
    assert s.appended("content") == "c"  # half a pair waits for its other half
    s.feed('\\ude00d", "n": 5, "late": "whole"}')
    assert s.appended("content") == "\U0001F600d"
    assert s.appended("late") == "whole"  # first asked after it was read whole: all of it
    assert s.appended("late") == "" and s.appended("missing") == ""
    with pytest.raises(TypeError, match=r"the value at \['n'\] is int, not a string"):
        s.appended("n")
    with pytest.raises(TypeError, match=r"the value at \[\] is dict, not a string"):
        s.appended()
    with pytest.raises(TypeError, match="keys"):
        s.appended(1.5)  # type: ignore[arg-type]
    top = StreamingArgs()
    top.feed('"top-level')
    assert top.appended() == "top-level"


def test_appended_refuses_a_repeated_key():
    s = StreamingArgs()
    s.feed('{"content": "one", ')
    assert s.appended("content") == "one"
    s.feed('"content": "two"}')
    with pytest.raises(ValueError, match="repeated key"):
        s.appended("content")
    assert s.finish().value == {"content": "two"}


def test_a_long_string_a_character_at_a_time_is_never_joined_until_read():
    """The linear path: feeding a character of a string is a piece appended (counted, not timed:
    the pieces are joined only when the value is read)."""
    s = StreamingArgs()
    s.feed('{"content": "')
    for _ in range(10_000):
        s.feed("x")
    assert len(s._parser.pieces) == 10_000  # not one string rebuilt at every feed
    assert s.appended("content") == "x" * 10_000
    assert s.value == {"content": "x" * 10_000} and len(s._parser.pieces) == 1


def test_an_integer_longer_than_python_converts_is_refused_not_raised():
    # (int() raises ValueError past sys.get_int_max_str_digits(): the feed must not)
    s = StreamingArgs()
    s.feed('{"n": 1' + "0" * 5000)
    s.feed("}")
    r = s.finish()
    assert not r.ok and r.error
