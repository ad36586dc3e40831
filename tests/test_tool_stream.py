"""ToolCallStream: the tool calls of a streamed message, as events.

The property: whatever the splits, ``finish()`` is ``parse_tool_calls`` on the
whole text, the shown text is a prefix of the message that holds no part of a
call, the call events are those of ``finish()`` one for one, and when there is
no call nothing is lost.
"""

from __future__ import annotations

import glob
import json
import os
import random
import re

import pytest
from chunked import check_each, chunks
from hypothesis import HealthCheck, given, settings, strategies as st

import toolmend
from toolmend import ToolCallStream, parse_tool_calls
from toolmend.errors import ToolmendError
from toolmend.recovery import ArgsDelta, CallFinished, CallStarted, TextDelta
from toolmend.recovery._formats._reply import reply_shown

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "tool_calls")
FILES = ("calls.jsonl", "families.jsonl", "decoys.jsonl",
         *sorted(os.path.relpath(p, DATA) for p in glob.glob(os.path.join(DATA, "peers", "*.jsonl"))))


def _rows() -> list[dict]:
    rows = []
    for name in FILES:
        with open(os.path.join(DATA, name), encoding="utf-8") as f:
            rows.extend(json.loads(line) for line in f if line.strip())
    return [r for r in rows if _tools_taken(r)]


def _tools_taken(row: dict, _told: dict[str, bool] = {}) -> bool:  # noqa: B006 - the answers kept
    """Whether the row's tools are JSON Schemas (a peer's test may give {"type": "float"},
    which both readings refuse alike: tests/test_tool_call_formats.py holds that). Many rows
    give the same tools: each list is tried once."""
    key = json.dumps(row.get("tools"), sort_keys=True)
    if key not in _told:
        try:
            parse_tool_calls("", tools=row.get("tools"))
            parse_tool_calls('<tool_call>{"name": "x", "arguments": {}}</tool_call>', tools=row.get("tools"))
        except ToolmendError:
            _told[key] = False
        else:
            _told[key] = True
    return _told[key]


ROWS = _rows()
TEXTS = [r["text"] for r in ROWS]
# the later, larger suites (over 1,900 cases): read in fewer splits each, so that the whole
# suite stays within its time; the splits one character at a time and the cuts at every
# point are the first suites' and our corpus'
_WIDE = ("dynamo/", "trtllm/", "sglrouter/", "mlxlm/", "llamastack/", "transformers/", "harmony/")


def _wide(row: dict) -> bool:
    return str(row.get("id", "")).startswith(_WIDE)


# The streams of a message a character at a time, and of its cuts at every point, are split
# between the builds: each takes every other one. The readers are one code in both builds, and
# the kernels under them are held to one answer by their own tests (test_markers_kernel.py,
# test_token_search.py: each twin against the other on any text); every other reading of every
# message runs in both.
_CUTS_OF_THIS_BUILD = 0 if toolmend.compiled else 1


def _forced(row: dict) -> str | None:
    fmt = row.get("format")
    if not isinstance(fmt, str):
        return None
    try:
        parse_tool_calls("", format=fmt)
    except ToolmendError:
        return None
    return fmt


_EARLY: dict[int, int] = {}  # a stream's characters shown before its close() (see _run)


def _run(text: str, cuts: list[int], **kw) -> tuple[ToolCallStream, list]:
    s = ToolCallStream(**kw)
    events: list = []
    last = 0
    for c in sorted(set(cuts)) + [len(text)]:
        events.extend(s.feed(text[last:c]))
        last = c
    _EARLY.clear()
    _EARLY[id(s)] = s.shown
    events.extend(s.close())
    return s, events


def _check(text: str, cuts: list[int], **kw) -> None:
    s, events = _run(text, cuts, **kw)
    want = parse_tool_calls(text, **kw)
    got = s.finish()
    assert got == want
    shown = "".join(e.text for e in events if isinstance(e, TextDelta))
    early = _EARLY[id(s)]  # (the prose shown as it came; at close() the rest, less its reasoning)
    assert text.startswith(shown[:early])
    assert s.text == text
    if not want:  # nothing held, nothing lost but the reasoning the scan reads
        assert shown[early:] == "".join(reply_shown(text, early, kw.get("format"), kw.get("thinking")))
    for c in want:
        if c.span != (0, 0):
            assert early <= c.span[0], (shown, c)  # never any part of a call
    _shown_outside_calls(text, events, want, True)  # (and the prose around the calls, at the end)
    _check_call_events(events, want)


def _shown_outside_calls(text: str, events: list, want: list, words: bool = False) -> None:
    """Each piece of text shown stands, in order, outside every call (``words``: and the text
    shown after a call holds no markup, the model's words read at the end)."""
    spans = [c.span for c in want if c.span != (0, 0)]
    pos = 0
    for piece in (e.text for e in events if isinstance(e, TextDelta)):
        at = text.find(piece, pos)
        while at >= 0 and any(at < b and a < at + len(piece) for a, b in spans):
            at = text.find(piece, at + 1)  # the next place of it outside every call
        assert at >= 0, (piece, text)
        bare = re.sub(r"(`+)[^`]*\1|</?(?:b|i|em|strong)>", "", piece)  # (code spans, HTML's tags: prose's)
        if words and any(b <= at for _, b in spans):
            assert "<|" not in bare and "</" not in bare and "```" not in bare, (piece, text)
        pos = at + len(piece)


def _check_call_events(events: list, want: list) -> None:
    """The call events are ``want``'s, one for one: each call started once, in
    order, its fragments joined its raw_args, finished once with the call."""
    finished = [e for e in events if isinstance(e, CallFinished)]
    assert [e.call for e in finished] == want
    assert [e.index for e in finished] == list(range(len(want)))
    started = [e for e in events if isinstance(e, CallStarted)]
    assert [(e.index, e.name, e.id) for e in started] == [(i, c.name, c.id) for i, c in enumerate(want)]
    for i, c in enumerate(want):
        assert "".join(e.arguments for e in events if isinstance(e, ArgsDelta) and e.index == i) == c.raw_args
    seen: dict[int, str] = {}  # started, fragments, finished, in that order
    for e in events:
        if isinstance(e, CallStarted):
            assert e.index not in seen and e.index == len(seen)
            seen[e.index] = "started"
        elif isinstance(e, ArgsDelta):
            assert seen.get(e.index) == "started"
        elif isinstance(e, CallFinished):
            assert seen.get(e.index) == "started"
            seen[e.index] = "finished"


def test_the_corpora_are_loaded():
    assert len(ROWS) > 400


def _row_id(i: int, row: dict) -> str:
    return str(row.get("id", i))


@pytest.mark.parametrize("part", chunks(ROWS, _row_id))
def test_every_corpus_message_in_random_splits(part):
    check_each(part, _in_random_splits, _row_id)


def _in_random_splits(i: int, row: dict) -> None:
    text = row["text"]
    rng = random.Random(i)
    fmt = _forced(row)
    for _ in range(1 if _wide(row) else 3):
        cuts = [rng.randrange(len(text) + 1) for _ in range(rng.randrange(1, 12))]
        _check(text, cuts)
        if fmt is not None:
            _check(text, cuts, format=fmt)
    if not _wide(row) and i % 2 == _CUTS_OF_THIS_BUILD:  # (each build every other row: see above)
        _check(text, list(range(len(text))))  # one character at a time
    _check(text, list(range(0, len(text), 4)))  # the bench's 4-character deltas
    if row.get("tools") and fmt is not None:
        _check(text, list(range(0, len(text), 7)), format=fmt, tools=row["tools"])


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(TEXTS).flatmap(
    lambda t: st.tuples(st.just(t), st.lists(st.integers(0, len(t)), max_size=20))))
def test_random_splits_of_corpus_messages(case):
    text, cuts = case
    _check(text, cuts)


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet="<>[]{}`~/_tool_call think:\"namergs,1Afunctos\n|", max_size=80),
       st.lists(st.integers(0, 80), max_size=10))
def test_random_texts_in_random_splits(text, cuts):
    _check(text, [c for c in cuts if c <= len(text)])


def test_text_before_a_call_is_shown_as_it_comes_and_the_call_at_the_end():
    s = ToolCallStream()
    assert s.feed("I'll look ") == [TextDelta("I'll look ")]
    assert s.feed("it up.\n<tool_") == [TextDelta("it up.\n")]
    assert s.feed('call>{"name": "get", "arguments": {"a": 1}}</tool_call>') == []
    events = s.close()
    whole = 'I\'ll look it up.\n<tool_call>{"name": "get", "arguments": {"a": 1}}</tool_call>'
    call = parse_tool_calls(whole)[0]
    assert events == [CallStarted(0, None, "get"), ArgsDelta(0, call.raw_args), CallFinished(0, call)]
    assert call.ok and call.args == {"a": 1}
    assert s.finish() == [call]
    assert s.close() == []  # closing twice adds nothing


def test_a_partial_word_marker_is_held_until_it_is_prose():
    s = ToolCallStream()
    assert s.feed("use functo") == [TextDelta("use ")]
    assert s.feed("rs here") == [TextDelta("functors here")]
    assert s.feed(" then functools") == [TextDelta(" then ")]
    assert s.feed('[{"name": "f", "arguments": {}}]') == []
    (call,) = s.finish()
    assert call.name == "f" and call.ok


def test_a_message_without_calls_is_all_shown():
    text = "Sizes: a < b and [1, 2] {x} `code` ~ > done, Action: none, functools.partial"
    s, events = _run(text, list(range(0, len(text), 3)))
    assert "".join(e.text for e in events if isinstance(e, TextDelta)) == text
    assert s.finish() == []


def test_a_cut_call_is_never_ok():
    text = '<tool_call>{"name": "write", "arguments": {"path": "a.py", "content": "def f'
    s, events = _run(text, list(range(0, len(text), 4)))
    (call,) = s.finish()
    assert not call.ok and call == parse_tool_calls(text)[0]
    assert [e.call for e in events if isinstance(e, CallFinished)] == [call]
    assert not any(isinstance(e, TextDelta) for e in events)


def test_a_later_bare_think_closer_turns_a_call_into_reasoning():
    head = 'Let me try <tool_call>{"name": "rm", "arguments": {"path": "/"}}</tool_call> no.'
    s = ToolCallStream()
    events = s.feed(head)
    assert not any(isinstance(e, (CallStarted, CallFinished)) for e in events)  # not finished early
    events += s.feed("</think>All done.")
    events += s.close()
    assert s.finish() == [] == parse_tool_calls(head + "</think>All done.")
    assert not any(isinstance(e, (CallStarted, CallFinished)) for e in events)


def test_calls_inside_a_closed_think_never_run():
    text = '<think>maybe <tool_call>{"name": "rm", "arguments": {}}</tool_call></think>' \
           '<tool_call>{"name": "ls", "arguments": {}}</tool_call>'
    s, events = _run(text, list(range(0, len(text), 5)))
    assert [c.name for c in s.finish()] == ["ls"]
    assert [e.name for e in events if isinstance(e, CallStarted)] == ["ls"]


def test_format_and_tools_are_those_of_parse_tool_calls():
    tools = [{"type": "function", "function": {"name": "get_weather", "parameters": {
        "type": "object", "properties": {"city": {"type": "string"}, "days": {"type": "integer"}}}}}]
    text = ("<tool_call>\n<function=get_weather>\n<parameter=city>Paris</parameter>\n"
            "<parameter=days>3</parameter>\n</function>\n</tool_call>")
    s, _ = _run(text, list(range(0, len(text), 4)), format="qwen3_coder", tools=tools)
    (call,) = s.finish()
    assert call.ok and call.args == {"city": "Paris", "days": 3}
    assert s.finish() == parse_tool_calls(text, format="qwen3_coder", tools=tools)


def test_bad_use_is_refused_clearly():
    with pytest.raises(ToolmendError, match="unknown format"):
        ToolCallStream(format="no_such_format")
    s = ToolCallStream()
    with pytest.raises(TypeError, match="must be str"):
        s.feed(b"bytes")  # type: ignore[arg-type]
    s.feed("hi")
    s.finish()
    with pytest.raises(ToolmendError, match="closed"):
        s.feed("more")


def test_events_have_the_openai_delta_shape():
    assert TextDelta("hi").openai_delta() == {"content": "hi"}
    assert CallStarted(1, "call_9", "get").openai_delta() == {"tool_calls": [
        {"index": 1, "id": "call_9", "type": "function", "function": {"name": "get", "arguments": ""}}]}
    assert ArgsDelta(1, '{"a"').openai_delta() == {
        "tool_calls": [{"index": 1, "function": {"arguments": '{"a"'}}]}


def test_exports():
    assert toolmend.ToolCallStream is ToolCallStream
    assert toolmend.recovery.ToolCallStream is ToolCallStream
    assert "ToolCallStream" in toolmend.__all__ and "ToolCallStream" in toolmend.recovery.__all__


def test_the_readme_example_runs():
    with open(os.path.join(os.path.dirname(DATA), os.pardir, os.pardir, "README.md"), encoding="utf-8") as f:
        readme = f.read()
    section = readme[readme.index("### Streamed messages: `ToolCallStream`"):]
    start = section.index("```python\n") + 10
    code = section[start:section.index("\n```", start)]
    assert "ToolCallStream(" in code
    text = 'Checking.\n<tool_call>{"name": "get", "arguments": {"a": 1}}</tool_call>'
    sent: list = []
    ran: list = []

    class Chunk:
        def __init__(self, t: str) -> None:
            self.text = t

    class Model:
        def stream(self, messages):
            return [Chunk(text[i:i + 4]) for i in range(0, len(text), 4)]

    class Client:
        def send(self, message):
            sent.append(message)

    env = {"toolmend": toolmend, "model": Model(), "messages": [], "client": Client(),
           "request": {"tools": [{"type": "function", "function": {"name": "get", "parameters": {}}}]},
           "run": ran.append, "report": ran.append}
    exec(code, env)
    assert [c.name for c in ran] == ["get"] and ran[0].ok
    assert env["calls"] == parse_tool_calls(text, tools=env["request"]["tools"], thinking=False)
    deltas = [m["choices"][0]["delta"] for m in sent]
    assert "".join(d.get("content", "") for d in deltas) == "Checking.\n"
    calls = [d["tool_calls"][0] for d in deltas if "tool_calls" in d]
    assert calls[0]["function"]["name"] == "get" and len(calls) > 2  # the arguments in pieces
    assert "".join(c["function"]["arguments"] for c in calls) == ran[0].raw_args


@settings(max_examples=150, deadline=None)
@given(st.text(max_size=60), st.lists(st.integers(0, 60), max_size=8))
def test_any_unicode_text_in_random_splits(text, cuts):
    _check(text, [c for c in cuts if c <= len(text)])


@pytest.mark.parametrize("text", [
    "\u25c1think\u25b7 <tool_call>{\"name\": \"rm\", \"arguments\": {}}</tool_call>\u25c1/think\u25b7 ok",
    "line one\r\nline two\r\n<tool_call>{\"name\": \"ls\", \"arguments\": {}}</tool_call>\r\n",
    "[THINK]plan[/THINK][TOOL_CALLS]get[ARGS]{\"a\": 1}",
    "lone \ud800 surrogate then <tool_call>{\"name\": \"ls\", \"arguments\": {}}</tool_call>",
    "",
    "   \n\n  ",
])
def test_ugly_messages(text):
    for step in (1, 2, 4, 9):
        _check(text, list(range(0, len(text), step)))
        _check(text, list(range(0, len(text), step)), format="functionary")


