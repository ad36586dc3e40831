"""Tool-call arguments checked and coerced against the tool's JSON Schema
(issue 21): every coercion, every refusal, the keywords, the entry points."""

from __future__ import annotations

import warnings
from typing import Any

import pytest

import toolmend
from toolmend import Schema
from toolmend.errors import RecoveryError, SchemaError, SchemaWarning
from toolmend.recovery import FIX_CODES, StreamingArgs, tool_schemas

READ = {
    "type": "object",
    "properties": {
        "filename": {"type": "string", "minLength": 1},
        "count": {"type": "integer", "minimum": 1, "maximum": 100},
        "ratio": {"type": "number"},
        "append": {"type": "boolean"},
        "tags": {"type": "array", "items": {"type": "string"}},
        "mode": {"enum": ["read", "write"]},
        "opts": {"type": "object", "properties": {"deep": {"type": "boolean"}}},
    },
    "required": ["filename"],
    "additionalProperties": False,
}


def check(value: Any, schema: Any = READ, **kw: Any) -> Any:
    return Schema(schema).check(value, **kw)


def paths(result: Any) -> list[str]:
    return [p.path for p in result.problems]


# -- coercions with one reading -------------------------------------------------------------------

@pytest.mark.parametrize(("field", "given", "want"), [
    ("count", "5", 5),
    ("count", "100", 100),
    ("ratio", "2.5", 2.5),
    ("ratio", "7", 7),
    ("ratio", "1e3", 1000.0),
    ("append", "true", True),
    ("append", "false", False),
    ("tags", "x", ["x"]),
    ("tags", '["a", "b"]', ["a", "b"]),
    ("opts", '{"deep": true}', {"deep": True}),
    ("opts", ' {"deep": false} ', {"deep": False}),
])
def test_coercion_with_one_reading(field: str, given: Any, want: Any) -> None:
    r = check({"filename": "f", field: given})
    assert r.ok, r.problems
    assert r.value[field] == want and type(r.value[field]) is type(want)
    assert [f.code for f in r.fixes] == ["schema"]
    assert r.fixes[0].message.startswith(f"$.{field}: ")


@pytest.mark.parametrize(("field", "given"), [
    ("count", "5.0"), ("count", "five"), ("count", " 5"), ("count", "05"), ("count", "+5"),
    ("count", "0x10"), ("ratio", "1e400"), ("ratio", "NaN"), ("ratio", "1."),
    ("append", "yes"), ("append", "True"), ("append", "1"), ("append", 1),
    ("count", True), ("ratio", False), ("count", 5.5), ("filename", 5),
    ("opts", "{deep: true}"), ("opts", '["a"]'), ("tags", "[a, b]"), ("tags", None),
    ("opts", "x"),
])
def test_no_safe_reading_is_refused(field: str, given: Any) -> None:
    r = check({"filename": "f", field: given})
    assert not r.ok
    assert paths(r) == [f"$.{field}"]
    assert r.fixes == []


def test_integer_and_boolean_subtleties() -> None:
    s = Schema({"type": "integer"})
    assert s.is_valid(1.0) and s.is_valid(-3) and s.is_valid(10**30)
    assert not s.is_valid(True) and not s.is_valid(1.5)
    n = Schema({"type": "number"})
    assert n.is_valid(1) and n.is_valid(2.5) and not n.is_valid(False) and not n.is_valid("1")
    assert Schema({"enum": [1]}).is_valid(1.0)
    assert not Schema({"enum": [1]}).is_valid(True)
    assert not Schema({"const": True}).is_valid(1)
    assert Schema({"const": [1, {"a": 2.0}]}).is_valid([1.0, {"a": 2}])
    assert not Schema({"const": [1]}).is_valid([True])
    assert not Schema({"enum": [False]}).is_valid(0)


def test_rename_differing_only_in_case_or_dash() -> None:
    r = check({"FileName": "a", "Count": 3})
    assert r.ok and r.value == {"filename": "a", "count": 3}
    assert [f.message for f in r.fixes] == [
        "$.FileName: property `FileName` renamed `filename`, the declared name",
        "$.Count: property `Count` renamed `count`, the declared name"]
    schema = {"type": "object", "properties": {"file_path": {"type": "string"}},
              "additionalProperties": False}
    for key in ("file-path", "filePath", "FILE_PATH"):
        assert check({key: "x"}, schema).value == {"file_path": "x"}


