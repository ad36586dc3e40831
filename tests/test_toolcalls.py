"""Tool calls found in model text."""

from __future__ import annotations

from toolmend.recovery import ToolCall, parse_tool_calls


def test_self_closing_tags_from_the_spec():
    text = ("Let me look.\n"
            "<tool_call name=\"@json\" args='{\"cmd\":\"schema\",\"args\":{\"file\":\"resp.json\"}}' />\n"
            "then <tool_call name=\"@json\" args='{\"cmd\":\"get\",\"args\":{\"file\":\"r.json\","
            "\"path\":\"data.items[3].name\"}}' />")
    calls = parse_tool_calls(text)
    assert [c.name for c in calls] == ["@json", "@json"]
    assert calls[0].args == {"cmd": "schema", "args": {"file": "resp.json"}}
    assert calls[1].args["args"]["path"] == "data.items[3].name"
    assert all(c.ok for c in calls)
    s, e = calls[0].span
    assert text[s:e].startswith("<tool_call") and text[s:e].endswith("/>")


def test_malformed_args_are_recovered():
    calls = parse_tool_calls("<tool_call name=\"read_file\" args=\"{'file': 'main.go',}\"/>")
    assert calls == [ToolCall("read_file", "{'file': 'main.go',}", {"file": "main.go"}, True,
                              calls[0].span)]


def test_single_quoted_attribute_holding_a_quote():
    calls = parse_tool_calls("<tool_call name='run_command' args='{\"cmd\": \"echo it's\"}' />")
    assert calls[0].args == {"cmd": "echo it's"}


def test_body_forms():
    calls = parse_tool_calls("<tool_call name=\"read_file\">main.go</tool_call>"
                             "<tool_call>{\"name\": \"Grep\", \"arguments\": {\"pattern\": \"TODO\"}}"
                             "</tool_call>"
                             "<tool_call>{name: bash, arguments: \"ls -l\"}</tool_call>")
    assert [(c.name, c.args) for c in calls] == [
        ("read_file", {"file": "main.go"}),
        ("Grep", {"pattern": "TODO"}),
        ("bash", {"command": "ls -l"}),
    ]


def test_html_entities_in_double_quoted_attributes():
    calls = parse_tool_calls('<tool_call name="@json" args="{&quot;cmd&quot;:&quot;keys&quot;}"/>')
    assert calls[0].args == {"cmd": "keys"}


def test_failures_are_reported_not_dropped():
    calls = parse_tool_calls("<tool_call name=\"@coder\" args=\"read --file x\"/>"
                             "<tool_call>{\"arguments\": {}}</tool_call>"
                             "<tool_call name=\"read_file\">truncated")
    assert [c.ok for c in calls] == [False, False, False]
    assert "CLI arguments" in calls[0].error
    assert "without a tool name" in calls[1].error
    # a bare body with no closing tag may have been cut anywhere: it is not run
    assert calls[2].name == "read_file" and "no closing" in calls[2].error
    assert parse_tool_calls("no calls here") == []
    broken = parse_tool_calls("<tool_call name=\"x\" args='{'")
    assert len(broken) == 1 and not broken[0].ok