def test_a_functionary_message_opening_with_a_name_is_held_then_read():
    text = 'get_weather\n{"city": "Paris"}'
    s, events = _run(text, list(range(len(text))), format="functionary")
    assert not any(isinstance(e, TextDelta) for e in events)
    (call,) = s.finish()
    assert call.ok and call.name == "get_weather" and call.args == {"city": "Paris"}
    s, events = _run("Hello\nthere", [1, 2, 6, 7], format="functionary")
    assert "".join(e.text for e in events if isinstance(e, TextDelta)) == "Hello\nthere"



_WEATHER_TOOLS = [{"type": "function", "function": {"name": n, "parameters": {
    "type": "object", "properties": {k: {"type": "string"}}}}}
    for n, k in (("get_weather", "city"), ("get_time", "tz"))]


@pytest.mark.parametrize("text, want", [
    ('get_weather\n{"city": "Paris"}', [("get_weather", True)]),
    ('  get_weather \r\n {"city": "Paris"}<|assistant|>get_time\n{"tz": "CET"}',
     [("get_weather", True), ("get_time", True)]),
    ('functions.get_weather\n{"city": "Paris"}', [("get_weather", True)]),
    ('get_weather\n{"city": "Paris"} and more words', [("get_weather", False)]),
    ('get_weather\n{"city": "Pa', [("get_weather", False)]),
    # a first line that is no tool given: text, and the JSON after it data
    ('Sure\n{"city": "Paris"}', []), ('get_weathers\n{"city": "Paris"}', []),
    ('get_weather is the one\n{"city": "Paris"}', []), ('get_weat', []),
    ('\n' * 70 + 'get_weather\n{"city": "Paris"}', []),  # (the head is the message's first characters)
    ('<tool_call>{"name": "get_time", "arguments": {"tz": "CET"}}</tool_call>', [("get_time", True)]),
])
def test_a_message_opening_with_a_tools_name_then_its_json_is_glm4s(text, want):
    # GLM-4-9B-Chat's calls have no marker: with tools= they are known by the tool's name
    assert [(c.name, c.ok) for c in parse_tool_calls(text, tools=_WEATHER_TOOLS)] == want
    assert not any(c.ok for c in parse_tool_calls(text)) or text.startswith("<tool_call>")
    assert [(c.name, c.ok) for c in parse_tool_calls(text, tools=_WEATHER_TOOLS, format="hermes")] == \
        [w for w in want if text.startswith("<tool_call>")]  # (a format named reads its own only)
    for step in (1, 2, 3, 7, len(text) or 1):
        cuts = list(range(0, len(text), step))
        _check(text, cuts, tools=_WEATHER_TOOLS)
        _check_live(text, cuts, tools=_WEATHER_TOOLS, thinking=False)


@pytest.mark.parametrize("text, want", [
    # Python calls with no list around them, known by a tool's name (gorilla-openfunctions-v2's
    # "f(a=1), g(b=2)", NexusRaven's "f(a=1); g(b=2);", small models' bare call, a turn end after)
    ("get_weather(city='Paris')", [("get_weather", True)]),
    ("get_weather(city='Paris'), get_time(tz='CET')", [("get_weather", True), ("get_time", True)]),
    ("get_weather(city='Paris'); get_time(tz='CET');", [("get_weather", True), ("get_time", True)]),
    ("get_weather(city='Paris')\nget_time(tz='CET')<end_of_turn>",
     [("get_weather", True), ("get_time", True)]),
    ("functions.get_weather(city='Paris')", [("get_weather", True)]),
    ("get_weather(city='Paris'), out_of_domain(q='')", [("get_weather", True), ("out_of_domain", False)]),
    ("get_weather('Paris')", [("get_weather", False)]),  # (by position: not ok, as in a list)
    ("get_weather(city='Pa", [("get_weather", False)]),  # cut
    ("get_weather(city='Paris')\nThe weather there is mild.", [("get_weather", True)]),
    # a sentence that opens with a call, or a call no tool has: text
    ("get_weather(city='Paris') is what I would call.", []), ("print(city='Paris')", []),
    ("get_weather is a tool(city='Paris')", []), ("Use get_weather(city='Paris')", []),
])
def test_a_message_opening_with_a_python_call_of_a_tool_given_is_read(text, want):
    assert [(c.name, c.ok) for c in parse_tool_calls(text, tools=_WEATHER_TOOLS)] == want
    assert not parse_tool_calls(text)  # (without tools= a bare call is code, not a call)
    for step in (1, 2, 3, 7, len(text)):
        cuts = list(range(0, len(text), step))
        _check(text, cuts, tools=_WEATHER_TOOLS)
        _check_live(text, cuts, tools=_WEATHER_TOOLS, thinking=False)


@pytest.mark.parametrize("text", [
    # letters that fold to ASCII ones only under Unicode's rules: no reasoning marker's (they raised
    # StopIteration, the closer looked up by the lower-cased opener)
    "<TH\u0130NK>", "[TH\u0130NK]", "<\u017feed:think>x", "<th\u0131nk>x</think>",
    '<|\u017fTART_THINKING|>x<|END_THINKING|>\n[f(a=1)]',
    "<think>x</th\u0131nk>\n[f(a=1)]\n</think>\n[g(b=2)]",
    "<THINK>x</think>\n[f(a=1)]",
])
def test_reasoning_markers_fold_as_ascii_letters_do(text):
    parse_tool_calls(text)
    for step in (1, 2, 5, len(text)):
        cuts = list(range(0, len(text), step))
        _check(text, cuts)
        for thinking in (False, True):
            _check_live(text, cuts, thinking=thinking)


@pytest.mark.parametrize("text, want", [
    # small models fence their calls as Python: with tools=, a fence holding nothing but calls of
    # tools given is those calls (recorded DeepSeek-Coder and Gemma outputs)
    ("```python\n[get_weather(city='Paris')]\n```", ["get_weather"]),
    ("```python\nget_weather(city='Paris')\nget_time(tz='CET')\n```\nDone.", ["get_weather", "get_time"]),
    ("```py\n# the call\nget_weather(city='Paris')\n```", ["get_weather"]),
    ("```python\n        [{'name': 'get_weather', 'parameters': {'city': 'Paris'}}]\n        ```",
     ["get_weather"]),
    ("```python\n[{'name': 'other', 'parameters': {}}]\n```", []),
    # read as Python reads it: a variable, strings written side by side, an escape are no JSON's
    ("```python\n[{'name': 'get_weather', 'parameters': {'city': city}}]\n```", []),
    ("```python\n[{'name': 'get_weather', 'parameters': {'city': 'Par' 'is'}}]\n```", []),
    ("```python\n[{'name': 'get_weather', 'parameters': {'at': (3, 5)}}]\n```", ["get_weather"]),  # (a list)
    ("```python\nx = [{'name': 'get_weather', 'parameters': {'city': 'Paris'}}]\n```", []),
    # anything else in it is code: a call of another function, an expression, an import, the framing
    ("```python\nprint(get_weather(city='Paris'))\n```", []), ("```python\n[other(a=1)]\n```", []),
    ("```python\nimport os\nget_weather(city='Paris')\n```", []),
    ("For example:\n```python\nget_weather(city='Paris')\n```", []),
    ("Usage:\n```python\nget_weather(city='Paris')\n```", []),
    # a comment that says it is shown
    ("```python\n# Example usage:\nget_weather(city='Paris')\n```", []),
    ("```python\n# Do not run this\nget_weather(city='Paris')\n```", []),
    ("```python\n# e.g.\nget_weather(city='Paris')\n```", []),
])
def test_a_python_fence_holding_only_calls_of_tools_given(text, want):
    assert [c.name for c in parse_tool_calls(text, tools=_WEATHER_TOOLS)] == want
    assert parse_tool_calls(text) == []  # (without the tools, a Python fence is code)
    _check_both(text, 3, tools=_WEATHER_TOOLS)


@pytest.mark.parametrize("text, want", [
    # DeepSeek-Coder's user turn made up after the call: what follows is not this message's
    ('[get_weather(city="Paris")]\n\n### Instruction:\nWhat about Boston?\n### Response:\n'
     '[get_weather(city="Boston")]', ["Paris"]),
    ('<tool_call>{"name": "get_weather", "arguments": {"city": "Paris"}}</tool_call>\n'
     '            ### Instruction:\nmore\n<tool_call>{"name": "get_weather", "arguments": {"city": "Rome"}}'
     '</tool_call>', ["Paris"]),
    # after a bare call (a Python comment to a block of calls)
    ('get_weather(city="Paris")\n### Instruction:\nget_weather(city="Rome")', ["Paris"]),
    # a heading of another word, the words inside a line or after it on its line, or in a fence: text
    ('### Instructions:\n[get_weather(city="Paris")]', ["Paris"]),
    ('The user wants this.\n### Instruction: summarize\n[get_weather(city="Paris")]', ["Paris"]),
    ('Text ### Instruction: inline\n[get_weather(city="Paris")]', ["Paris"]),
    ('```\n### Instruction:\n```\n[get_weather(city="Paris")]', ["Paris"]),
    # its own reply's header after its calls: a reply of its own making (the calls after it are
    # not this message's), with a colon or without, indented, after a tag or a bare call
    ('[get_weather(city="Paris")]\n\n### Response:\n[get_weather(city="Rome")]', ["Paris"]),
    ('[get_weather(city="Paris")]\n        ### Response\n\n         [get_weather(city="Rome")]', ["Paris"]),
    ('<tool_call>{"name": "get_weather", "arguments": {"city": "Paris"}}</tool_call>\n### Response:\n'
     '<tool_call>{"name": "get_weather", "arguments": {"city": "Rome"}}</tool_call>', ["Paris"]),
    ('get_weather(city="Paris")\n### Response:\nget_weather(city="Rome")', ["Paris"]),
    ('```python\n[get_weather(city="Paris")]\n```\n### Response:\n```python\n[get_weather(city="Rome")]\n```',
     ["Paris"]),
    # before any call it is this reply's header, echoed: the calls after it are the reply's
    ('### Response:\n[get_weather(city="Paris")]', ["Paris"]),
    ('  ### Response\n[get_weather(city="Paris"), get_weather(city="Rome")]', ["Paris", "Rome"]),
    # words after it on its line, another word, or in a fence: text
    ('[get_weather(city="Paris")]\n### Response: done\n[get_weather(city="Rome")]', ["Paris", "Rome"]),
    ('[get_weather(city="Paris")]\n### Responses:\n[get_weather(city="Rome")]', ["Paris", "Rome"]),
    ('[get_weather(city="Paris")]\n```\n### Response:\n```\n[get_weather(city="Rome")]', ["Paris", "Rome"]),
    # the assistant's own header after the calls, with no turn's end before it: a reply of its own
    # making; before any call, this reply's header, echoed
    ('[get_weather(city="Paris")]\n<|im_start|>assistant\n[get_weather(city="Rome")]', ["Paris"]),
    ('[get_weather(city="Paris")]\nIt is sunny.<|im_start|>assistant\n[get_weather(city="Rome")]', ["Paris"]),
    ('<tool_call>{"name": "get_weather", "arguments": {"city": "Paris"}}</tool_call>'
     '<|start_header_id|>assistant<|end_header_id|>\n\n[get_weather(city="Rome")]', ["Paris"]),
    ('<|im_start|>assistant\n[get_weather(city="Paris")]', ["Paris"]),
    # ChatML's header run into Llama 3's (Hermes-2-Theta, a merge of the two, writes it)
    ('<tool_call>{"name": "get_weather", "arguments": {"city": "Paris"}}</tool_call>\n'
     '<|im_start|><|im_start|>assistant<|end_header_id|>\n'
     '<tool_call>{"name": "get_weather", "arguments": {"city": "Rome"}}</tool_call>', ["Paris"]),
    # a stray closer of a block already closed (DeepSeek-Coder's, indented): no block opens there,
    # and the header after it ends the message
    ('```python\n[get_weather(city="Paris")]\n        ```\n\nThat is the call.\n        ```\n\n'
     '    ### Response:\n    ```python\n    [get_weather(city="Rome")]\n    ```\n', ["Paris"]),
    ('[get_weather(city="Paris")]\nThat is the call.\n```\nmore\n```python\n'
     '[get_weather(city="Rome")]\n```\n', ["Paris", "Rome"]),
    ('The header <|im_start|>assistant is named.\n[get_weather(city="Paris")]', ["Paris"]),
    # a notebook of its own making (DeepSeek-Coder's cell markers): a cell's output is no call
    ('[get_weather(city="Paris")]\n<jupyter_output>\n[get_weather(city="Rome")]', ["Paris"]),
    ('[get_weather(city="Paris")]<jupyter_text>\nThen:\n[get_weather(city="Rome")]', ["Paris"]),
    ('def f():\n    return 1\n<jupyter_output>\n[get_weather(city="Rome")]', []),
    ('<jupyter_code>\nprint(1)\n<jupyter_output>\n[get_weather(city="Rome")]', []),
    ('The <jupyter_output> marker, named.\n[get_weather(city="Rome")]', ["Rome"]),
])
def test_a_turn_the_model_made_up_ends_its_message(text, want):
    assert [c.args["city"] for c in parse_tool_calls(text, tools=_WEATHER_TOOLS)] == want
    _check_both(text, 3, tools=_WEATHER_TOOLS)


@pytest.mark.parametrize("text, want", [
    # a Python comment after the list on its line: the list is code, its comment no words of a
    # sentence (a recorded Gemma output wrote "#or" between two calls of the same tool)
    ("[f(a=1)]  # the first city\n", [1]),
    ("[f(a=1), f(a=2)] # both, in order", [1, 2]), ("[f(a='#')]  # '#' is a value", ["#"]),
    # a comment that frames it (an example, a warning): shown, not made
    ("[f(a=1)]  # for example", []), ("[f(a=1)]  # e.g.", []), ("[f(a=1)]  # do not run this", []),
    ("[f(a=1)]  # don't actually run this", []), ("[f(a=1)]  # DON'T RUN", []), ("[f(a=1)]  # fake", []),
    ("[f(a=1)]  # not a real call", []), ("[f(a=1)]  # \u4e0d\u8981\u8fd0\u884c", []),
    # words that are no comment: the list is a sentence's
    ("[f(a=1)] or [f(a=2)]", []), ("[f(a=1)] #hashtag and words", [1]),
])
def test_a_python_list_with_a_comment_on_its_line(text, want):
    calls = parse_tool_calls(text)
    assert all(c.ok for c in calls) and [c.args["a"] for c in calls] == want, calls
    _check_both(text, 4)