def test_rename_refused_when_two_names_are_as_close() -> None:
    schema = {"type": "object", "properties": {"a_b": {}, "ab": {}}, "additionalProperties": False}
    r = check({"A-B": 1}, schema)
    assert not r.ok and paths(r) == ["$[\"A-B\"]"]
    # the declared name is there already: nothing renamed, both kept
    r = check({"filename": "a", "FILENAME": "b"})
    assert not r.ok and r.value == {"filename": "a", "FILENAME": "b"}


def test_rename_keeps_order_and_input() -> None:
    given = {"x_count": 1, "FILENAME": "f"}
    schema = {"type": "object", "properties": {"filename": {"type": "string"}},
              "required": ["filename"]}
    r = check(given, schema)
    assert r.ok and list(r.value) == ["x_count", "filename"]
    assert given == {"x_count": 1, "FILENAME": "f"}


def test_coercion_never_mutates_the_input() -> None:
    given = {"filename": "f", "count": "5", "opts": {"deep": "true"}}
    r = check(given)
    assert r.ok and r.value == {"filename": "f", "count": 5, "opts": {"deep": True}}
    assert given == {"filename": "f", "count": "5", "opts": {"deep": "true"}}


def test_valid_value_is_returned_as_it_is() -> None:
    given = {"filename": "f", "count": 5}
    r = check(given)
    assert r.ok and r.value is given and r.fixes == [] and r.problems == []


def test_string_is_not_coerced_where_a_string_is_allowed() -> None:
    schema = {"type": "object", "properties": {"n": {"type": ["string", "integer"]}}}
    assert check({"n": "5"}, schema).value == {"n": "5"}
    assert check({"n": "5"}, {"properties": {"n": {"type": ["integer", "null"]}}}).value == {"n": 5}


def test_union_coercion_only_when_one_branch_reads_it() -> None:
    one = {"anyOf": [{"type": "integer"}, {"type": "array", "items": {"type": "boolean"}}]}
    assert check("5", one).value == 5  # ["5"] does not fit the array: one reading
    both = {"anyOf": [{"type": "integer"}, {"type": "array", "items": {"type": "integer"}}]}
    assert not check("5", both).ok  # 5 or [5]
    two = {"anyOf": [{"type": "integer"}, {"type": "boolean"}]}
    assert check("true", two).value is True
    amb = {"anyOf": [{"type": "integer"}, {"type": "array"}]}
    r = check("5", amb)
    assert not r.ok and r.problems[0].keyword == "anyOf"
    assert "more than one way" in r.problems[0].message
    assert check("5", {"oneOf": [{"type": "integer"}, {"type": "number"}]}).ok is False


# -- refusals, every problem by path --------------------------------------------------------------

def test_every_problem_listed_by_path() -> None:
    r = check({"filname": "a", "count": 0, "mode": "Read", "tags": ["x", 3], "extra": 1})
    assert not r.ok
    got = {str(p) for p in r.problems}
    assert got == {
        "`$.filname`: unknown property; did you mean `filename`?",
        "`$.count`: 0 is less than the minimum 1",
        "`$.mode`: \"Read\" is not one of \"read\", \"write\"; did you mean \"read\"?",
        "`$.tags[1]`: expected string, got integer 3",
        "`$.extra`: unknown property",
        "`$.filename`: missing required property (`filname` was given: a misspelling?)",
    }
    assert r.value["filname"] == "a"  # never dropped


