"""A cut call never runs by any door (issue 17, items 1 and 2, and the token-limit rule).

Completeness is part of the result: ``Recovered.cut`` says where a text was cut inside a value,
and run_tool, run_tools, ``toolmend call``, ``toolmend exec``, ``StreamingArgs.finish``,
``parse_tool_calls`` and the provider adapters all refuse it. ``raw_args`` is exactly the
argument text of its call, whole or cut. The suite runs once per build (compiled, pure).
"""

from __future__ import annotations

import json
import os
import tempfile

import pytest
from clirun import cli
from hypothesis import HealthCheck, Phase, given, settings, strategies as st

import toolmend
from toolmend import Cut, RecoveryError, StreamingArgs, normalize_tool_args, parse_tool_calls
from toolmend.recovery import CUT_KINDS
from toolmend.tools import from_anthropic, from_openai, run_tool, run_tools

# the repro of the issue, as the shell passes it: the JSON text holds \n escapes
REPRO = ('{"cmd": "apply", "args": {"file": "nums.txt", "dry_run": false, "patch": "--- nums.txt\\n'
         '+++ nums.txt\\n@@ -1,3 +1,3 @@\\n 1\\n-2\\n+two\\n 3\\n')
NUMS = "".join(f"{i}\n" for i in range(1, 21))


@pytest.fixture
def nums(tmp_path):
    (tmp_path / "nums.txt").write_text(NUMS)
    return tmp_path


def _untouched(ws) -> bool:
    return (ws / "nums.txt").read_text() == NUMS and sorted(os.listdir(ws)) == ["nums.txt"]


# -- the repros, as written ------------------------------------------------------------

def test_the_repro_is_cut_inside_the_patch_string():
    r = normalize_tool_args(REPRO, "@diff")
    assert not r.ok and r.cut == Cut(73, "inside a string", "cut off inside a string at offset 73")
    assert REPRO[73] == '"' and REPRO[64:73] == '"patch": '
    assert "cut off inside a string at offset 73" in r.error
    # the completed reading is kept for display
    assert r.strategy == "repair" and r.value["args"]["patch"].endswith("+two\n 3\n")
    with pytest.raises(RecoveryError) as err:
        toolmend.loads(REPRO)
    assert err.value.cut == r.cut and "inside a string at offset 73" in str(err.value)


def test_toolmend_call_refuses_the_repro(nums):
    out = cli("call", "diff", REPRO, "--workspace", str(nums))
    assert out.rc != 0 and "patched" not in out.text
    assert "cut off inside a string at offset 73" in out.err and "not run" in out.err
    assert _untouched(nums)


def test_run_tool_and_run_tools_refuse_the_repro(nums):
    r = run_tool("diff", REPRO, workspace=str(nums))
    assert not r.ok and "cut off inside a string at offset 73" in r.output
    for calls in ([("diff", REPRO)], [{"name": "@diff", "args": REPRO}], [("diff", REPRO), ("json", "{")]):
        results = run_tools(calls, workspace=str(nums))
        assert not any(x.ok for x in results), results
    # a string "args" that is cut is refused too
    inner = REPRO[len('{"cmd": "apply", "args": '):]
    r = run_tool("diff", {"cmd": "apply", "args": inner}, workspace=str(nums))
    assert not r.ok and "cut off inside a string" in r.output
    assert _untouched(nums)


def test_toolmend_exec_never_runs_a_call_that_is_not_ok(nums):
    message = "I will fix it.\n<tool_call name=\"diff\" args='" + REPRO
    (call,) = parse_tool_calls(message)
    assert not call.ok and call.cut is not None and call.cut.what == "inside a string"
    out = cli("exec", "--workspace", str(nums), "--json", stdin=message)
    report = json.loads(out.out)
    assert out.rc != 0 and report == [{"name": "diff", "ok": False, "error": call.error, "run": False,
                                       "cut": {"offset": 73, "what": "inside a string"}}]
    assert _untouched(nums)
    # a not-ok call whose arguments are not JSON at all is not passed on either
    out = cli("exec", "--workspace", str(nums), stdin='<tool_call name="diff">{"cmd": "apply", "args": ')
    assert out.rc != 0 and "not run" in out.text and _untouched(nums)