def test_exec_runs_our_tools_from_model_text(tmp_path, monkeypatch, capsys):
    import io
    import sys

    from toolmend.cli import main

    (tmp_path / "a.json").write_text('{"items": [{"name": "x"}]}', encoding="utf-8")
    text = ("<tool_call name=\"read_file\" args=\"{file: a.go}\"/>"
            "<tool_call name=\"@json\" args='{\"cmd\": \"get\", \"args\": {\"file\": \"a.json\", "
            "\"path\": \"items[0].name\"}}' />")
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(text.encode())))
    assert main(["exec", "--workspace", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "not a toolmend tool" in out and '{"file":"a.go"}' in out
    assert '"x"' in out


def test_lone_surrogates_never_raise():
    import toolmend

    r = toolmend.normalize_tool_args("ls \ud800", "bash")
    assert r.ok and r.text == '{"command":"ls \\ud800"}' and r.value == {"command": "ls \ud800"}
    calls = parse_tool_calls('<tool_call name="bash" args="ls \ud800" />'
                             '<tool_call>{name: bash, arguments: {command: "\\ud800"}}</tool_call>')
    assert [c.ok for c in calls] == [True, True]
    out = toolmend.run_tool("@diff", {"cmd": "text", "args": {"a": "\ud800", "b": "x"}}).output
    out.encode("utf-8")  # readable: the surrogate is shown escaped
    assert "\\ud800" in out


def test_error_output_is_capped():
    import toolmend

    r = toolmend.run_tool("@json", {"cmd": "get", "args": {"text": "{}", "path": "a" * 100_000}})
    assert not r.ok and len(r.output.encode()) <= 4_000 and "cut" in r.output


def test_cli_repeated_options_and_missing_values(tmp_path, capsys):
    from toolmend.cli import main

    (tmp_path / "q.json").write_text('{"items": [{"id": 1, "name": "a", "x": 2}]}')
    assert main(["json", "query", "--file", "q.json", "--path", "items", "--where", "id=1",
                 "--select", "id", "--select", "name", "--workspace", str(tmp_path)]) == 0
    assert '{"id":1,"name":"a"}' in capsys.readouterr().out
    assert main(["repair", "--tool"]) == 2
    assert "--tool needs a value" in capsys.readouterr().err


# -- every shape, in text written for these tests (not the corpus) ------------------------

import pytest  # noqa: E402

SHAPES = [
    ("Sure, calling it.\n\n```json\n{\"name\": \"get_stock_price\", \"arguments\": {\"ticker\": \"AAPL\"}}\n```",  # noqa: E501
     [("get_stock_price", {"ticker": "AAPL"})]),
    ("Here is the call:\n```json\n{\"name\": \"search\", \"arguments\": \"{\\\"term\\\": \\\"x\\\"}\"}\n```",
     [("search", {"term": "x"})]),
    ("[TOOL_CALLS] [{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}]",
     [("get_weather", {"city": "Paris"})]),
    ("{\"name\": \"get_weather\", \"parameters\": {\"city\": \"Paris\"}}", [("get_weather", {"city": "Paris"})]),  # noqa: E501
    ("<tool_call name=\"read-file\" args='{\"path\": \"a b.txt\"}'/>", [("read-file", {"path": "a b.txt"})]),
    ("<tool_call name=\"bash\">\ngrep -rn 'TODO' src/ | wc -l\n</tool_call>",
     [("bash", {"command": "grep -rn 'TODO' src/ | wc -l"})]),
    ("<TOOL_CALL name=\"x\" args='{}' />", [("x", {})]),
    ("```json\n[\n  {\"type\": \"tool_use\", \"id\": \"t1\", \"name\": \"calc\", \"input\": {\"expr\": \"2+2\"}}\n]\n```",  # noqa: E501
     [("calc", {"expr": "2+2"})]),
    ("```json\n{\"name\": \"w\", \"arguments\": {\"city\": \"Paris\"}}\n{\"name\": \"w\", \"arguments\": {\"city\": \"Rome\"}}\n```",  # noqa: E501
     [("w", {"city": "Paris"}), ("w", {"city": "Rome"})]),
    ("```\n<tool_call name=\"read_file\" args='{\"file\": \"x.py\"}' />\n```", [("read_file", {"file": "x.py"})]),  # noqa: E501
    ("{\n  \"name\": \"search\",\n  \"arguments\": {\n    \"term\": \"multi\"\n  }\n}", [("search", {"term": "multi"})]),  # noqa: E501
    ("<tool_call>{\"name\": \"s\", \"arguments\": {\"t\": \"a\"}}</tool_call><tool_call>{\"name\": \"s\", \"arguments\": {\"t\": \"b\"}}",  # noqa: E501
     [("s", {"t": "a"}), ("s", {"t": "b"})]),
    ("<tool_call>\n{\"name\": \"a\", \"arguments\": {}}\n{\"name\": \"b\", \"arguments\": {\"k\": 1}}\n</tool_call>",  # noqa: E501
     [("a", {}), ("b", {"k": 1})]),
    ("<tool_call name=\"run_command\" args='{\"cmd\": \"echo \\\"hi\\\" > out.txt && cat out.txt\"}' />",
     [("run_command", {"cmd": "echo \"hi\" > out.txt && cat out.txt"})]),
    ("<think>maybe {\"name\": \"x\", \"arguments\": {}}</think>{\"name\": \"y\", \"arguments\": {\"a\": 1}}",
     [("y", {"a": 1})]),
]

DECOYS = [
    "Example call:\n```json\n{\"name\": \"search\", \"arguments\": {\"term\": \"x\"}}\n```",
    "The model output was:\n```\n{\"name\": \"search\", \"arguments\": {\"term\": \"x\"}}\n```\nso it failed.",  # noqa: E501
    "Calling now: {\"name\": \"search\", \"arguments\": {\"term\": \"x\"}} as you can see.",
    "To call a tool, respond with JSON such as {\"name\": \"tool\", \"arguments\": {}}.",
    "Your function schema:\n```json\n{\"name\": \"search\", \"parameters\": {\"type\": \"object\", \"properties\": {}}}\n```",  # noqa: E501
    "> {\"name\": \"search\", \"arguments\": {\"term\": \"quoted\"}}",
    "```ts\nconst call = {\"name\": \"search\", \"arguments\": {\"term\": \"x\"}};\n```",
    "<tool_call/> <tool_call > </tool_call> <tool_call name=\"\" /> <tool_call name=\"???\">",
    "```json\n{\"name\": \"search\", \"arguments\": {\"term\": \"x\"}, \"expected\": {\"ok\": true}}\n```",
    "Wrap it in `<tool_call>` ... `</tool_call>`; e.g. ``<tool_call>{\"name\": \"a\", \"arguments\": {}}</tool_call>``.",  # noqa: E501
    "Write calls as <tool_call name=\"x\" args='{...}' /> in your reply.",
    "Use <tool_call name=\"TOOL_NAME\" args='{\"a\": 1}' /> for every call.",
    "```json\n{\"name\": \"search\", \"arguments\": {...}}\n```",
    "{\"name\": \"search\", \"arguments\": \"<json>\"}",
    "",
    "`",
    "```",
    "{",
    "[[[[[[[[[[",
]


@pytest.mark.parametrize(("text", "want"), SHAPES)
def test_every_shape(text, want):
    calls = parse_tool_calls(text)
    assert [(c.name, c.args) for c in calls] == want
    assert all(c.ok for c in calls)


@pytest.mark.parametrize("text", DECOYS)
def test_not_calls(text):
    assert parse_tool_calls(text) == []


def test_raw_args_are_what_the_model_wrote_and_ids_are_kept():
    (c,) = parse_tool_calls('```json\n{"type": "tool_use", "id": "toolu_7", "name": "bash", '
                            '"input": {"command": "ls",   "all": True}}\n```')
    assert c.raw_args == '{"command": "ls",   "all": True}' and c.args == {"command": "ls", "all": True}
    assert c.id == "toolu_7"
    (s,) = parse_tool_calls(r'{"name": "f", "arguments": "{\"a\": 1}"}')
    assert s.raw_args == '{"a": 1}'


def test_cut_anywhere_never_raises_and_never_runs_a_cut_value():
    text = ('<tool_call name="run_command" args=\'{"cmd": "rm -rf build/dist", "cwd": "repo"}\' />\n'
            '```json\n{"name": "search", "arguments": "{\\"term\\": \\"timeout error\\"}"}\n```')
    whole = parse_tool_calls(text)
    assert [c.ok for c in whole] == [True, True]
    for n in range(len(text)):
        for c in parse_tool_calls(text[:n]):
            if c.ok:
                assert (c.name, c.args) in [(w.name, w.args) for w in whole], text[:n]


def test_bytes_and_bad_types():
    assert parse_tool_calls(b'<tool_call name="x" args=\'{"a": 1}\' />')[0].args == {"a": 1}
    with pytest.raises(TypeError):
        parse_tool_calls(None)  # type: ignore[arg-type]


def test_deep_and_long_inputs_finish():
    deep = "```json\n" + "[" * 50_000 + "\n```"
    assert parse_tool_calls(deep) == []
    many = "<tool_call " * 5_000
    assert parse_tool_calls(many) == []
    ticks = "`a " * 5_000
    assert parse_tool_calls(ticks) == []


from hypothesis import (  # noqa: E402
    given,
    settings,
    strategies as st,  # noqa: E402
)

_PIECES = st.sampled_from(["<tool_call", "</tool_call>", "/>", ">", " name=", " args=", "'", '"', "{", "}",
                           "[", "]", ":", ",", "`", "```", "```json\n", "\n", "<think>", "</think>", "\\",
                           '"name"', '"arguments"', '"type": "tool_use"', '"input"', "x", " ", "&quot;"])


@settings(max_examples=300, deadline=None)
@given(st.lists(_PIECES, max_size=40))
def test_any_text_gives_calls_in_order_or_nothing(pieces):
    text = "".join(pieces)
    last = 0
    for c in parse_tool_calls(text):
        start, end = c.span
        assert last <= start <= end <= len(text)
        last = end
        assert c.ok == (c.error is None) and (c.args is None) != c.ok


def test_ok_call_is_the_dataclass_built_faster():
    import dataclasses
    import pickle

    from toolmend.recovery._toolcalls import ok_call

    fast = ok_call("f", '{"a": 1}', {"a": 1}, (3, 9), "c1")
    slow = ToolCall("f", '{"a": 1}', {"a": 1}, True, (3, 9), None, "c1")
    assert fast == slow and repr(fast) == repr(slow) and hash(fast.span) == hash(slow.span)
    assert [getattr(fast, f.name) for f in dataclasses.fields(ToolCall)] == \
        [getattr(slow, f.name) for f in dataclasses.fields(ToolCall)]
    assert vars(fast) == vars(slow)  # every field set, none more
    assert pickle.loads(pickle.dumps(fast)) == slow
    assert dataclasses.replace(fast, ok=False).ok is False
    with pytest.raises(dataclasses.FrozenInstanceError):
        fast.name = "g"  # type: ignore[misc]


@pytest.mark.parametrize("text, key", [
    ('<tool_call>{"name": "x", "arguments": {"a": 1}, "arguments": {"a": 2}}</tool_call>', "arguments"),
    ('{"name": "x", "name": "y", "arguments": {}}', "name"),
    ('```json\n{"type": "function", "function": {"name": "x", "arguments": "{}", "arguments": "{}"}}\n```',
     "arguments"),
    ('{"type": "tool_use", "id": "a", "id": "b", "name": "x", "input": {}}', "id"),
])
def test_a_member_written_twice_is_refused(text, key):
    (call,) = parse_tool_calls(text)
    assert not call.ok and call.args is None and f"writes {key!r} twice" in call.error


@pytest.mark.parametrize("text, before", [
    ('[TOOL_CALLS][{"name": "f", "arguments": {"a": 1}, {"name": "g", "arguments": {"b": 2}}]', 0),
    ('<tool_call>{"name": "f", "arguments": {"a": 1}, {"name": "g", "arguments": {"b": 2}}}</tool_call>', 0),
    ('<|START_ACTION|>[{"tool_call_id": "0", "tool_name": "f", "parameters": {"a": 1}, '
     '{"tool_call_id": "1", "tool_name": "g", "parameters": {"b": 1}}]<|END_ACTION|>', 0),
    ('[TOOL_CALLS][{"name": "f", "arguments": {"a": 1}}, {"name": "g", "arguments": {"b": 2}, '
     '{"name": "h", "arguments": {"c": 3}}]', 1),
    ('[{"type": "function", "function": {"name": "f", "arguments": {"a": 1}, {"x": 1}}}]', 0),
    ('functools[{"name": "f", "arguments": {"a": 1}, {"name": "g", "arguments": {"b": 2}}]', 0),
])
def test_a_call_object_that_breaks_is_not_whole(text, before):
    """A closing brace dropped after the arguments: what follows (another call)
    stands where a member belongs. The call is not ok, and says where it broke
    (returned ok, it would pass for the whole list and lose the calls after)."""
    calls = parse_tool_calls(text)
    assert [c.ok for c in calls] == [True] * before + [False]
    assert calls[-1].args is None and "breaks at offset" in calls[-1].error
    at = int(calls[-1].error.split("offset ")[1].split(" of it:")[0])  # (from the object's "{")
    obj = text.index("{", calls[-1].span[0])
    assert text[obj + at] == "{"


@pytest.mark.parametrize("text, said", [
    ('<tool_call>{"name": "f", "arguments": {"a": 1}, "parameters": {"a": 2}}</tool_call>',
     "writes both 'arguments' and 'parameters'"),
    ('<tool_call>{"name": "f", "args": {"a": 1}, "arguments": {"a": 2}}</tool_call>',
     "writes both 'arguments' and 'args'"),
    ('<tool_call>{"name": "f", "tool_name": "g", "parameters": {"a": 1}}</tool_call>',
     "writes both 'name' and 'tool_name'"),
    ('<tool_call name="f" name="g" args=\'{"a": "x"}\' />', "gives its 'name' attribute twice"),
    ('<tool_call name="f" args=\'{"a": "x"}\' args=\'{"a": "y"}\' />', "gives its 'args' attribute twice"),
    ('<tool_call name="f" tool="g" args=\'{"a": "x"}\' />', "gives both 'name' and 'tool'"),
    ('<tool_call name="f" args=\'{"a": 1}\' arguments=\'{"a": 2}\' />', "gives both 'args' and 'arguments'"),
    ('<tool_call name="f" args=\'{"a": 1}\'>{"a": 2}</tool_call>', "in its args attribute and in its body"),
    ("[f(a=1, a=2)]", "gives argument 'a' twice"),
    ("<|tool_call>call:f{a:1,a:2}<tool_call|>", "gives parameter 'a' twice"),
    ("<start_function_call>call:f{a:<escape>1<escape>,a:<escape>2<escape>}<end_function_call>",
     "gives parameter 'a' twice"),
    ('[TOOL_CALLS]f[ARGS]{"a": 1}[ARGS]{"a": 2}', "gives [ARGS] twice"),
    ("<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>f\n```json\n{\"a\": 1}\n```\n"
     "```json\n{\"a\": 2}\n```<｜tool▁call▁end｜><｜tool▁calls▁end｜>", "in two code blocks"),
])
def test_a_call_written_two_ways_is_refused(text, said):
    """Two names, two sets of arguments: taking either would be a guess."""
    (call,) = parse_tool_calls(text)
    assert not call.ok and call.args is None
    assert said in call.error and "which one the model meant cannot be told" in call.error


@pytest.mark.parametrize("text", [
    '<tool_call name="f" name="f" args=\'{"a": 1}\' />',   # the same value twice: one reading
    '<tool_call name="f" args=\'{"a": 1}\'></tool_call>',  # an empty body
    "<|tool_call>call:f{a:1,b:{a:2}}<tool_call|>",          # the same key at another level
    '[TOOL_CALLS]f[ARGS]{"a": 1}[TOOL_CALLS]g[ARGS]{"b": 2}',
    # a fence inside a string of DeepSeek's fenced arguments (a README being written): one block
    '<\uff5ctool\u2581calls\u2581begin\uff5c><\uff5ctool\u2581call\u2581begin\uff5c>function<\uff5ctool\u2581sep\uff5c>'
    'write\n```json\n{"path": "README.md", "content": "# T\\n```bash\\npip install x\\n```\\n"}\n```'
    '<\uff5ctool\u2581call\u2581end\uff5c><\uff5ctool\u2581calls\u2581end\uff5c>',
])
def test_one_reading_written_plainly_stays_ok(text):
    assert all(c.ok for c in parse_tool_calls(text))


@pytest.mark.parametrize("text", ["[f(a=1e400)]", "[f(a=-1e400)]", "[f(a=[1, 2e999])]",
                                  "[f(a={'x': -1e309})]"])
def test_a_pythonic_number_past_a_double_is_refused(text):
    """JSON has no infinity: an ok call holding one could not be sent on as JSON."""
    (call,) = parse_tool_calls(text)
    assert not call.ok and "too large for a double" in call.error


@pytest.mark.parametrize("head", ['<tool_call name="f" args=\'{"a": 1}\'', '<tool_call name="f"'])
def test_a_tag_cut_inside_its_closing_slash_reads_as_cut_before_it(head):
    def seen(text):
        return [(c.name, c.args, c.ok, c.error) for c in parse_tool_calls(text)]

    assert seen(head + " /") == seen(head + " ") == seen(head) and seen(head)


def test_the_names_met_are_remembered_only_when_a_tool_can_have_them():
    # (the parser remembers which names it checked; a megabyte of "name" is not kept)
    from toolmend.recovery import _toolcalls

    for name in ("a<i>" + "b" * 200_000, "b" * 200_000):
        (c,) = parse_tool_calls('<tool_call>\n{"name": "%s", "arguments": {}}\n</tool_call>' % name)
        assert not c.ok and name not in _toolcalls._CALLABLE
    (c,) = parse_tool_calls('<tool_call>\n{"name": "read_file", "arguments": {}}\n</tool_call>')
    assert c.ok and _toolcalls._CALLABLE.get("read_file") is True


# -- a bare call written again after sentences: shown again, or asked for twice ------------------

_F = [{"type": "function", "function": {"name": "f", "parameters": {
    "type": "object", "properties": {"a": {"type": "integer"}, "b": {"type": "string"}}}}}]


@pytest.mark.parametrize("text", [
    "[f(a=1)]\n\nThis line calls f with a set to 1, as the question asks.\n\n[f(a=1)]",
    '```python\n[f(a=1)]\n```\n\n### Explanation:\n\nThe function f is called with a = 1.\n\n'
    '```python\n[f(a=1)]\n```',
    '{"name": "f", "arguments": {"a": 1}}\n\nThis calls the tool once with the value asked.\n'
    '{"name": "f", "arguments": {"a": 1}}',
    # a copy whose value is written another way is the same call (1 and 1, 'x' and "x")
    "[f(a=1, b='x')]\n\nThe call above passes both of them.\n\n[f(b=\"x\", a=1)]",
    # the third call repeats the first, with the second and a sentence between
    "[f(a=1), f(a=2)]\n\nThese two calls cover the cases.\n\n[f(a=1)]",
    "[f(a=1)]\n\n这一行调用了函数\n\n[f(a=1)]",
])
def test_a_bare_call_repeated_after_sentences_is_not_ok(text):
    for tools in (_F, None):
        forced = "pythonic" if tools is None and "(" in text else None
        calls = parse_tool_calls(text, tools=tools, format=forced)
        if tools is None and not calls:
            continue  # (without tools, a bare JSON line is not read)
        assert calls[0].ok and calls[0].args["a"] == 1
        last = calls[-1]
        assert not last.ok and last.args is None
        assert f"repeats the one at character {calls[0].span[0]} " in last.error
        assert "cannot be told" in last.error
        assert [c.ok for c in calls[1:-1]] == [True] * (len(calls) - 2)


@pytest.mark.parametrize("text", [
    "[f(a=1), f(a=1)]",  # asked twice in one list: nothing between
    "[f(a=1)]\n[f(a=1)]",
    "[f(a=1)]\n\nThen, with the other value:\n\n[f(a=2)]",  # other arguments: another call
    # (1 and True are not the same argument; and True is not an integer)
    "[f(a=1)]\n\nThen the other way round:\n[f(a=True)]",
    # a family's marker makes a call, not a copy of one (vLLM's own test: "Now another bbox call")
    '<tool_call>{"name": "f", "arguments": {"a": 1}}</tool_call>\nNow another call to the same tool:\n'
    '<tool_call>{"name": "f", "arguments": {"a": 1}}</tool_call>',
    "<|python_start|>[f(a=1)]<|python_end|>\nAnd once more, to be sure it took:\n"
    "<|python_start|>[f(a=1)]<|python_end|>",
    '<|start|>assistant<|channel|>commentary to=functions.f <|constrain|>json<|message|>{"a": 1}<|call|>'
    '<|start|>assistant<|channel|>commentary to=functions.f <|constrain|>json<|message|>{"a": 1}<|call|>',
])
def test_a_call_asked_for_again_stays_ok(text):
    for calls in (parse_tool_calls(text, tools=_F),
                  parse_tool_calls(text, format="pythonic" if text.startswith("[") else None)):
        assert len(calls) == 2
        assert not any("repeats the one" in (c.error or "") for c in calls)
    if "True" in text:
        assert [c.ok for c in parse_tool_calls(text, format="pythonic")] == [True, True]


@pytest.mark.parametrize("text", [
    # a family's marker before the copy: a call made, not shown
    "<|python_tag|>f.call(a=1)\n\nAnd then I call it once more, as asked.\n\n<|python_tag|>f.call(a=1)",
    "```tool_code\nf(a=1)\n```\n\nAnd once more, as the user asked for two.\n\n```tool_code\nf(a=1)\n```",
    '{"tool_calls": [{"name": "f", "arguments": {"a": 1}}]}\n\nAnd once more, as the user asked for two.\n\n'
    '{"tool_calls": [{"name": "f", "arguments": {"a": 1}}]}',
    'Action: ```json\n[{"tool_name": "f", "parameters": {"a": 1}}]\n```\nAnd once more, as the user asked.\n'
    'Action: ```json\n[{"tool_name": "f", "parameters": {"a": 1}}]\n```',
    # a comment after each call on its line is the code's, said of it
    "```python\nf(a=1)  # roll for the first player\nf(a=1)  # roll for the second player\n```",
    # two ids: two calls
    '{"id": "call_1", "name": "f", "arguments": {"a": 1}}\n\nThe first roll is done, now the second roll.\n\n'
    '{"id": "call_2", "name": "f", "arguments": {"a": 1}}',
])
def test_a_copy_a_marker_opens_or_the_code_comments_stays_a_call(text):
    calls = parse_tool_calls(text, tools=_F)
    assert len(calls) == 2 and all(c.ok for c in calls), calls


def test_a_copy_is_compared_with_the_last_call_it_repeats_and_names_where_it_is():
    text = "[f(a=1)]\n\nThis is the call again.\n\n[f(a=1)]\n\nAnd here it is once more.\n\n[f(a=1)]"
    calls = parse_tool_calls(text, tools=_F)
    assert [c.ok for c in calls] == [True, False, False]
    assert all(f"repeats the one at character {calls[0].span[0]} " in c.error for c in calls[1:])
    # (its place in the whole text: a stream reading on from a call it reported says the same)
    text = ('<tool_call>{"name": "g", "arguments": {}}</tool_call>\n[f(a=1)]\n\n'
            "That call asks for the one value.\n\n[f(a=1)]")
    tools = _F + [{"type": "function", "function": {"name": "g", "parameters": {"type": "object"}}}]
    from test_tool_stream import _check_both

    _check_both(text, 3, tools=tools)
    assert [c.ok for c in parse_tool_calls(text, tools=tools)] == [True, True, False]
    # compared as the tool's schema types them ("5" for an integer is 5), in the stream as in the text
    text = ('<tool_call>{"name": "f", "arguments": {"a": "5"}}</tool_call>\n\n'
            "This is the same call again, as text.\n\n[f(a=5)]")
    assert [(c.ok, c.args) for c in parse_tool_calls(text, tools=_F)] == [(True, {"a": 5}), (False, None)]
    _check_both(text, 3, tools=_F)


def test_a_repeated_call_reads_alike_in_a_stream():
    from toolmend import ToolCallStream

    text = ('<tool_call>{"name": "f", "arguments": {"a": 1}}</tool_call>\n\n'
            "That call asks for the one value.\n[f(a=1)]")
    want = parse_tool_calls(text, tools=_F)
    assert [c.ok for c in want] == [True, False]
    for thinking in (None, False):
        for size in (1, 3, len(text)):
            s = ToolCallStream(tools=_F, thinking=thinking)
            for k in range(0, len(text), size):
                s.feed(text[k:k + size])
            assert s.finish() == parse_tool_calls(text, tools=_F, thinking=thinking)


@pytest.mark.parametrize("text", [
    "[f(a='x''y')]", "[f(a=\"x\"r'y')]",
    # a quote written three times: 'x' and then '' (a recorded Mistral NeMo output, differentiating)
    "[g(b='3x^3 - 7'), f(a='(3x^3 - 7)''', b=4)]",
    # a quote written twice for one, as SQL escapes it (recorded Claude 3 Haiku and Gemma outputs)
    "[f(movie_name='Schindler''s List')]", "[f(body='Let''s meet at 10 AM tomorrow')]",
])
def test_a_string_right_after_another_in_a_pythonic_call_is_refused(text):
    calls = parse_tool_calls(text, format="pythonic")
    assert calls[-1].name == "f" and not calls[-1].ok and calls[-1].args is None
    assert "right after another" in calls[-1].error
    assert all(c.ok for c in calls[:-1])


@pytest.mark.parametrize("text, want", [
    ("[f(a='x', b='y')]", {"a": "x", "b": "y"}), ("[f(a='''x''')]", {"a": "x"}), ("[f(a='')]", {"a": ""}),
    ("[f(a=\"it's\", b='q')]", {"a": "it's", "b": "q"}), ("[f(a='#', b='y')]", {"a": "#", "b": "y"}),
    ("[f(a=['x', 'y'],\n  b='z')]", {"a": ["x", "y"], "b": "z"}), ("[f(a=r'\\d')]", {"a": "\\d"}),
    # strings with blanks, lines or a comment between: joined as Python joins them, as code writes
    # a long value over lines
    ("[f(a='x' 'y')]", {"a": "xy"}), ("[f(a='x'  # joined\n  'y')]", {"a": "xy"}),
    ('[f(a="import os\\n"\n    "print(1)\\n")]', {"a": "import os\nprint(1)\n"}),
])
def test_strings_apart_stay_ok(text, want):
    (call,) = parse_tool_calls(text, format="pythonic")
    assert call.ok and call.args == want


# -- objects keyed by a tool's name: [{"f": {"a": 1}}] ------------------------------------------

_KEYED_TOOLS = [
    {"type": "function", "function": {"name": "f", "parameters": {
        "type": "object", "properties": {"a": {"type": "number"}, "b": {"type": "string"}},
        "required": ["a"]}}},
    {"type": "function", "function": {"name": "geo.area", "parameters": {
        "type": "object", "properties": {"r": {"type": "number"}}}}}]


@pytest.mark.parametrize("text, want", [
    ('{"f": {"a": 1}}', [("f", {"a": 1})]),
    ('[{"f": {"a": 1}}, {"geo.area": {"r": 2}}]', [("f", {"a": 1}), ("geo.area", {"r": 2})]),
    ('```json\n[\n  {"f": {"a": 1, "b": "x"}},\n  {"f": {"a": 2}}\n]\n```',
     [("f", {"a": 1, "b": "x"}), ("f", {"a": 2})]),
    ("```python\n[{'f': {'a': 1}}]\n```", [("f", {"a": 1})]),
    ('The calls:\n{"f": "{\\"a\\": 3}"}', [("f", {"a": 3})]),  # (the arguments as JSON text: Ollama's test)
    # the tool named, its arguments under a key of their own (Mistral NeMo's "params")
    ('[{"name": "f", "params": {"a": 1}}, {"name": "geo.area", "params": {"r": 2}}]',
     [("f", {"a": 1}), ("geo.area", {"r": 2})]),
    ('{"params": {"a": 1}, "name": "f"}', [("f", {"a": 1})]),
])
def test_objects_keyed_by_a_tool_name_are_its_calls(text, want):
    calls = parse_tool_calls(text, tools=_KEYED_TOOLS)
    assert [(c.name, c.args) for c in calls] == want and all(c.ok for c in calls)
    assert parse_tool_calls(text) == []  # (without the tools: data)


@pytest.mark.parametrize("text", [
    '{"f": {"c": 1}}',  # a key the tool does not have
    '{"f": {"b": "x"}}',  # the property it requires missing
    '{"weather": {"a": 1}}',  # no tool's name
    '{"f": {"a": 1}, "geo.area": {"r": 1}}',  # two members: a map of data
    '[{"f": {"a": 1}}, {"temperature": 21}]',  # an element that is no call
    '{"f": [1, 2]}', '{"f": "just text"}', '{"f": 1}',
    'It is {"f": {"a": 1}} now.',  # inside a sentence
    '{"name": "f", "params": {"a": 1}, "id": 2}', '{"name": "weather", "params": {"a": 1}}',
    '{"name": "f", "params": {"c": 1}}', '{"name": "f", "count": 3}',
    # a tool's definition, its schema under "parameters"
    '{"name": "f", "parameters": {"type": "object", "properties": {"a": {"type": "number"}}}}',
])
def test_data_that_names_a_tool_is_not_a_call(text):
    assert parse_tool_calls(text, tools=_KEYED_TOOLS) == []


def test_keyed_by_a_tool_that_lists_no_properties_only_no_arguments_fit():
    tools = [{"type": "function", "function": {"name": "weather", "parameters": {"type": "object"}}},
             {"type": "function", "function": {"name": "status"}}]
    # a JSON answer about the weather, a tool named weather given: data
    assert parse_tool_calls('{"weather": {"temp_c": 21, "condition": "sunny"}}', tools=tools) == []
    assert parse_tool_calls('{"status": {"x": 1}}', tools=tools) == []
    assert [(c.name, c.ok, c.args) for c in parse_tool_calls('{"status": {}}', tools=tools)] == [
        ("status", True, {})]
    # named beside its arguments, a tool without a schema takes any
    (call,) = parse_tool_calls('{"name": "status", "params": {"x": 1}}', tools=tools)
    assert call.ok and call.args == {"x": 1}


def test_lists_of_calls_a_comma_joins_are_all_read():
    # (Mistral's small models write one list a line, a comma after each; objects so joined are
    # the elements of an array whose brackets are not there: data, see test_tool_call_formats)
    from test_tool_stream import _check_both

    one = '[{"name": "f", "arguments": {"a": %d}}]'
    for text in (one % 1 + ",\n" + one % 2, one % 1 + ", " + one % 2 + ",\n" + one % 3):
        calls = parse_tool_calls(text)
        assert [c.args["a"] for c in calls] == list(range(1, len(calls) + 1)) and len(calls) >= 2
        _check_both(text, 5)
    objects = '{"name": "f", "arguments": {"a": 1}},\n{"name": "f", "arguments": {"a": 2}}'
    assert parse_tool_calls(objects) == []
    assert parse_tool_calls(one % 1 + ",\n" + objects) == []
