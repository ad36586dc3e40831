"""Issue 21, item 4: wherever a tool is known, its calls' arguments are
checked against its schema: ``parse_tool_calls(tools=)``,
``from_openai``/``from_anthropic(tools=)``, ``check_tool_calls``,
``StreamingArgs(schema=)``, ``run_tools`` (our own tools' schemas) and
``toolmend recover --schema FILE``; MCP ``tools/list`` results as definitions."""

from __future__ import annotations

import json
from typing import Any

import pytest

import toolmend
from toolmend import from_anthropic, from_openai, normalize_tool_args, parse_tool_calls, run_tools
from toolmend.errors import SchemaError
from toolmend.recovery import StreamingArgs, ToolCall, check_tool_calls

READ = {
    "type": "object",
    "properties": {
        "path": {"type": "string", "minLength": 1},
        "limit": {"type": "integer", "minimum": 1},
        "follow": {"type": "boolean"},
        "tags": {"type": "array", "items": {"type": "string"}},
        "mode": {"enum": ["text", "bytes"]},
    },
    "required": ["path"],
    "additionalProperties": False,
}
OPENAI = [{"type": "function", "function": {"name": "read_file", "parameters": READ}}]
ANTHROPIC = [{"name": "read_file", "description": "read", "input_schema": READ}]
MCP = {"tools": [{"name": "read_file", "inputSchema": READ}]}
RPC = {"jsonrpc": "2.0", "id": 3, "result": MCP}
FORMS = {"openai": OPENAI, "anthropic": ANTHROPIC, "mcp": MCP, "rpc": RPC,
         "responses": [{"type": "function", "name": "read_file", "parameters": READ}]}


def one(text: str, tools: Any = OPENAI) -> ToolCall:
    (c,) = parse_tool_calls(text, tools=tools)
    return c


def hermes(args: Any) -> str:
    return "<tool_call>" + json.dumps({"name": "read_file", "arguments": args}) + "</tool_call>"


# -- parse_tool_calls(tools=) ----------------------------------------------------------------------

@pytest.mark.parametrize("form", FORMS)
def test_every_definition_form_checks_the_arguments(form: str) -> None:
    c = one(hermes({"path": "a.py", "limit": "20"}), FORMS[form])
    assert c.ok and c.args == {"path": "a.py", "limit": 20} and type(c.args["limit"]) is int
    assert [f.code for f in c.fixes] == ["schema"] and "$.limit" in c.fixes[0].message
    bad = one(hermes({"path": "a.py", "limit": "20.5"}), FORMS[form])
    assert not bad.ok and bad.args is None and [p.path for p in bad.problems] == ["$.limit"]


@pytest.mark.parametrize(("args", "where", "keyword"), [
    ({"limit": 3}, "$.path", "required"),
    ({"path": "a", "limt": 3}, "$.limt", "additionalProperties"),
    ({"path": "a", "limit": 0}, "$.limit", "minimum"),
    ({"path": ""}, "$.path", "minLength"),
    ({"path": "a", "mode": "txt"}, "$.mode", "enum"),
    ({"path": "a", "follow": "yes"}, "$.follow", "type"),
    ({"path": "a", "limit": "5.0"}, "$.limit", "type"),
    ({"path": "a", "tags": [1]}, "$.tags[0]", "type"),
    ({"path": ["a", "b"]}, "$.path", "type"),
])
def test_a_misfit_is_not_ok_with_its_problems_by_path(args: Any, where: str, keyword: str) -> None:
    c = one(hermes(args))
    assert not c.ok and c.args is None
    assert (where, keyword) in [(p.path, p.keyword) for p in c.problems], c.problems
    assert where in (c.error or "") and "read_file" in (c.error or "")
    assert json.loads(c.raw_args) == args  # what the model wrote is kept


def test_every_problem_is_listed_and_the_close_name_offered() -> None:
    c = one(hermes({"limt": "x", "mode": "Text"}))
    assert not c.ok
    got = {p.path: p.message for p in c.problems}
    assert "did you mean `limit`?" in got["$.limt"] and "$.path" in got
    assert "did you mean \"text\"?" in got["$.mode"]


