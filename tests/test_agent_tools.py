"""The agent front end: tool definitions, provider adapters on recorded responses, dispatch, batches."""

from __future__ import annotations

import json
import os
import re
import threading

import pytest

import toolmend
from toolmend.tools import TOOL_SCHEMAS, VERB_ARGS, schemas, to_anthropic, to_openai
from toolmend.tools._runner import _verbs

jsonschema = pytest.importorskip("jsonschema")
openai_types = pytest.importorskip("openai.types.chat")
anthropic_types = pytest.importorskip("anthropic.types")

DATA = os.path.join(os.path.dirname(__file__), "data", "providers")


def recorded(name: str) -> dict:
    with open(os.path.join(DATA, name), encoding="utf-8") as f:
        return json.load(f)


# -- definitions ---------------------------------------------------------------------


@pytest.mark.parametrize("provider", ["openai", "anthropic"])
def test_definitions_are_valid_json_schema_with_legal_names(provider):
    defs = schemas(provider)
    assert len(defs) == 2
    for d in defs:
        fn = d["function"] if provider == "openai" else d
        params = fn["parameters"] if provider == "openai" else fn["input_schema"]
        assert re.fullmatch(r"[a-zA-Z0-9_-]{1,64}", fn["name"])
        assert fn["description"]
        jsonschema.Draft202012Validator.check_schema(params)
        jsonschema.Draft7Validator.check_schema(params)
        assert params["type"] == "object"
    if provider == "openai":
        assert {d["type"] for d in defs} == {"function"}
    assert schemas(provider) == defs and schemas(provider) is not defs  # fresh copies


def test_definitions_describe_every_verb_and_every_argument_the_tools_take(tmp_path):
    for tool, schema in TOOL_SCHEMAS.items():
        verbs = list(_verbs(tool))
        assert schema["properties"]["cmd"]["enum"] == verbs
        described = schema["properties"]["args"]["properties"]
        for verb in verbs:
            assert verb in VERB_ARGS[tool]
            # the tool names what it takes when given something it does not know
            r = toolmend.run_tool(tool, {"cmd": verb, "args": {"zz_unknown": 1}}, workspace=str(tmp_path))
            assert not r.ok
            taken = set(re.findall(r"[a-z_]+", r.output.split("it takes", 1)[1]))
            assert taken == set(VERB_ARGS[tool][verb][1]), (tool, verb)
            assert taken <= set(described)
            for name in taken:
                assert described[name]["description"]


def test_calls_the_schema_accepts_and_refuses():
    check = jsonschema.Draft202012Validator(TOOL_SCHEMAS["json"])
    assert check.is_valid({"cmd": "get", "args": {"file": "r.json", "path": "a.b"}})
    assert check.is_valid(
        {"cmd": "query", "args": {"text": "[]", "where": "a=1", "select": ["a"], "limit": 5}}
    )
    assert not check.is_valid({"cmd": "gett", "args": {}})
    assert not check.is_valid({"cmd": "get", "args": {"fiel": "r.json"}})
    assert not check.is_valid({"cmd": "query", "args": {"limit": 500}})
    diff = jsonschema.Draft202012Validator(TOOL_SCHEMAS["diff"])
    assert diff.is_valid({"cmd": "apply", "args": {"file": "a", "patch": "@@", "dry_run": False}})
    assert not diff.is_valid({"cmd": "apply"})
    with pytest.raises(toolmend.ToolError):
        schemas("gemini")


# -- from_openai / from_anthropic ----------------------------------------------------


def test_from_openai_on_a_chat_completion_object_and_its_parts():
    completion = openai_types.ChatCompletion.model_validate(recorded("openai_chat_completion.json"))
    calls = toolmend.from_openai(completion)
    assert [(c.name, c.id, c.ok) for c in calls] == [
        ("json", "call_Qm3kX8aZP1nTf6Yc0bW2", True),
        ("diff", "call_Lr8vN2cWq5JdY7Hs4eXt", True),
        ("json", "call_Zp4sD9gKm2Bv6Rq1uFyE", True),
    ]
    assert calls[0].args == {"cmd": "get", "args": {"file": "resp.json", "path": "data.items[0].price"}}
    assert calls[2].args == {
        "cmd": "keys",
        "args": {"file": "resp.json"},
    }  # recovered from a Python dict repr
    message = completion.choices[0].message
    assert toolmend.from_openai(message) == calls
    assert toolmend.from_openai(message.tool_calls) == calls
    assert toolmend.from_openai(message.tool_calls[1]) == calls[1:2]
    assert toolmend.from_openai(recorded("openai_chat_completion.json")) == calls  # the same as dicts
    assert toolmend.from_openai(completion.model_dump()) == calls


