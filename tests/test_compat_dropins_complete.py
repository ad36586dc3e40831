"""The drop-ins complete (issue 19, item 4): partial-json-parser's ``fix``/``fix_fast`` and its
exception classes; json-repair's ``TypeError`` on what is not text, and no ``Infinity``/``NaN``
in its output."""

from __future__ import annotations

import io
import json
import math
from itertools import accumulate

import pytest

from toolmend import RecoveryError
from toolmend.compat import json_repair, partial_json_parser as pjp
from toolmend.compat.partial_json_parser import ALL, ARR, NUM, OBJ, STR, Allow, fix, fix_fast

# ------------------------------------------------------------ partial-json-parser


@pytest.mark.parametrize("text, allow, expected", [
    ("[", ALL, ("[", "]")),
    ("[0.", ALL, ("[0", "]")),
    ('{"key": ', ALL, ("{", "}")),
    ("t", ALL, ("", "true")),                 # a cut literal is written whole, after the kept text
    ("[tr", ALL, ("[", "true]")),
    ("[1", ~NUM, ("[", "]")),
    ("1", ~NUM, ("1", "")),                   # a whole number at the top level
    ('{"a": "xy', ALL, ('{"a": "xy', '"}')),  # a cut string keeps what was written
    ('["\\u00', ALL, ('["', '"]')),           # not half an escape
    ('{"a": [1, {"b": 2', ALL, ('{"a": [1, {"b": 2', "}]}")),
    ('{"a": [1, {"b": 2', ~OBJ & ALL, None),  # the outermost object may not be cut
    ('[{"a": 1}, {"b"', ARR, ('[{"a": 1}', "]")),
    ("  [1, 2", ALL, ("  [1, 2", "]")),       # head is a slice of the text, leading blanks too
    ('{"a": 1}', ALL, ('{"a": 1}', "")),
])
def test_fix_gives_the_kept_slice_and_the_completion(text, allow, expected):
    if expected is None:
        with pytest.raises(pjp.PartialJSON):
            fix(text, allow)
        return
    assert fix(text, allow) == expected
    head, tail = fix(text, allow)
    assert text.startswith(head)
    assert json.loads(head + tail) == pjp.loads(text, allow)


def test_fix_fast_keeps_the_blanks_before_the_comma_as_the_original_does():
    assert fix_fast('["a", "b', ~STR) == ('["a"', "]")
    assert fix_fast('["a","b', ~STR) == ('["a"', "]")
    assert fix_fast('["a" ,"b', ~STR) == ('["a" ', "]")
    assert fix('["a" ,"b', ~STR) == ('["a"', "]")
    assert fix_fast('{"a": 1 , "b": "c', ~STR) == ('{"a": 1 ', "}")


def test_fix_and_fix_fast_agree_on_every_prefix_of_compact_or_spaced_json():
    docs = [json.dumps({"key1": 123, "key2": "value", "k": [1.5, None, True, {"x": "é\\n"}]}),
            json.dumps([1, 2, None, True, False, "string", {"a": [], "b": {}}], indent=1)]
    for doc in docs:
        for prefix in accumulate(doc):
            for allow in range(0, int(ALL) + 1, 7):
                try:
                    slow = fix(prefix, allow)
                except pjp.PartialJSON as exc:
                    with pytest.raises(pjp.PartialJSON, match=f"^{exc}$"):
                        fix_fast(prefix, allow)
                    continue
                fast = fix_fast(prefix, allow)
                assert json.loads("".join(fast)) == json.loads("".join(slow)), (prefix, Allow(allow))
                if ", " in doc and " ," not in doc:
                    assert fast == slow, (prefix, Allow(allow))


def test_fix_refuses_what_is_not_text():
    for bad in (None, 5, b"[1"):
        with pytest.raises(TypeError):
            fix(bad)  # type: ignore[arg-type]
        with pytest.raises(TypeError):
            fix_fast(bad)  # type: ignore[arg-type]


BAD = ["", "   ", "a", "--", "[1 2", '{"a" 1', '{"a":1 "b"', "nul!", "@", "'a'", "]", "}", "[}", "{]",
       "[1,]x", '{"a":}', "[,]", "[1,,2]", "{0", "x[", "-x", "[01", "[1.2.3", "[1]]", '{"a":1}}']


