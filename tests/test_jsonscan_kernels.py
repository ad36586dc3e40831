"""The JSON scanner kernel: the compiled module and its pure twin agree, and
both agree with the stdlib json parser about what is valid JSON."""

from __future__ import annotations

import json
from array import array

import orjson
import pytest
from hypothesis import HealthCheck, assume, given, settings, strategies as st

# The pure twin is the reference the other build is held to (and names the
# error codes, the same in both).
from toolmend._kernels import _jsonscan_py as P

# Every test here takes the builds themselves (never the package's choice of one), so a
# run in the pure mode beside one in the compiled mode may leave them to that one
# (--builds-tested-elsewhere, tests/conftest.py).
pytestmark = pytest.mark.builds_side_by_side

# -- strategies --------------------------------------------------------------

WS = st.sampled_from(["", "", " ", "\n", "\t", "\r\n  ", "  \n    "])
NUMBER_TOKENS = st.one_of(
    st.integers(min_value=-(10 ** 30), max_value=10 ** 30).map(str),
    st.floats(allow_nan=False, allow_infinity=False).map(repr),
    st.sampled_from(["1.10", "1E5", "-0", "1e400", "-0.0", "0.5", "2.50", "1e-07",
                     "123456789012345678901234567890", "18446744073709551615",
                     "18446744073709551616", "-9223372036854775808", "-9223372036854775809",
                     "9223372036854775807", "0", "-1", "1E+2", "1e-2"]),
)
ALPHABET = st.characters(blacklist_categories=("Cs",)) | st.sampled_from(
    ["\"", "\\", "/", "\n", "\t", "\x00", "é", "€", "😀", "\u2028", "\ud800"])
STRINGS = st.builds(
    lambda s, ascii_only: json.dumps(s, ensure_ascii=ascii_only),
    st.text(ALPHABET, max_size=12), st.booleans())
SCALARS = st.one_of(NUMBER_TOKENS, STRINGS, st.sampled_from(["true", "false", "null"]))