def test_from_openai_refuses_arguments_cut_by_the_token_limit():
    completion = openai_types.ChatCompletion.model_validate(recorded("openai_chat_completion_cut.json"))
    (call,) = toolmend.from_openai(completion)
    assert call.name == "diff" and not call.ok and call.args is None
    assert "cut off inside a string" in call.error
    result = toolmend.run_tools([call])[0]
    assert not result.ok and "cut off" in result.output


def test_from_openai_reads_calls_written_in_the_message_text():
    completion = openai_types.ChatCompletion.model_validate(recorded("openai_text_calls.json"))
    (call,) = toolmend.from_openai(completion)
    assert (
        call.name == "json"
        and call.args == {"cmd": "keys", "args": {"file": "resp.json"}}
        and call.id is None
    )
    assert toolmend.from_openai(completion, text=False) == []


def test_from_openai_other_shapes():
    legacy = {
        "role": "assistant",
        "content": None,
        "function_call": {"name": "json", "arguments": '{"cmd": "validate", "args": {"text": "{}"}}'},
    }
    assert toolmend.from_openai(legacy)[0].args["cmd"] == "validate"
    responses_item = {
        "type": "function_call",
        "call_id": "call_9",
        "name": "diff",
        "arguments": '{"cmd": "text", "args": {"a": "x", "b": "y"}}',
    }
    (c,) = toolmend.from_openai(responses_item)
    assert c.id == "call_9" and c.args["cmd"] == "text"
    nameless = toolmend.from_openai({"id": "call_1", "type": "function", "function": {"arguments": "{}"}})
    assert not nameless[0].ok and "name" in nameless[0].error
    assert toolmend.from_openai({"role": "assistant", "content": "no calls here"}) == []
    with pytest.raises(toolmend.ToolError):
        toolmend.from_openai(42)


def test_from_anthropic_on_a_message_object_and_its_parts():
    message = anthropic_types.Message.model_validate(recorded("anthropic_message.json"))
    calls = toolmend.from_anthropic(message)
    assert [(c.name, c.id) for c in calls] == [
        ("json", "toolu_01T1x1fJ34qAmk2tNTrN7Up6"),
        ("diff", "toolu_01Hq7mWz2Lp8Xv3Rc5Nb9Ke4"),
    ]
    assert all(c.ok for c in calls)
    assert toolmend.from_anthropic(message.content) == calls
    assert toolmend.from_anthropic(message.content[1]) == calls[:1]
    assert toolmend.from_anthropic(recorded("anthropic_message.json")) == calls
    text_only = {
        "role": "assistant",
        "content": [
            {
                "type": "text",
                "text": '<tool_call name="json" args=\'{"cmd": "keys", "args": {"file": "a.json"}}\' />',
            }
        ],
    }
    assert toolmend.from_anthropic(text_only)[0].args["cmd"] == "keys"
    assert toolmend.from_anthropic(text_only, text=False) == []
    with pytest.raises(toolmend.ToolError):
        toolmend.from_anthropic(3.5)


# -- the way back --------------------------------------------------------------------


def test_results_go_back_in_each_provider_shape(tmp_path):
    (tmp_path / "resp.json").write_text('{"data": {"items": [{"price": 1.10}]}}', encoding="utf-8")
    completion = openai_types.ChatCompletion.model_validate(recorded("openai_chat_completion.json"))
    call = toolmend.from_openai(completion)[0]
    result = toolmend.run_tool(call.name, call.args, workspace=str(tmp_path))
    assert result.ok and result.output == "1.10"
    assert to_openai(call, result) == {
        "role": "tool",
        "tool_call_id": "call_Qm3kX8aZP1nTf6Yc0bW2",
        "content": "1.10",
    }
    message = anthropic_types.Message.model_validate(recorded("anthropic_message.json"))
    a_call = toolmend.from_anthropic(message)[1]
    failed = toolmend.run_tool(a_call.name, a_call.args, workspace=str(tmp_path))  # the files are missing
    block = to_anthropic(a_call, failed)
    assert block["type"] == "tool_result" and block["tool_use_id"] == a_call.id and block["is_error"] is True
    assert "is_error" not in to_anthropic(a_call, result)
    both = toolmend.tools.anthropic_results([a_call, a_call], [result, "plain text"])
    assert both["role"] == "user" and [b["content"] for b in both["content"]] == ["1.10", "plain text"]
    no_id = toolmend.parse_tool_calls('<tool_call name="json" args=\'{"cmd": "keys"}\' />')[0]
    with pytest.raises(toolmend.ToolError):
        to_openai(no_id, result)


# -- dispatch ------------------------------------------------------------------------


