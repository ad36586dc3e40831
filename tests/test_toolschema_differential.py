"""Differential test of the schema checker against ``jsonschema`` (Draft 2020-12):
on generated schemas and values, over every keyword toolmend checks, the
verdict of the generated code and of the interpreter equals jsonschema's; and
whatever the coercions make of a value, when they say ok, jsonschema accepts."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from toolmend import Schema

jsonschema = pytest.importorskip("jsonschema")

TYPES = ["null", "boolean", "object", "array", "number", "integer", "string"]
NAMES = st.sampled_from(["a", "b", "c", "A", "b_c", "B-C"])
NUMBERS = (st.integers(-4, 4) | st.sampled_from([0.5, 1.0, 2.0, -0.0, 2.5, 10**20, 1e20, 2**70])
           | st.floats(-4, 4, allow_nan=False, allow_infinity=False))
STRINGS = st.text(alphabet="ab1 _\u00e9\U0001F600", max_size=4) | st.sampled_from(
    ["5", "true", "false", "null", "1.5", "[1]", '{"a": 1}', "x"])

VALUES = st.recursive(
    st.none() | st.booleans() | NUMBERS | STRINGS,
    lambda child: st.lists(child, max_size=3) | st.dictionaries(NAMES, child, max_size=3),
    max_leaves=8,
)
BOUND = st.integers(-3, 3) | st.sampled_from([0.5, -1.5, 2.0])
COUNT = st.integers(0, 3)
PATTERN = st.sampled_from(["^a", "b", "^[ab]*$", "1", "^$", "\\d"])
TYPE = st.sampled_from(TYPES) | st.lists(st.sampled_from(TYPES), min_size=1, max_size=3, unique=True)


def keywords(child: Any) -> dict[str, Any]:
    return {
        "type": TYPE,
        "enum": st.lists(VALUES, min_size=1, max_size=3),
        "const": VALUES,
        "minimum": BOUND, "maximum": BOUND, "exclusiveMinimum": BOUND, "exclusiveMaximum": BOUND,
        "multipleOf": st.sampled_from([1, 2, 3, 0.5, 1.5]),
        "minLength": COUNT, "maxLength": COUNT, "pattern": PATTERN,
        "minItems": COUNT, "maxItems": COUNT, "uniqueItems": st.booleans(),
        "minProperties": COUNT, "maxProperties": COUNT,
        "required": st.lists(NAMES, max_size=3, unique=True),
        "dependentRequired": st.dictionaries(NAMES, st.lists(NAMES, max_size=2, unique=True),
                                             max_size=2),
        "format": st.sampled_from(["email", "date-time"]),
        "default": VALUES,
        **({} if child is None else {
            "properties": st.dictionaries(NAMES, child, max_size=3),
            "additionalProperties": child,
            "patternProperties": st.dictionaries(st.sampled_from(["^a", "c$", "_"]), child,
                                                 max_size=2),
            "propertyNames": child,
            "items": child,
            "prefixItems": st.lists(child, min_size=1, max_size=2),
            "anyOf": st.lists(child, min_size=1, max_size=3),
            "oneOf": st.lists(child, min_size=1, max_size=3),
            "allOf": st.lists(child, min_size=1, max_size=2),
            "not": child,
        }),
    }


def few(options: dict[str, Any]) -> Any:
    """A schema with a few of these keywords (a dict of them all would rarely fit anything)."""
    names = sorted(options)
    return st.lists(st.sampled_from(names), max_size=3, unique=True).flatmap(
        lambda chosen: st.fixed_dictionaries({k: options[k] for k in chosen}))


LEAF = st.booleans() | few(keywords(None))
SCHEMAS = st.recursive(LEAF, lambda child: few(keywords(child | st.just({"$ref": "#/$defs/d"}))),
                       max_leaves=6)
ROOTS = st.tuples(SCHEMAS, LEAF).map(
    lambda pair: {**pair[0], "$defs": {"d": pair[1]}} if isinstance(pair[0], dict) else pair[0])


def reference(schema: Any) -> Any:
    return jsonschema.Draft202012Validator(schema)


@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(ROOTS, st.lists(VALUES, min_size=1, max_size=4))
def test_verdict_equals_jsonschema(schema: Any, values: list[Any]) -> None:
    ref = reference(schema)
    ours = Schema(schema)
    for value in values:
        want = ref.is_valid(value)
        assert ours.is_valid(value) is want, (schema, value)
        plain = ours.check(value, coerce=False)
        assert plain.ok is want, (schema, value, plain.problems)
        assert plain.value is value
        if not want:
            assert plain.problems
        coerced = ours.check(value)
        if coerced.ok:
            assert ref.is_valid(coerced.value), (schema, value, coerced.value)
            if want:
                assert coerced.value is value and coerced.fixes == []
        else:
            assert coerced.problems and not want


@settings(max_examples=300, deadline=None)
@given(ROOTS, VALUES)
def test_filled_defaults_never_break_a_fit(schema: Any, value: Any) -> None:
    ours = Schema(schema)
    r = ours.check(value, fill_defaults=True)
    if r.ok:
        assert reference(schema).is_valid(r.value), (schema, value, r.value)
    else:
        assert r.problems


@settings(max_examples=300, deadline=None)
@given(ROOTS, VALUES)
def test_the_input_is_never_mutated(schema: Any, value: Any) -> None:
    import copy

    before = copy.deepcopy(value)
    Schema(schema).check(value, fill_defaults=True)
    Schema(schema).check(value)
    assert value == before


TOOL_SCHEMAS = st.fixed_dictionaries(
    {"type": st.just("object"), "properties": st.dictionaries(NAMES, SCHEMAS, min_size=1, max_size=4),
     "$defs": st.fixed_dictionaries({"d": LEAF})},
    optional={"required": st.lists(NAMES, max_size=3, unique=True),
              "additionalProperties": st.booleans() | LEAF})
ARGUMENTS = st.dictionaries(NAMES, VALUES, max_size=4)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(TOOL_SCHEMAS, st.lists(ARGUMENTS, min_size=1, max_size=4))
def test_tool_shaped_verdict_equals_jsonschema(schema: Any, values: list[Any]) -> None:
    ref = reference(schema)
    ours = Schema(schema)
    for value in values:
        want = ref.is_valid(value)
        assert ours.is_valid(value) is want, (schema, value)
        assert ours.check(value, coerce=False).ok is want, (schema, value)
        coerced = ours.check(value)
        if coerced.ok:
            assert ref.is_valid(coerced.value), (schema, value, coerced.value)