def _array(children: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    return st.lists(st.tuples(WS, children, WS), max_size=5).map(
        lambda items: "[" + ",".join(a + v + b for a, v, b in items) + "]")


def _object(children: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    return st.lists(st.tuples(WS, STRINGS, WS, WS, children, WS), max_size=5).map(
        lambda items: "{" + ",".join(f"{a}{k}{b}:{c}{v}{d}" for a, k, b, c, v, d in items) + "}")


VALUES = st.recursive(SCALARS, lambda ch: _array(ch) | _object(ch), max_leaves=25)
DOCS = st.tuples(WS, VALUES, WS).map("".join)
JUNK = st.sampled_from(list("{}[],:\"\\'tfn-+.eE0123456789 \n\x01/*xé😀") + ["//", "NaN", "true"])


@st.composite
def mutated(draw: st.DrawFn) -> str:
    text = draw(DOCS)
    for _ in range(draw(st.integers(1, 3))):
        op = draw(st.sampled_from(["insert", "delete", "truncate", "replace"]))
        pos = draw(st.integers(0, len(text)))
        if op == "insert":
            text = text[:pos] + draw(JUNK) + text[pos:]
        elif op == "delete" and text:
            text = text[:pos] + text[pos + 1:]
        elif op == "truncate":
            text = text[:pos]
        elif text:
            text = text[:pos] + draw(JUNK) + text[pos + 1:]
    return text


def _stdlib_valid(text: str) -> bool:
    def refuse(name: str) -> None:
        raise ValueError(name)
    try:
        json.loads(text, parse_constant=refuse, parse_int=str, parse_float=str)
    except (ValueError, RecursionError):
        return False
    return True


def _all_values(k, text: str | bytes, index: array | None = None) -> list[tuple[int, int]]:
    """Spans of every value in a valid text (root first)."""
    start = k.skip_space(text, 0)
    spans = [(start, k.value_end(text, start, index))]
    todo = [start]
    while todo:
        pos = todo.pop()
        if text[pos:pos + 1] in ("{", "[", b"{", b"["):
            _, sp = k.members(text, pos, index)
            for i in range(0, len(sp), 2):
                spans.append((sp[i], sp[i + 1]))
                todo.append(sp[i])
    return spans


# -- scan ----------------------------------------------------------------------

SETTINGS = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(DOCS)
def test_valid_documents_scan_valid_in_both(jsonscan_kernel, text: str) -> None:
    pos, code, _ = jsonscan_kernel.scan(text)
    assert (pos, code) == (-1, 0), text
    assert _stdlib_valid(text)


@SETTINGS
@given(st.one_of(mutated(), st.text(max_size=30)))
def test_twins_agree_on_any_text_and_stdlib_agrees_on_validity(jsonscan_kernel, text: str) -> None:
    result = jsonscan_kernel.scan(text)
    assert result == P.scan(text), text
    pos, code, _ = result
    assert (code == 0) == _stdlib_valid(text), (text, pos, code)
    if code:
        assert 0 <= pos <= len(text)


@SETTINGS
@given(DOCS)
def test_not_lossy_means_orjson_is_exact(jsonscan_kernel, text: str) -> None:
    _, _, lossy = jsonscan_kernel.scan(text)
    assert P.scan(text)[2] == lossy
    exact = json.loads(text, parse_float=lambda t: ("float", t), parse_int=lambda t: ("int", t))
    if lossy:
        return
    try:
        fast = orjson.loads(text)
    except orjson.JSONDecodeError:  # escaped lone surrogates: orjson refuses them
        assume(False)

    def same(a, b) -> bool:
        if isinstance(b, tuple):
            return b[0] == "int" and type(a) is int and str(a) == b[1]
        if isinstance(b, list):
            return isinstance(a, list) and len(a) == len(b) and all(map(same, a, b))
        if isinstance(b, dict):
            return isinstance(a, dict) and a.keys() == b.keys() and all(same(a[x], b[x]) for x in b)
        return a == b and type(a) is type(b)

    assert same(fast, exact)


@pytest.mark.parametrize("token, lossy", [
    ("0", False), ("-1", False), ("-0", True), ("1.0", True), ("1e5", True), ("1E5", True),
    ("18446744073709551615", False), ("18446744073709551616", True),
    ("-9223372036854775808", False), ("-9223372036854775809", True),
    ("99999999999999999999", True), ("9999999999999999999", False),
    ("123456789012345678901234567890", True), ("-0.0", True),
])
def test_lossy_numbers(jsonscan_kernel, token: str, lossy: bool) -> None:
    assert jsonscan_kernel.scan(f"[{token}]") == (-1, 0, lossy)


E = P
@pytest.mark.parametrize("text, pos, code", [
    ("", 0, E.E_VALUE),
    ("   ", 3, E.E_VALUE),
    ('{"a": 1,}', 8, E.E_KEY),
    ("[1, 2,]", 6, E.E_VALUE),
    ("{'a': 1}", 1, E.E_KEY),
    ("{a: 1}", 1, E.E_KEY),
    ('{"a" 1}', 5, E.E_COLON),
    ('{"a": 1 "b": 2}', 8, E.E_OBJECT),
    ("[1 2]", 3, E.E_ARRAY),
    ("[1}", 2, E.E_ARRAY),
    ('"abc', 0, E.E_STRING),
    ('["ab\ncd"]', 4, E.E_CONTROL),
    ('"a\\x"', 2, E.E_ESCAPE),
    ('"a\\u12"', 2, E.E_ESCAPE),
    ('"a\\', 0, E.E_STRING),
    ("01", 1, E.E_NUMBER),
    ("-", 1, E.E_NUMBER),
    ("1.", 2, E.E_NUMBER),
    ("1.e5", 2, E.E_NUMBER),
    ("1e", 2, E.E_NUMBER),
    ("1e+", 3, E.E_NUMBER),
    ("-Infinity", 1, E.E_NUMBER),
    ("NaN", 0, E.E_VALUE),
    ("tru", 0, E.E_VALUE),
    ("True", 0, E.E_VALUE),
    ("{} {}", 3, E.E_TRAILING),
    ("[1] x", 4, E.E_TRAILING),
    ('{"a": [1, {"b": }]}', 16, E.E_VALUE),
    ("\ufeff[]", 0, E.E_VALUE),
    ("[1.5.2]", 4, E.E_ARRAY),
    ("[", 1, E.E_VALUE),
    ('{"a":', 5, E.E_VALUE),
    ('{"a"', 4, E.E_COLON),
    ("{", 1, E.E_KEY),
    ("[1,", 3, E.E_VALUE),
    ("[1", 2, E.E_ARRAY),
])
def test_error_codes_and_positions(jsonscan_kernel, text: str, pos: int, code: int) -> None:
    assert jsonscan_kernel.scan(text)[:2] == (pos, code)


def test_scan_a_sub_span(jsonscan_kernel) -> None:
    text = 'xx[1, 2.5]yy'
    assert jsonscan_kernel.scan(text, 2, 10) == (-1, 0, True)
    assert jsonscan_kernel.scan(text, 2, 6) == (6, jsonscan_kernel.E_VALUE, False)
    assert jsonscan_kernel.scan(text, 0, 10) == (0, jsonscan_kernel.E_VALUE, False)


def test_deep_nesting_is_fine(jsonscan_kernel) -> None:
    depth = 200_000
    text = "[" * depth + "1" + "]" * depth
    assert jsonscan_kernel.scan(text) == (-1, 0, False)
    assert jsonscan_kernel.value_end(text, 0) == len(text)
    assert jsonscan_kernel.scan("[" * depth)[1] == jsonscan_kernel.E_VALUE
    assert jsonscan_kernel.lookup(text, 0, (0,) * 1000)[2] == -1
    assert jsonscan_kernel.reformat(text, 0, len(text), 2, 1000)[1] is False


def test_kinds_of_storage(jsonscan_kernel) -> None:
    for extra in ("", "é", "€", "😀"):
        text = '{"k%s": [1, "x%s"], "n": 2}' % (extra, extra)
        assert jsonscan_kernel.scan(text) == (-1, 0, False)
        keys, spans = jsonscan_kernel.members(text, 0)
        assert keys == ["k" + extra, "n"]
        assert text[spans[0]:spans[1]] == '[1, "x%s"]' % extra
        assert jsonscan_kernel.summary(text, text.index('"x')) == ("string", 1 + len(extra))


# -- walking -------------------------------------------------------------------

@SETTINGS
@given(DOCS, st.data())
def test_twins_agree_on_walking(jsonscan_twins, text: str, data: st.DataObject) -> None:
    C, P = jsonscan_twins
    spans = _all_values(P, text)
    assert spans == _all_values(C, text)
    for s, e in spans:
        assert P.summary(text, s) == C.summary(text, s)
        assert P.value_end(text, s) == C.value_end(text, s) == e
        for indent in (0, 2):
            budget = data.draw(st.sampled_from([-1, 0, 1, 5, 17, 64]))
            assert P.reformat(text, s, e, indent, budget) == C.reformat(text, s, e, indent, budget)
    s, e = spans[0]
    segs = data.draw(st.lists(st.one_of(st.integers(-3, 3), st.sampled_from(["", "a", "0", "-1", "é"]),
                                        STRINGS.map(json.loads)), max_size=3))
    assert P.lookup(text, s, segs) == C.lookup(text, s, segs)
    flat = array("q", [x for span in spans for x in span])
    assert P.lookup_many(text, flat, segs) == C.lookup_many(text, flat, segs)


# Documents whose containers often pass INDEX_SPAN characters: the walkers then
# look their ends up in the index of scan_index instead of reading them again.
BIG_VALUES = st.recursive(
    st.one_of(st.none(), st.integers(), st.text(max_size=40)),
    lambda ch: st.lists(ch, max_size=6) | st.dictionaries(st.text(max_size=12), ch, max_size=6),
    max_leaves=40)


@SETTINGS
@given(BIG_VALUES, st.sampled_from([None, 0, 2]), st.booleans(), st.data())
def test_every_walk_gives_the_same_spans_with_the_index(jsonscan_kernel, value, indent: int | None,
                                                        as_bytes: bool, data: st.DataObject) -> None:
    text = json.dumps([value, value], indent=indent, ensure_ascii=False)
    doc = text.encode() if as_bytes else text
    k = jsonscan_kernel
    index = k.scan_index(doc)[3]
    spans = _all_values(k, doc)
    assert _all_values(k, doc, index) == spans
    for s, e in spans:
        assert k.value_end(doc, s, index) == e
        assert k.summary(doc, s, index) == k.summary(doc, s)
    segs = data.draw(st.lists(st.one_of(st.integers(-3, 3), st.text(max_size=12)), max_size=3))
    for s, _ in spans[::7]:
        assert k.lookup(doc, s, segs, index) == k.lookup(doc, s, segs)
    # in document order, and backwards (the index is looked up from where the last lookup ended)
    for order in (spans, spans[::-1]):
        flat = array("q", [x for span in order for x in span])
        assert k.lookup_many(doc, flat, segs, index) == k.lookup_many(doc, flat, segs)


@SETTINGS
@given(st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(), st.text(max_size=8),
              st.floats(allow_nan=False, allow_infinity=False)),
    lambda ch: st.lists(ch, max_size=4) | st.dictionaries(st.text(max_size=5), ch, max_size=4),
    max_leaves=20))