def test_a_cut_read_reads_nothing(tmp_path):
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "main.py").write_text('{"a": 1}')
    for args in ('{"cmd": "get", "args": {"file": "src/main.',
                 '{"cmd": "keys", "args": {"file": "src/main.py", ', '{"cmd": "keys", "args": {"file": '):
        r = run_tool("json", args, workspace=str(tmp_path))
        assert not r.ok and "not run" in r.output, (args, r.output)
    # only closing braces missing after complete values: the call is whole
    assert run_tool("json", '{"cmd": "keys", "args": {"file": "src/main.py"}', workspace=str(tmp_path)).ok


def test_the_raw_args_of_a_cut_tag_call_are_its_arguments_only():
    message = ("<think>the args of the last call were wrong</think>\nNow with args fixed:\n"
               "<tool_call name=\"diff\" args='" + REPRO)
    (call,) = parse_tool_calls(message)
    assert call.raw_args == REPRO and not call.ok


# -- Recovered.cut over every kind -------------------------------------------------------

@pytest.mark.parametrize(("text", "offset", "what"), [
    ('{"cmd": "rm -rf build/di', 8, "inside a string"),
    ('{"cm', 1, "inside a key"),
    ('{"a": "x\\', 8, "inside an escape"),
    ('{"a": "x\\u00', 8, "inside an escape"),
    ('{"limit": 2', 10, "inside a number"),
    ('{"limit": -', 10, "inside a number"),
    ('{"v": 1.5e', 6, "inside a number"),
    ('{"n": 0x1', 6, "inside a number"),
    ('{"ok": tru', 7, "inside a literal"),
    ("{cmd: rea", 6, "inside a word"),
    ('{"a"', 4, "after a key"),
    ('{"a": ', 6, "after a colon"),
    ('{"a": 1, ', 9, "after a comma"),
    ('[1, 2,', 6, "after a comma"),
    ('{"a": [', 7, "after an opening bracket"),
    ("{", 1, "after an opening bracket"),
    ('"abc', 0, "inside a string"),
    ("```json\n{\"a\": \"b\n```", 14, "inside a string"),
    ("{'a': 'b", 6, "inside a string"),
])
def test_each_kind_of_cut(text, offset, what):
    r = normalize_tool_args(text)
    assert not r.ok and r.cut == (offset, what, f"cut off {what} at offset {offset}") and what in CUT_KINDS
    assert r.strategy == "repair" and r.cut.message in r.error and "cut" in [f.code for f in r.fixes]
    with pytest.raises(RecoveryError):
        toolmend.loads(text)


@pytest.mark.parametrize("text", [
    '{"a": "b"', '{"a": 1 ', '{"a": true', '{"a": [1, 2]', '{"a": {"b": null}', "{a: 'x'",
    '{"a": 1}', "[1, 2]\n",
])
def test_only_closing_brackets_missing_is_whole(text):
    r = normalize_tool_args(text)
    assert r.ok and r.cut is None


def test_the_cut_is_kept_past_the_log_limit():
    text = "{" + ", ".join(f"a{i}: 'x'" for i in range(150)) + ', "z": "cut'
    r = normalize_tool_args(text)
    assert not r.ok and r.cut is not None and r.cut.what == "inside a string"
    assert r.cut.offset == text.rindex('"cut') and "more" in [f.code for f in r.fixes]


def test_a_cut_object_inside_a_double_encoded_string_is_cut():
    r = normalize_tool_args('"{\\"file\\": \\"src/ma"', "read_file")
    assert not r.ok and r.cut is not None


# -- raw_args, exactly, in every format ----------------------------------------------------

