"""The JSON scanner kernel over UTF-8 bytes: the compiled module and its pure
twin agree; bytes and the decoded text give the same answers (offsets in
bytes and in characters mapped onto each other); the UTF-8 check agrees with
Python's decoder; the container index changes no result."""

from __future__ import annotations

import json
import random
from array import array

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st
from test_jsonscan_kernels import DOCS, STRINGS, mutated

from toolmend._kernels import _jsonscan_py as P

# Each test takes each build of the scanner itself (the fixtures, or the twin module):
# a run in the pure mode beside one in the compiled mode may leave them to that one.
pytestmark = pytest.mark.builds_side_by_side

SETTINGS = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])

# valid and invalid UTF-8 pieces: the decoder's edge cases
GOOD = [b"a", b" ", b"\\n", b"\xc3\xa9", b"\xe2\x82\xac", b"\xf0\x9f\x98\x80", b"\xed\x9f\xbf",
        b"\xee\x80\x80", b"\xf4\x8f\xbf\xbf", b"\xc2\x80", b"\xe0\xa0\x80", b"\xf0\x90\x80\x80",
        b"\xdf\xbf", b"\xef\xbf\xbf"]
BAD = [b"\x80", b"\xbf", b"\xc0\x80", b"\xc1\xbf", b"\xe0\x80\x80", b"\xe0\x9f\xbf", b"\xed\xa0\x80",
       b"\xed\xbf\xbf", b"\xf0\x80\x80\x80", b"\xf0\x8f\xbf\xbf", b"\xf4\x90\x80\x80", b"\xf5\x80\x80\x80",
       b"\xf8", b"\xfe", b"\xff", b"\xc3", b"\xe2\x82", b"\xf0\x9f\x98", b"\xc3\x28", b"\xe2\x28\xa1"]


def _utf8(text: str) -> bytes:
    """UTF-8 of text; a lone surrogate becomes the invalid bytes it would be."""
    return text.encode("utf-8", "surrogatepass")


def _byte_offset(text: str, pos: int) -> int:
    return len(_utf8(text[:pos]))


def _opens(text, pos: int) -> bool:
    return text[pos:pos + 1] in ("{", "[", b"{", b"[")


def _all_values(k, text) -> list[tuple[int, int]]:
    """Spans of every value in a valid text or its bytes (root first)."""
    start = k.skip_space(text, 0)
    spans = [(start, k.value_end(text, start))]
    todo = [start]
    while todo:
        pos = todo.pop()
        if _opens(text, pos):
            _, sp = k.members(text, pos)
            for i in range(0, len(sp), 2):
                spans.append((sp[i], sp[i + 1]))
                todo.append(sp[i])
    return spans


def _decodes(data: bytes) -> bool:
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


@SETTINGS
@given(st.one_of(DOCS, mutated(), st.text(max_size=30)))
def test_twins_agree_on_bytes_and_bytes_agree_with_the_text(jsonscan_kernel, text: str) -> None:
    data = _utf8(text)
    result = jsonscan_kernel.scan(data)
    assert result == P.scan(data), data
    pos, code, lossy = result
    if not _decodes(data):
        # a lone surrogate: the bytes are not UTF-8, whatever the JSON
        assert code != 0
        return
    tpos, tcode, tlossy = P.scan(text)
    assert (code, lossy) == (tcode, tlossy), data
    if code:
        assert pos == _byte_offset(text, tpos), data
    assert jsonscan_kernel.scan_index(data)[:3] == result


@SETTINGS
@given(st.lists(st.sampled_from(GOOD + BAD), max_size=40), st.integers(0, 70), st.data())
def test_utf8_check_agrees_with_the_decoder(jsonscan_twins, pieces, pad: int, data) -> None:
    C, P2 = jsonscan_twins
    body = b"x" * pad + b"".join(pieces)
    where = data.draw(st.sampled_from(["value", "key", "nested"]))
    doc = {"value": b'["' + body + b'"]', "key": b'{"' + body + b'": 1}',
           "nested": b'{"a": [1, "ok", {"b": "' + body + b'"}]}'}[where]
    result = C.scan(doc)
    assert result == P2.scan(doc), doc
    valid = _decodes(body)
    assert (result[1] == 0) == valid, doc
    if not valid:
        assert result[1] == P.E_UTF8
        try:
            doc.decode("utf-8")
        except UnicodeDecodeError as exc:
            assert result[0] == exc.start  # the first bad byte, as the decoder says