@pytest.mark.parametrize("text, args", [
    # a value with no closing tag that ends in a tag of the format's own: its closer miswritten
    # (where the value ends is a guess): not ok
    ("<tool_call>f<arg_key>a</arg_key><arg_value>1</arg_key></tool_call>", None),
    ("<tool_call>f<arg_key>a</arg_key><arg_value>1<arg_value>\n</tool_call>", None),
    ("<tool_call>\n<function=f>\n<parameter=a>\n1\n</param>\n</function>\n</tool_call>", None),
    ("<tool_call><function=f><parameter=a>1<parameter></function></tool_call>", None),
    ("<tool_call><function=f><parameter=a>1</parameter><parameter=b>2</parameters></function></tool_call>",
     None),
    # a letter left out, swapped or in upper case, a blank in it, its ">" dropped
    ("<tool_call>\n<function=w>\n<parameter=a>\nhello\n</paramter>\n</function>\n</tool_call>", None),
    ("<tool_call>w<arg_key>a</arg_key><arg_value>hello</arg_valeu>\n</tool_call>", None),
    ("<tool_call>\n<function=w>\n<parameter=a>\nhello\n</Parameter>\n</function>\n</tool_call>", None),
    ("<tool_call>\n<function=w>\n<parameter=a>\nhello\n</ parameter>\n</function>\n</tool_call>", None),
    ("<tool_call>\n<function=w>\n<parameter=a>\nhello\n</parameter\n</function>\n</tool_call>", None),
    # before the next parameter, which the schema would decide between otherwise
    ("<tool_call>\n<function=w>\n<parameter=a>\nx\n</paramter>\n<parameter=b>\ny\n</parameter>\n</function>\n"
     "</tool_call>", None),
    ("<tool_call>w<arg_key>a</arg_key><arg_value>x</arg_key><arg_key>b</arg_key><arg_value>y</arg_value>"
     "</tool_call>", None),
    # the closer dropped, and the call's closer written twice after the value: the value may hold
    # the first (a file showing the format)
    ("<tool_call>\n<function=w>\n<parameter=a>\n<a></function> b\n</function>\n</tool_call>", None),
    ("<tool_call>w<arg_key>a</arg_key><arg_value>x</tool_call> y\n</tool_call>", None),
    # the closer dropped, the value ending in text or in a tag of its own: read
    ("<tool_call><function=f><parameter=a>1</function></tool_call>", {"a": "1"}),
    ("<tool_call><function=f><parameter=a>a < b</function></tool_call>", {"a": "a < b"}),
    ("<tool_call><function=f><parameter=a></pre></function></tool_call>", {"a": "</pre>"}),
    ("<tool_call><function=f><parameter=a><p>x</p></function></tool_call>", {"a": "<p>x</p>"}),
    ("<tool_call><function=f><parameter=a>x<pa></function></tool_call>", {"a": "x<pa>"}),
    ("<tool_call>f<arg_key>a</arg_key><arg_value><b>1</b></tool_call>", {"a": "<b>1</b>"}),
])
def test_a_value_whose_closing_tag_is_miswritten(text, args):
    (call,) = parse_tool_calls(text)
    assert call.args == args and call.ok == (args is not None) and call.span == (0, len(text)), call
    if args is None:
        assert "miswritten" in call.error or "stands twice" in call.error
    _check_both(text, 3)


@pytest.mark.parametrize("text, want", [
    # a list that goes on an expression of code begun on the lines before (an argument of a
    # call, an assignment): the code's value, no call (recorded DeepSeek-Coder outputs wrote
    # unit tests after their answer)
    ("self.assertEqual(\n    solution(1),\n    [\n        get_x(a=1)\n    ],\n)", []),
    ("mock.assert_called_with(\n    [get_x(a=1)]\n)", []), ("result =\n[get_x(a=1)]", []),
    ('assertEqual(classify([]),\n  [{"name": "get_x", "arguments": {}}]\n)', []),
    # after words of a sentence: calls
    ("To get both,\n[get_x(a=1), get_x(a=2)]", ["get_x", "get_x"]),
    ("Sure (as asked),\n[get_x(a=1)]", ["get_x"]), ("Call:\n[get_x(a=1)]", ["get_x"]),
])
def test_a_list_inside_an_expression_of_code_is_no_call(text, want):
    assert [c.name for c in parse_tool_calls(text) if c.ok] == want
    _check_both(text, 3)


_TWO_TOOLS = [*_WEATHER_TOOLS, {"type": "function", "function": {
    "name": "search", "parameters": {"type": "object", "properties": {"query": {"type": "string"}}}}}]


@pytest.mark.parametrize("text, kw, want", [
    # a message that opens with a call known by a tool's name (bare, GLM-4's, Functionary's), then a
    # bare reasoning closer: the call was reasoning (the prompt opened it), and never runs
    ('get_weather(city="Paris")\n</think>\nOK', {"tools": _TWO_TOOLS}, []),
    ('get_weather\n{"city": "Paris"}\n</think>\nOK', {"tools": _TWO_TOOLS}, []),
    ('get_weather\n{"city": "Paris"}\n</think>\nOK', {"format": "functionary"}, []),
    ('get_weather(city="Paris")\n</think>\n<tool_call>{"name": "search", "arguments": {"query": "x"}}'
     '</tool_call>', {"tools": _TWO_TOOLS}, ["search"]),
    # told the prompt opened none: the call is the reply's
    ('get_weather(city="Paris")\n</think>\nOK', {"tools": _TWO_TOOLS, "thinking": False}, ["get_weather"]),
    # such a call after the reasoning: the reply opens with it (GLM-Z1's, a small model's)
    ('<think>hmm</think>\nget_weather(city="Paris")', {"tools": _TWO_TOOLS}, ["get_weather"]),
    ('hmm</think>\n\nget_weather(city="Paris")', {"tools": _TWO_TOOLS}, ["get_weather"]),
    ('hmm</think>\n\nget_weather(city="Paris")', {"tools": _TWO_TOOLS, "thinking": True}, ["get_weather"]),
    ('<think>hmm</think>\nget_weather\n{"city": "Paris"}', {"tools": _TWO_TOOLS}, ["get_weather"]),
    ('<think>hmm</think>\nI will call get_weather(city="Paris") now', {"tools": _TWO_TOOLS}, []),
    ('<think>hmm</think>\nget_weather(city="Paris") is what I would run', {"tools": _TWO_TOOLS}, []),
])
def test_a_call_known_by_its_name_before_a_bare_reasoning_closer_is_reasoning(text, kw, want):
    assert [c.name for c in parse_tool_calls(text, **kw)] == want
    for step in (1, 3, len(text)):
        cuts = list(range(0, len(text), step))
        if "thinking" not in kw:  # (the held reading; told the thinking, the stream reads live)
            _check(text, cuts, **kw)
        _check_live(text, cuts, **{"thinking": False, **kw})


_SHOWN_CALLS = ['<tool_call>{"name": "delete_all", "arguments": {"confirm": true}}</tool_call>',
                '{"name": "delete_all", "arguments": {"confirm": true}}',
                "<tool_call>\n<function=delete_all>\n<parameter=confirm>\ntrue\n</parameter>\n</function>\n"
                "</tool_call>", "[delete_all(confirm=True)]"]


@pytest.mark.parametrize("intro, shown", [
    # words that say the call after them is shown: an example, a hypothesis, a wrong way, a past call
    ("Here is what a call looks like:", True), ("If I were to call it, it would be:", True),
    ("Hypothetically:", True), ("Wrong way:", True), ("Avoid this:", True), ("Bad example:", True),
    ("Previously I called:", True), ("Example response:", True), ("Eg:", True), ("Example 1", True),
    ("For example you can write", True), ("Example\n-------", True), ("Example\n=======\n", True),
    # in the languages models answer in besides English
    ("Por ejemplo:", True), ("Par exemple :", True), ("Beispiel:", True), ("\u4f8b\u5982\uff1a", True),
    ("\u4ee5\u4e0b\u662f\u793a\u4f8b\uff1a", True), ("\u4f8b\uff1a", True), ("\u6bd4\u5982\uff1a", True),
    # words that make the call
    ("I'll call the tool:", False), ("Let me check:", False), ("\u6bd4\u4f8b\uff1a", False),
    ("\u6211\u6765\u8c03\u7528\u5de5\u5177\uff1a", False), ("It looks like the user wants it:", False),
    ("Result\n------", False),
])
@pytest.mark.parametrize("call", _SHOWN_CALLS, ids=["hermes", "json", "qwen3_coder", "pythonic"])
def test_words_before_a_call_that_show_it(intro, shown, call):
    text = intro + "\n" + call
    assert len(parse_tool_calls(text)) == (0 if shown else 1)
    _check_both(text, 5)


_GLUED_AFTER = ['[TOOL_CALLS]delete_all[ARGS]{"confirm": true}',
                ' [TOOL_CALLS] [{"name": "delete_all", "arguments": {}}]',
                '<tool_calls>[{"name": "delete_all", "arguments": {}}]</tool_calls>',
                '>>>delete_all\n{"confirm": true}', 'functools[{"name": "delete_all", "arguments": {}}]',
                '<function=delete_all>{"confirm": true}</function>',
                '{"name": "delete_all", "arguments": {}}',
                "<seed:tool_call><function=delete_all><parameter=x>1</parameter></function></seed:tool_call>",
                '<minimax:tool_call><invoke name="delete_all"><parameter name="x">1</parameter></invoke>'
                "</minimax:tool_call>", "[delete_all(x=1)]"]


@pytest.mark.parametrize("end", ["<|im_end|>", "<seed:eos>", "[e~[", "<|eot_id|>", "<end_of_turn>"])
@pytest.mark.parametrize("after", _GLUED_AFTER)
def test_a_turn_end_glued_to_any_familys_call_ends_the_turn(end, after):
    # (a call in any family run into the token, as a tag or a special token is: a turn the model
    # went on to write, never this message's)
    text = '<tool_call>{"name": "get_weather", "arguments": {"city": "Paris"}}</tool_call>' + end + after
    assert [c.name for c in parse_tool_calls(text)] == ["get_weather"]
    _check_both(text, 4)


_A_QWEN = "<tool_call>\n<function=a>\n<parameter=x>\n1\n</parameter>\n</function>\n</tool_call>\n"


@pytest.mark.parametrize("text, want", [
    # a call its format cannot read, in a list of calls: an entry not ok in its place, never lost
    (_A_QWEN + "<tool_call>\n<function = b>\n<parameter=y>\n2\n</parameter>\n</function>\n</tool_call>",
     [("a", True), ("", False)]),
    (_A_QWEN + "<tool_call>\n<func=b>\n<parameter=y>\n2\n</parameter>\n</func>\n</tool_call>",
     [("a", True), ("", False)]),
    ("<tool_call>a\n<arg_key>x</arg_key>\n<arg_value>1</arg_value>\n</tool_call>\n"
     "<tool_call>b\n<Arg_key>y</Arg_key>\n<Arg_value>2</Arg_value>\n</tool_call>",
     [("a", True), ("", False)]),
    ('<minimax:tool_call>\n<invoke name="a">\n<parameter name="x">1</parameter>\n</invoke>\n'
     '<invoke name="b" id="1">\n<parameter name="y">2</parameter>\n</invoke>\n'
     '<invoke name="c">\n<parameter name="z">3</parameter>\n</invoke>\n</minimax:tool_call>',
     [("a", True), ("b", False), ("c", True)]),
    ('<minimax:tool_call>\n<invoke>\n<parameter name="y">2</parameter>\n</invoke>\n'
     '<invoke name="c">\n<parameter name="z">3</parameter>\n</invoke>\n</minimax:tool_call>',
     [("", False), ("c", True)]),
    (('<|DSML|function_calls>\n<|DSML|invoke name="a">\n<|DSML|parameter name="x" string="true">1'
      '</|DSML|parameter>\n</|DSML|invoke>\n<|DSML|invoke name="b" id="1">\n<|DSML|parameter name="y" '
      'string="true">2</|DSML|parameter>\n</|DSML|invoke>\n</|DSML|function_calls>').replace("|", "\uff5c"),
     [("a", True), ("b", False)]),
    ("<|tool_calls_section_begin|><|tool_call_begin|>functions.a:0<|tool_call_argument_begin|>"
     '{"x": 1}<|tool_call_end|><|tool_call_begin|>functions.b :1<|tool_call_argument_begin|>{"y": 2}'
     "<|tool_call_end|><|tool_calls_section_end|>", [("a", True), ("", False)]),
    ("<|tool_call>call:a{x:1}<tool_call|><|tool_call>call:b<tool_call|>", [("a", True), ("b", False)]),
    # a tag named in a sentence, words in the block: no call
    ("Use the <tool_call> tag.\n<tool_call>hello world</tool_call>", []),
])
def test_a_call_its_format_cannot_read_keeps_its_place_in_the_list(text, want):
    assert [(c.name, c.ok) for c in parse_tool_calls(text)] == want
    _check_both(text, 4)


@pytest.mark.parametrize("text, ok", [
    # a second JSON object after the arguments, or words, inside the call's closer or on its line:
    # more of its arguments, perhaps (the call without them is a guess)
    ('<function=write>{"path": "a.txt"} {"content": "x"}</function>', False),
    ('<function=f>{"a": 1} and also b=2</function>', False),
    ('[TOOL_CALLS]write[ARGS]{"path": "a.txt"} {"content": "x"}', False),
    # nothing but blanks before the closer, a next call, or an object on the next line: ok
    ('<function=f>{"a": 1}\n</function>', True), ('[TOOL_CALLS]f[ARGS]{"a": 1}\nThe {"x": 1} example.', True),
    ('[TOOL_CALLS]f[ARGS]{"a": 1}[TOOL_CALLS]g[ARGS]{"b": 2}', True),
])
def test_more_json_after_a_calls_arguments_makes_it_not_ok(text, ok):
    assert parse_tool_calls(text)[0].ok is ok
    _check_both(text, 4)


_QUADRATIC = [{"type": "function", "function": {"name": "solve_quadratic", "parameters": {
    "type": "object", "properties": {k: {"type": "integer"} for k in "abc"}}}}]


@pytest.mark.parametrize("text, kw, want", [
    # a name's underscores escaped as Markdown escapes them (Mistral's and Mixtral's prompted
    # outputs): a name holds no backslash, so they are the underscores they are
    ("[solve\\_quadratic(a=3, b=-11, c=-4)]", {}, [("solve_quadratic", {"a": 3, "b": -11, "c": -4})]),
    ("[area\\_of(side\\_a=3, unit='m')]", {}, [("area_of", {"side_a": 3, "unit": "m"})]),
    ("[geometry.area\\_circle(radius=10), solve_quadratic(a=1, b=2, c=3)]", {},
     [("geometry.area_circle", {"radius": 10}), ("solve_quadratic", {"a": 1, "b": 2, "c": 3})]),
    ("solve\\_quadratic(a=3, b=-11, c=-4)", {"tools": _QUADRATIC},
     [("solve_quadratic", {"a": 3, "b": -11, "c": -4})]),
    # a value holding \_ too: an underscore escaped, or a backslash and one? not ok
    ("[find\\_city(name='New\\_York')]", {}, [("find_city", None)]),
])
def test_a_names_underscores_escaped_as_markdown_does(text, kw, want):
    assert [(c.name, c.args) for c in parse_tool_calls(text, **kw)] == want
    _check_both(text, 3, **kw)


_AREA_TOOLS = [{"type": "function", "function": {"name": n, "parameters": {"type": "object"}}}
               for n in ("calculate_triangle_area", "get_weather")]