def test_reformat_matches_json_dumps(jsonscan_kernel, value) -> None:
    text = json.dumps(value, separators=(" ,", ": "), ensure_ascii=False)
    indented = json.dumps(value, indent=2, ensure_ascii=False)
    assert jsonscan_kernel.reformat(text, 0, len(text), 2)[0] == indented
    assert jsonscan_kernel.reformat(text, 0, len(text), 0)[0] == json.dumps(value, separators=(",", ":"),
                                                                ensure_ascii=False)


def test_reformat_budget_cuts_on_a_character_boundary(jsonscan_kernel) -> None:
    text = json.dumps({"a": "😀é" * 50}, ensure_ascii=False)
    full, complete = jsonscan_kernel.reformat(text, 0, len(text), 2)
    assert complete
    for budget in range(0, 40):
        part, complete = jsonscan_kernel.reformat(text, 0, len(text), 2, budget)
        assert not complete
        assert len(part.encode()) <= budget
        assert full.startswith(part)
        nxt = full[len(part)]
        assert len(part.encode()) + len(nxt.encode()) > budget


def test_members_and_lookup_details(jsonscan_kernel) -> None:
    text = '{"a": {"b": [10, 20, 30]}, "esc\\u0041": 1, "d": 1, "d": 2, "e": []}'
    keys, spans = jsonscan_kernel.members(text, 0)
    assert keys == ["a", "escA", "d", "d", "e"]
    assert len(spans) == 10
    assert jsonscan_kernel.lookup(text, 0, ["a", "b", -1])[2] == -1
    s, e, _, repeated = jsonscan_kernel.lookup(text, 0, ["a", "b", -1])
    assert text[s:e] == "30" and repeated == -1
    assert text.__getitem__(slice(*jsonscan_kernel.lookup(text, 0, ["a", "b", "1"])[:2])) == "20"
    assert text.__getitem__(slice(*jsonscan_kernel.lookup(text, 0, ["escA"])[:2])) == "1"
    assert text.__getitem__(slice(*jsonscan_kernel.lookup(text, 0, ["d"])[:2])) == "2"  # the last one wins
    assert jsonscan_kernel.lookup(text, 0, ["d"])[3] == 0  # ... and the lookup says the key was given twice
    nested = '{"x": {"y": 1, "y": {"z": 2, "z": 3}}, "x": {"y": {"z": 4, "z": 5}}}'
    assert jsonscan_kernel.lookup(nested, 0, ["x", "y", "z"])[2:] == (-1, 0)  # the first repeat said
    assert jsonscan_kernel.lookup(nested, 0, ["x", "y", "w"])[2:] == (2, 0)   # (a later segment failing)
    assert jsonscan_kernel.lookup('{"x": {"y": 1, "y": 2}}', 0, ["x", "y"])[3] == 1
    assert jsonscan_kernel.lookup(text, 0, ["a", "b", 3])[2] == 2
    assert jsonscan_kernel.lookup(text, 0, ["a", "b", -4])[2] == 2
    assert jsonscan_kernel.lookup(text, 0, ["a", "x"])[2] == 1
    assert jsonscan_kernel.lookup(text, 0, ["a", "b", 0, "z"])[2] == 3
    assert jsonscan_kernel.lookup(text, 0, [0])[2] == 0
    assert jsonscan_kernel.lookup(text, 0, ["e", 0])[2] == 1
    assert jsonscan_kernel.lookup(text, 0, ["e", -1])[2] == 1
    with pytest.raises(TypeError):
        jsonscan_kernel.lookup(text, 0, [1.5])
    with pytest.raises(ValueError):
        jsonscan_kernel.lookup(text, 0, [10 ** 20])
    with pytest.raises(ValueError):
        jsonscan_kernel.members(text, 1)
    assert jsonscan_kernel.summary(text, 0) == ("object", 5)
    assert jsonscan_kernel.summary(text, text.index("[")) == ("array", 3)
    assert jsonscan_kernel.summary('"\\ud83d\\ude00x\\n"', 0) == ("string", 3)
    assert jsonscan_kernel.summary('"\\ud83dx"', 0) == ("string", 2)