def test_coercions_with_one_reading_are_logged() -> None:
    c = one(hermes({"Path": "a", "follow": "true", "tags": "x", "limit": "3"}))
    assert c.ok and c.args == {"path": "a", "follow": True, "tags": ["x"], "limit": 3}
    messages = " | ".join(f.message for f in c.fixes)
    assert all(f.code == "schema" for f in c.fixes) and len(c.fixes) == 4
    assert "renamed `path`" in messages and "read as a boolean" in messages
    assert "put into an array" in messages


def test_a_bare_value_goes_into_the_schemas_one_property_not_the_name_table() -> None:
    c = one('<tool_call name="read_file">main.go</tool_call>')
    assert c.ok and c.args == {"path": "main.go"}
    assert any("wrapped into `path`" in f.message for f in c.fixes)
    (plain,) = parse_tool_calls('<tool_call name="read_file">main.go</tool_call>')
    assert plain.ok and plain.args != {"path": "main.go"}  # the name table's field, without tools
    flags = one('<tool_call name="read_file">--path main.go --limit 3</tool_call>')
    assert not flags.ok and "flags" in (flags.error or "")


def test_text_formats_are_typed_then_checked() -> None:
    text = ("<tool_call>\n<function=read_file>\n<parameter=path>\nsrc/a.py\n</parameter>\n"
            "<parameter=limit>\n7\n</parameter>\n</function>\n</tool_call>")
    c = one(text)
    assert c.ok and c.args == {"path": "src/a.py", "limit": 7}
    extra = text.replace("<parameter=limit>\n7", "<parameter=lines>\n7")
    c = one(extra)
    assert not c.ok and [p.path for p in c.problems] == ["$.lines"]
    py = one('[read_file(path="a", limit="3")]')
    assert py.ok and py.args == {"path": "a", "limit": 3}


def test_a_tool_not_offered_or_without_a_schema() -> None:
    c = one('<tool_call>{"name": "rm", "arguments": {"path": "/"}}</tool_call>')
    assert not c.ok and "'rm'" in (c.error or "") and "'read_file'" in (c.error or "")
    (c,) = parse_tool_calls('<tool_call>{"name": "web", "arguments": {"q": 1}}</tool_call>',
                            tools=[{"type": "web_search", "name": "web"}])
    assert c.ok and c.args == {"q": 1}  # a server tool: known by name, nothing to check
    (c,) = parse_tool_calls(hermes({"path": "a"}), tools=[])
    assert not c.ok and "none" in (c.error or "")


def test_a_cut_call_stays_refused_and_untouched() -> None:
    text = '<tool_call>{"name": "read_file", "arguments": {"path": "a.p'
    (plain,) = parse_tool_calls(text)
    assert one(text) == plain and not plain.ok


def test_a_bad_schema_is_an_error_naming_the_tool() -> None:
    with pytest.raises(SchemaError, match="read_file"):
        parse_tool_calls(hermes({"path": "a"}), tools=[{"name": "read_file",
                                                         "input_schema": {"type": "strng"}}])


def test_deep_arguments_are_refused_not_crashed() -> None:
    deep: Any = "x"
    for _ in range(5000):
        deep = [deep]
    nested = {"anyOf": [{"type": "string"}, {"type": "array", "items": {"$ref": "#/$defs/n"}}]}
    tools = [{"name": "f", "input_schema": {"type": "object", "properties": {"a": {"$ref": "#/$defs/n"}},
                                            "$defs": {"n": nested}}}]
    (c,) = check_tool_calls([ToolCall("f", "", {"a": deep}, True, (0, 0))], tools)
    assert not c.ok and c.problems and c.args is None


def test_check_tool_calls_never_mutates_and_passes_refusals_through() -> None:
    args = {"path": "a", "limit": "2"}
    calls = [ToolCall("read_file", json.dumps(args), args, True, (0, 0), None, "c1"),
             ToolCall("read_file", "{", None, False, (0, 0), "cut", "c2")]
    out = check_tool_calls(calls, ANTHROPIC)
    assert args == {"path": "a", "limit": "2"} and calls[0].args is args
    assert out[0].ok and out[0].args == {"path": "a", "limit": 2} and out[0].id == "c1"
    assert out[1] is calls[1]


# -- provider responses -----------------------------------------------------------------------------