@pytest.mark.parametrize("text, kw, want", [
    # the name written as a string (Mistral's small models, DBRX): Python would call a string,
    # so the call of that name is the only reading, with a fix saying so
    ("['get_theater_movie_releases'(location='LA', timeframe=7)]", {},
     [("get_theater_movie_releases", {"location": "LA", "timeframe": 7}, ["quoted_name"])]),
    ('["solve_quadratic"(a=3, b=-11, c=-4), \'get_weather\' (city="Oslo")]', {},
     [("solve_quadratic", {"a": 3, "b": -11, "c": -4}, ["quoted_name"]),
      ("get_weather", {"city": "Oslo"}, ["quoted_name"])]),
    ("[\n  'calculate_triangle_area'(\n    base=10,\n    height=5\n  )\n]", {"tools": _AREA_TOOLS},
     [("calculate_triangle_area", {"base": 10, "height": 5}, ["quoted_name"])]),
    # what is not a quoted name: a call string (with tools, its own reading), quotes that do not
    # match, arguments by position (words in brackets: 'Paris' (France))
    ("['calculate_triangle_area(base=10, height=5)']", {"tools": _AREA_TOOLS},
     [("calculate_triangle_area", {"base": 10, "height": 5}, [])]),
    ("['get_weather\"(city='Oslo')]", {}, []),
    ("['get_weather'('Oslo')]", {}, []), ("['Paris' (France), 'Berlin' (Germany)]", {}, []),
    ("['get_weather'('Oslo', days=3)]", {}, [("get_weather", None, [])]),
    # (a family's marker around it keeps the fix)
    ("<|python_start|>['get_weather'(city='Oslo')]<|python_end|>", {},
     [("get_weather", {"city": "Oslo"}, ["quoted_name"])]),
])
def test_a_pythonic_name_written_as_a_string(text, kw, want):
    assert [(c.name, c.args, [f.code for f in c.fixes]) for c in parse_tool_calls(text, **kw)] == want
    _check_both(text, 3, **kw)


@pytest.mark.parametrize("text, want", [
    # lists of calls a comma joins, on a line or one a line (GPT-3.5's, Claude 2's answers)
    ("[get_weather(city='Paris')], [get_time(tz='UTC')]",
     [("get_weather", {"city": "Paris"}), ("get_time", {"tz": "UTC"})]),
    ("[get_weather(city='Paris')],\n[get_weather(city='Rome')],\n[get_time(tz='UTC')]<|eot_id|>",
     [("get_weather", {"city": "Paris"}), ("get_weather", {"city": "Rome"}), ("get_time", {"tz": "UTC"})]),
    # a stray bracket or comma at the end, an empty list, an expression after them, a list of data,
    # inside a sentence or an assignment: no call
    ("[get_weather(city='Paris')], []]", []),
    ("[get_weather(city='Paris')],\n    [get_time(tz='UTC')],]", []),
    ("[get_weather(city='Paris')], [get_time(tz='UTC')] + x", []),
    ("[get_weather(city='Paris')], [1, 2]", []),
    ("Here: [get_weather(city='Paris')], [get_time(tz='UTC')]", []),
    ("x = [get_weather(city='Paris')], [get_time(tz='UTC')]", []),
    # a second list that stops at something else, its line ending in a bracket all the same
    ("[get_weather(city='Paris')], [get_time(tz='UTC'), x] + [y]", []),
    ("[get_weather(city='Paris')], [get_time(tz='UTC') + 1] + [x]", []),
    ("[get_weather(city='Paris')],\n[get_time(tz='UTC') for g in gs]", []),
    ("[get_weather(city='Paris')], [get_time(tz='UTC') if y else h()]", []),
])
def test_lists_of_calls_a_comma_joins(text, want):
    calls = parse_tool_calls(text)
    assert [(c.name, c.args) for c in calls] == want and all(c.ok for c in calls)
    assert all(text[c.span[0]:c.span[1]].startswith(c.name) for c in calls)
    _check_both(text, 3)


@pytest.mark.parametrize("text, want", [
    # calls inside Python strings, a list of them or one alone (Snowflake Arctic's, DBRX's), the
    # message's whole: known by their tools' names, they are the calls
    ("['calculate_triangle_area(base=10, height=5)']",
     [("calculate_triangle_area", {"base": 10, "height": 5})]),
    ("'get_weather(city=\"Paris\")'", [("get_weather", {"city": "Paris"})]),
    ("['get_weather(city=\"Paris\")',\n \"get_weather(city='Rome')\"]<|eot_id|>",
     [("get_weather", {"city": "Paris"}), ("get_weather", {"city": "Rome"})]),
    ("'get_weather(city=\"Paris\")'\n\nThis gets the weather.", [("get_weather", {"city": "Paris"})]),
    # a string holding more than the call: not ok; words after it on its line, a name no tool has,
    # a list not closed: no call
    ("['get_weather(city=\"Paris\") or more']", [("get_weather", None)]),
    ("'get_weather(city=\"Paris\")' is what I would run", []), ("['get_time(tz=1)']", []),
    ("['get_weather(city=\"Paris\")'", []),
    # in Markdown's inline code, the message's line (Mistral's small models)
    ("`get_weather(city='Paris')`\n\nThis gets it.", [("get_weather", {"city": "Paris"})]),
    ("`get_weather(city='Paris')` is the call", []), ("`get_weather(city='Paris') + 1`", []),
    # a list of calls in it (DeepSeek-Coder's); a list not closed, or more in the span: no call
    ("`[get_weather(city='Paris'), calculate_triangle_area(base=2)]`\n\nThis line of code calls them.",
     [("get_weather", {"city": "Paris"}), ("calculate_triangle_area", {"base": 2})]),
    ("  `[ get_weather(city='Paris') ]`", [("get_weather", {"city": "Paris"})]),
    ("`[get_weather(city='Paris')`", []), ("`[get_weather(city='Paris')] + 1`", []),
    ("`[get_weather(city='Paris')]` is the call", []), ("Run `[get_weather(city='Paris')]`", []),
    # another span of code holding a call after it ("Corrected call:", "Or:"): which is meant is a guess
    ("`[get_weather(city='Paris')]`\n\nCorrected call:\n`[get_weather(city='Rome')]`", []),
    ("`get_weather(city='Paris')`\n\nOr:\n\n`get_weather(city='Rome')`", []),
    ("`[get_weather(city='Paris')]`\n\nThe `get_weather` tool needs a city.",
     [("get_weather", {"city": "Paris"})]),
    # (the same call again in a sentence's code: a restatement; a span that is no call ok: a mention)
    ("`[get_weather(city='Paris')]`\n\nSo the call would be `get_weather(city='Paris')`.",
     [("get_weather", {"city": "Paris"})]),
    ("`[get_weather(city='Paris'), calculate_triangle_area(base=2)]`\n\nThat is "
     "`get_weather(city='Paris')` and `calculate_triangle_area(base=2)`.",
     [("get_weather", {"city": "Paris"}), ("calculate_triangle_area", {"base": 2})]),
    ("`get_weather(city='Paris')`\n\nNote: `get_weather(...)` needs a city.",
     [("get_weather", {"city": "Paris"})]),
])
def test_calls_inside_python_strings_known_by_their_tools(text, want):
    assert [(c.name, c.args) for c in parse_tool_calls(text, tools=_AREA_TOOLS)] == want
    assert parse_tool_calls(text) == []  # (without the tools, strings)
    _check_both(text, 3, tools=_AREA_TOOLS)


@pytest.mark.parametrize("text, want", [
    # a fence on its own line holding a list of calls (Mistral Large's ```[f(a=1)]```): the calls,
    # as in a fence of lines; framed, inside a sentence or with more in it: text
    ("```[solve_quadratic(a=2, b=6, c=5)]```", ["solve_quadratic"]),
    ("```[f(a=1)]```\n```[g(b=1)]```", ["f", "g"]), ("For example:\n```[f(a=1)]```", []),
    ("Use ```[f(a=1)]``` to call it.", []), ("```[f(a=1)]``` and more", []), ("```[f(a=1)] x```", []),
])
def test_a_fence_on_its_own_line_holding_a_list_of_calls(text, want):
    assert [c.name for c in parse_tool_calls(text) if c.ok] == want
    _check_both(text, 3)


@pytest.mark.parametrize("text, args", [
    # an end token inside a string of the call's JSON (harmony's <|call|>, GLM 4.6's "\n" between
    # its tags): the JSON's, or the format's layout, never the call's end
    ('<|start|>assistant<|channel|>commentary to=functions.a <|constrain|>json<|message|>{"x": "a<|call|>b"}'
     "<|call|>", [{"x": "a<|call|>b"}]),
    ("<tool_call>f\\n<arg_key>a</arg_key>\\n<arg_value>1</arg_value>\\n</tool_call>", [{"a": "1"}]),
])
def test_an_end_token_inside_a_value_is_the_values(text, args):
    assert [c.args for c in parse_tool_calls(text)] == args
    _check_both(text, 4)


@pytest.mark.parametrize("text, oks", [
    # "# or" between two lists of calls (a recorded Gemma output): two choices the model offered,
    # which one is meant cannot be told
    ("[f(a=1)]  #or\n[f(a=2)]", [False, False]),
    ("[f(a=1)]  # or instead, better:\n[f(a=2)]", [False, False]),
    ("[f(a=1)]  # alternatively\n[f(a=2)]", [False, False]), ("[f(a=1)]  # or\n\n[f(a=2)]", [False, False]),
    ("[f(a=1)]\n# or\n[f(a=2)]", [False, False]), ("[f(a=1)]\n[f(a=2)]  # or this one", [False, False]),
    ("[f(a=1)]\n# then\n[f(a=2)]", [True, True]),
    # a line of its own saying so ("Or:", "Alternatively:"): the same choice
    ("[f(a=1)]\n\nOr:\n\n[f(a=2)]", [False, False]), ("[f(a=1)]\n\nAlternatively:\n[f(a=2)]", [False, False]),
    ("[f(a=1)]\n\nOr, if you prefer:\n[f(a=2)]", [False, False]),
    ("[f(a=1)]\n\nThen:\n[f(a=2)]", [True, True]),
    # not on the next line, or a comment of another kind: each list stands
    ("[f(a=1)]  # or\n\nsome prose\n[f(a=2)]", [False, True]), ("[f(a=1)]  # Paris\n[f(a=2)]", [True, True]),
])
def test_two_lists_of_calls_offered_as_choices_are_not_ok(text, oks):
    assert [c.ok for c in parse_tool_calls(text)] == oks
    _check_both(text, 3)


@pytest.mark.parametrize("text, n", [
    # a heading's underline is no assignment, nor a rule after a blank line a heading's
    ('Weather\n=======\n[get_weather(city="Paris")]', 1),
    ('e.g. the weather\n\n---\n[get_weather(city="Paris")]', 1),
    # sentences that only look like framing
    ('Let me check what the forecast looks like:\n[get_weather(city="Paris")]', 1),
    ('I already called it once, now again:\n[get_weather(city="Paris")]', 1),
    ('Previously, I called get_time. Now:\n[get_weather(city="Paris")]', 1),
    ("\u0412\u043e\u0442 \u043f\u0440\u0438\u043c\u0435\u0440\u043d\u0443\u044e "
     '\u043f\u043e\u0433\u043e\u0434\u0443:\n[get_weather(city="Paris")]', 1),
    ("It looks like this is about Paris, so I'll fetch it:\n[get_weather(city=\"Paris\")]", 1),
    ("Not a real call yet? Now it is:\n[get_weather(city=\"Paris\")]", 1),
    # a fence whose lines end in \r\n
    ('```json\r\n{"name": "get_weather", "arguments": {"city": "Rome"}}\r\n```\r\n', 1),
    # two call objects in one tag, a comma between them: both
    ('<tool_call>{"name": "get_weather", "arguments": {"city": "Paris"}}, {"name": "get_weather", '
     '"arguments": {"city": "Rome"}}</tool_call>', 2),
])
def test_what_only_looks_like_framing_or_an_end_keeps_the_calls(text, n):
    calls = parse_tool_calls(text)
    assert len(calls) == n and all(c.ok for c in calls), calls
    _check_both(text, 3)


def test_a_fence_line_of_one_long_word_is_read_in_linear_time():
    text = "```data:image/png;base64," + "A" * 200_000 + "```"
    assert parse_tool_calls(text) == []  # (each split of the word tried once made it seconds)
    text = ('Markdown uses ``` for code.\n\n<tool_call>{"name": "f", "arguments": {}}</tool_call>\n\n'
            "```\nx\n```")
    assert [c.name for c in parse_tool_calls(text)] == ["f"]
    _check_both(text, 3)


@pytest.mark.parametrize("text, oks", [
    # words after a comma inside the tag: more of the arguments, perhaps
    ('<tool_call>{"name": "get_weather", "arguments": {"city": "Paris"}}, then Rome</tool_call>', [False]),
    # a harmony call cut inside a string never runs on into the next message
    ('<|start|>assistant<|channel|>commentary to=functions.get_weather <|constrain|>json<|message|>'
     '{"city": "Pa<|call|><|start|>assistant<|channel|>final<|message|>Rome", "x": 1}<|return|>', [False]),
    # a parameter named by blanks only
    ('<minimax:tool_call><invoke name="f"><parameter name=" ">Paris</parameter></invoke></minimax:tool_call>',
     [False]),
])
def test_more_after_a_call_or_a_blank_name_makes_it_not_ok(text, oks):
    assert [c.ok for c in parse_tool_calls(text)] == oks
    _check_both(text, 3)


_J = '{"arguments": {"location": "NYC"}, "name": "weather"}'


@pytest.mark.parametrize("text, shown", [
    # a line of tokens or tags between the framing words and the call (Hermes 2 Theta's leaked
    # <|im_start|>): the call is still shown, not made
    ("Here's an example of how I would call the function:\n\n<|im_start|>\n" + _J, True),
    ("For example:\n\n<?xml?>\n" + _J, True), ("For example:\n<xml>\n<br/>\n" + _J, True),
    ("For example:\n<|im_start|>\n<tool_call>" + _J + "</tool_call>", True),
    ("Here's an example function call:\n\n<xml>\n" + _J + "\n</xml>\n\nIt searches.", True),
    ("Here is an example tool call:\n" + _J, True), ("I will make the function call:\n" + _J, False),
    ("Done.\n<|im_start|>\n" + _J, False), ("Sure:\n<|im_start|>\n<tool_call>" + _J + "</tool_call>", False),
])
def test_markup_lines_between_the_framing_and_the_call_frame_nothing(text, shown):
    assert [c.name for c in parse_tool_calls(text)] == ([] if shown else ["weather"])
    _check_both(text, 3)


def test_a_first_line_that_names_no_tool_is_shown_at_once():
    for kw in ({}, {"thinking": False}):
        s = ToolCallStream(tools=_WEATHER_TOOLS, **kw)
        shown = [e.text for e in s.feed("Sure") + s.feed(", here") if isinstance(e, TextDelta)]
        assert "".join(shown).startswith("Sure"), kw  # (no tool's name begins so: not held)
        s = ToolCallStream(tools=_WEATHER_TOOLS, **kw)
        assert not [e for e in s.feed("get_wea") if isinstance(e, TextDelta)]  # (it may be one)


# the opening head read whole, as the regular expressions read it
_WHOLE_HEAD = re.compile(r"[ \t\r\n]*[A-Za-z_][\w.-]{0,127}[ \t]*\r?\n[ \t]*\{")
_HEAD_SO_FAR = re.compile(r"[ \t\r\n]*(?:[A-Za-z_][\w.-]{0,127}(?:[ \t]*(?:\r?\n[ \t]*|\r)?)?)?")
_head_pieces = st.sampled_from([" ", "\t", "\n", "\n\n ", "get", "_x", "a.b-c", "\u00e9", "9", "{", "}",
                                "x" * 60, "(", "\r", "\u3000"])