@pytest.mark.parametrize("text, expected", [
    ("[1.0000000000000002e", (20, P.E_NUMBER, False)),  # the failing number does not count
    ("[1.5, 2.", (8, P.E_NUMBER, True)),
    ("[-0", (3, P.E_ARRAY, True)),
])
def test_lossy_counts_only_complete_numbers(jsonscan_kernel, text: str, expected) -> None:
    assert jsonscan_kernel.scan(text) == expected


def test_offsets_that_are_not_values_are_refused(jsonscan_kernel) -> None:
    text = '["[x", 1]'
    with pytest.raises(ValueError):
        jsonscan_kernel.value_end(text, 5)
    with pytest.raises(ValueError):
        jsonscan_kernel.lookup_many(text, array("q", [99, 100]), [0])
    with pytest.raises(ValueError):
        jsonscan_kernel.lookup(text, len(text), [0])


# ---------------------------------------------------------------------------
# load_exact: the kernels' one exact-number reader (json.loads and load_span
# read through it); every number token reaches a hook as written

def _hooked(kernel, text, depth=1024):
    tokens = []

    def on_int(t):
        tokens.append(("int", t))
        return ("i", t)

    def on_float(t):
        tokens.append(("float", t))
        return ("f", t)

    return kernel.load_exact(text, on_int, on_float, depth), tokens