def test_long_texts_with_bad_bytes_anywhere(jsonscan_twins) -> None:
    """The vector check covers whole blocks: a bad byte at every place of a
    long string, across block boundaries, is found, and where."""
    C, P2 = jsonscan_twins
    rnd = random.Random(12)
    base = "".join(rnd.choice("abc é€😀日\u2014 ") for _ in range(300)).encode()
    for k in range(0, 200, 7):
        for bad in (b"\xff", b"\xc3", b"\xed\xa0\x80", b"\x80"):
            cut = k
            while cut < len(base) and (base[cut] & 0xC0) == 0x80:
                cut += 1
            doc = b'["' + base[:cut] + bad + base[cut:] + b'"]'
            assert C.scan(doc) == P2.scan(doc) == (2 + cut, P.E_UTF8, False), (k, bad)
    assert C.scan(b'["' + base * 50 + b'"]') == (-1, 0, False)


@pytest.mark.parametrize("data, pos, code", [
    (b'"\xff"', 1, P.E_UTF8),
    (b'{"k\xc3": 1}', 3, P.E_UTF8),
    (b'[\xc3\xa9]', 1, P.E_VALUE),       # non-ASCII outside a string: not a value
    (b'["\xc3\xa9" \xc3\xa9]', 6, P.E_ARRAY),
    (b'["a\\\xc3\xa9"]', 3, P.E_ESCAPE),   # an escape is checked before the UTF-8 after it
    (b'["\xe2\x82\x01"]', 2, P.E_UTF8),    # a cut sequence, then a control character
    (b'["\xc3\xa9\x01"]', 4, P.E_CONTROL),
    (b'["\xe2\x82', 2, P.E_UTF8),          # cut by the end of the input
    (b'\xef\xbb\xbf[]', 0, P.E_VALUE),     # a BOM is the caller's to skip
    (b'[1, 2] \xff', 7, P.E_TRAILING),
])
def test_byte_errors(jsonscan_kernel, data: bytes, pos: int, code: int) -> None:
    assert jsonscan_kernel.scan(data)[:2] == (pos, code)


@SETTINGS
@given(DOCS, st.data())
def test_walking_bytes_matches_walking_the_text(jsonscan_twins, text: str, data) -> None:
    C, P2 = jsonscan_twins
    raw = _utf8(text)
    if not _decodes(raw):
        return
    text_spans = _all_values(P2, text)
    for k in (C, P2):
        byte_spans = _all_values(k, raw)
        assert byte_spans == [(_byte_offset(text, s), _byte_offset(text, e)) for s, e in text_spans]
        for (s, e), (bs, be) in zip(text_spans, byte_spans, strict=True):
            assert k.summary(raw, bs) == P2.summary(text, s)
            if text[s] in "{[":
                assert k.members(raw, bs)[0] == P2.members(text, s)[0]
            for indent in (0, 2):
                budget = data.draw(st.sampled_from([-1, 0, 1, 5, 17, 64]))
                assert k.reformat(raw, bs, be, indent, budget) == P2.reformat(text, s, e, indent, budget)
    s, e = text_spans[0]
    segs = data.draw(st.lists(st.one_of(st.integers(-3, 3), st.sampled_from(["", "a", "0", "-1", "é"]),
                                        STRINGS.map(json.loads)), max_size=3))
    found = P2.lookup(text, s, segs)
    for k in (C, P2):
        got = k.lookup(raw, _byte_offset(text, s), segs)
        assert got == (_byte_offset(text, found[0]), _byte_offset(text, found[1]), found[2], found[3])
    flat = array("q", [x for span in _all_values(P2, raw) for x in span])
    assert C.lookup_many(raw, flat, segs) == P2.lookup_many(raw, flat, segs)


def _big_document(seed: int) -> str:
    rnd = random.Random(seed)

    def value(depth: int):
        roll = rnd.random()
        if depth > 4 or roll < 0.45:
            return rnd.choice([1, -2.5, "x" * rnd.randrange(400), "é😀" * rnd.randrange(120), None, True])
        if roll < 0.65:
            return [value(depth + 1) for _ in range(rnd.randrange(6))]
        return {f"k{i}é": value(depth + 1) for i in range(rnd.randrange(6))}

    return json.dumps({"items": [value(1) for _ in range(60)], "tail": value(0)}, ensure_ascii=False,
                      indent=rnd.choice([None, 1]))