@settings(max_examples=400, deadline=None)
@given(st.lists(_head_pieces, max_size=12).map("".join), st.lists(st.integers(1, 40), max_size=10))
def test_the_opening_name_is_read_a_delta_at_a_time_as_the_whole_text_reads(text, cuts):
    """format="functionary": the head a message may open with is decided, delta
    by delta, exactly where the whole text so far decides it."""
    s = ToolCallStream(format="functionary")
    k = 0
    for size in cuts + [len(text)]:
        delta, k = text[k:k + size], k + size
        if not delta:
            continue
        before = s._head
        s.feed(delta)
        so_far = text[:k]
        if before:
            if _WHOLE_HEAD.match(so_far):
                assert s._held, so_far
            elif _HEAD_SO_FAR.fullmatch(so_far):
                assert s._head and s.shown == 0, so_far
            else:
                assert not s._head, so_far
        if k >= len(text):
            break
    assert s.finish() == parse_tool_calls(text, format="functionary")

# -- the live reading (thinking given): calls reported as they arrive -------------------------

def _check_live(text: str, cuts: list[int], **kw) -> list:
    """As _check, for a stream told ``thinking``: the calls are those of
    parse_tool_calls with the same ``thinking``, each one's events in order
    (its fragments joined are its raw_args), and each piece of text shown
    stands, in order, outside every call."""
    s, events = _run(text, cuts, **kw)
    want = parse_tool_calls(text, **kw)
    assert s.finish() == want and s.text == text
    _check_call_events(events, want)
    _shown_outside_calls(text, events, want)
    return events


def _check_both(text: str, step: int, **kw) -> None:
    """_check and _check_live (thinking=False) over deltas of 1 and ``step`` characters and
    over the whole text at once."""
    for size in (1, step, len(text)):
        cuts = list(range(0, len(text), size))
        _check(text, cuts, **kw)
        _check_live(text, cuts, thinking=False, **kw)


# what the whole text decides from what comes after a call, or before its marker: the live
# reading holds, and never reports a call the whole text does not make
_DECIDED_LATER = [
    'Never run this:\n<tool_call>\n{"name": "run", "arguments": {"cmd": "rm -rf /"}}\n</tool_call>\nDone.',
    "For example:\n\n<|tool_calls_section_begin|><|tool_call_begin|>functions.run:0"
    '<|tool_call_argument_begin|>{"cmd": "x"}<|tool_call_end|><|tool_calls_section_end|>',
    'You could write "<|tool_calls_section_begin|><|tool_call_begin|>functions.run:0'
    '<|tool_call_argument_begin|>{"cmd": "x"}<|tool_call_end|><|tool_calls_section_end|>" to run it.',
    "> <|start|>assistant<|channel|>commentary to=functions.f <|constrain|>json<|message|>{\"a\":1}<|call|>",
    '<tool_call>\n<function=write_file>\n<parameter=content>\nx\n</parameter>\n</function>\ny\n</parameter>\n'
    "<parameter=path>\na.txt\n</parameter>\n</function>\n</tool_call>",
    '<minimax:tool_call>\n<invoke name="write_file">\n<parameter name="content">x</parameter>\n</invoke>\n'
    'y</parameter>\n<parameter name="path">a.txt</parameter>\n</invoke>\n</minimax:tool_call>',
    "Draft: <|tool_call_begin|>functions.run:0<|tool_call_argument_begin|>{\"cmd\": \"rm\"\nNo.\n</think>\n"
    "<|tool_calls_section_begin|><|tool_call_begin|>functions.run:0<|tool_call_argument_begin|>"
    "{\"cmd\": \"ls\"}<|tool_call_end|><|tool_calls_section_end|>",
    "<|tool_call>call:f{a:1} extra text<tool_call|>",
    "Thought: x\nAction: search\nAction Input: what is\nthe temperature in SF?",
    'Action: search\nAction Input: "what is the temperature\nObservation: x',
    'Action: search the web\nAction Input: {"q": 1}',
    '[TOOL_CALLS]f{"a": 1}g{"b": 2}h{}',
    "<think:opensource>draft <tool_call:opensource>rm<tool_sep:opensource><arg_key:opensource>p"
    "</arg_key:opensource><arg_value:opensource>/</arg_value:opensource></tool_call:opensource>"
    "</think:opensource>done",
    'Done.<|im_end|><tool_call>{"name": "run", "arguments": {"cmd": "rm -rf /"}}</tool_call>',
    "<tool_call>ls\n<arg_key>p</arg_key>\n<arg_value>.</arg_value>\n</tool_call><|observation|>\na.txt\n"
    "<tool_call>rm\n<arg_key>p</arg_key>\n<arg_value>/</arg_value>\n</tool_call>",
    '**Action:** rm\n**Action Input:** {"a": 1}\n**Observation:** done\n'
    '**Action:** rm\n**Action Input:** {"a": 2}',
    '[TOOL_CALLS]delete_everything[ARGS][TOOL_CALLS]run[ARGS]{"cmd": "ls"}',
    '<tool_call name="bash">grep -n "</tool_call>" src/parser.py</tool_call>',
    '<tool_call name="bash">cat <<EOF > t.xml\n</tool_call>\nEOF</tool_call>',
    'For example, <tool_call>{"name": "rm", "arguments": {}}</tool_call> would delete.\n\n'
    '<tool_call>{"name": "ls", "arguments": {}}</tool_call>',
    '| <tool_call>{"name": "rm", "arguments": {}}</tool_call> | deletes |',
    '| text<tool_call>{"name": "f", "arguments": {"a": 1}}',
    '## Example\n<tool_call>{"name": "rm", "arguments": {}}</tool_call>',
    '</think>## Example\n<tool_call>{"name": "rm", "arguments": {}}</tool_call>',
    '<|close|>think<|sep|>For example, <tool_call>{"name": "rm", "arguments": {}}</tool_call>',
    "<|tool_call:start|>write\n<|tool_arg:start|>content<|tool_arg:value|>Calls end with <|tool_call:end|>"
    " then more.<|tool_arg:end|>\n<|tool_arg:start|>path<|tool_arg:value|>doc.md<|tool_arg:end|>\n"
    "<|tool_call:end|>",
    '<|content_invoke_tool_json|>{"name":"ls","args":{"a":1}}  trailing<|end_message|>',
    '<tool_call>{"name": "f", "arguments": {"a": "x<|im_end|>\nuser said',
    '<tool_call>{"name": "f", "arguments": {"a": "x<|im_end|>"}}</tool_call>',
    'Done.\n<start_of_turn>user\nnow delete\n<tool_call>{"name": "rm", "arguments": {"p": "/"}}</tool_call>',
    'Done.\n<|im_start|>user\nnow delete\n<tool_call>{"name": "rm", "arguments": {"p": "/"}}</tool_call>',
    '<tool_call>{"name": "ls", "arguments": {}}</tool_call><|turn>tool\n{"ok": 1}\n'
    '<tool_call>{"name": "rm", "arguments": {"p": "/"}}</tool_call>',
    # a placeholder's name: the format described, no call (the live reading never starts it)
    '<tool_call>\n<function=NAME>\n<parameter=a>\n1\n</parameter>\n</function>\n</tool_call>',
    "<tool_call>NAME\n<arg_key>a</arg_key>\n<arg_value>1</arg_value>\n</tool_call>",
    '[TOOL_CALLS]NAME[ARGS]{"a": 1}', "<|tool_call>call:NAME{a:1}<tool_call|>",
    "<|tool_calls_section_begin|><|tool_call_begin|>functions.NAME:0<|tool_call_argument_begin|>{}"
    "<|tool_call_end|><|tool_calls_section_end|>",
    '[TOOL_CALLS]f\n[ARGS]{"a": 1}',
    '[TOOL_CALLS]f[ARGS]\n{"a": 1}',
    "Mistral calls look like [TOOL_CALLS]name[ARGS]",
    ' to=search <|constrain|>json<|message|><atem:function_calls><atem:invoke name="run"></atem:invoke>'
    "</atem:function_calls><|eom|>",
    # harmony's messages of another author: the model's turn is over (were shown, then ran the call)
    '<|start|>user<|message|>x<|end|><tool_call>{"name": "rm", "arguments": {"p": "/"}}</tool_call>',
    '<|start|>system<|message|>x<|end|><tool_call name="read_file">main.go</tool_call>',
    # a call not ok runs to its family's closer, which may come after its </tool_call>
    "<tool_call><function=f><parameter=a>1</parameter><parameter=a>2</parameter></function></tool_call>"
    "</function>",
    # DeepSeek's fence whose info holds the call's end: cut before its arguments
    "<\uff5ctool\u2581call\u2581begin\uff5c>function<\uff5ctool\u2581sep\uff5c>get_weather\n```json"
    "<\uff5ctool\u2581call\u2581end\uff5c>\n{\"location\": \"Tokyo\"}\n```"
    "<\uff5ctool\u2581call\u2581end\uff5c>",
]


@pytest.mark.parametrize("text", [
    '<|im_start|>system\nhi</think><tool_call>{"name": "f", "arguments": {}}</tool_call>',
    '</think>## Example\n<tool_call>{"name": "f", "arguments": {}}</tool_call>',
    '<|close|>think<|sep|>For example, <tool_call>{"name": "f", "arguments": {}}</tool_call>',
    'Maybe rm.</think>Sure.\n<tool_call>{"name": "f", "arguments": {}}</tool_call>',
    'plan<|end_message|><|content_invoke_tool_json|>{"name": "ls", "args": {}}<|end_message|>',
    "plan<channel|><|tool_call>call:ls{}<tool_call|>",
])
def test_what_the_whole_text_decides_is_never_reported_before_when_the_prompt_opened_reasoning(text):
    for step in (1, 3, 8):
        _check_live(text, list(range(step, len(text), step)), thinking=True)
    for blanks in (1, 39, 40, 200):  # (blanks before it, in deltas of their own: still its start)
        _check_live(" " * blanks + text, [blanks], thinking=True)
        _check_live(" " * blanks + text, list(range(1, blanks + 1)), thinking=True)


@pytest.mark.parametrize("fmt,text", [("glm4", 'run\r\n{"cmd": "ls"}'),
                                      ("functionary", '\r\nrun\n{"cmd": "ls"}'),
                                      ("functionary", 'run\r\n{"cmd": "ls"}')])
def test_a_name_line_ended_by_a_carriage_return_is_held_as_the_whole_text_reads_it(fmt, text):
    for step in (1, 2, 5):
        for thinking in (None, False):
            s, events = _run(text, list(range(step, len(text), step)), format=fmt, thinking=thinking)
            assert s.finish() == parse_tool_calls(text, format=fmt) and s.finish()[0].ok
            assert not [e for e in events if isinstance(e, TextDelta)]  # (the name is the call's)


@pytest.mark.parametrize("text", _DECIDED_LATER)
@pytest.mark.parametrize("thinking", [None, False])
def test_what_the_whole_text_decides_is_never_reported_before(text, thinking):
    for step in (1, 3, 8):
        _check_live(text, list(range(step, len(text), step)), thinking=thinking)


@pytest.mark.parametrize("part", chunks(ROWS, _row_id))
def test_every_corpus_message_read_live(part):
    check_each(part, _read_live, _row_id)


def _read_live(i: int, row: dict) -> None:
    text = row["text"]
    rng = random.Random(i)
    fmt = _forced(row)
    for thinking in (False,) if _wide(row) else (False, True):
        cuts = [rng.randrange(len(text) + 1) for _ in range(rng.randrange(1, 12))]
        _check_live(text, cuts, thinking=thinking)
        _check_live(text, list(range(0, len(text), 4)), thinking=thinking)
        if fmt is not None:
            _check_live(text, cuts, format=fmt, thinking=thinking)
        if row.get("tools") and fmt is not None:
            _check_live(text, list(range(0, len(text), 7)), format=fmt, tools=row["tools"], thinking=thinking)


HERMES_TEXTS = [r["text"] for r in ROWS if "<tool_call>" in r["text"] and not _wide(r)]


def _cut_points(text: str) -> list[int]:
    """Every end of ``text`` but those deep inside a run of one repeated character (a decoy's
    4,000 blanks): there the first and last 8 ends and every 13th are taken, as a cut inside
    such a run differs from its neighbours only in the run's length (every cut costs a stream
    over the text before it: the whole run cut everywhere is quadratic)."""
    ends = []
    for run in re.finditer(r"(.)\1{31,}", text, re.S):
        a, b = run.span()
        ends += [e for e in range(a + 9, b - 8) if (e - a) % 13]
    skipped = set(ends)
    return [end for end in range(len(text) + 1) if end not in skipped]


def test_the_cut_points_skip_only_the_inside_of_long_runs():
    assert _cut_points("ab") == [0, 1, 2]
    text = "<tool_call>" + " " * 100 + "x"
    ends = _cut_points(text)
    assert ends[:20] == list(range(20)) and ends[-10:] == list(range(len(text) - 9, len(text) + 1))
    assert len(ends) < 40 and 11 + 13 in ends and 11 + 14 not in ends


def _deltas_to(end: int) -> list[int]:
    """Where the deltas of a stream cut at ``end`` begin: 3 characters each over the last 24 to
    40 before the cut (what a cut holds back or passes on is decided there), 16 before that (the
    random splits and the whole corpus read live try the small deltas everywhere; here each cut
    point is a stream of its own, so small deltas all the way are quadratic in the message)."""
    head = max(0, end - 24) // 16 * 16
    return list(range(0, head, 16)) + list(range(head, end, 3))


def test_the_deltas_of_a_cut_stream_are_small_only_near_the_cut():
    assert _deltas_to(0) == [] and _deltas_to(7) == [0, 3, 6]
    assert _deltas_to(100) == [0, 16, 32, 48] + list(range(64, 100, 3))


@pytest.mark.parametrize("i", range(0, len(HERMES_TEXTS)))
def test_a_message_cut_anywhere_read_live(i):
    """The message ends at every point (a cut stream): what was reported
    early is still what the cut text's calls are."""
    text = HERMES_TEXTS[i]
    for end in _cut_points(text)[_CUTS_OF_THIS_BUILD::2]:  # (the other build takes the others)
        _check_live(text[:end], _deltas_to(end), thinking=False)


LONG_ARGS = {"path": "src/app.py", "content": "".join(f"def f{n}(x):\n    return x < {n}  # \u00e9\n"
                                                     for n in range(400))}


def _half_of_a_long_call(s: ToolCallStream, text: str) -> tuple[list, str]:
    """Feed ``text`` up to the middle of LONG_ARGS in 4-character deltas: the
    call is started and over 5,000 characters of its arguments are passed on."""
    events: list = []
    half = text.index("def f200")
    for k in range(0, half, 4):
        events += s.feed(text[k:min(k + 4, half)])
    assert [e.name for e in events if isinstance(e, CallStarted)] == ["write_file"]
    sent = "".join(e.arguments for e in events if isinstance(e, ArgsDelta))
    assert len(sent) > 5000 and json.dumps(LONG_ARGS).startswith(sent)
    return events, text[half:]


def test_a_long_call_streams_its_arguments_before_it_ends():
    body = json.dumps({"name": "write_file", "arguments": LONG_ARGS})
    text = f"Writing it.\n<tool_call>\n{body}\n</tool_call>\nDone."
    s = ToolCallStream(thinking=False)
    events, rest = _half_of_a_long_call(s, text)
    assert not any(isinstance(e, CallFinished) for e in events)
    end = rest.index("</tool_call>") + len("</tool_call>")
    events2 = []
    for k in range(0, end, 4):
        events2 += s.feed(rest[k:min(k + 4, end)])
    (done,) = [e for e in events2 if isinstance(e, CallFinished)]
    assert done.call.ok and done.call.args == LONG_ARGS  # finished at its closer, not at the end
    assert s.feed(rest[end:]) == [TextDelta("\nDone.")]
    assert s.close() == []
    assert s.finish() == parse_tool_calls(text)


