"""The schema-check kernel (ext/_schemacheck.pyx and its twin _kernels/_schemacheck_py.py): on
generated schemas and values both twins give the verdict of the nodes' generated functions; the
exact JSON types of the usual tool shapes are walked by the kernel itself (no node function
called); anything else (a subclass, a whole float for an integer, a keyword the records do not
carry, a value nested past CHECK_DEPTH) goes to the node's function; a bad plan is refused."""

from __future__ import annotations

import importlib
import re
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st
from test_toolschema_differential import ROOTS, TOOL_SCHEMAS, VALUES

from toolmend import Schema
from toolmend._kernels import _schemacheck_py as pure
from toolmend.recovery._schemagen import anchored_prefix, plan
from toolmend.recovery._schemanodes import _key


def _compiled() -> Any:
    try:
        return importlib.import_module("toolmend._kernels._schemacheck")
    except ImportError:
        return None


@pytest.fixture(params=["pure", "compiled"])
def twin(request: Any) -> Any:
    if request.param == "pure":
        return pure
    mod = _compiled()
    if mod is None:
        pytest.skip("the compiled kernels are not built")
    return mod


# (NaN and Infinity too: no JSON numbers, which both twins hand to the node's function)
ANY = VALUES | st.sampled_from([float("nan"), float("inf"), float("-inf")])


def _reference(schema: Schema, value: Any) -> bool:
    """The root node's generated function, a timeout or a deep value a misfit."""
    try:
        return bool(schema._nodes[0].fn(value))
    except (RecursionError, TimeoutError):
        return False


def _slow(x: Any, coerce: bool, fill: bool) -> Any:
    return ("slow", x, coerce, fill)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(ROOTS | TOOL_SCHEMAS, st.lists(ANY | st.lists(ANY, max_size=3)
                                      | st.dictionaries(st.sampled_from("abc"), ANY), min_size=1, max_size=4))
def test_both_twins_give_the_node_functions_verdict(schema: Any, values: list[Any]) -> None:
    s = Schema(schema)
    records = plan(s._nodes)
    checkers = [pure.make_checker(records, _key, _slow)]
    compiled = _compiled()
    if compiled is not None:
        checkers.append(compiled.make_checker(records, _key, _slow))
    for value in values:
        want = _reference(s, value)
        for c in checkers:
            assert c.is_valid(value) is want, (schema, value)
            got = c.validate(value)
            assert got is value if want else got == ("slow", value, True, False)


def _tracked(records: list[tuple[Any, ...]]) -> tuple[list[tuple[Any, ...]], list[int]]:
    """The records with each node function counting its calls (then deciding as before)."""
    calls: list[int] = []

    def counting(i: int, fn: Any) -> Any:
        def f(x: Any) -> Any:
            calls.append(i)
            return fn(x)
        return f

    return [(r[0], counting(i, r[1]), *r[2:]) for i, r in enumerate(records)], calls


BASH = {"type": "object", "properties": {
    "command": {"type": "string", "minLength": 1},
    "timeout": {"anyOf": [{"type": "integer"}, {"type": "null"}], "default": None},
    "description": {"type": "string", "maxLength": 200},
    "mode": {"enum": ["a", "b", 3]},
    "glob": {"type": "string", "pattern": "^[^/].*"},
    "n": {"type": "number", "minimum": 0, "exclusiveMaximum": 10},
    "tags": {"type": "array", "items": {"type": "string"}, "maxItems": 3},
    "pair": {"type": "array", "prefixItems": [{"type": "integer"}, {"type": "boolean"}]},
    "edits": {"type": "array", "items": {"$ref": "#/$defs/Edit"}, "minItems": 1},
    "both": {"allOf": [{"type": "string"}, {"maxLength": 5}]},
    "env": {"type": "object", "properties": {"HOME": {"const": "/root"}},
            "additionalProperties": {"type": "string", "maxLength": 3}},
    "lit": {"const": [1, {"a": None}], "enum": [[1, {"a": None}], 2]},
}, "required": ["command", "extra"], "additionalProperties": True,
    "$defs": {"Edit": {"type": "object", "properties": {"old": {"type": "string"}},
                       "required": ["old"], "additionalProperties": False}}}
