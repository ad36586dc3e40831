"""Calls of the token and JSON families that a message must not lose: each comes back, ok or
an entry not ok in its place, and the stream gives the same calls as the whole text."""

from __future__ import annotations

import pytest

from toolmend import ToolCallStream, parse_tool_calls
from toolmend.recovery import CallStarted

DS_B, DS_E = "<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>", "<｜tool▁call▁end｜><｜tool▁calls▁end｜>"
DS_SEP, DS_CALL, DS_END = "<｜tool▁sep｜>", "<｜tool▁call▁begin｜>", "<｜tool▁call▁end｜>"
K_S, K_B = "<|tool_calls_section_begin|>", "<|tool_call_begin|>"
K_A, K_E = "<|tool_call_argument_begin|>", "<|tool_call_end|><|tool_calls_section_end|>"

# (text, the calls as (name, ok, args))
CASES = [
    # a v11 call after another with a comma between: an entry not ok, never left out
    ('[TOOL_CALLS]f[ARGS]{"a":1}, g[ARGS]{"b":2}', [("f", True, {"a": 1}), ("g", False, None)]),
    ('[TOOL_CALLS]f[ARGS]{"a":1},g[ARGS]{"b":2}', [("f", True, {"a": 1}), ("g", False, None)]),
    ('[TOOL_CALLS]f[ARGS]{"a":1}, g[ARGS]{"b":2', [("f", True, {"a": 1}), ("g", False, None)]),
    ('[TOOL_CALLS]f[ARGS]{"a":1} and g[ARGS]{"b":2}', [("f", True, {"a": 1}), ("", False, None)]),
    # a v11 head its format does not write, its [ARGS] token showing the call
    ('[TOOL_CALLS]f[CALL_ID]ab c[ARGS]{"a":1}', [("f", False, None)]),
    ('[TOOL_CALLS]get weather[ARGS]{"a":1}', [("", False, None)]),
    ('[TOOL_CALLS]f[ARGS][ARGS]{"b":2}', [("f", False, None)]),
    ('[TOOL_CALLS]f[ARGS]{"a":1}[TOOL_CALLS]g[CALL_ID]a b[ARGS]{"b":2}',
     [("f", True, {"a": 1}), ("g", False, None)]),
    ('[TOOL_CALLS]f[ARGS]{"a":1}g[CALL_ID]a b[ARGS]{"b":2}', [("f", True, {"a": 1}), ("g", False, None)]),
    # a call list of Mistral's first format after a v11 call
    ('[TOOL_CALLS]f[ARGS]{"a":"x"}[TOOL_CALLS][{"name":"g","arguments":{"b":2}}]',
     [("f", True, {"a": "x"}), ("g", True, {"b": 2})]),
    ('[TOOL_CALLS]f[ARGS]{"a":"x"}\n[TOOL_CALLS] {"name":"g","arguments":{"b":2}}',
     [("f", True, {"a": "x"}), ("g", True, {"b": 2})]),
    # a v11 id with no [ARGS] after it that runs into the arguments: where they begin is a guess
    ('[TOOL_CALLS]f[CALL_ID]a{"x":{"a":1}}', [("f", False, None)]),
    ('[TOOL_CALLS]g[ARGS]{"b":2}[TOOL_CALLS]f[CALL_ID]abc{"x":{"a":1}}[TOOL_CALLS]h[ARGS]{"c":3}',
     [("g", True, {"b": 2}), ("f", False, None), ("h", True, {"c": 3})]),
    # a call in a section after a call, its opening token dropped: read as if it stood there
    (K_S + K_B + "functions.f:0" + K_A + '{"a": 1}<|tool_call_end|>functions.g:1' + K_A + '{"b": 2}' + K_E,
     [("f", True, {"a": 1}), ("g", True, {"b": 2})]),
    (DS_B + "f" + DS_SEP + '{"a": 1}' + DS_END + "g" + DS_SEP + '{"b": 2}' + DS_E,
     [("f", True, {"a": 1}), ("g", True, {"b": 2})]),
    # (between two calls of the section)
    (K_S + K_B + "functions.f:0" + K_A + '{"a": 1}<|tool_call_end|>functions.rm:1' + K_A + '{"p": "/"}'
     "<|tool_call_end|>" + K_B + "functions.g:2" + K_A + '{"b": 2}' + K_E,
     [("f", True, {"a": 1}), ("rm", True, {"p": "/"}), ("g", True, {"b": 2})]),
    (DS_B + "f" + DS_SEP + '{"a": 1}' + DS_END + "rm" + DS_SEP + '{"p": "/"}' + DS_END + DS_CALL + "g"
     + DS_SEP + '{"b": 2}' + DS_E, [("f", True, {"a": 1}), ("rm", True, {"p": "/"}), ("g", True, {"b": 2})]),
    (DS_B + "function" + DS_SEP + 'f\n```json\n{"a": 1}\n```' + DS_END + "\nfunction" + DS_SEP
     + 'g\n```json\n{"b": 2}\n```' + DS_E, [("f", True, {"a": 1}), ("g", True, {"b": 2})]),
    # (and the section's first call, its token dropped right after the section's opener)
    (K_S + "functions.f:0" + K_A + '{"a": 1}<|tool_call_end|>' + K_B + "functions.g:1" + K_A + '{"b": 2}'
     + K_E, [("f", True, {"a": 1}), ("g", True, {"b": 2})]),
    (DS_B[:-len(DS_CALL)] + "f" + DS_SEP + '{"a": 1}' + DS_E, [("f", True, {"a": 1})]),
    # text that is no call in a section after a call: an entry not ok
    (K_S + K_B + "functions.f:0" + K_A + '{"a": 1}<|tool_call_end|>see above' + K_E,
     [("f", True, {"a": 1}), ("", False, None)]),
    (DS_B + "f" + DS_SEP + '{"a": 1}' + DS_END + "and then" + DS_E,
     [("f", True, {"a": 1}), ("", False, None)]),
    # DeepSeek V3's head with the name and no line break after it
    (DS_B + "function" + DS_SEP + "f" + DS_SEP + '{"a":1}' + DS_E, [("", False, None)]),
    (DS_B + "function" + DS_SEP + "f" + DS_END + DS_CALL + "function" + DS_SEP
     + 'g\n```json\n{"b":2}\n```' + DS_E,
     [("f", False, None), ("g", True, {"b": 2})]),
    # a Kimi K2 call whose arguments were dropped before the next call
    (K_S + K_B + "functions.f:0" + K_B + "functions.g:1" + K_A + '{"b":2}' + K_E,
     [("f", False, None), ("g", True, {"b": 2})]),
    # Llama 3's built-in tool calls after the first (a line break, ";" or "," between); one that
    # cannot be read is an entry not ok
    ('<|python_tag|>brave_search.call(query="a")\nwolfram_alpha.call(query="b")',
     [("brave_search", True, {"query": "a"}), ("wolfram_alpha", True, {"query": "b"})]),
    ('<|python_tag|>brave_search.call(query="a"); wolfram_alpha.call(query="b")<|eom_id|>',
     [("brave_search", True, {"query": "a"}), ("wolfram_alpha", True, {"query": "b"})]),
    ('<|python_tag|>brave_search.call(query="a"), wolfram_alpha.call(query=)<|eom_id|>',
     [("brave_search", True, {"query": "a"}), ("wolfram_alpha", False, None)]),
    ('<|python_tag|>brave_search.call(query="a")\nThis looks it up.',
     [("brave_search", True, {"query": "a"})]),
]