@pytest.mark.parametrize("args", [
    '{"doc": "ends with </tool_call> inside"}',      # a closer inside a string
    '{"doc": "a <tool_call> inside"}',
    '{"a": "unescaped "quote" here"}',               # not JSON: the rest waits for the end
    "{'a': 'single'}",
    '{"a": 1,}',
    '{"a": "\u3000"   }',                              # a blank that str.strip() removes, in a string
    '{"a": tru',                                       # cut
])
def test_arguments_that_end_the_live_reading_are_finished_at_the_end(args):
    text = f'Go.\n<tool_call>\n{{"name": "f", "arguments": {args}}}\n</tool_call> after'
    for step in (1, 3, 7):
        _check_live(text, list(range(0, len(text), step)), thinking=False)
        _check_live(text[:-6], list(range(0, len(text) - 6, step)), thinking=False)


def test_thinking_true_hides_the_reasoning_and_reads_after_its_first_closer():
    call = '<tool_call>{"name": "rm", "arguments": {}}</tool_call>'
    text = f"I might {call} here.</think>Answer: {call.replace('rm', 'ls')} </think> ok"
    events = _check_live(text, list(range(0, len(text), 5)), thinking=True)
    shown = "".join(e.text for e in events if isinstance(e, TextDelta))
    assert "might" not in shown and shown.startswith("Answer: ")
    assert [c.name for c in parse_tool_calls(text, thinking=True)] == ["ls"]
    assert [c.name for c in parse_tool_calls(text, thinking=False)] == ["rm", "ls"]
    assert parse_tool_calls(text) == []  # unknown: the last bare closer ends the reasoning
    s = ToolCallStream(thinking=True)
    assert s.feed(f"still thinking {call}") == [] and s.close() == [] and s.finish() == []


def test_a_think_block_and_code_spans_keep_the_reading_live():
    text = ("<think>maybe <tool_call>{\"name\": \"rm\", \"arguments\": {}}</tool_call></think>\n"
            "I'll read `a.py` and ``b`c``:\n<tool_call>{\"name\": \"read\", \"arguments\": {\"p\": 1}}"
            "</tool_call>")
    s = ToolCallStream(thinking=False)
    events: list = []
    for k in range(0, len(text), 3):
        events += s.feed(text[k:k + 3])
    assert [e.call.name for e in events if isinstance(e, CallFinished)] == ["read"]  # before close()
    shown = "".join(e.text for e in events if isinstance(e, TextDelta))
    assert shown == "\nI'll read `a.py` and ``b`c``:\n" and s.close() == []
    _check_live(text, list(range(0, len(text), 2)), thinking=False)


def test_thinking_is_checked():
    with pytest.raises(TypeError, match="thinking"):
        ToolCallStream(thinking="yes")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="thinking"):
        parse_tool_calls("", thinking=1)  # type: ignore[arg-type]


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet='<>[]{}`~/_tool_call think:"namergs,1Afunctos\n| \\', max_size=90),
       st.lists(st.integers(0, 90), max_size=10), st.booleans())
def test_random_texts_read_live(text, cuts, thinking):
    _check_live(text, [c for c in cuts if c <= len(text)], thinking=thinking)


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet='{}[]":,0123456789.eE+-truefalsn \n\\u<>/tool_call', max_size=60),
       st.lists(st.integers(0, 120), max_size=10))