ARGS = '{"cmd": "get", "args": {"file": "r.json", "path": "a.b"}}'
_S = json.dumps(ARGS)  # the arguments as a JSON string
FORMATS = {
    "tag, single-quoted args": ("<tool_call name=\"json\" args='{A}' />", "raw"),
    "tag, double-quoted args": ('<tool_call name="json" args="{A}" />', "raw"),
    "tag, bare JSON args": ("<tool_call name=json args={A} />", "raw"),
    "tag body": ('<tool_call name="json">{A}</tool_call>', "raw"),
    "hermes": ('<tool_call>{{"name": "json", "arguments": {A}}}</tool_call>', "raw"),
    "hermes, string arguments": ('<tool_call>{{"name": "json", "arguments": {S}}}</tool_call>', "str"),
    "openai bare": ('{{"name": "json", "arguments": {S}}}', "str"),
    "openai object": ('{{"name": "json", "arguments": {A}}}', "raw"),
    "openai fenced": ('```json\n{{"name": "json", "arguments": {S}}}\n```', "str"),
    "openai wrapper": ('{{"type": "function", "function": {{"name": "json", "arguments": {S}}}}}', "str"),
    "anthropic block": ('{{"type": "tool_use", "id": "toolu_1", "name": "json", "input": {A}}}', "raw"),
    "list": ('[{{"name": "json", "arguments": {A}}}]', "raw"),
    "mistral": ('[TOOL_CALLS] [{{"name": "json", "arguments": {A}}}]', "raw"),
}


def _message(fmt: str, args: str) -> str:
    return "Let me look.\n" + fmt.format(A=args, S=json.dumps(args))


@pytest.mark.parametrize("name", sorted(FORMATS))
def test_raw_args_of_a_whole_call_is_its_argument_text(name):
    fmt, _ = FORMATS[name]
    (call,) = parse_tool_calls("<think>args: {\"x\": 1}</think>\n" + _message(fmt, ARGS))
    assert call.ok and call.raw_args == ARGS and call.args == json.loads(ARGS), call


@pytest.mark.parametrize("name", sorted(FORMATS))
def test_raw_args_of_a_cut_call_is_the_argument_text_so_far(name):
    fmt, how = FORMATS[name]
    whole = _message(fmt, ARGS)
    start = whole.index(ARGS if how == "raw" else json.dumps(ARGS))
    for k in range(2, len(ARGS) - 2):
        if how == "raw":
            message = whole[:start + k]
            want = ARGS[:k]
        else:  # cut inside the JSON string that holds the arguments
            written = json.dumps(ARGS)[:k + 1]
            message = whole[:start] + written
            want = json.loads(written + '"') if not written.endswith("\\") else json.loads(written[:-1] + '"')
        if name == "tag, double-quoted args" and ARGS[k - 1] == '"':
            continue  # args="{"a" cut there: the quote may close the attribute (see below)
        for call in parse_tool_calls(message):
            assert not call.ok, (name, message)
            assert call.raw_args in (want, want.rstrip()), (name, k, call.raw_args, want)


def test_a_double_quoted_attribute_cut_right_after_a_quote_is_never_run():
    """``args="{"a"`` at the end of the text: the last quote may end the attribute or be the
    JSON's; either way the call is not whole."""
    for k in range(2, len(ARGS)):
        if ARGS[k - 1] == '"':
            calls = parse_tool_calls('<tool_call name="json" args="' + ARGS[:k])
            assert all(not c.ok for c in calls) and all(ARGS[:k].startswith(c.raw_args) for c in calls)


def test_a_provider_call_keeps_its_arguments_string_exactly():
    cut = ARGS[:36]  # '{"cmd": "get", "args": {"file": "r.j'
    completion = {"choices": [{"finish_reason": "tool_calls", "message": {"role": "assistant", "tool_calls": [
        {"id": "c1", "type": "function", "function": {"name": "json", "arguments": cut}}]}}]}
    (call,) = from_openai(completion)
    assert call.raw_args == cut and not call.ok
    assert call.cut is not None and call.cut.what == "inside a string"