FITS = {"command": "ls", "timeout": None, "description": "d", "mode": 3, "glob": "*.py", "n": 2.5,
        "tags": ["x"], "pair": [1, True, "more"], "edits": [{"old": "a"}, {"old": "b"}],
        "both": "abc", "extra": {"anything": [1]}, "env": {"HOME": "/root", "A": "ab"},
        "lit": [1.0, {"a": None}]}


def test_the_usual_shapes_are_walked_by_the_kernel_alone(twin: Any) -> None:
    s = Schema(BASH)
    records, calls = _tracked(plan(s._nodes))
    c = twin.make_checker(records, _key, _slow)
    assert c.is_valid(FITS) is True and calls == []
    for bad in ({**FITS, "command": ""}, {**FITS, "mode": "c"}, {**FITS, "glob": "/x"},
                {**FITS, "n": 10}, {**FITS, "n": -1}, {**FITS, "tags": ["a", "b", "c", "d"]},
                {**FITS, "edits": []}, {**FITS, "edits": [{"old": "a", "new": "b"}]},
                {**FITS, "both": "abcdef"}, {k: v for k, v in FITS.items() if k != "extra"},
                {**FITS, "env": {"HOME": "/root", "A": "abcd"}}, {**FITS, "env": {"B": "abcdef"}},
                {**FITS, "env": {"HOME": "/home"}}, {**FITS, "lit": 2}, {**FITS, "lit": [1]}):
        assert c.is_valid(bad) is False and _reference(s, bad) is False, bad
    assert calls == []  # a misfit of the right type is told without the node functions


class _Dict(dict):  # type: ignore[type-arg]
    pass


class _Str(str):
    pass


def test_other_types_go_to_the_node_function(twin: Any) -> None:
    s = Schema(BASH)
    records, calls = _tracked(plan(s._nodes))
    c = twin.make_checker(records, _key, _slow)
    for value in (_Dict(FITS), {**FITS, "timeout": 5.0}, {**FITS, "command": _Str("ls")},
                  {**FITS, "timeout": "5"}, {**FITS, "mode": 3.0}, {**FITS, "env": {"A": 1}}, [FITS], None):
        calls.clear()
        assert c.is_valid(value) is _reference(s, value), value
    assert c.is_valid({**FITS, "timeout": 5.0}) is True  # a whole float is an integer
    assert calls


def test_keywords_the_records_do_not_carry_are_the_node_functions(twin: Any) -> None:
    schema = {"type": "object", "properties": {"a": {"uniqueItems": True}, "b": {"multipleOf": 0.5},
                                               "c": {"oneOf": [{"type": "integer"}, {"minimum": 2}]}}}
    s = Schema(schema)
    records, calls = _tracked(plan(s._nodes))
    c = twin.make_checker(records, _key, _slow)
    for value, want in (({"a": [1, 2], "b": 1.5, "c": 1}, True), ({"a": [1, 1.0]}, False),
                        ({"a": [2, True]}, True), ({"b": 0.7}, False), ({"c": 3}, False)):
        assert c.is_valid(value) is want is _reference(s, value), value
    assert calls


def test_a_value_nested_past_the_walk_depth_is_checked_by_the_node_functions(twin: Any) -> None:
    schema = {"$defs": {"n": {"type": "array", "items": {"$ref": "#/$defs/n"}, "maxItems": 1}},
              "$ref": "#/$defs/n"}
    s = Schema(schema)
    records, calls = _tracked(plan(s._nodes))
    c = twin.make_checker(records, _key, _slow)
    for depth in (1, twin.CHECK_DEPTH - 1, twin.CHECK_DEPTH + 5, 300):
        value: Any = []
        for _ in range(depth):
            value = [value]
        assert c.is_valid(value) is True, depth
        inner = value
        for _ in range(depth - 1):
            inner = inner[0]
        inner.append([])  # two items, at the bottom
        assert c.is_valid(value) is False, depth
    assert calls  # past the depth
    value = []
    for _ in range(100_000):  # past Python's stack: a misfit, as the node functions say
        value = [value]
    assert c.is_valid(value) is False
    assert c.validate(value) == ("slow", value, True, False)


def test_validate_returns_the_value_itself_or_asks_the_slow_path(twin: Any) -> None:
    c = twin.make_checker(plan(Schema(BASH)._nodes), _key, _slow)
    assert c.validate(FITS) is FITS
    assert c.validate(FITS, fill_defaults=True) == ("slow", FITS, True, True)
    assert c.validate({}, coerce=False) == ("slow", {}, False, False)
    with pytest.raises(TypeError):
        c.validate(FITS, True)  # the options are keywords