def _calls(calls: list) -> list:
    return [(c.name, c.ok, c.args if c.ok else None) for c in calls]


@pytest.mark.parametrize(("text", "want"), CASES)
def test_call_kept(text: str, want: list) -> None:
    assert _calls(parse_tool_calls(text)) == want


@pytest.mark.parametrize(("text", "want"), CASES)
@pytest.mark.parametrize("size", [1, 7])
@pytest.mark.parametrize("thinking", [None, False, True])
def test_stream_same(text: str, want: list, size: int, thinking: bool | None) -> None:
    stream = ToolCallStream(thinking=thinking)
    for k in range(0, len(text), size):
        stream.feed(text[k:k + size])
    whole = parse_tool_calls(text, thinking=thinking)
    assert [(c.name, c.ok, c.args, c.span, c.id) for c in stream.finish()] == \
        [(c.name, c.ok, c.args, c.span, c.id) for c in whole]


@pytest.mark.parametrize(("text", "want"), CASES)
def test_cut_never_ok_otherwise(text: str, want: list) -> None:
    whole = [(n, a) for n, ok, a in want if ok]
    for k in range(1, len(text)):
        got = [(c.name, c.args) for c in parse_tool_calls(text[:k]) if c.ok]
        assert got == whole[:len(got)], k


def test_plain_id_still_read() -> None:
    """An id of letters and digits with no [ARGS] after it stays read (the guard above is narrow)."""
    (call,) = parse_tool_calls('[TOOL_CALLS]f[CALL_ID]abc123def{"a":1}')
    assert (call.name, call.ok, call.args, call.id) == ("f", True, {"a": 1}, "abc123def")


@pytest.mark.parametrize("text", ['[TOOL_CALLS]f[CALL_ID]a{b[ARGS]{"x": 1}',
                                  '[TOOL_CALLS]f[CALL_ID]abc123def[ARGS]{"x": 1}',
                                  '[TOOL_CALLS]f[CALL_ID]abc123def{"x": 1}'])
@pytest.mark.parametrize("size", [1, 2, 5])
def test_a_call_started_live_names_the_id_the_call_ends_with(text: str, size: int) -> None:
    """A Mistral call id holding "{" was cut there in the stream's CallStarted (the id's end
    decided before its [ARGS] came): the started call's id is the finished one's."""
    stream = ToolCallStream(thinking=False)
    events = [e for k in range(0, len(text), size) for e in stream.feed(text[k:k + size])] + stream.close()
    (call,) = parse_tool_calls(text)
    assert call.ok and [(e.id, e.name) for e in events if isinstance(e, CallStarted)] == [(call.id, "f")]


def test_calls_in_a_section_are_still_reported_as_they_end() -> None:
    # (held only until what follows each call's end shows another call or the section's end)
    text = (K_S + K_B + "functions.f:0" + K_A + '{"a": 1}<|tool_call_end|>\n' + K_B + "functions.g:1" + K_A
            + '{"b": 2}' + K_E + "\nDone.")
    for size in (1, 7):
        stream = ToolCallStream(thinking=False)
        finished = [type(e).__name__ for k in range(0, len(text), size)
                    for e in stream.feed(text[k:k + size])]
        assert finished.count("CallFinished") == 2
        assert [(c.name, c.ok) for c in stream.finish()] == [("f", True), ("g", True)]