# -- the token-limit rule ------------------------------------------------------------------

def _completion(finish: str, *arguments: str, content: str | None = None) -> dict:
    calls = [{"id": f"c{i}", "type": "function", "function": {"name": "json", "arguments": a}}
             for i, a in enumerate(arguments)]
    message: dict = {"role": "assistant", "content": content}
    if calls:
        message["tool_calls"] = calls
    return {"choices": [{"finish_reason": finish, "message": message}]}


def test_openai_length_the_last_call_only_when_provably_whole():
    whole, open_brace = ARGS, ARGS[:-1]
    first, last = from_openai(_completion("length", open_brace, whole))
    assert first.ok and last.ok  # the first is judged as in any response: the model wrote past it
    calls = from_openai(_completion("length", whole, open_brace))
    assert calls[0].ok and not calls[1].ok and "cut off" in calls[1].error
    calls = from_openai(_completion("stop", whole, open_brace))
    assert calls[0].ok and calls[1].ok  # not at the limit: a missing final brace is repaired
    calls = from_openai(_completion("length", whole, "{'cmd': 'keys', 'args': {'file': 'r.json'}}"))
    assert calls[1].ok  # repaired quotes, every bracket closed by the model


def test_openai_length_calls_in_the_text():
    text = '<tool_call name="json" args=\'' + ARGS + "' />"
    (call,) = from_openai(_completion("length", content=text))
    assert not call.ok and "token limit" in call.error
    (call,) = from_openai(_completion("length", content=text + "\nThen I will read the result."))
    assert call.ok
    (call,) = from_openai(_completion("stop", content=text))
    assert call.ok


def test_anthropic_max_tokens():
    block = {"type": "tool_use", "id": "toolu_1", "name": "json",
             "input": {"cmd": "keys", "args": {"file": "r.json"}}}
    text = {"type": "text", "text": "done"}
    (call,) = from_anthropic({"stop_reason": "max_tokens", "content": [block]})
    assert not call.ok and "max_tokens" in call.error
    (call,) = from_anthropic({"stop_reason": "max_tokens", "content": [block, text]})
    assert call.ok
    (call,) = from_anthropic({"stop_reason": "end_turn", "content": [block]})
    assert call.ok
    tagged = {"type": "text", "text": '<tool_call name="json" args=\'' + ARGS + "' />"}
    (call,) = from_anthropic({"stop_reason": "max_tokens", "content": [tagged]})
    assert not call.ok
    (call,) = from_anthropic({"stop_reason": "max_tokens", "content": [tagged, text]})
    assert call.ok


# -- the property: nothing is written unless the prefix holds the whole call ---------------

_lines = st.lists(st.text("abcdefghij xyz", min_size=1, max_size=5), min_size=3, max_size=4)


def _call_text(lines: list[str], new: str, order: int) -> tuple[str, str, str]:
    old = "".join(f"{x}\n" for x in lines)
    patched = new + "\n" + "".join(f"{x}\n" for x in lines[1:])
    patch = (f"--- f.txt\n+++ f.txt\n@@ -1,{len(lines)} +1,{len(lines)} @@\n-{lines[0]}\n+{new}\n"
             + "".join(f" {x}\n" for x in lines[1:]))
    members = [("file", "f.txt"), ("dry_run", False), ("patch", patch)]
    members = members[order:] + members[:order]
    inner = ", ".join(f"{json.dumps(k)}: {json.dumps(v)}" for k, v in members)
    return old, patched, '{"cmd": "apply", "args": {' + inner + "}}"


def _holds_the_whole_call(full: str, prefix: str) -> bool:
    """Only closing brackets (and spaces) of the call are missing."""
    return not full[len(prefix):].strip(" }")