@pytest.mark.parametrize(("schema", "value", "keyword"), [
    ({"type": "string", "maxLength": 3}, "abcd", "maxLength"),
    ({"type": "string", "minLength": 2}, "\U0001F600", "minLength"),
    ({"type": "string", "pattern": "^a+$"}, "bbb", "pattern"),
    ({"type": "string", "pattern": "b"}, "xxx", "pattern"),
    ({"type": "number", "exclusiveMaximum": 3}, 3, "exclusiveMaximum"),
    ({"type": "number", "exclusiveMinimum": 3}, 3.0, "exclusiveMinimum"),
    ({"type": "integer", "maximum": 3}, 4, "maximum"),
    ({"type": "integer", "multipleOf": 3}, 4, "multipleOf"),
    # 1e20 / 3 rounds to a whole float, but 1e20 is no multiple of 3 (as jsonschema says)
    ({"type": "number", "multipleOf": 3}, 1e20, "multipleOf"),
    ({"type": "array", "minItems": 2}, [1], "minItems"),
    ({"type": "array", "maxItems": 1}, [1, 2], "maxItems"),
    ({"type": "array", "uniqueItems": True}, [1, 1.0], "uniqueItems"),
    ({"prefixItems": [{"type": "string"}]}, [1], "type"),
    ({"type": "object", "minProperties": 1}, {}, "minProperties"),
    ({"type": "object", "maxProperties": 0}, {"a": 1}, "maxProperties"),
    ({"propertyNames": {"maxLength": 2}}, {"abc": 1}, "propertyNames"),
    ({"dependentRequired": {"a": ["b"]}}, {"a": 1}, "dependentRequired"),
    ({"not": {"type": "string"}}, "x", "not"),
    ({"const": "x"}, "y", "const"),
    ({"allOf": [{"type": "integer"}, {"minimum": 2}]}, 1, "minimum"),
    ({"oneOf": [{"type": "integer"}, {"minimum": 0}]}, 3, "oneOf"),
    (False, 1, "false"),
    ({"patternProperties": {"^x": {"type": "integer"}}, "additionalProperties": False},
     {"xa": "s"}, "type"),
])
def test_refusal(schema: Any, value: Any, keyword: str) -> None:
    s = Schema(schema)
    assert not s.is_valid(value)
    r = s.check(value)
    assert not r.ok and keyword in [p.keyword for p in r.problems], r.problems


def test_pattern_is_search_not_match_and_bounded() -> None:
    assert Schema({"pattern": "b"}).is_valid("abc")
    assert Schema({"pattern": "^\\d{3}$"}).is_valid("123")
    assert Schema({"pattern": "x"}).is_valid(5)  # applies to strings only
    with pytest.raises(SchemaError, match="recursive"):
        Schema({"pattern": "(?R)"})
    with pytest.raises(SchemaError, match="steps"):
        Schema({"pattern": "(?:a{1000}){1000}"})


def test_catastrophic_pattern_is_refused_not_hung(monkeypatch: pytest.MonkeyPatch) -> None:
    from toolmend.recovery import _schemanodes

    monkeypatch.setattr(_schemanodes, "PATTERN_TIMEOUT", 0.05)
    s = Schema({"type": "string", "pattern": "^(a|aa)+$", "$comment": "catastrophic"})
    r = s.check("a" * 40 + "!")
    assert not r.ok and r.problems[0].keyword == "pattern"


def test_missing_required_is_never_invented() -> None:
    schema = {"type": "object", "properties": {"n": {"type": "integer", "default": 1}},
              "required": ["n"]}
    r = check({}, schema)
    assert not r.ok and paths(r) == ["$.n"] and r.value == {}


# -- defaults ------------------------------------------------------------------------------------

def test_defaults_reported_not_inserted() -> None:
    schema = {"type": "object", "properties": {
        "note": {"type": "string", "default": "n/a"},
        "sub": {"type": "object", "properties": {"k": {"default": [1]}}}}}
    r = check({"sub": {}}, schema)
    assert r.ok and r.value == {"sub": {}}
    assert r.defaults == [("$.note", "n/a"), ("$.sub.k", [1])]
    r = check({"sub": {}}, schema, fill_defaults=True)
    assert r.ok and r.value == {"note": "n/a", "sub": {"k": [1]}}
    assert [f.message for f in r.fixes] == ['$.note: absent: its default "n/a" inserted',
                                            "$.sub.k: absent: its default [1] inserted"]
    assert r.defaults == []
    r2 = check({"sub": {}}, schema, fill_defaults=True)
    r2.value["sub"]["k"].append(2)
    assert schema["properties"]["sub"]["properties"]["k"]["default"] == [1]  # a copy


def test_a_filled_default_keeps_its_numbers_and_shares_nothing() -> None:
    # a default holding an integer past 64 bits or an infinity (a schema built in
    # Python) is copied as it is: a JSON round trip refused the one, nulled the other
    default = [10**20, float("inf"), {"b": [1, {"c": -(10**30)}]}]
    schema = {"type": "object", "properties": {"a": {"default": default}}}
    r = check({}, schema, fill_defaults=True)
    assert r.ok and r.value == {"a": default}
    r.value["a"][2]["b"][1]["c"] = 0
    assert default == [10**20, float("inf"), {"b": [1, {"c": -(10**30)}]}]


# -- $ref / $defs, cycles ------------------------------------------------------------------------

