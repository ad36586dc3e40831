"""toolmend.compat.partial_json_parser against partial-json-parser itself, on every prefix."""

from __future__ import annotations

import json
import random

import pytest

import toolmend
from toolmend.compat import partial_json_parser as ours

theirs = pytest.importorskip("partial_json_parser")


def _documents() -> list[str]:
    rng = random.Random(11)

    def gen(depth: int = 0):  # type: ignore[no-untyped-def]
        r = rng.random()
        if depth > 3 or r < 0.4:
            return rng.choice([0, -1, 12.5, 1e-7, -2.5e30, 123456789012345678901234567890, True, False, None,
                               "", "a b", "\u00e9\n\"\\/", "\U0001F600", "  sp  ", float("nan"),
                               float("-inf"), float("inf"), "tab\there"])
        if r < 0.7:
            return [gen(depth + 1) for _ in range(rng.randint(0, 4))]
        return {rng.choice(["a", "bb", "c d", "\u00e9", '"q', "cmd", "args"]): gen(depth + 1)
                for _ in range(rng.randint(0, 4))}

    docs = [json.dumps(gen(), indent=rng.choice([None, 2]), ensure_ascii=rng.random() < 0.5)
            for _ in range(40)]
    docs += ['{"cmd": "apply", "args": {"file": "main.go", "patch": "@@ -3 +3 @@\\n-\\t\\"fmt\\"\\n", '
             '"dry_run": true}}', "[1e+5, -0, 0.5E-3, {}, [], [[]], {\"\": null}]", '"\\ud83d\\ude00"',
             "-12.75", "true", "null", "NaN", "-Infinity"]
    return docs


FLAGS = [theirs.Allow.ALL, theirs.Allow(0), theirs.Allow.STR, theirs.Allow.OBJ, theirs.Allow.ARR,
         theirs.Allow.COLLECTION, theirs.Allow.ATOM, theirs.Allow.OBJ | theirs.Allow.STR,
         theirs.Allow.ARR | theirs.Allow.NUM, theirs.Allow.COLLECTION | theirs.Allow.SPECIAL,
         theirs.Allow.ARR | theirs.Allow._INFINITY | theirs.Allow.NAN]


def _run(fn, text, allow):  # type: ignore[no-untyped-def]
    try:
        return "value", repr(fn(text, allow))
    except (theirs.PartialJSON, ours.PartialJSON):
        return "partial", None
    except Exception as exc:  # noqa: BLE001 - any other refusal
        return "error", type(exc).__name__


@pytest.mark.parametrize("doc", _documents())
def test_same_value_on_every_prefix(doc):
    for n in range(len(doc) + 1):
        prefix = doc[:n]
        for flag in FLAGS:
            want = _run(theirs.loads, prefix, flag)
            got = _run(ours.loads, prefix, ours.Allow(int(flag)))
            if want[0] == "value" or got[0] == "value" or want[0] == "partial":
                assert got == want, (prefix, flag)


def test_the_api_and_its_flags():
    assert ours.loads is ours.decode is ours.parse_json
    for name in ("STR", "NUM", "ARR", "OBJ", "NULL", "BOOL", "NAN", "INFINITY", "_INFINITY", "INF",
                 "SPECIAL", "ATOM", "COLLECTION", "ALL"):
        assert int(getattr(ours.Allow, name)) == int(getattr(theirs.Allow, name)), name
        assert getattr(ours, name) == getattr(ours.Allow, name)
    assert ours.ensure_json('{"a": [1, "x', ours.ALL) == '{"a": [1, "x"]}'
    assert ours.loads('{"n": 1.50', parser=lambda s: s) == '{"n": 1.50}'


def test_refusals_are_toolmend_errors_with_a_position():
    with pytest.raises(ours.PartialJSON) as info:
        ours.loads('{"a": 1', ours.Allow.STR)
    assert isinstance(info.value, toolmend.PartialJSONError) and info.value.pos == 0
    with pytest.raises(ours.MalformedJSON):
        ours.loads("   ")
    with pytest.raises(ours.MalformedJSON) as bad:
        ours.loads('{"a": @')
    assert bad.value.pos == 6 and isinstance(bad.value, toolmend.ToolmendError)
    with pytest.raises(TypeError):
        ours.loads(None)  # type: ignore[arg-type]


def test_deep_nesting_is_refused_not_a_recursion_error():
    import orjson

    deep = toolmend.recovery.MAX_DEPTH
    # within the bound, with a parser that reads it
    assert ours.loads("[" * deep, parser=orjson.loads) is not None
    for text in ("[" * (deep + 1), '{"a": [' * 600, "[" * 1_000_000 + "]" * 1_000_000):
        with pytest.raises(ours.MalformedJSON) as info:
            ours.loads(text)
        assert f"nesting deeper than {deep} levels" in str(info.value)
        assert text[info.value.pos] in "{[" and info.value.pos < 5 * deep
    # json.loads (the default parser) recurses and stops short of the bound
    with pytest.raises(ours.MalformedJSON, match="nesting deeper than the parser reads"):
        ours.loads("[" * (deep - 1) + "]" * (deep - 1))


def test_leading_whitespace_is_not_part_of_the_value():
    # partial-json-parser drops characters of a top-level string after leading spaces; we do not
    assert ours.loads('  "abc') == "abc"
    assert ours.loads("   12") == 12