@pytest.mark.parametrize("seed", range(6))
def test_the_index_changes_no_result(jsonscan_twins, seed: int) -> None:
    C, P2 = jsonscan_twins
    text = _big_document(seed)
    for t in (text, text.encode()):
        result = C.scan_index(t)
        assert result == P2.scan_index(t)
        index = result[3]
        assert len(index) and all(index[k + 1] - index[k] >= C.INDEX_SPAN for k in range(0, len(index), 2))
        spans = _all_values(P2, t)
        for s, e in spans:
            assert C.value_end(t, s, index) == e
            assert C.summary(t, s, index) == P2.summary(t, s)
            if _opens(t, s):
                assert C.members(t, s, index) == P2.members(t, s)
                for segs in ([0], [-1], ["k1é"], [2, 0], ["k0é", -1]):
                    assert C.lookup(t, s, segs, index) == P2.lookup(t, s, segs)
        flat = array("q", [x for span in spans for x in span])
        assert C.lookup_many(t, flat, [-1], index) == P2.lookup_many(t, flat, [-1])


def test_index_rules(jsonscan_kernel) -> None:
    small = '{"a": [1, 2, 3]}'
    assert jsonscan_kernel.scan_index(small) == (-1, 0, False, array("q"))
    big = json.dumps({"a": ["x" * 200], "b": "y" * 300})
    pos, code, lossy, index = jsonscan_kernel.scan_index(big)
    assert (pos, code) == (-1, 0)
    assert list(index) == [0, len(big), 6, 6 + len(json.dumps(["x" * 200]))]
    assert jsonscan_kernel.scan_index(big[:-1])[1:] == (jsonscan_kernel.E_OBJECT, False, array("q"))
    # more big containers than one a INDEX_SPAN units: the first ones kept, and
    # those open when the count is reached
    deep = "[" * 400 + '"' + "z" * 300 + '"' + "]" * 400
    assert len(deep) // jsonscan_kernel.INDEX_SPAN < 64
    assert list(jsonscan_kernel.scan_index(deep)[3]) == [x for k in range(64) for x in (k, len(deep) - k)]
    rows = "[" + ",".join('[["' + "r" * 200 + '"]]' for _ in range(80)) + "]"
    index = jsonscan_kernel.scan_index(rows)[3]
    most = len(rows) // jsonscan_kernel.INDEX_SPAN
    assert most <= len(index) // 2 <= most + 2  # the first rows, the root, the row open then
    assert index[-1] < len(rows) - 10 * 200 and list(index[:2]) == [0, len(rows)]  # not the last rows
    # only INDEX_DEPTH levels are indexed
    nested = "[" * 70 + '"' + "z" * 20_000 + '"' + "]" * 70
    assert len(jsonscan_kernel.scan_index(nested)[3]) == 2 * jsonscan_kernel.INDEX_DEPTH
    with pytest.raises(TypeError):
        jsonscan_kernel.members(big, 0, [0, 1])


def test_text_must_be_str_or_bytes(jsonscan_kernel) -> None:
    for bad in (bytearray(b"[]"), memoryview(b"[]"), 5, None):
        with pytest.raises(TypeError):
            jsonscan_kernel.scan(bad)


# what may stand in a string's content: the bytes that end or interrupt it, and some that do not
_IN_STRINGS = [b'"', b"\\n", b'\\"', b"\\u00e9", b"\\x", b"\x01", b"\x1f", b" ", b"\x7f", b"\xc3\xa9",
               b"\xe2\x82\xac", b"\xf0\x9f\x98\x80", b"\xff", b"\xc3", b"\xed\xa0\x80"]


def test_every_stop_at_every_offset_of_the_skips(jsonscan_twins) -> None:
    """The skips through string content go 16 and 8 bytes at a time: a byte that ends
    or interrupts a string, at every offset of a run of 0-40 bytes and with 0-20 bytes
    after it, gives the same answers in both builds, the text known to be UTF-8 or not
    (a bad byte in a string after it), and the walks over valid text agree too."""
    C, P2 = jsonscan_twins
    for stop in _IN_STRINGS:
        for before in range(41):
            for after in (0, 1, 7, 8, 9, 15, 16, 17, 20):
                string = b'"' + b"a" * before + stop + b"b" * after + b'"'
                for doc in (string, b"[" + string + b"]", b"[" + string + b', "\xff"]',
                            b'{"k": ' + string + b', "v": [1]}'):
                    found = C.scan(doc)
                    assert found == P2.scan(doc), (doc, found)
                    assert C.scan_index(doc)[:3] == P2.scan_index(doc)[:3]
                    if found[1] == 0:
                        assert _all_values(C, doc) == _all_values(P2, doc), doc