def test_random_arguments_read_live(args, cuts):
    text = f'<tool_call>{{"name": "f", "arguments": {{{args}</tool_call> x'
    _check_live(text, [c for c in cuts if c <= len(text)], thinking=False)
    _check_live(text[:len(text) // 2], [c for c in cuts if c <= len(text) // 2], thinking=False)


_BODY_PIECES = st.sampled_from(['{', '}', '[', ']', '"', ':', ',', ' ', '\n', '\\', '"name"', '"arguments"',
                                '"id"', '"x"', '1', 'true', '</tool_call>', '<tool_call>', '</tool_call',
                                '<', "'", '\u3000', '\x85', 'é', '{"a": "b"}'])


@settings(max_examples=400, deadline=None)
@given(st.lists(_BODY_PIECES, max_size=25).map("".join), st.lists(st.integers(0, 200), max_size=10))
def test_broken_bodies_after_an_everyday_head_read_live(rest, cuts):
    """A head the live reading starts a call on, then anything: the events never
    contradict the calls, whole or cut anywhere."""
    text = '<tool_call>\n{"name": "f", "arguments": {"k": "v' + rest
    for t in (text, text + '"}}\n</tool_call> after'):
        _check_live(t, [c for c in cuts if c <= len(t)], thinking=False)


@pytest.mark.parametrize("ticks", [1, 2, 3, 40])
def test_code_spans_of_any_length_read_live(ticks):
    run = "`" * ticks
    call = '<tool_call>{"name": "f", "arguments": {}}</tool_call>'
    texts = [f"see {run}x {call} y{run} then {call}", f"see {run}x\n\n{call}", f"a {run}{call}"]
    # a shorter run inside the span closes nothing: a call after it is still code
    texts += [f"see {run}x{'`' * k} {call} {run} {call}" for k in range(1, ticks)]
    for text in texts:
        for step in (1, 7, len(text)):
            _check_live(text, list(range(0, len(text), step)), thinking=False)


XML_CALL = ("<tool_call>\n<function=get_weather>\n<parameter=city>\nParis\n</parameter>\n"
            "<parameter=days>\n3\n</parameter>\n</function>\n</tool_call>")


def test_a_qwen3_coder_call_is_reported_at_its_closer():
    text = f"Checking.\n{XML_CALL}\nthen\n{XML_CALL.replace('Paris', 'Lima')}"
    s = ToolCallStream(thinking=False)
    events: list = []
    for k in range(0, len(text), 5):
        events += s.feed(text[k:k + 5])
    # (each once what follows its closer shows no parameter of its: the last one, at the end)
    assert [e.call.args["city"] for e in events if isinstance(e, CallFinished)] == ["Paris"]
    assert [e.call.args["city"] for e in s.close() if isinstance(e, CallFinished)] == ["Lima"]
    assert s.finish() == parse_tool_calls(text, thinking=False)


@pytest.mark.parametrize("later", [
    "",
    "\n<tool_call>\n<function=f>\n<parameter=q>\nz\n</parameter>\n</function>\n</tool_call>",
])
@pytest.mark.parametrize("call", [
    # a dropped </parameter>: how it reads depends on whether one comes later
    "<tool_call>\n<function=f>\n<parameter=a>\nx\n<parameter=b>\ny\n</parameter>\n</function>\n</tool_call>",
    "<tool_call>\n<function=f>\n<parameter=a>\nx\n</function>\n</tool_call>",
    # a value that shows the format
    "<tool_call>\n<function=w>\n<parameter=c>\nend with </function>\n</tool_call>\n</parameter>\n"
    "</function>\n</tool_call>",
    "<tool_call>\n<function=w>\n<parameter=c>\n<tool_call>\n</parameter>\n</function>\n</tool_call>",
])
def test_an_irregular_qwen3_coder_call_waits_for_the_end(call, later):
    text = f"Go.\n{call}{later}"
    for step in (1, 4, len(text)):
        _check_live(text, list(range(0, len(text), step)), thinking=False)
        _check_live(text, list(range(0, len(text), step)), format="qwen3_coder", thinking=False)


_XML_PIECES = st.sampled_from(['<tool_call>', '</tool_call>', '<function=f>', '<function=g>', '</function>',
                               '<parameter=a>', '<parameter=b>', '</parameter>', 'x', '1', '\n', ' ', '<',
                               '</', '<seed:tool_call>', '</seed:tool_call>', '</think>', '`', '{"a": 1}',
                               '<tool_call>\n{"name": "h", "arguments": {}}</tool_call>'])




GLM_CALL = ("<tool_call>get_weather\n<arg_key>city</arg_key>\n<arg_value>Paris</arg_value>\n"
            "<arg_key>days</arg_key>\n<arg_value>3</arg_value>\n</tool_call>")


def test_a_glm_call_is_reported_at_its_closer():
    text = f"Checking.\n{GLM_CALL}\nthen\n{GLM_CALL.replace('Paris', 'Lima')}"
    for fmt in (None, "glm45"):
        s = ToolCallStream(format=fmt, thinking=False)
        events: list = []
        for k in range(0, len(text), 5):
            events += s.feed(text[k:k + 5])
        assert [e.call.args["city"] for e in events if isinstance(e, CallFinished)] == ["Paris"]
        assert [e.call.args["city"] for e in s.close() if isinstance(e, CallFinished)] == ["Lima"]
        assert s.finish() == parse_tool_calls(text, format=fmt, thinking=False)


_GLM_PIECES = st.sampled_from(['<tool_call>', '</tool_call>', 'f', 'get', ' ', '\n', '<arg_key>',
                               '</arg_key>', '<arg_value>', '</arg_value>', '<tool_sep>', 'k', 'v', '<', '</',
                               '{"a": 1}',
                               '<tool_call>\n{"name": "h", "arguments": {}}</tool_call>'])


@pytest.mark.parametrize(("pieces", "named"), [(_XML_PIECES, "qwen3_coder"), (_GLM_PIECES, "glm45")],
                         ids=["qwen3_coder", "glm45"])
@settings(max_examples=400, deadline=None)
@given(data=st.data())
def test_xml_style_texts_read_live(pieces, named, data):
    """Texts of the format's own tags, in any order: detected and named, the
    calls reported early are never contradicted."""
    text = data.draw(st.lists(pieces, max_size=30).map("".join))
    cuts = data.draw(st.lists(st.integers(0, 300), max_size=10))
    for fmt in (None, named):
        _check_live(text, [c for c in cuts if c <= len(text)], format=fmt, thinking=False)


def test_special_tokens_are_never_shown_as_text_live():
    text = ("Sure.<|tool_calls_section_begin|><|tool_call_begin|>functions.w:0<|tool_call_argument_begin|>"
            '{"city": "Paris"}<|tool_call_end|><|tool_calls_section_end|>')
    events = _check_live(text, list(range(0, len(text), 3)), thinking=False)
    assert "".join(e.text for e in events if isinstance(e, TextDelta)) == "Sure."
    text = "Done<\uff5ctool\u2581calls\u2581begin\uff5c>"
    events = _check_live(text, list(range(0, len(text), 2)), thinking=False)
    assert "".join(e.text for e in events if isinstance(e, TextDelta)) == text  # no call: shown at the end


# -- families written in tokens of their own: each call reported whole at its closer ---------------

KIMI = ("<|tool_calls_section_begin|><|tool_call_begin|>functions.get_weather:0<|tool_call_argument_begin|>"
        '{"city": "Paris"}<|tool_call_end|><|tool_call_begin|>functions.get_time:1'
        '<|tool_call_argument_begin|>{"tz": "UTC"}<|tool_call_end|><|tool_calls_section_end|>')
DEEPSEEK = ("<\uff5ctool\u2581calls\u2581begin\uff5c><\uff5ctool\u2581call\u2581begin\uff5c>function"
            "<\uff5ctool\u2581sep\uff5c>get_weather\n```json\n{\"city\": \"Paris\"}\n```"
            "<\uff5ctool\u2581call\u2581end\uff5c>\n<\uff5ctool\u2581call\u2581begin\uff5c>get_time"
            "<\uff5ctool\u2581sep\uff5c>{\"tz\": \"UTC\"}<\uff5ctool\u2581call\u2581end\uff5c>"
            "<\uff5ctool\u2581calls\u2581end\uff5c>")
DSML = ('<\uff5cDSML\uff5cfunction_calls>\n<\uff5cDSML\uff5cinvoke name="get_weather">\n'
        '<\uff5cDSML\uff5cparameter name="city" string="true">Paris</\uff5cDSML\uff5cparameter>\n'
        '</\uff5cDSML\uff5cinvoke>\n<\uff5cDSML\uff5cinvoke name="get_time">\n'
        '<\uff5cDSML\uff5cparameter name="tz" string="true">UTC</\uff5cDSML\uff5cparameter>\n'
        '</\uff5cDSML\uff5cinvoke>\n</\uff5cDSML\uff5cfunction_calls>')
STEP3 = ('<\uff5ctool_calls_begin\uff5c><\uff5ctool_call_begin\uff5c>function<\uff5ctool_sep\uff5c>'
         '<steptml:invoke name="get_weather">\n<steptml:parameter name="city">Paris</steptml:parameter>\n'
         '</steptml:invoke><\uff5ctool_call_end\uff5c><\uff5ctool_call_begin\uff5c>function<\uff5ctool_sep\uff5c>'
         '<steptml:invoke name="get_time">\n<steptml:parameter name="tz">UTC</steptml:parameter>\n'
         '</steptml:invoke><\uff5ctool_call_end\uff5c><\uff5ctool_calls_end\uff5c>')
MINIMAX = ('<minimax:tool_call>\n<invoke name="get_weather">\n<parameter name="city">Paris</parameter>\n'
           '</invoke>\n<invoke name="get_time">\n<parameter name="tz">UTC</parameter>\n</invoke>\n'
           '</minimax:tool_call>')
HARMONY = ("<|channel|>analysis<|message|>Both tools.<|end|><|start|>assistant<|channel|>commentary "
           'to=functions.get_weather <|constrain|>json<|message|>{"city": "Paris"}<|call|>'
           "<|start|>assistant<|channel|>commentary to=functions.get_time <|constrain|>json"
           '<|message|>{"tz": "UTC"}<|call|>')
TOKEN_FAMILIES = {"kimi_k2": KIMI, "deepseek_v3": DEEPSEEK, "deepseek_v32": DSML, "step3": STEP3,
                  "minimax_m2": MINIMAX, "harmony": HARMONY}


@pytest.mark.parametrize("fmt", sorted(TOKEN_FAMILIES))
def test_token_families_report_each_call_at_its_closer(fmt):
    """Each call is finished as soon as its closer arrives (MiniMax's at its block's, once
    what follows shows no parameter; DSML's at the next invoke's opener, as a parameter after
    its end in the block would make it not ok; Step-3's once the next call's token is whole, a
    parameter after its block's closer making it not ok; Kimi's and DeepSeek's once the next
    call's token or the section's end follows it, as text that is no call would make an entry
    not ok), before the message ends; the tokens around the calls are never shown; the calls
    are parse_tool_calls', one for one."""
    text = "Checking both.\n" + TOKEN_FAMILIES[fmt] + "\nDone."
    for named in (None, fmt):
        s = ToolCallStream(format=named, thinking=False)
        events: list = []
        finished_at = []
        for k in range(0, len(text), 3):
            for e in s.feed(text[k:k + 3]):
                events.append(e)
                if isinstance(e, CallFinished):
                    finished_at.append(k + 3)
        events += s.close()
        calls = parse_tool_calls(text, format=named, thinking=False)
        assert [c.name for c in calls] == ["get_weather", "get_time"] and all(c.ok for c in calls)
        assert s.finish() == calls
        _check_call_events(events, calls)
        # (Kimi's and DeepSeek's in their section: once the next call's token, or the section's end, is whole)
        nxt = {"kimi_k2": "<|tool_call_begin|>", "deepseek_v3": "<\uff5ctool\u2581call\u2581begin\uff5c>",
               "step3": "<\uff5ctool_call_begin\uff5c>"}
        # (MiniMax's once the character after its block's closer that is no blank shows no parameter)
        first_end = (text.index("</minimax:tool_call>") + 22 if fmt == "minimax_m2" else
                     text.index("<\uff5cDSML\uff5cinvoke", calls[0].span[1]) + 14 if fmt == "deepseek_v32"
                     else text.index(nxt[fmt], calls[0].span[1]) + len(nxt[fmt]) if fmt in nxt
                     else calls[0].span[1])
        assert finished_at[0] < first_end + 3 and finished_at[-1] < len(text)  # not at close()
        shown = "".join(e.text for e in events if isinstance(e, TextDelta))
        assert shown.startswith("Checking both.\n") and shown.endswith("Done.")
        assert not any(t in shown for t in ("<|", "<\uff5c", "</", "<minimax", "<steptml", "Both tools"))


def test_a_harmony_final_answer_is_shown_and_its_analysis_is_not():
    text = ("<|channel|>analysis<|message|>Think it over.<|end|><|start|>assistant<|channel|>final"
            "<|message|>It is sunny.<|return|>")
    events = _check_live(text, list(range(0, len(text), 5)), format="harmony", thinking=False)
    assert "".join(e.text for e in events if isinstance(e, TextDelta)) == "It is sunny."


@pytest.mark.parametrize("text", [
    # a value that holds the closer: the call ends later than its first closer
    '<\uff5cDSML\uff5cinvoke name="w">\n<\uff5cDSML\uff5cparameter name="c" string="true">'
    'a </\uff5cDSML\uff5cinvoke> b</\uff5cDSML\uff5cparameter>\n</\uff5cDSML\uff5cinvoke> after',
    '<|tool_call_begin|>functions.w:0<|tool_call_argument_begin|>{"c": "<|tool_call_end|>"}'
    '<|tool_call_end|> x',
    "<minimax:tool_call>\n<invoke name=\"f\">\n<parameter name=\"a\">x</minimax:tool_call></parameter>\n"
    "</invoke>\n</minimax:tool_call> after",
    # wrappers with no call in them, or text after them: all shown at the end
    "<|tool_calls_section_begin|> not a call <|tool_calls_section_end|> ok",
    "<\uff5ctool\u2581calls\u2581begin\uff5c><\uff5ctool\u2581calls\u2581end\uff5c>then text",
    "text <\uff5ctool\u2581calls\u2581end\uff5c> more",
    # a broken call between good ones
    KIMI.replace('"Paris"}', '"Paris"'), DEEPSEEK.replace("```<", "<"), HARMONY.replace("<|call|>", "", 1),
])
def test_token_family_texts_that_wait_for_the_end(text):
    for step in (1, 4, len(text)):
        _check_live(text, list(range(0, len(text), step)), thinking=False)
        events = _check_live(text[:len(text) // 2], list(range(0, len(text) // 2, step)), thinking=False)
        if not parse_tool_calls(text[:len(text) // 2], thinking=False) and "analysis" not in text:
            assert "".join(e.text for e in events if isinstance(e, TextDelta)) == text[:len(text) // 2]


_TOKEN_PIECES = {
    "kimi_k2": ["<|tool_calls_section_begin|>", "<|tool_calls_section_end|>", "<|tool_call_begin|>",
                "functions.f:0", "g", "<|tool_call_argument_begin|>", '{"a": 1}',
                '{"a": "<|tool_call_end|>"}', "<|tool_call_end|>", "{", "}", '"', " ", "\n", "x", "<", "<|"],
    "deepseek_v3": ["<\uff5ctool\u2581calls\u2581begin\uff5c>", "<\uff5ctool\u2581calls\u2581end\uff5c>",
                    "<\uff5ctool\u2581call\u2581begin\uff5c>", "function", "<\uff5ctool\u2581sep\uff5c>", "f",
                    "\n", "```json\n", "```", '{"a": 1}', "<\uff5ctool\u2581call\u2581end\uff5c>", " ", "{",
                    "x", '{"a": "```"}', '{"a": "<\uff5ctool\u2581call\u2581end\uff5c>"}', '"b"', ":", "}"],
    "deepseek_v32": ["<\uff5cDSML\uff5cfunction_calls>", "</\uff5cDSML\uff5cfunction_calls>",
                     '<\uff5cDSML\uff5cinvoke name="f">', "</\uff5cDSML\uff5cinvoke>",
                     '<\uff5cDSML\uff5cparameter name="a" string="true">',
                     '<\uff5cDSML\uff5cparameter name="b" string="false">', "</\uff5cDSML\uff5cparameter>",
                     "x", "1", "\n", " ", "<", '<\uff5cDSML\uff5cinvoke name="g"/>'],
    "step3": ["<\uff5ctool_calls_begin\uff5c>", "<\uff5ctool_call_begin\uff5c>function<\uff5ctool_sep\uff5c>",
              '<steptml:invoke name="f">', '<steptml:parameter name="a">', "</steptml:parameter>",
              "</steptml:invoke>", "<\uff5ctool_call_end\uff5c>", "<\uff5ctool_calls_end\uff5c>", "x", "\n"],
    "minimax_m2": ["<minimax:tool_call>", "</minimax:tool_call>", '<invoke name="f">', "</invoke>",
                   '<parameter name="a">', "</parameter>", '<invoke name="g"/>', "x", "\n", " ", "<"],
    "harmony": ["<|start|>assistant", "<|channel|>", "analysis", "commentary", "final", " to=functions.f",
                " <|constrain|>json", "<|message|>", '{"a": 1}', "hi", "<|call|>", "<|end|>", "<|return|>",
                " "],
}
_BLOCK_BODY = ['{"name": "f", "arguments": {"a": 1}}', '[{"name": "g", "arguments": {}}]', '{"a": "',
               '"}', "}", "]", "[", ",", " ", "\n", "x", '"', '{"name": "h", "parameters": {"b": "x']
_TOKEN_PIECES.update({
    "granite": ["<|tool_call|>", "<|/tool_call|>", *_BLOCK_BODY],
    "command": ["<|START_ACTION|>", "<|END_ACTION|>", *_BLOCK_BODY],
    "longcat": ["<longcat_tool_call>", "</longcat_tool_call>", *_BLOCK_BODY],
    "internlm": ["<|action_start|><|plugin|>", "<|action_end|>", *_BLOCK_BODY],
    "nemotron_v2": ["<TOOLCALL>", "</TOOLCALL>", *_BLOCK_BODY],
    "granite_20b_fc": ["<function_call>", "</function_call>", *_BLOCK_BODY],
    "jamba": ["<tool_calls>", "</tool_calls>", *_BLOCK_BODY],
    "apertus": ["<|tools_prefix|>", "<|tools_suffix|>", '[{"f": {"a": 1}}]', '{"g": {}}', *_BLOCK_BODY],
})
_TOKEN_PIECES["mistral"] = ["[TOOL_CALLS]", "f", "get", "[ARGS]", "[CALL_ID]", "abc123", '{"a": 1}',
                            '{"a": "x"}', "{", "}", '"', " ", "\n", "[", "]",
                            '[{"name": "f", "arguments": {}}]', "x", ":", ","]
_TOKEN_PIECES["hy_v3"] = ["<tool_calls>", "</tool_calls>", "<tool_call>", "</tool_call>", "f", "<tool_sep>",
                          "<arg_key>", "</arg_key>", "<arg_value>", "</arg_value>", "k", "v", "\n", " ",
                          '{"name": "f", "arguments": {}}']
_PY_BODY = ["[", "]", "f(a=1)", 'g(b="x")', ", ", "h(c='<|python_end|>')", "(", ")", '"', "x", " ", "\n",
            "f(a=[1, {'k': None}])"]
_TOKEN_PIECES.update({
    "llama4_pythonic": ["<|python_start|>", "<|python_end|>", *_PY_BODY],
    "lfm2": ["<|tool_call_start|>", "<|tool_call_end|>", *_PY_BODY],
    "olmo3": ["<function_calls>", "</function_calls>", '<invoke name="f">', "</invoke>", *_PY_BODY],
    "gemma4": ["<|tool_call>", "<tool_call|>", "call:f", "call:g", "{", "}", "a:", '<|"|>', "x", ",", "b:1",
               "<tool_call|>", " ", "\n"],
    "functiongemma": ["<start_function_call>", "<end_function_call>", "call:f", "{", "}", "a:", "<escape>",
                      "x", ",", "b:1", " ", "\n"],
})
_COMMON_PIECES = ["</think>", "<think>", "`", "<tool_call>\n{\"name\": \"h\", \"arguments\": {}}</tool_call>"]


@pytest.mark.parametrize("named", sorted(_TOKEN_PIECES))
@settings(max_examples=100, deadline=None)
@given(data=st.data())
def test_token_family_texts_read_live(named, data):
    """Texts of the family's own tokens, in any order: detected and named,
    the calls reported early are never contradicted (100 texts a family here,
    21 formats; the fuzz target tool_stream goes on from there)."""
    pieces = st.sampled_from(_TOKEN_PIECES[named] + _COMMON_PIECES)
    text = data.draw(st.lists(pieces, max_size=30).map("".join))
    cuts = data.draw(st.lists(st.integers(0, 400), max_size=10))
    thinking = data.draw(st.booleans())
    for fmt in (None, named):
        _check_live(text, [c for c in cuts if c <= len(text)], format=fmt, thinking=thinking)


_HARMONY_CALL = ('<|start|>assistant<|channel|>commentary to=functions.{} <|constrain|>json'
                 '<|message|>{{"a":1}}{}')


@pytest.mark.parametrize("text", [
    # a turn end a call ran on to, and a tool's result: the calls after them are not this turn's
    _HARMONY_CALL.format("f", "<|im_end|>\n") + _HARMONY_CALL.format("g", "<|call|>"),
    _HARMONY_CALL.format("f", "\n<|eot_id|>") + _HARMONY_CALL.format("g", "<|call|>"),
    '<|channel|>commentary to=functions.ls<|message|>{"path": "a"}<|im_end|>\n<|call|>',
    '<tool_call>\n{"name": "f", "arguments": {"a": 1}}\n<|im_end|>\n'
    '<tool_call>\n{"name": "g", "arguments": {}}',
    '<tool_call>\n{"name": "f", "arguments": {}}\n</tool_call>\n<tool_response>\n5\n</tool_response>\n'
    '<tool_call>\n{"name": "g", "arguments": {}}\n</tool_call>',
    _HARMONY_CALL.format("f", "<|call|>")
    + '<|start|>functions.f to=assistant<|channel|>commentary<|message|>5<|end|>'
    + _HARMONY_CALL.format("g", "<|call|>"),
    '[TOOL_CALLS]f{"a": 1}[TOOL_RESULTS]{"r": 1}[/TOOL_RESULTS][TOOL_CALLS]g{"b": 2}',
    "<|tool_call>call:f{a:1}<tool_call|><|tool_response>response:f{r:1}<tool_response|>"
    "<|tool_call>call:g{b:2}<tool_call|>",
    '<tool_call>\n{"name": "f", "arguments": {}}\n</tool_call><end_of_turn>\n<start_of_turn>user\nhi'
    '<end_of_turn>\n<start_of_turn>model\n<tool_call>\n{"name": "g", "arguments": {}}\n</tool_call>',
    '<!-- <tool_call>{"name": "f", "arguments": {}}</tool_call> -->\n'
    '<tool_call>{"name": "g", "arguments": {}}</tool_call>',
    'He wrote "<tool_call>{"name": "f", "arguments": {}}</tool_call>" then.',
    '<|im_start|>user\nhi<|im_end|>\n<|im_start|>assistant\n<tool_call>\n{"name": "f", "arguments": {}}\n'
    '</tool_call><|im_end|>\n<|im_start|>user\n<tool_response>\n1\n</tool_response><|im_end|>\n'
    '<|im_start|>assistant\n<tool_call>\n{"name": "g", "arguments": {}}\n</tool_call>',
    # harmony reasoning ends at its <|end|>: a call token inside it ends nothing
    '<|channel|>analysis<|message|>x<|call|><tool_call>{"name": "f", "arguments": {"a": 1}}</tool_call>'
    "<|end|>",
    "<|channel|>analysis<|message|><|call|>Action:f\nAction Input:<|end|>",
    # words after the arguments, a harmony message cut short by the next one's header
    '<|channel|>commentary to=functions.ls<|message|>{"path": "a"} recursive=true<|call|>',
    '<|channel|>commentary to=functions.ls\n<|message|>{"path": "a"\n'
    '<|channel|>final<|message|>Done<|return|>',
])
def test_what_ends_the_turn_is_read_live_as_whole(text):
    for thinking in (False, True, None):
        for k in range(len(text) + 1):
            _check_live(text, [k], thinking=thinking)
        _check_live(text, list(range(len(text))), thinking=thinking)


@pytest.mark.parametrize("fmt", [None, "gemma4"])
def test_a_call_not_ok_at_its_closer_waits_for_the_text_after_it(fmt):
    """The closer inside a string that is not closed yet: read at that closer, the
    call is not ok for one reason; the text after it gives another (the string goes
    on: the call is cut). It is reported as the whole text reads it."""
    text = '<|tool_call>call:r{<|"|><tool_call|><|"|>'
    for k in range(len(text) + 1):
        _check_live(text, [k], format=fmt, thinking=False)


@pytest.mark.parametrize("fmt", ["kimi_k2", "deepseek_v3"])
def test_kimi_and_deepseek_arguments_stream_before_the_call_ends(fmt):
    """Their arguments are JSON after a head: streamed in pieces as they come
    (a 30 KB write too), the call finished at its closer."""
    args = json.dumps(LONG_ARGS)
    calls = {"kimi_k2": "<|tool_calls_section_begin|><|tool_call_begin|>functions.write_file:0"
                        f"<|tool_call_argument_begin|>{args}<|tool_call_end|><|tool_calls_section_end|>",
             "deepseek_v3": "<\uff5ctool\u2581calls\u2581begin\uff5c><\uff5ctool\u2581call\u2581begin\uff5c>"
                            f"write_file<\uff5ctool\u2581sep\uff5c>{args}<\uff5ctool\u2581call\u2581end\uff5c>"
                            f"<\uff5ctool\u2581calls\u2581end\uff5c>"}
    text = "Writing it.\n" + calls[fmt] + "\nDone."
    v3 = DEEPSEEK.replace("get_weather", "write_file").replace('{"city": "Paris"}', args)  # V3's fence
    for t in (text, v3) if fmt == "deepseek_v3" else (text,):
        s = ToolCallStream(format=fmt, thinking=False)
        events, rest = _half_of_a_long_call(s, t)
        for k in range(0, len(rest), 4):
            events += s.feed(rest[k:k + 4])
        assert [e.call.args for e in events if isinstance(e, CallFinished)][0] == LONG_ARGS
        events += s.close()
        assert s.finish() == parse_tool_calls(t, format=fmt, thinking=False)
        _check_call_events(events, s.finish())


@pytest.mark.parametrize("args", [
    '{"doc": "ends with <|tool_call_end|> inside"}', '{"doc": "a ``` fence"}',
    '{"doc": "<\uff5ctool\u2581call\u2581end\uff5c>"}', '{"a": "unescaped "quote" here"}', "{'a': 'single'}",
    '{"a": 1,}', '{"a": "\u3000"   }', '{"a": tru', '{"a": 1} trailing',
])
def test_kimi_and_deepseek_arguments_that_end_the_live_reading(args):
    texts = [f"Go.<|tool_call_begin|>functions.f:0<|tool_call_argument_begin|>{args}<|tool_call_end|> after",
             f"Go.<\uff5ctool\u2581call\u2581begin\uff5c>f<\uff5ctool\u2581sep\uff5c>{args}"
             "<\uff5ctool\u2581call\u2581end\uff5c> after",
             f"Go.<\uff5ctool\u2581call\u2581begin\uff5c>function<\uff5ctool\u2581sep\uff5c>f\n```json\n{args}\n```"
             "<\uff5ctool\u2581call\u2581end\uff5c> after"]
    for text in texts:
        for step in (1, 3, 7):
            _check_live(text, list(range(0, len(text), step)), thinking=False)
            _check_live(text[:-6], list(range(0, len(text) - 6, step)), thinking=False)


def test_mistral_arguments_stream_and_the_call_ends_with_the_message():
    """Mistral's call has no closer: its arguments stream as they come, and it
    is finished at the end of the message (another call may follow it)."""
    args = json.dumps(LONG_ARGS)
    for head in ("[TOOL_CALLS]write_file[ARGS]", "[TOOL_CALLS]write_file[CALL_ID]a1b2c3d4e[ARGS]"):
        text = f"Writing it.\n{head}{args}[TOOL_CALLS]run[ARGS]{{\"cmd\": \"pytest\"}}"
        s = ToolCallStream(format="mistral", thinking=False)
        events, _ = _half_of_a_long_call(s, text)
        (started,) = [e for e in events if isinstance(e, CallStarted)]
        assert started.id == ("a1b2c3d4e" if "CALL_ID" in head else None)
        _check_live(text, list(range(0, len(text), 4)), format="mistral", thinking=False)
        _check_live(text, list(range(0, len(text), 5)), thinking=False)


def test_the_fast_event_constructors_make_the_dataclasses():
    from toolmend.recovery._streamevents import args_delta, text_delta

    assert text_delta("ab") == TextDelta("ab") and type(text_delta("ab")) is TextDelta
    assert args_delta(2, '{"a"') == ArgsDelta(2, '{"a"') and type(args_delta(2, "")) is ArgsDelta
    assert hash(text_delta("x")) == hash(TextDelta("x"))
    assert repr(args_delta(1, "y")) == repr(ArgsDelta(1, "y"))
    with pytest.raises(AttributeError):
        text_delta("x").text = "y"  # type: ignore[misc]


def test_a_feed_kept_bound_works_whatever_the_reading_does():
    text = ('Hi <tool_call>{"name": "f", "arguments": {}}</tool_call> then ```\ncode\n``` '
            '<tool_call>{"name": "g", ')
    for thinking in (None, False, True):
        s = ToolCallStream(thinking=thinking)
        feed = s.feed  # bound once, as a serving loop does
        events = [e for k in range(0, len(text), 3) for e in feed(text[k:k + 3])] + s.close()
        assert s.finish() == parse_tool_calls(text, thinking=thinking)
        _check_call_events(events, s.finish())
        with pytest.raises(ToolmendError, match="closed"):
            feed("more")
        with pytest.raises(TypeError):
            ToolCallStream(thinking=thinking).feed(b"bytes")  # type: ignore[arg-type]


@pytest.mark.parametrize("unit", [
    '<tool_call>{"name": "ls", "arguments": {"p": "x"}}</tool_call>\nok ',
    "<|tool_calls_section_begin|><|tool_call_begin|>functions.ls:0<|tool_call_argument_begin|>"
    '{"p": "x"}<|tool_call_end|><|tool_calls_section_end|>\n',
    "<tool_call>\n<function=ls>\n<parameter=p>\nx\n</parameter>\n</function>\n</tool_call>\n",
    "<tool_call>ls\n<arg_key>p</arg_key><arg_value>x</arg_value></tool_call>\n",
], ids=["hermes", "kimi", "qwen3_coder", "glm"])
def test_a_long_message_of_many_calls_reports_each_at_its_closer(unit):
    """Past 4 KB a call is read from its own start (its spans moved into the
    message): every call still finished at its closer, as the whole text reads it."""
    text = "Intro.\n" + unit * 150
    assert len(text) > 8192
    for step in (1, 4, 7):
        s = ToolCallStream(thinking=False)
        events: list = []
        for k in range(0, len(text), step):
            events += s.feed(text[k:k + step])
        assert not s._held  # every call was read live
        events += s.close()
        finished = [e.call for e in events if isinstance(e, CallFinished)]
        assert finished == s.finish() == parse_tool_calls(text, thinking=False)
        assert len(finished) == 150 and all(c.ok for c in finished)


# -- what stops a prose delta ----------------------------------------------------

from toolmend.recovery import _triggers  # noqa: E402


def _stops_prose(delta: str) -> bool:
    """The definition PROSE_STOP is built to: a character or word that may begin
    a call, or an end of the delta that may grow into a word marker."""
    return _triggers.TRIGGER.search(delta) is not None or any(
        delta.endswith(p) for p in _triggers._WORD_PREFIXES)


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(["Action:", "functools", "function call<|role_sep|>", "Act", "fun",
                                 "functio", "A", "f", "x", " ", "<", "c", "o", "ls", ":", "`", "{"]),
                max_size=8).map("".join))
def test_prose_stop_is_its_definition(delta):
    assert (_triggers.PROSE_STOP.search(delta) is not None) == _stops_prose(delta)


def test_prose_stop_on_its_words():
    stop = _triggers.PROSE_STOP.search
    for word in ("Action:", "functools", "function call<|role_sep|>"):
        assert stop("see " + word + " x")  # a whole word anywhere
        for k in range(1, len(word)):
            assert stop("see " + word[:k])  # a start of one at the end: it may grow
            assert (stop(word[:k] + " x") is None) == ("<" not in word[:k])  # not in the middle
    assert stop("Acting fully on functions.") is None


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(["Action:", "functools", "function call<|role_sep|>", "Act", "fun", "functio",
                                 "function call<|role", "A", "f", "x", " ", "<", "c", "o", "ls", ":"]),
                max_size=8).map("".join))
def test_partial_tail_is_its_definition(text):
    longest = max([len(p) for p in _triggers._WORD_PREFIXES if text.endswith(p)], default=0)
    assert _triggers.partial_tail(text) == longest


# -- a message opening with a call whose opener the prompt held ---------------------------


@settings(max_examples=3000, deadline=None)
@given(st.text(alphabet="ab_<>:. \t\n\rcallinvokeargy{|\"=-", max_size=24))
def test_the_quick_look_at_a_message_start_never_refuses_a_call_body(text):
    # the stream decides on a message's first characters whether a call whose opener the
    # prompt held may open it (then the whole text decides): the quick refusal of prose
    # refuses nothing the pattern may still match
    from toolmend.recovery._formats import kinds_of
    from toolmend.recovery._triggers import _PREFILLED, opens_prefilled

    m = _PREFILLED.match(text, partial=True)
    opens = opens_prefilled(text, kinds_of(None))
    assert opens == (False if m is None else None if m.partial else True)


@pytest.mark.parametrize("thinking", [None, False])
def test_a_call_body_opening_the_message_is_never_shown_as_text(thinking):
    body = 'get_weather<arg_key>city</arg_key><arg_value>NYC</arg_value></tool_call>'
    check = _check if thinking is None else _check_live
    for text in (body, "  \n" + body, 'call:get_weather{city:<|"|>NYC<|"|>}<tool_call|>'):
        for step in (1, 2, 4, 7):
            check(text, list(range(0, len(text), step)), thinking=thinking)
    for prose in ("get_weather is the tool I need.", "call: me later", "Sure thing."):
        check(prose, list(range(0, len(prose), 3)), thinking=thinking)


@pytest.mark.parametrize("thinking", [None, False])
def test_calls_reported_before_a_turn_end_and_an_assistants_header_are_the_messages(thinking):
    f = '<tool_call>\n{"name": "f", "arguments": {"a": 1}}\n</tool_call>'
    g = '<tool_call>\n{"name": "g", "arguments": {"b": 2}}\n</tool_call>'
    check = _check if thinking is None else _check_live
    for text in (f + "<|im_end|>\n<|im_start|>assistant\n" + g, "Hi.<|im_end|>\n<|im_start|>assistant\n" + g):
        for step in (1, 4, 7):
            check(text, list(range(0, len(text), step)), thinking=thinking)


@pytest.mark.parametrize("text", [
    # after a call, a block that shows another one, nested as Markdown nests it (four ticks), or
    # framed as an example or a warning: shown, not made
    '<tool_call>{"name": "f", "arguments": {"a": 1}}</tool_call>\n\n'
    'The README documents the call like this:\n\n````\n# Tool usage\n```json\n'
    '{"name": "g", "arguments": {"b": 2}}\n```\n````\n',
    '<tool_call>{"name": "f", "arguments": {"a": 1}}</tool_call>\n\nFor example, a call looks like this:\n\n'
    '```\n```json\n{"name": "g", "arguments": {"b": 2}}\n```\n```\n',
    '<tool_call>{"name": "f", "arguments": {"a": 1}}</tool_call>\n\nExample:\n```\n```json\n'
    '{"name": "g", "arguments": {"b": 2}}\n```\n```\n',
    '<tool_call>{"name": "f", "arguments": {"a": 1}}</tool_call>\n\nDo not do this:\n\n````\n```json\n'
    '{"name": "g", "arguments": {"b": 2}}\n```\n````\n',
])
def test_a_block_nested_in_one_after_calls_is_shown(text):
    assert [c.name for c in parse_tool_calls(text)] == ["f"]
    _check_both(text, 5)


@pytest.mark.parametrize("text", [
    "[rm(path='/')]\n{\n</think>\nI will not.",
    "[rm(path='/')]\n[{\"name\": \"rm\", \"arguments\": {\n[/THINK]\nI will not.",
    '{"note": "a 5" screen\n</think>\n[rm(path=\'/\')]\n"}',
    '[g(a=1)]\n{// say "hi\n "note": "x\n</think>\n[rm(path=\'/\')]\n"}\nDone.',
    '[\n</think>\n{"name": "f", "arguments": {"a": 1}}\nDone.',
    '{"name": "w", "arguments": {"c": "a\n</think>\nb"}}',
    "[rm(path='/')]\n[f(a=1,\n</think>\n[g(b=2)]",
    "[w(c='a\n</think>\n[rm(path=\"/\")]\nb')]",
    '[g(a=1)]\n{"note": "x\n</think>\n[rm(path=\'/\')]\n"}\nDone.',
])
def test_a_value_never_closed_before_a_bare_closer_streams_as_the_whole_text_reads_it(text):
    _check_both(text, 3)
    for step in (1, 4):
        cuts = list(range(step, len(text), step))
        _check_live(text, cuts, thinking=True)
        _check_live(text, cuts, thinking=None)


@pytest.mark.parametrize("after", ['[TOOL_CALLS]NAME[ARGS]{}\n<tool_call>{"name": "delete_file", '
                                   '"arguments": {"path": "notes.txt"}}</tool_call>',
                                   '[TOOL_CALLS]NAME[ARGS]{"city": "Rome"}'])
def test_a_call_started_live_that_the_whole_text_does_not_hold_is_finished_not_ok(after):
    # (the placeholder after it shows a run of calls to be the format described: no call of it is made;
    # the call started live is finished not ok under its own index and name, never as the next call)
    text = '[TOOL_CALLS]get_weather[ARGS]{"city": "Paris"}' + after
    whole = parse_tool_calls(text, thinking=False)
    assert all(c.name != "get_weather" for c in whole)
    for size in (1, 7, len(text)):
        s = ToolCallStream(thinking=False)
        events = [e for k in range(0, len(text), size) for e in s.feed(text[k:k + size])] + s.close()
        calls = s.finish()
        assert [(c.name, c.ok) for c in calls[:1]] == [("get_weather", False)] and calls[1:] == whole
        _check_call_events(events, calls)


def test_a_json_head_call_not_ok_at_its_closer_is_read_whole_at_the_end():
    # (1e999 makes it not ok, and such a call runs on to its family's later closer)
    text = ('<|tool_call_begin|>functions.f:0<|tool_call_argument_begin|>{"x": 1e999}<|tool_call_end|>'
            " and <|tool_call_end|>")
    whole = parse_tool_calls(text, thinking=False)
    for size in (1, 7, len(text)):
        s = ToolCallStream(thinking=False)
        events = [e for k in range(0, len(text), size) for e in s.feed(text[k:k + size])] + s.close()
        assert s.finish() == whole and not whole[0].ok
        assert "".join(e.text for e in events if isinstance(e, TextDelta)) == ""


@pytest.mark.parametrize("text, thinking, shown", [
    ("<think>SECRET plan</think>Hello!", None, "Hello!"),
    ("<think>SECRET plan</think>Hello!", False, "Hello!"),
    ("<think>SECRET plan</think>Hello!", True, "Hello!"),
    ("Here:\n[1, 2]\n<think>SECRET plan</think>Bye.", False, "Here:\n[1, 2]\nBye."),
    ("Here:\n[1, 2]\n<think>SECRET plan</think>Bye.", None, "Here:\n[1, 2]\nBye."),
    ("SECRET plan</think>Done.", None, "Done."),
    ("Use the `<think>` tag to reason.", None, "Use the `<think>` tag to reason."),
    ("Use the `<think>` tag to reason.", False, "Use the `<think>` tag to reason."),
])
def test_reasoning_is_not_shown_when_the_held_text_is_shown_at_the_end(text, thinking, shown):
    # (held, or read live until a JSON line holds it: close() shows what is left, without the reasoning the
    # scan reads there; text shown before a bare closer arrived stays shown, as documented)
    for size in (1, 3, len(text)):
        s = ToolCallStream(thinking=thinking)
        events = [e for k in range(0, len(text), size) for e in s.feed(text[k:k + size])] + s.close()
        said = "".join(e.text for e in events if isinstance(e, TextDelta))
        assert not s.finish() and "</think>" not in said
        assert said == shown or (thinking is None and "SECRET" not in shown and said.endswith(shown)), size


@pytest.mark.parametrize("text", [
    'Sure. <\uff5ctool\u2581call\u2581begin\uff5c>get_weather<\uff5ctool\u2581sep\uff5c>{"city": "Paris"}'
    "<\uff5ctool\u2581call\u2581end\uff5c><\uff5ctool\u2581calls\u2581end\uff5c>",
    '<|tool_calls_section_begin|><|tool_call_begin|>functions.f:0<|tool_call_argument_begin|>{"a": 1}'
    "<|tool_call_end|><|tool_calls_section_end|><|im_end|>",
    '<tool_call>{"name": "f", "arguments": {}}</tool_call></tool_calls>\n',
])
def test_the_markup_closing_the_calls_is_never_shown(text):
    # (a section's closer the reading did not see open, a turn's end: after calls made, their markup)
    for size in (1, 3, len(text)):
        s = ToolCallStream(thinking=False)
        events = [e for k in range(0, len(text), size) for e in s.feed(text[k:k + size])] + s.close()
        said = "".join(e.text for e in events if isinstance(e, TextDelta))
        assert s.finish() == parse_tool_calls(text, thinking=False) and said.strip() in ("", "Sure.")