def test_run_tool_names_and_coercions(tmp_path):
    (tmp_path / "a.txt").write_text("1\n2\n3\n4\n5\n6\n7\n8\n", encoding="utf-8")
    (tmp_path / "b.txt").write_text("1\n2\n3\n4\nfive\n6\n7\n8\n", encoding="utf-8")
    ws = str(tmp_path)
    unknown = toolmend.run_tool("jsn", {"cmd": "get"}, workspace=ws)
    assert not unknown.ok and "@json" in unknown.output and "@diff" in unknown.output
    verb = toolmend.run_tool("json", {"cmd": "gett", "args": {}}, workspace=ws)
    assert not verb.ok and all(
        v in verb.output for v in ("get", "keys", "query", "schema", "validate", "pretty")
    )
    coerced = toolmend.run_tool(
        "diff", {"cmd": "files", "args": {"a": "a.txt", "b": "b.txt", "context": "1"}}, workspace=ws
    )
    assert coerced.ok and coerced.output.count("\n ") == 2  # one line of context each side
    bad = toolmend.run_tool(
        "diff", {"cmd": "files", "args": {"a": "a.txt", "b": "b.txt", "context": "one"}}, workspace=ws
    )
    assert not bad.ok and "'context'" in bad.output
    flag = toolmend.run_tool("json", {"cmd": "pretty", "args": {"text": "[1, 2]", "compact": "yes"}})
    assert flag.ok and flag.output == "[1,2]"
    wrong = toolmend.run_tool("json", {"cmd": "pretty", "args": {"text": "[1]", "compact": [1]}})
    assert not wrong.ok and "'compact'" in wrong.output


def test_run_tools_reads_in_parallel_and_writes_in_order(tmp_path, monkeypatch):
    (tmp_path / "conf.txt").write_text("retries = 3\n", encoding="utf-8")
    (tmp_path / "want.txt").write_text("retries = 5\n", encoding="utf-8")
    patch = "--- a/conf.txt\n+++ b/conf.txt\n@@ -1 +1 @@\n-retries = 3\n+retries = 5\n"
    compare = ("diff", {"cmd": "files", "args": {"a": "conf.txt", "b": "want.txt"}})
    calls = [
        compare,
        toolmend.parse_tool_calls(
            '<tool_call name="json" args=\'{"cmd": "validate", "args": {"text": "[1"}}\' />'
        )[0],
        {
            "name": "diff",
            "args": {"cmd": "apply", "args": {"file": "conf.txt", "patch": patch, "dry_run": "false"}},
        },
        compare,
        toolmend.parse_tool_calls('<tool_call name="json" args=\'{"cmd": "get", "args": {"text": "{\\"a')[0],
        ("read_file", {"file": "conf.txt"}),
        42,
    ]
    seen: list[str] = []
    real = toolmend.tools._batch._one

    def spy(call, ws):  # type: ignore[no-untyped-def]
        seen.append(threading.current_thread().name)
        return real(call, ws)

    monkeypatch.setattr(toolmend.tools._batch, "_one", spy)
    results = toolmend.run_tools(calls, workspace=str(tmp_path), max_workers=4)
    assert len(results) == len(calls)
    assert results[0].ok and not results[0].data["identical"]  # before the write
    assert results[1].ok and results[1].data["valid"] is False
    assert results[2].ok and results[2].data["written"] is True
    assert results[3].ok and results[3].data["identical"]  # after the write
    assert not results[4].ok and "cut off" in results[4].output
    assert not results[5].ok and "unknown tool" in results[5].output
    assert not results[6].ok and "ToolCall" in results[6].output
    assert (tmp_path / "conf.txt").read_text() == "retries = 5\n"
    assert any(name.startswith("toolmend") for name in seen)
    sequential = toolmend.run_tools([compare], workspace=str(tmp_path), max_workers=1)
    assert sequential[0].data["identical"]
    with pytest.raises(toolmend.ToolError):
        toolmend.run_tools([], max_workers=0)


def test_what_counts_as_a_write():
    from toolmend.tools import is_mutation

    assert is_mutation("@diff", {"cmd": "apply", "args": {"file": "a", "patch": "p", "dry_run": False}})
    assert is_mutation("diff", '{"cmd": "apply", "args": {"file": "a", "patch": "p", "dry_run": "no"}}')
    assert is_mutation("diff", {"cmd": "apply", "file": "a", "patch": "p", "dry_run": 0})
    assert not is_mutation("diff", {"cmd": "apply", "args": {"file": "a", "patch": "p"}})
    assert not is_mutation("json", {"cmd": "get", "args": {"dry_run": False}})
    assert is_mutation("diff", "{not readable")
    assert is_mutation("diff", {"cmd": "apply", "args": {"dry_run": "maybe"}})