TREE = {
    "$defs": {"node": {"type": "object", "properties": {
        "name": {"type": "string"}, "kids": {"type": "array", "items": {"$ref": "#/$defs/node"}}},
        "required": ["name"]}},
    "$ref": "#/$defs/node",
}


def test_ref_cycles() -> None:
    s = Schema(TREE)
    assert s.is_valid({"name": "a", "kids": [{"name": "b", "kids": []}]})
    r = s.check({"name": "a", "kids": [{"name": "b", "kids": [{"kids": []}]}]})
    assert not r.ok and paths(r) == ["$.kids[0].kids[0].name"]
    self_ref = Schema({"type": ["array", "integer"], "items": {"$ref": "#"}})
    assert self_ref.is_valid([1, [2, [3]]]) and not self_ref.is_valid([1, ["x"]])
    old = Schema({"definitions": {"a": {"type": "integer"}},
                  "properties": {"x": {"$ref": "#/definitions/a"}}})
    assert old.check({"x": "3"}).value == {"x": 3}


def test_deep_value_on_a_cyclic_schema_is_refused_not_crashed() -> None:
    s = Schema({"type": ["array", "integer"], "items": {"$ref": "#"}})
    deep: Any = 1
    for _ in range(5000):
        deep = [deep]
    assert s.is_valid(deep) is False
    r = s.check(deep)
    assert not r.ok and r.problems[0].keyword == "depth"


def test_bad_schemas() -> None:
    for bad, where in (({"type": "strng"}, "#/type"), ({"required": "a"}, "#/required"),
                       ({"$ref": "http://x/y"}, "#/$ref"), ({"$ref": "#/$defs/none"}, "#/$ref"),
                       ({"minLength": -1}, "#/minLength"), ({"properties": {"a": 3}}, "#/properties/a"),
                       ({"pattern": "("}, "#/pattern")):
        with pytest.raises(SchemaError) as info:
            Schema(bad)
        assert info.value.where == where
    with pytest.raises(TypeError):
        Schema("not a schema")  # type: ignore[arg-type]


def test_unsupported_keyword_is_reported_once() -> None:
    schema = {"type": "object", "if": {"required": ["a"]}, "then": {"required": ["b"]},
              "$comment": "unique to this test"}
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        s = Schema(schema)
        Schema(dict(schema))  # cached: not said again
    said = [w for w in caught if issubclass(w.category, SchemaWarning)]
    assert len(said) == 1 and "if (at #)" in str(said[0].message)
    assert s.unsupported == ("if (at #)", "then (at #)")


def test_format_and_annotations_are_ignored() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        s = Schema({"type": "string", "format": "email", "title": "t", "description": "d",
                    "examples": ["x"], "x-vendor": 1, "$schema": "https://json-schema.org/draft/2020-12/schema"})
    assert s.is_valid("not an email")


def test_cache_and_pydantic() -> None:
    assert Schema({"type": "integer"}) is Schema({"type": "integer"})
    s = Schema(READ)
    assert Schema(s) is s
    pydantic = pytest.importorskip("pydantic")

    class Args(pydantic.BaseModel):
        path: str
        limit: int = 10
        tags: list[str] = []

    ps = Schema(Args)
    assert ps is Schema(Args) and ps.primary_field == "path"
    r = ps.check({"path": "a", "limit": "3", "tags": "x"})
    assert r.ok and r.value == {"path": "a", "limit": 3, "tags": ["x"]}
    Args.model_validate(r.value)


def test_validate_raises_with_the_problems() -> None:
    with pytest.raises(RecoveryError, match="`\\$.count`: expected integer"):
        Schema(READ).validate({"filename": "f", "count": "x"})
    assert Schema(READ).validate({"filename": "f", "count": "2"}) == {"filename": "f", "count": 2}


# -- through recovery: normalize_tool_args / loads ------------------------------------------------

def test_schema_is_a_fix_code() -> None:
    assert "schema" in FIX_CODES


def test_recovery_then_check() -> None:
    r = toolmend.normalize_tool_args("{filename: 'a.txt', count: '3',}", schema=READ)
    assert r.ok and r.value == {"filename": "a.txt", "count": 3}
    assert r.text == '{"filename":"a.txt","count":3}'
    assert [f.code for f in r.fixes][-1] == "schema"
    assert r.problems == []


def test_valid_json_that_fits_is_untouched() -> None:
    text = '{"filename": "a",  "count": 3}'
    r = toolmend.normalize_tool_args(text, schema=READ)
    assert r.ok and r.text == text and r.strategy == "parse" and r.fixes == []