def test_a_pattern_past_its_time_is_a_misfit(twin: Any) -> None:
    def slow_search(s: str, timeout: float) -> Any:
        raise TimeoutError("too long")

    rec = (twin.CHECKS, lambda x: False, -1, twin.KIND_STRING, (), (), False, -1, -1, (), -1, -1,
           -1, -1, -1, (None, 256, slow_search, 0.25, None), None, None, (), -1)
    c = twin.make_checker([rec], _key, _slow)
    assert c.is_valid("abc") is False
    assert c.validate("abc") == ("slow", "abc", True, False)


def test_a_bad_plan_is_refused(twin: Any) -> None:
    ok = (twin.CHECKS, lambda x: True, -1, 127, (), (), False, -1, -1, (), -1, -1, -1, -1, -1,
          None, None, None, (), -1)
    with pytest.raises(ValueError):
        twin.make_checker([], _key, _slow)
    with pytest.raises(ValueError):
        twin.make_checker([(*ok[:2], 5, *ok[3:])], _key, _slow).is_valid(1)
    with pytest.raises(ValueError):
        twin.make_checker([(*ok[:4], (("a", 9, True),), *ok[5:])], _key, _slow).is_valid({"a": 1})


PREFIXED = ["^[^/].*", "^a", "^ab", "^[a-z0-9_-]", "^[A-Z][a-z]", "^.*", "^[^a-c]x", "^/", "^-",
            "^ ", "^[.]", "^[$*]", "^[-a]", "^[a-]", "^#&~"]
UNPREFIXED = ["^a*", "^\\d", "^(a)", "a", "^x$", "^[a-c-e]", "^[]]", "^[^]", "^[[:alpha:]]", "^\u00e9",
              "^a|b", "^a{2}", "^a?", "^a+", "^\\.*", "^[a-c--]", "^[z-a]", "^[a-Z]", "^.", "^a.+"]


def test_only_patterns_that_say_how_a_string_starts_are_prefixes() -> None:
    assert all(anchored_prefix(p) is not None for p in PREFIXED)
    assert [p for p in UNPREFIXED if anchored_prefix(p) is not None] == []
    assert anchored_prefix("^[^/].*") == ((True, "/"),)
    assert anchored_prefix("^.*") == ()


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(PREFIXED), st.text(alphabet="/aAbzZ09_-. $*#&~x\n\u00e9", max_size=4))
def test_a_prefix_pattern_matches_as_the_regex_does(pattern: str, text: str) -> None:
    prefix = anchored_prefix(pattern)
    rec = (pure.CHECKS, lambda x: False, -1, pure.KIND_STRING, (), (), False, -1, -1, (), -1, -1, -1,
           -1, -1, (None, 256, _no_search, 0.25, prefix), None, None, (), -1)
    want = re.search(pattern, text) is not None
    for twin in (pure, _compiled()):
        if twin is not None:
            assert twin.make_checker([rec], _key, _slow).is_valid(text) is want, (pattern, text)
    assert Schema({"pattern": pattern}).is_valid(text) is want


def _no_search(s: str, timeout: float) -> Any:
    raise AssertionError("a prefix pattern runs no regex")


@pytest.mark.parametrize("schema", [{"type": "number"}, {"type": "integer"}, {"minimum": 0},
                                    {"type": "number", "minimum": 0, "maximum": 10},
                                    {"type": ["number", "null"]}, {"multipleOf": 2},
                                    {"anyOf": [{"type": "number"}, {"type": "string"}]}])
@pytest.mark.parametrize("value", [float("nan"), float("inf"), float("-inf")])
def test_nan_and_infinity_are_no_json_numbers(twin: Any, schema: Any, value: float) -> None:
    # (jsonschema passes NaN within any bounds: every comparison with it is false)
    s = Schema(schema)
    c = twin.make_checker(plan(s._nodes), _key, _slow)
    assert c.is_valid(value) is False
    assert c.is_valid(4) is True
    assert s.is_valid(value) is False
    checked = s.check(value)
    assert not checked.ok and [p.keyword for p in checked.problems] == ["type"]
    assert "is not a JSON number" in checked.problems[0].message