def test_exported_from_toolmend():
    for name in ("run_tools", "from_openai", "from_anthropic", "StreamingArgs"):
        assert name in toolmend.__all__ and getattr(toolmend, name) is not None


def test_a_response_stopped_at_its_token_limit_never_runs_its_last_call():
    data = recorded("openai_chat_completion.json")
    data["choices"][0]["finish_reason"] = "length"
    data["choices"][0]["message"]["tool_calls"][2]["function"]["arguments"] = (
        "{'cmd': 'keys', 'args': {'file': 'resp"
    )
    calls = toolmend.from_openai(openai_types.ChatCompletion.model_validate(data))
    assert [c.ok for c in calls] == [True, True, False]
    assert "cut off" in calls[2].error
    message = recorded("anthropic_message.json")
    message["stop_reason"] = "max_tokens"
    calls = toolmend.from_anthropic(anthropic_types.Message.model_validate(message))
    assert [c.ok for c in calls] == [True, False] and "max_tokens" in calls[1].error


def test_an_output_its_escapes_push_past_the_cap_says_it_was_cut(tmp_path):
    # (a lone surrogate is shown as \udXXX, six times its length: cut then, the result says so)
    r = toolmend.run_tool("@diff", {"cmd": "text", "args": {"a": "\ud800" * 9000 + "\n", "b": "x\n"}},
                          workspace=str(tmp_path))
    assert r.ok and r.truncated and "cut" in r.output
    small = toolmend.run_tool("@diff", {"cmd": "text", "args": {"a": "\ud800\n", "b": "x\n"}},
                              workspace=str(tmp_path))
    assert small.ok and not small.truncated and "\\ud800" in small.output


@pytest.mark.parametrize("args, why", [
    ('{"cmd": "get", "args": {"text": [10, 20, ...], "path": "[-1]"}}', "leave values out"),
    ('{"cmd": "get", "args": {"text": {"total": NaN}, "path": "total"}}', "JSON cannot carry"),
    ('{"cmd": "get", "args": {"text": [1e400]}}', "JSON cannot carry"),
    ('{"cmd": "get", "args": "{\\"text\\": [1, ...]}"}', "leave values out"),
    ('{"cmd": "keys", "args": {"text": "{}"}} and then some', "go on past their JSON"),
])
def test_run_tool_holds_text_arguments_to_the_rule_a_call_in_model_text_is_held_to(tmp_path, args, why):
    # (a value the model never wrote in a place it left out, or text after them: not run, as
    # parse_tool_calls and the provider adapters refuse the same arguments)
    r = toolmend.run_tool("@json", args, workspace=str(tmp_path))
    assert not r.ok and why in r.output, r.output
    assert toolmend.run_tool("@json", '{"cmd": "get", "args": {"text": [1, 2]}}', workspace=str(tmp_path)).ok


def test_a_fraction_where_a_string_argument_goes_is_refused(tmp_path):
    # (1.10 arrives as 1.1: "identical" would be a wrong answer; an integer's text survives)
    ws = str(tmp_path)
    r = toolmend.run_tool("@diff", '{"cmd": "text", "args": {"a": 1.10, "b": 1.1}}', workspace=ws)
    assert not r.ok and "write it in quotes" in r.output
    assert toolmend.run_tool("@diff", '{"cmd": "text", "args": {"a": 110, "b": 11}}', workspace=ws).ok


def test_run_tools_keeps_the_numbers_of_an_inline_document_as_written(tmp_path):
    # (run_tool on the call's text keeps 1.10 and 1e5; the parsed arguments hold the floats 1.1 and
    # 100000.0, so a batch runs the text when it reads as those arguments)
    args = '{"cmd": "get", "args": {"text": {"a": 1.10, "b": 1e5, "c": [2.50]}, "path": "$"}}'
    want = '{\n  "a": 1.10,\n  "b": 1e5,\n  "c": [\n    2.50\n  ]\n}'
    assert toolmend.run_tool("@json", args, workspace=str(tmp_path)).output == want
    call = toolmend.parse_tool_calls(f'<tool_call>{{"name": "@json", "arguments": {args}}}</tool_call>')[0]
    assert call.ok and call.args["args"]["text"]["a"] == 1.1
    for workers in (1, 2):
        results = toolmend.run_tools([call, call], workspace=str(tmp_path), max_workers=workers)
        assert [r.output for r in results] == [want, want]
    # arguments that differ from their text (a caller's, a schema's coercions) run as parsed
    other = toolmend.ToolCall("@json", args, {"cmd": "get", "args": {"text": {"a": 2.5}, "path": "a"}},
                              True, (0, 0))
    assert toolmend.run_tools([other], workspace=str(tmp_path))[0].output == "2.5"