def test_misfit_is_not_ok_and_keeps_the_candidate() -> None:
    r = toolmend.normalize_tool_args('{"filname": "a"}', "read_file", schema=READ)
    assert not r.ok and r.value is None and r.text == '{"filname": "a"}'
    assert r.candidate == {"filname": "a"}
    assert "did you mean `filename`?" in (r.error or "")
    assert [p.path for p in r.problems] == ["$.filname", "$.filename"]


def test_bare_value_goes_into_the_schemas_only_required_property() -> None:
    schema = {"type": "object", "properties": {"target": {"type": "string"}, "n": {"type": "integer"}},
              "required": ["target"]}
    # the schema's field wins over the tool-name table (read_file -> file)
    r = toolmend.normalize_tool_args("main.go", "read_file", schema=schema)
    assert r.ok and r.value == {"target": "main.go"} and r.strategy == "wrap_plain"
    assert r.fixes[0].code == "schema" and "`target`" in r.fixes[0].message
    r = toolmend.normalize_tool_args('"main.go"', schema=schema)
    assert r.value == {"target": "main.go"}
    only = {"type": "object", "properties": {"n": {"type": "integer"}}}
    assert toolmend.normalize_tool_args("42", schema=only).value == {"n": 42}
    r = toolmend.normalize_tool_args("many", schema=only)
    assert not r.ok and r.candidate == {"n": "many"}


def test_bare_value_without_one_field_is_left_to_the_name_table() -> None:
    two = {"type": "object", "properties": {"file": {"type": "string"}, "n": {"type": "integer"}}}
    r = toolmend.normalize_tool_args("main.go", "read_file", schema=two)
    assert r.ok and r.value == {"file": "main.go"}
    r = toolmend.normalize_tool_args("main.go", schema=two)
    assert not r.ok


def test_bare_cli_flags_naming_parameters_are_refused() -> None:
    schema = {"type": "object", "properties": {"file": {"type": "string"}}, "required": ["file"]}
    r = toolmend.normalize_tool_args("--file main.go", schema=schema)
    assert not r.ok and "flags" in (r.error or "")
    r = toolmend.normalize_tool_args("ls -la", schema={
        "type": "object", "properties": {"command": {"type": "string"}}, "required": ["command"]})
    assert r.ok and r.value == {"command": "ls -la"}


def test_double_encoded_arguments_are_decoded_not_wrapped() -> None:
    r = toolmend.normalize_tool_args('"{\\"filename\\": \\"a\\", \\"count\\": \\"2\\"}"', schema=READ)
    assert r.ok and r.strategy == "double_encoded" and r.value == {"filename": "a", "count": 2}
    r = toolmend.normalize_tool_args('"{not an object"', schema=READ)
    assert r.ok and r.value == {"filename": "{not an object"}


def test_null_arguments_are_not_wrapped() -> None:
    r = toolmend.normalize_tool_args("null", schema=READ)
    assert not r.ok


def test_loads_with_schema() -> None:
    assert toolmend.loads('{"filename": "x", "append": "false"}', schema=READ) == \
        {"filename": "x", "append": False}
    assert toolmend.loads({"FILENAME": "x"}, schema=READ) == {"filename": "x"}
    with pytest.raises(RecoveryError, match="missing required property"):
        toolmend.loads("{}", "read_file", schema=READ)
    with pytest.raises(RecoveryError):
        toolmend.loads("{not json", schema=READ)
    assert toolmend.loads('{"note": 1}', schema={"properties": {"d": {"default": 2}}},
                          fill_defaults=True) == {"note": 1, "d": 2}


def test_bytes_and_dicts() -> None:
    r = toolmend.normalize_tool_args(b'{"filename": "x", "count": "2"}', schema=READ)
    assert r.ok and r.value == {"filename": "x", "count": 2}
    r = toolmend.normalize_tool_args(b"\xff", schema=READ)
    assert not r.ok


def test_streaming_finish_with_schema() -> None:
    s = StreamingArgs(schema=READ)
    for chunk in ('{"filen', 'ame": "a", "cou', 'nt": "4"}'):
        s.feed(chunk)
    r = s.finish()
    assert r.ok and r.value == {"filename": "a", "count": 4}
    s = StreamingArgs("read_file", schema=READ)
    s.feed('{"filename": "a", "count": "x"}')
    r = s.finish()
    assert not r.ok and [p.path for p in r.problems] == ["$.count"]
    s = StreamingArgs(schema=READ)
    s.feed('{"filename": "a", "count": "4')
    r = s.finish()  # cut: never checked, never whole
    assert not r.ok and "cut off" in (r.error or "") and r.problems == []
    s = StreamingArgs(schema={"type": "object", "properties": {"path": {"type": "string"}}})
    s.feed('"src/a.py"')
    assert s.finish().value == {"path": "src/a.py"}
    with pytest.raises(SchemaError):
        StreamingArgs(schema={"type": "nope"})