def test_from_openai_with_the_requests_tools() -> None:
    message = {"role": "assistant", "tool_calls": [
        {"id": "call_1", "type": "function",
         "function": {"name": "read_file", "arguments": '{"path": "a", "limit": "9"}'}},
        {"id": "call_2", "type": "function", "function": {"name": "read_file", "arguments": '{"pth": "a"}'}},
    ]}
    ok, bad = from_openai({"choices": [{"message": message, "finish_reason": "tool_calls"}]}, tools=OPENAI)
    assert ok.ok and ok.args == {"path": "a", "limit": 9} and ok.fixes
    assert not bad.ok and bad.id == "call_2" and any("did you mean `path`" in p.message for p in bad.problems)
    unchecked = from_openai(message)
    assert unchecked[0].args == {"path": "a", "limit": "9"} and unchecked[1].ok


def test_from_openai_text_calls_are_checked_too() -> None:
    (c,) = from_openai({"role": "assistant", "content": hermes({"path": "a", "limit": "x"})}, tools=MCP)
    assert not c.ok and [p.path for p in c.problems] == ["$.limit"]


def test_from_anthropic_with_the_requests_tools() -> None:
    msg = {"role": "assistant", "stop_reason": "tool_use", "content": [
        {"type": "text", "text": "Reading."},
        {"type": "tool_use", "id": "toolu_1", "name": "read_file", "input": {"path": "a", "follow": "false"}},
        {"type": "tool_use", "id": "toolu_2", "name": "write_file", "input": {"path": "a"}},
    ]}
    ok, other = from_anthropic(msg, tools=ANTHROPIC)
    assert ok.ok and ok.args == {"path": "a", "follow": False}
    assert not other.ok and "write_file" in (other.error or "")
    assert from_anthropic(msg)[1].ok


def test_sdk_objects_as_definitions() -> None:
    class Function:
        def __init__(self) -> None:
            self.name, self.parameters = "read_file", READ

    class Tool:
        type = "function"

        def __init__(self) -> None:
            self.function = Function()

    c = one(hermes({"path": "a", "limit": "4"}), [Tool()])
    assert c.ok and c.args["limit"] == 4


# -- streaming ---------------------------------------------------------------------------------------

def test_streaming_args_with_a_schema() -> None:
    s = StreamingArgs("read_file", schema=READ)
    for chunk in ('{"path": "a"', ', "limit": ', '"12"}'):
        s.feed(chunk)
    r = s.finish()
    assert r.ok and r.value == {"path": "a", "limit": 12} and any(f.code == "schema" for f in r.fixes)
    s = StreamingArgs("read_file", schema=READ)
    s.feed('{"path": "a", "extra": 1}')
    r = s.finish()
    assert not r.ok and [p.path for p in r.problems] == ["$.extra"]


# -- our own tools ------------------------------------------------------------------------------------

def test_run_tools_checks_our_tools_arguments_against_their_schemas(tmp_path: Any) -> None:
    (tmp_path / "d.json").write_text('{"a": {"b": [1, 2, 3]}}', encoding="utf-8")
    calls = [("json", {"cmd": "get", "args": {"File": "d.json", "path": "a.b[1]"}}),
             ("json", {"cmd": "get", "args": {"file": "d.json", "pth": "a"}}),
             ("json", {"cmd": "query", "args": {"file": "d.json", "path": "a.b", "limit": "2"}})]
    renamed, unknown, typed = run_tools(calls, workspace=str(tmp_path))
    assert renamed.ok and renamed.output.strip() == "2"
    assert not unknown.ok and "did you mean `path`?" in unknown.output and "$.args.pth" in unknown.output
    assert typed.ok and "showing 2" in typed.output
    clamped = toolmend.run_tool("json", {"cmd": "query", "args": {"file": "d.json", "path": "a.b",
                                                                  "limit": 10 ** 9}}, workspace=str(tmp_path))
    assert clamped.ok  # the verb clamps a number past its range (with a note), as before


# -- the command line --------------------------------------------------------------------------------

