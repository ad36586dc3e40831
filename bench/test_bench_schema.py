"""Tool-call arguments checked against their tool's JSON Schema: a compiled
toolmend.Schema against jsonschema, fastjsonschema and jsonschema-rs, each
compiled once, on the shapes tools' parameters usually have (a few typed
properties, an enum, an Optional, a nested array of objects, a $ref).

Two groups: ``schema-validate`` (the value comes back or an error is raised:
Schema.validate, jsonschema_rs validator.validate, fastjsonschema's compiled
function, jsonschema validator.validate) and ``schema-is-valid`` (the verdict
alone). Every contender checks the same valid arguments.
"""

from __future__ import annotations

import pytest
from conftest import contend

import toolmend

jsonschema = pytest.importorskip("jsonschema")

READ_FILE = {
    "type": "object",
    "properties": {
        "file_path": {"type": "string", "description": "absolute path"},
        "offset": {"type": "integer", "minimum": 0},
        "limit": {"type": "integer", "minimum": 1},
        "encoding": {"enum": ["utf-8", "latin-1", "ascii"]},
    },
    "required": ["file_path"],
    "additionalProperties": False,
}
BASH = {
    "type": "object",
    "properties": {
        "command": {"type": "string", "minLength": 1},
        "timeout": {"anyOf": [{"type": "integer"}, {"type": "null"}], "default": None},
        "description": {"type": "string", "maxLength": 200},
        "run_in_background": {"type": "boolean"},
    },
    "required": ["command"],
}
EDIT = {  # the shape Pydantic writes for a model with a list of sub-models
    "$defs": {
        "Edit": {
            "type": "object",
            "properties": {"old_string": {"type": "string"}, "new_string": {"type": "string"},
                           "replace_all": {"type": "boolean", "default": False}},
            "required": ["old_string", "new_string"],
        },
    },
    "type": "object",
    "properties": {
        "file_path": {"type": "string"},
        "edits": {"type": "array", "items": {"$ref": "#/$defs/Edit"}, "minItems": 1},
    },
    "required": ["file_path", "edits"],
}
SEARCH = {
    "type": "object",
    "properties": {
        "pattern": {"type": "string"},
        "path": {"type": "string"},
        "glob": {"type": "string", "pattern": "^[^/].*"},
        "output_mode": {"enum": ["content", "files_with_matches", "count"]},
        "-i": {"type": "boolean"},
        "head_limit": {"type": "integer", "exclusiveMinimum": 0},
        "tags": {"type": "array", "items": {"type": "string"}, "maxItems": 10},
    },
    "required": ["pattern"],
}

CASES = {
    "read_file": (READ_FILE, {"file_path": "/src/main.py", "offset": 10, "limit": 200,
                              "encoding": "utf-8"}),
    "bash": (BASH, {"command": "ls -la /tmp", "timeout": 120, "description": "list the files"}),
    "edit": (EDIT, {"file_path": "/src/app.py", "edits": [
        {"old_string": f"old {n}", "new_string": f"new {n}", "replace_all": n % 2 == 0}
        for n in range(4)]}),
    "search": (SEARCH, {"pattern": "def \\w+", "path": "src", "glob": "*.py",
                        "output_mode": "content", "-i": True, "head_limit": 50,
                        "tags": ["a", "b", "c"]}),
}
CONTENDERS = ["toolmend", "jsonschema_rs", "fastjsonschema", "jsonschema"]


def validator(contender: str, schema: dict, *, verdict: bool):  # noqa: ANN201 - a callable
    if contender == "toolmend":
        s = toolmend.Schema(schema)
        return s.is_valid if verdict else s.validate
    if contender == "jsonschema_rs":
        rs = pytest.importorskip("jsonschema_rs")
        v = rs.validator_for(schema)
        return v.is_valid if verdict else v.validate
    if contender == "fastjsonschema":
        fj = pytest.importorskip("fastjsonschema")
        return fj.compile(schema)
    v = jsonschema.Draft202012Validator(schema)
    return v.is_valid if verdict else v.validate


@pytest.mark.parametrize("case", sorted(CASES))
@pytest.mark.parametrize("contender", CONTENDERS)
def test_schema_validate(benchmark, contender, case):
    if not toolmend.compiled:
        pytest.skip("the ratio targets are for the compiled build")
    schema, value = CASES[case]
    fn = validator(contender, schema, verdict=False)
    assert jsonschema.Draft202012Validator(schema).is_valid(value)
    contend(benchmark, "schema-validate", contender, case, fn, value)


@pytest.mark.parametrize("case", sorted(CASES))
@pytest.mark.parametrize("contender", ["toolmend", "jsonschema_rs", "jsonschema"])
def test_schema_is_valid(benchmark, contender, case):
    if not toolmend.compiled:
        pytest.skip("the ratio targets are for the compiled build")
    schema, value = CASES[case]
    fn = validator(contender, schema, verdict=True)
    assert contend(benchmark, "schema-is-valid", contender, case, fn, value) is True


@pytest.mark.parametrize("case", sorted(CASES))
def test_schema_check_with_a_coercion(benchmark, case):
    """What a model's usual slip costs: one integer sent as a string, found,
    coerced and logged (no other library does this; no target, a measure)."""
    schema, value = CASES[case]
    key = {"read_file": "offset", "bash": "timeout", "edit": None, "search": "head_limit"}[case]
    if key is None:
        value = dict(value, edits=value["edits"][0])  # one edit where an array is wanted
    else:
        value = dict(value, **{key: str(value[key])})
    s = toolmend.Schema(schema)
    result = contend(benchmark, "schema-coerce", "toolmend", case, s.check, value)
    assert result.ok and result.fixes