# -- tool definitions ----------------------------------------------------------------------------

def test_tool_schemas_from_every_provider_form() -> None:
    p = {"type": "object", "properties": {"q": {"type": "string"}}, "required": ["q"]}
    openai = [{"type": "function", "function": {"name": "search", "parameters": p}}]
    responses = [{"type": "function", "name": "search", "parameters": p}]
    anthropic = [{"name": "search", "description": "d", "input_schema": p}]
    mcp = {"tools": [{"name": "search", "inputSchema": p}]}
    rpc = {"jsonrpc": "2.0", "id": 1, "result": mcp}
    for tools in (openai, responses, anthropic, mcp, rpc, {"search": p}):
        got = tool_schemas(tools)
        assert list(got) == ["search"] and got["search"] is Schema(p)
    none = tool_schemas([{"type": "function", "function": {"name": "now"}}])
    assert none["now"].is_valid({}) and not none["now"].is_valid([])
    with pytest.raises(SchemaError, match="defined twice"):
        tool_schemas(anthropic + anthropic)
    with pytest.raises(SchemaError, match="no name"):
        tool_schemas([{"input_schema": p}])
    with pytest.raises(SchemaError, match="tool 'bad'"):
        tool_schemas([{"name": "bad", "input_schema": {"type": 3}}])


def test_tool_schemas_from_sdk_objects() -> None:
    pytest.importorskip("anthropic")
    from anthropic.types import ToolParam  # a TypedDict: plain dicts

    tool: ToolParam = {"name": "t", "input_schema": {"type": "object"}}
    assert tool_schemas([tool])["t"].is_valid({})


# -- the command line: toolmend repair --schema FILE ----------------------------------------------

def test_cli_repair_with_a_schema(tmp_path: Any) -> None:
    import json

    from clirun import cli

    schema = tmp_path / "schema.json"
    schema.write_text(json.dumps(READ), encoding="utf-8")
    run = cli("repair", "--schema", str(schema), "--explain", "{filename: a, count: '3'}")
    assert run.rc == 0 and json.loads(run.text) == {"filename": "a", "count": 3}
    assert 'schema at offset -1: $.count: the string "3" read as an integer' in run.err
    run = cli("repair", "--schema", str(schema), "{filname: a}")
    assert run.rc == 1 and "did you mean `filename`?" in run.err
    tools = tmp_path / "tools.json"
    tools.write_text(json.dumps({"tools": [{"name": "t", "inputSchema": READ}]}), encoding="utf-8")
    run = cli("repair", "--schema", str(tools), "--tool", "t", "main.go")
    assert run.rc == 0 and json.loads(run.text) == {"filename": "main.go"}
    run = cli("repair", "--schema", str(tools), "main.go")
    assert run.rc == 2 and "--tool (t)" in run.err
    run = cli("repair", "--schema", str(tmp_path / "none.json"), "x")
    assert run.rc == 2 and "none.json" in run.err
    bad = tmp_path / "bad.json"
    bad.write_text('{"type": "strng"}', encoding="utf-8")
    run = cli("repair", "--schema", str(bad), "x")
    assert run.rc == 2 and "Unsupported schema type strng" in run.err


def test_a_python_dict_with_a_key_that_is_not_a_string_is_a_problem_not_a_crash(tmp_path):
    closed = Schema({"type": "object", "properties": {"a": {"type": "string"}},
                     "additionalProperties": False})
    checked = closed.check({1: "x"})
    assert not checked.ok and "not a string" in checked.problems[0].message
    assert not closed.is_valid({1: "x"})
    # (a batch whose call holds such a key reports it, and the calls before it stand)
    results = toolmend.run_tools([("@json", {"cmd": "keys", "args": {"text": "{}"}}),
                                  ("@diff", {"cmd": "apply", "args": {1: "x", "patch": "p"}})],
                                 workspace=str(tmp_path))
    assert [r.ok for r in results] == [True, False] and "unknown argument" in results[1].output