def _kind(exc: BaseException, module) -> str:  # type: ignore[no-untyped-def]
    if isinstance(exc, module.PartialJSON):
        return "PartialJSON"
    if isinstance(exc, module.MalformedJSON):
        return "MalformedJSON"
    return type(exc).__name__


@pytest.mark.parametrize("text", BAD)
def test_bad_input_raises_the_original_exception_classes(text):
    """Where partial-json-parser raises PartialJSON or MalformedJSON, the drop-in raises the
    same class; where it raises something else (json's JSONDecodeError, or an IndexError or
    AssertionError of its own), the drop-in raises a ValueError: one of those two, or json's."""
    theirs = pytest.importorskip("partial_json_parser")
    try:
        theirs.loads(text)
        expected = None
    except Exception as exc:  # noqa: BLE001 - whatever the original raises is the reference
        expected = _kind(exc, theirs)
    with pytest.raises(ValueError) as caught:
        pjp.loads(text)
    assert isinstance(caught.value, (pjp.JSONDecodeError, json.JSONDecodeError))
    if expected in ("PartialJSON", "MalformedJSON"):
        assert _kind(caught.value, pjp) == expected
    else:
        assert expected is not None, "the original gives a value here"


def test_the_exception_classes_are_the_originals_shape():
    assert issubclass(pjp.PartialJSON, pjp.JSONDecodeError)
    assert issubclass(pjp.MalformedJSON, pjp.JSONDecodeError)
    assert issubclass(pjp.JSONDecodeError, ValueError)
    with pytest.raises(pjp.MalformedJSON):
        pjp.loads("--")
    with pytest.raises(pjp.PartialJSON):
        pjp.loads("-")


# ------------------------------------------------------------------- json-repair

@pytest.mark.parametrize("bad", [None, {"already": "dict"}, [1, 2, 3], 123, 1.5, object()])
def test_json_repair_raises_type_error_on_what_is_not_text(bad):
    for call in (json_repair.repair_json, json_repair.loads):
        with pytest.raises(TypeError):
            call(bad)
    with pytest.raises(TypeError):
        json_repair.repair_json(bad, return_objects=True, logging=True)


def test_json_repair_still_takes_bytes_and_files():
    assert json_repair.loads(b'{"a": 1}') == {"a": 1}
    assert json_repair.loads(bytearray(b"[1,]")) == [1]
    assert json_repair.load(io.StringIO("[1e999]")) == [None]


@pytest.mark.parametrize("text, value", [
    ('{"val": 1e999}', {"val": None}),
    ('{"val": -1e999}', {"val": None}),
    ("1e999", None),
    ("[1E+400, 2, [3, -1e400]]", [None, 2, [3, None]]),
    ("{val: 1e999, n: NaN, i: -Infinity}", {"val": None, "n": None, "i": None}),
    ('{"val": 0.0, "w": 1.23e-10, "tiny": 1e-999}', {"val": 0.0, "w": 1.23e-10, "tiny": 0.0}),
])
def test_json_repair_output_never_holds_infinity_or_nan(text, value):
    out = json_repair.repair_json(text)
    assert "Infinity" not in out and "NaN" not in out
    assert json.loads(out, parse_constant=lambda name: pytest.fail(f"{name} in {out!r}")) == value
    got = json_repair.loads(text)
    assert got == value
    floats = [got] if isinstance(got, float) else []
    todo = [got]
    while todo:
        x = todo.pop()
        items = x.values() if isinstance(x, dict) else x if isinstance(x, list) else []
        for item in items:
            todo.append(item)
            if isinstance(item, float):
                floats.append(item)
    assert all(math.isfinite(f) for f in floats)


def test_a_number_too_large_is_logged_and_refused_in_strict_mode():
    value, log = json_repair.repair_json('{"a": 1e999}', logging=True)
    assert value == {"a": None}
    assert any(entry["context"].startswith("nan") for entry in log)
    with pytest.raises(RecoveryError, match="too large"):
        json_repair.loads('{"a": 1e999}', strict=True)
    value, log = json_repair.repair_json('{"a": 1}', logging=True)
    assert log == []