def _doors(prefix: str, ws: str) -> list[tuple[str, object]]:
    """Each way a text reaches a tool: name -> a function that runs it (or not)."""
    def exec_door(message: str) -> None:
        cli("exec", "--workspace", ws, stdin=message)

    def stream() -> None:
        s = StreamingArgs("@diff")
        for i in range(0, len(prefix), 7):
            s.feed(prefix[i:i + 7])
        r = s.finish()
        if r.ok:  # as the README's streaming example does
            run_tool("diff", s.text, workspace=ws)

    provider = {"choices": [{"finish_reason": "stop", "message": {"role": "assistant", "tool_calls": [
        {"id": "c", "type": "function", "function": {"name": "diff", "arguments": prefix}}]}}]}
    at_limit = json.loads(json.dumps(provider))
    at_limit["choices"][0]["finish_reason"] = "length"
    partial = StreamingArgs()
    partial.feed(prefix)
    anthropic = {"stop_reason": "max_tokens", "content": [
        {"type": "tool_use", "id": "t", "name": "diff", "input": partial.value or {}}]}
    return [
        ("run_tool", lambda: run_tool("diff", prefix, workspace=ws)),
        ("run_tools", lambda: run_tools([("diff", prefix), ("json", '{"cmd": "keys"}')], workspace=ws)),
        ("tag call, exec", lambda: exec_door("Applying.\n<tool_call name=\"diff\" args='" + prefix)),
        ("hermes, exec", lambda: exec_door('<tool_call>{"name": "diff", "arguments": ' + prefix)),
        ("tag call, run_tools", lambda: run_tools(parse_tool_calls('<tool_call name="diff">' + prefix),
                                                  workspace=ws)),
        ("openai", lambda: run_tools(from_openai(provider), workspace=ws)),
        ("openai at the limit", lambda: run_tools(from_openai(at_limit), workspace=ws)),
        ("anthropic at max_tokens", lambda: run_tools(from_anthropic(anthropic), workspace=ws)),
        ("stream", stream),
    ]


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow],
          phases=(Phase.explicit, Phase.reuse, Phase.generate))  # each example runs ~2,000 calls
@given(lines=_lines, new=st.text("ABCDEF", min_size=1, max_size=4), order=st.integers(0, 2))
def test_no_prefix_of_a_mutating_call_writes_unless_it_holds_the_whole_call(lines, new, order):
    old, patched, full = _call_text(lines, new, order)
    with tempfile.TemporaryDirectory() as ws:
        path = os.path.join(ws, "f.txt")

        def reset() -> None:
            for name in os.listdir(ws):
                os.remove(os.path.join(ws, name))
            with open(path, "w") as f:
                f.write(old)

        reset()
        wrote_whole = set()
        for k in range(1, len(full) + 1):
            prefix = full[:k]
            whole = _holds_the_whole_call(full, prefix)
            for door, run in _doors(prefix, ws):
                run()  # type: ignore[operator]
                with open(path) as f:
                    now = f.read()
                changed = now != old or sorted(os.listdir(ws)) != ["f.txt"]
                if changed:
                    assert whole, (door, prefix)
                    assert now == patched, (door, prefix)
                    wrote_whole.add(door)
                    reset()
        # the whole call does run through every door that can run it
        # (a tag call needs its closing "' />", which no prefix of the arguments holds)
        assert {"run_tool", "run_tools", "hermes, exec", "openai", "stream"} <= wrote_whole


def test_the_cut_record_says_where_a_text_stops():
    def cut_reason(text: str) -> str | None:
        cut = normalize_tool_args(text).cut
        return None if cut is None else cut.what

    assert cut_reason('{"a": "b') == "inside a string" and cut_reason('{"a": [1, ') == "after a comma"
    assert cut_reason('{"a": "b"') is None and cut_reason("not json at all") is None


