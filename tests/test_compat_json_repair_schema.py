"""``toolmend.compat.json_repair`` with ``schema=``: the cases of json-repair's
own schema tests kept in tests/data/json_repair_schema/cases.json (with their
source commit and licence), rerun; where toolmend differs by design, the
difference is the one the file gives the reason for."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from toolmend.compat import json_repair

pytest.importorskip("jsonschema")

DATA = json.loads((Path(__file__).parent / "data" / "json_repair_schema" / "cases.json")
                  .read_text(encoding="utf-8"))
CASES = DATA["cases"]


def run(case: dict[str, Any]) -> tuple[str, Any]:
    try:
        return "value", json_repair.repair_json(case["input"], schema=case["schema"],
                                                return_objects=True, **case["kwargs"])
    except ValueError as exc:
        return "raises", str(exc)


def same(case: dict[str, Any], got: tuple[str, Any]) -> bool:
    expected = case["json_repair"]
    if isinstance(expected, dict) and set(expected) == {"raises"}:
        return got[0] == "raises" and re.search(expected["raises"], got[1]) is not None
    return got == ("value", expected)


def test_the_data_names_its_source() -> None:
    assert DATA["commit"] == "600ede6be7d125d14812be3bbd7ef3e0b526a84e"
    assert DATA["licence"].startswith("MIT")
    assert all(c["equal"] or c["why"] for c in CASES)


@pytest.mark.parametrize("case", CASES, ids=[f"{i}" for i in range(len(CASES))])
def test_case(case: dict[str, Any]) -> None:
    got = run(case)
    assert same(case, got) is case["equal"], (case, got)
    if not case["equal"] and got[0] == "value" and got[1] != "":
        # a difference is never another value passed off as json-repair's: only a kept
        # string ('' is the drop-in's "nothing recovered")
        assert "whitespace" in case["why"]


def test_differences_that_refuse_name_the_problem() -> None:
    for case in CASES:
        got = run(case)
        if not case["equal"] and got[0] == "raises":
            assert "$" in got[1] or "schema" in got[1]


def test_logging_with_a_schema() -> None:
    schema = {"type": "object", "properties": {"value": {"type": "integer"}}, "required": ["value"]}
    assert json_repair.repair_json('{"value": 1}', schema=schema, logging=True) == ({"value": 1}, [])
    value, log = json_repair.repair_json('{"value": "{\\"a\\": 1}"}', logging=True, schema={
        "type": "object", "properties": {"value": {"type": "object"}}})
    assert value == {"value": {"a": 1}}
    assert [e["text"] for e in log] == ["Unwrapped JSON string to object to match schema"]
    assert json_repair.loads("{'value': '2',}", schema=schema) == {"value": 2}
    assert json_repair.repair_json('{"value": "2"}', schema=schema) == '{"value": 2}'


def test_pydantic_model_as_schema() -> None:
    pydantic = pytest.importorskip("pydantic")

    class Args(pydantic.BaseModel):
        a: str
        n: int = 3

    assert json_repair.repair_json("{a: x}", schema=Args, return_objects=True) == {"a": "x", "n": 3}