EXACT_CASES = [
    "0", "-0", "1.10", "1E5", "-2.5e-3", "1e400", "123456789012345678901234567890",
    '"a\\u00e9\\ud800\\n"', "true", "false", "null", "[]", "{}", " [ ] ", '{"a": {}}',
    '[1, [2, [3, []]], {"k": [{}]}]', '{"k": 1, "k": 2, "j": -0}',
    '  {\n "a" : [ 1.50 , -0 , "x" ] ,\t"b":{"c":null}}  ', '["\\"", "\\\\", "{", "]"]',
    '{"\\u0041": "key escaped", "": ""}', "[" * 50 + "7" + "]" * 50,
]


@pytest.mark.parametrize("text", EXACT_CASES)
def test_load_exact_agrees_with_the_stdlib_hooks(jsonscan_kernel, text):
    got, tokens = _hooked(jsonscan_kernel, text)
    seen = []
    expected = json.loads(text, parse_int=lambda t: (seen.append(("int", t)), ("i", t))[1],
                          parse_float=lambda t: (seen.append(("float", t)), ("f", t))[1])
    assert repr(got) == repr(expected)
    assert tokens == seen


@pytest.mark.parametrize("opener", ["[", '{"k": '])
def test_load_exact_refuses_past_its_depth_in_both(jsonscan_twins, opener):
    closer = "]" if opener == "[" else "}"
    for inner in ("1", "[]", "{}"):
        for depth in (1, 3, 1024, 1500):
            ok = opener * depth + inner + closer * depth
            extra = 0 if inner == "1" else 1  # an empty container is a level too
            for k in jsonscan_twins:
                value, _ = _hooked(k, ok, depth + extra)
                for _ in range(depth):
                    value = value[0] if opener == "[" else value["k"]
                assert repr(value) in ("('i', '1')", "[]", "{}")
                with pytest.raises(RecursionError):
                    k.load_exact(ok, int, float, depth + extra - 1)


def test_load_exact_goes_past_the_interpreters_recursion(jsonscan_twins):
    depth = 100_000
    text = "[" * depth + "-0" + "]" * depth
    for k in jsonscan_twins:
        with pytest.raises(RecursionError):
            k.load_exact(text, int, float, depth - 1)
        value = k.load_exact(text, str, float, depth)
        for _ in range(depth):
            value = value[0]
        assert value == "-0"