def test_cli_recover_with_a_schema_file(tmp_path: Any) -> None:
    from clirun import cli

    tools = tmp_path / "tools.json"
    tools.write_text(json.dumps(RPC), encoding="utf-8")
    run = cli("recover", "--schema", str(tools), "--tool", "read_file", "{path: a, limit: '3'}")
    assert run.rc == 0 and json.loads(run.text) == {"path": "a", "limit": 3}
    run = cli("recover", "--schema", str(tools), "--tool", "read_file", "--json", "{pth: a}")
    assert run.rc == 1
    out = json.loads(run.text)
    assert out["ok"] is False and {"path": "$.pth", "keyword": "additionalProperties",
                                   "message": "unknown property; did you mean `path`?"} in out["problems"]
    schema = tmp_path / "s.json"
    schema.write_text(json.dumps(READ), encoding="utf-8")
    run = cli("recover", "--schema", str(schema), "main.go")
    assert run.rc == 0 and json.loads(run.text) == {"path": "main.go"}


# -- the README's agent loop (the schema section) ---------------------------------------------------

def test_the_readme_schema_agent_loop_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    import re
    import sys
    import types
    from pathlib import Path

    openai = pytest.importorskip("openai")
    from openai.types.chat import ChatCompletion

    readme = (Path(__file__).parent.parent / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Arguments checked against the tool's schema", 1)[1].split("\n## ", 1)[0]
    code = re.findall(r"```python\n(.*?)```", section.split("In an agent loop", 1)[1], re.S)[0]

    def completion(message: dict[str, Any], finish: str) -> Any:
        return ChatCompletion.model_validate({
            "id": "c", "object": "chat.completion", "created": 0, "model": "gpt-4o",
            "choices": [{"index": 0, "finish_reason": finish, "message": {"role": "assistant", **message}}]})

    replies = [
        completion({"content": None, "tool_calls": [
            {"id": "call_a", "type": "function",
             "function": {"name": "read_file", "arguments": '{"filname": "a.txt", "count": "3"}'}}]},
            "tool_calls"),
        completion({"content": None, "tool_calls": [
            {"id": "call_b", "type": "function",
             "function": {"name": "read_file", "arguments": '{"filename": "a.txt", "count": "3"}'}}]},
            "tool_calls"),
        completion({"content": "Here they are."}, "stop"),
    ]
    seen: list[Any] = []

    class Completions:
        def create(self, **request: Any) -> Any:
            seen.append([m for m in request["messages"] if isinstance(m, dict) and m.get("role") == "tool"])
            return replies.pop(0)

    class Client:
        def __init__(self) -> None:
            self.chat = types.SimpleNamespace(completions=Completions())

    fake = types.ModuleType("openai")
    fake.OpenAI = Client  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "openai", fake)
    calls: list[Any] = []
    schema = {"type": "object",
              "properties": {"filename": {"type": "string"}, "count": {"type": "integer", "minimum": 1},
                             "tags": {"type": "array", "items": {"type": "string"}}},
              "required": ["filename"], "additionalProperties": False}
    exec(code, {"READ": schema, "read_file": lambda **kw: calls.append(kw) or ["l1", "l2", "l3"]})  # noqa: S102
    assert calls == [{"filename": "a.txt", "count": 3}]  # the misfit never ran; the fixed call did
    first_answer = seen[1][-1]["content"]
    assert first_answer.startswith("error:") and "did you mean `filename`?" in first_answer
    assert openai is not None and not replies


def test_a_renamed_flag_that_makes_a_write_is_ordered_as_a_write() -> None:
    from toolmend.tools import is_mutation

    assert is_mutation("diff", {"cmd": "apply", "args": {"patch": "x", "dry-run": False}})
    assert is_mutation("diff", {"cmd": "apply", "args": {"patch": "x", "Dry_Run": "false"}})
    assert not is_mutation("diff", {"cmd": "apply", "args": {"patch": "x", "dry-run": True}})


@pytest.mark.parametrize("text", ["a, b", "a; b", "a\nb", "", "  "])
def test_a_string_that_may_list_several_items_is_not_put_into_an_array(text: str) -> None:
    # [text] is one reading, its items another ([] for an empty one): the coercion is a guess
    schema = {"type": "object", "properties": {"tags": {"type": "array", "items": {"type": "string"}}}}
    r = normalize_tool_args(json.dumps({"tags": text}), schema=schema)
    assert not r.ok and "$.tags" in r.error, r
    assert normalize_tool_args('{"tags": "python"}', schema=schema).value == {"tags": ["python"]}