def test_every_stop_at_a_limit_refuses_the_last_call():
    block = {"type": "tool_use", "id": "t", "name": "write", "input": {"path": "a.txt"}}
    (call,) = from_anthropic({"stop_reason": "model_context_window_exceeded", "content": [block]})
    assert not call.ok and "model_context_window_exceeded" in call.error
    # the Responses API: a response stopped short, and an item still in progress
    item = {"type": "function_call", "call_id": "c", "name": "write", "arguments": '{"path": "a.txt"'}
    still = {**item, "status": "incomplete"}
    for response in ({"object": "response", "status": "incomplete", "output": [item]},
                     {"object": "response", "status": "completed", "output": [still]}):
        (call,) = from_openai(response)
        assert not call.ok and "cut off" in call.error
    whole = {**item, "arguments": '{"path": "a.txt"}'}
    first, last = from_openai({"object": "response", "status": "incomplete", "output": [whole, item]})
    assert first.ok and first.args == {"path": "a.txt"} and not last.ok  # (the model wrote past the first)


def test_a_responses_custom_tool_call_is_an_entry_never_dropped():
    custom = {"type": "custom_tool_call", "call_id": "c2", "name": "read", "input": "a.txt"}
    (call,) = from_openai({"object": "response", "status": "completed", "output": [custom]})
    assert not call.ok and call.name == "read" and call.id == "c2" and "free-form" in call.error


@pytest.mark.parametrize("value", [float("nan"), float("inf"), -float("inf"), [1.0, float("nan")]])
def test_parsed_arguments_holding_nan_or_infinity_are_not_ok(value):
    # (orjson writes them as null: raw_args would say null where args hold nan)
    def block(given: dict) -> dict:
        return {"content": [{"type": "tool_use", "id": "t", "name": "f", "input": given}]}

    (call,) = from_anthropic(block({"x": value}))
    assert not call.ok and "NaN or Infinity" in call.error
    assert not normalize_tool_args({"x": value}).ok
    (call,) = from_anthropic(block({"a": 10 ** 5000}))
    assert not call.ok and "cannot be written as JSON" in call.error


def test_an_argument_given_beside_args_and_in_it_with_two_values_is_refused(tmp_path):
    (tmp_path / "a.txt").write_text("one\ntwo\n")
    patch = "--- a/a.txt\n+++ b/a.txt\n@@ -1,2 +1,2 @@\n one\n-two\n+TWO\n"
    given = {"file": "a.txt", "patch": patch, "dry_run": False}
    r = run_tool("@diff", {"cmd": "apply", "dry_run": True, "args": given}, workspace=str(tmp_path))
    assert not r.ok and "'dry_run' is given both" in r.output
    assert (tmp_path / "a.txt").read_text() == "one\ntwo\n"
    r = run_tool("@diff", {"cmd": "apply", "dry_run": True, "args": {"file": "a.txt", "patch": patch}},
                 workspace=str(tmp_path))
    assert r.ok and (tmp_path / "a.txt").read_text() == "one\ntwo\n"


@pytest.mark.parametrize("context", ["1\u0662", "1_0", "1e3", "5.5"])
def test_an_integer_argument_in_a_spelling_python_alone_reads_is_refused(context):
    args = {"a": "x\n", "b": "y\n", "context": context}
    r = run_tool("@diff", {"cmd": "text", "args": args}, workspace=".")
    assert not r.ok and "must be an integer" in r.output
    assert run_tool("@diff", {"cmd": "text", "args": {"a": "x\n", "b": "y\n", "context": " 007 "}},
                    workspace=".").ok


def test_apply_to_one_file_says_what_other_sections_it_left(tmp_path):
    (tmp_path / "a.txt").write_text("one\ntwo\n")
    patch = ("--- a/a.txt\n+++ b/a.txt\n@@ -1,2 +1,2 @@\n one\n-two\n+TWO\n"
             "--- a/b.txt\n+++ b/b.txt\n@@ -1,2 +1,2 @@\n x\n-y\n+Y\n")
    args = {"file": "a.txt", "patch": patch}
    r = run_tool("@diff", {"cmd": "apply", "args": args}, workspace=str(tmp_path))
    assert r.ok and "also holds 1 section for other files ('a/b.txt'), not applied" in r.output
