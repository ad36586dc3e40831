"""The model's words around its calls are shown by a stream, never their markup.

Before, a stream that read its calls at the message's end (every stream not told ``thinking``,
and a live one once it held) showed none of the text from where it began to hold: the prose
after a code block, the sentence after the calls, "Now I will actually check Paris." between
an example and the real call. Now each piece of prose around the calls is shown in its place,
among the call events; the calls' markup (wrappers, sections, fences, tokens), a list's
brackets, a JSON block beside a call, reasoning, and anything after the turn's end never are.
"""

from __future__ import annotations

import pytest

from toolmend import ToolCallStream, parse_tool_calls
from toolmend.recovery import CallFinished, TextDelta

_CALL = '<tool_call>{"name": "f", "arguments": {"a": 1}}</tool_call>'


def _stream(text: str, thinking: bool | None, size: int = 4) -> tuple[list, list]:
    """The events of ``text`` streamed in ``size``-character deltas: (texts shown and call names,
    in order; the calls)."""
    stream = ToolCallStream(thinking=thinking)
    events = [e for k in range(0, len(text), size) for e in stream.feed(text[k:k + size])]
    events += stream.close()
    assert stream.finish() == parse_tool_calls(text, thinking=thinking)
    order: list = []
    for e in events:
        if isinstance(e, TextDelta):
            if order and isinstance(order[-1], str):
                order[-1] += e.text
            else:
                order.append(e.text)
        elif isinstance(e, CallFinished):
            order.append((e.call.name,))
    return order, stream.finish()


@pytest.mark.parametrize("thinking", [None, False])
@pytest.mark.parametrize("size", [1, 4, 1000])
def test_prose_with_markdown_around_a_call_is_shown_in_its_place(thinking, size):
    text = ("Let me read `foo.py` first, then [the docs](http://x).\n" + _CALL + "\nI will report back.")
    order, calls = _stream(text, thinking, size)
    assert [c.name for c in calls] == ["f"]
    assert order == ["Let me read `foo.py` first, then [the docs](http://x).\n", ("f",),
                     "\nI will report back."]


@pytest.mark.parametrize("thinking", [None, False])
def test_a_code_block_before_a_call_and_words_after_it_are_shown(thinking):
    text = ("Here is the fix:\n```python\ndef f(x):\n    return x + 1\n```\nLet me write it.\n"
            + _CALL + "\nSaved.")
    order, _ = _stream(text, thinking)
    fix = "Here is the fix:\n```python\ndef f(x):\n    return x + 1\n```\nLet me write it.\n"
    assert order == [fix, ("f",), "\nSaved."]


@pytest.mark.parametrize("thinking", [None, False])
def test_an_example_then_the_real_call_shows_the_words_between(thinking):
    text = ('The format is like this, for example:\n<tool_call>{"name": "g", "arguments": {}}</tool_call>\n\n'
            "Now I will actually check Paris.\n" + _CALL + "\nWaiting for the result.")
    order, calls = _stream(text, thinking)
    assert [c.name for c in calls] == ["f"]
    assert order[-2:] == [("f",), "\nWaiting for the result."]
    assert "<tool_call>" not in "".join(p for p in order[-2:] if isinstance(p, str))


@pytest.mark.parametrize("text", [
    # a list's brackets around its calls, the commas between them, a JSON block beside a call
    'Sure:\n```json\n[{"name": "f", "arguments": {"a": 1}}]\n```',
    '[{"type": "text", "text": "Checking."}, '
    '{"type": "tool_use", "id": "t1", "name": "f", "input": {"a": 1}}]',
    '[f(a=1), g(b=2)]',
    # the calls' section and its tokens
    '<|tool_calls_section_begin|><|tool_call_begin|>functions.f:0<|tool_call_argument_begin|>{"a": 1}'
    '<|tool_call_end|><|tool_calls_section_end|>',
    '<minimax:tool_call>\n<invoke name="f">\n<parameter name="a">1</parameter>\n</invoke>\n'
    '</minimax:tool_call>',
    # a call cut inside its block: what follows the reader's stop is the call's
    "<tool_call>get_weather\n<arg_key>city</arg_key>\n<arg_value>Paris</arg_value>\n<arg_key>days</",
])
@pytest.mark.parametrize("thinking", [None, False])
def test_the_calls_markup_is_never_shown(text, thinking):
    order, calls = _stream(text, thinking)
    assert calls
    shown = "".join(p for p in order if isinstance(p, str))
    for mark in ("<", "[", "]", "{", "}", "```", '"'):
        assert mark not in shown, (mark, shown)


@pytest.mark.parametrize("after", [
    "<|im_end|>\n<|im_start|>user\nThanks, what next?",
    "\n### Instruction:\nWhat about Rome?",
])
@pytest.mark.parametrize("thinking", [None, False])
def test_nothing_after_the_turns_end_is_shown(after, thinking):
    order, calls = _stream("Checking.\n" + _CALL + "\nOne moment." + after, thinking)
    assert [c.name for c in calls] == ["f"]
    shown = "".join(p for p in order if isinstance(p, str))
    assert "One moment." in shown and "Thanks" not in shown and "Rome" not in shown


@pytest.mark.parametrize("thinking", [None, True])
def test_reasoning_around_the_calls_is_never_shown(thinking):
    lead = "<think>plan [x] carefully</think>\n" if thinking is None else "plan [x] carefully</think>\n"
    order, calls = _stream(lead + "Checking now.\n" + _CALL + "\nBack soon.", thinking)
    assert [c.name for c in calls] == ["f"]
    shown = "".join(p for p in order if isinstance(p, str))
    assert "plan" not in shown and "Checking now." in shown and "Back soon." in shown


def test_a_string_argument_holding_a_closer_leaves_the_words_after_the_call_shown():
    text = ('<tool_call>{"name": "bash", "arguments": {"cmd": "grep -n \\"</tool_call>\\" parser.py"}}'
            "</tool_call>\nThat searches the parser.")
    for thinking in (None, False):
        order, calls = _stream(text, thinking)
        assert [c.name for c in calls] == ["bash"] and order[-1] == "\nThat searches the parser."


_HI = 'Hi.\n<tool_call>\n{"name": "f", "arguments": {}}\n</tool_call>'


@pytest.mark.parametrize("after", [
    '\n<tool_call>\n{"na', '\n<tool_response>\n{"temp": 20}\n</tool_response>\nIt is 20.',
    "\n<|im_start|>user\nwhat now?", "\n<start_of_turn>user\nhey there", "<\uff5cUser\uff5c>what now?",
])
@pytest.mark.parametrize("thinking", [None, False])
def test_after_the_calls_a_cut_call_a_tool_result_or_anothers_turn_is_never_shown(after, thinking):
    """A word run into the token before it (<|im_start|>user) is the token's: the made-up turn is not
    shown, nor a cut call's rest, nor a made-up tool result."""
    for size in (1, 4, 10_000):
        order, _ = _stream(_HI + after, thinking, size)
        shown = "".join(p for p in order if isinstance(p, str))
        assert shown.strip() == "Hi.", (size, shown)


@pytest.mark.parametrize("text, want", [
    ('I\'ll look.\nfunctools[{"name": "a", "arguments": {}}, {"name": "b", "arguments": {}}]',
     "I'll look.\n"),
    ("Call: get_weather(city='Paris'); get_time(tz='UTC')<bot_end>", ""),
    ('Thought: I need weather.\nAction:\n```json\n{"action": "get_weather", "action_input": '
     '{"city": "Paris"}}\n```\n', "Thought: I need weather.\n"),
    ('Hi.\n<|close|>response<|sep|><|open|>tools<|sep|><|open|>call tool="get_time" index="1"<|sep|>'
     '<|open|>argument key="tz" type="string"<|sep|>UTC<|close|>argument<|sep|><|close|>call<|sep|>'
     '<|close|>tools<|sep|>', "Hi.\n"),
])
@pytest.mark.parametrize("thinking", [None, False])
def test_a_calls_label_or_opener_on_its_line_is_never_shown(text, want, thinking):
    order, calls = _stream(text, thinking)
    assert calls and "".join(p for p in order if isinstance(p, str)) == want


@pytest.mark.parametrize("text, want", [
    (_HI + "\n```\nmake build\n```\nAfter.", "\n```\nmake build\n```\nAfter."),
    ("Let me check.\n<|python_start|>[get_weather(city='Paris'), get_time(tz='UTC')]<|python_end|>\nDone.",
     "\nDone."),
    ('<|channel|>analysis<|message|>Need weather.<|end|><|start|>assistant<|channel|>commentary '
     'to=functions.get_weather <|constrain|>json<|message|>{"city": "Paris"}<|call|><|start|>assistant'
     '<|channel|>final<|message|>It is sunny.<|return|>', "It is sunny."),
])
def test_what_follows_the_calls_is_shown_when_it_is_words(text, want):
    order, calls = _stream(text, None)
    assert calls and isinstance(order[-1], str) and order[-1].endswith(want.strip()), order


@pytest.mark.parametrize("lead", ["Read [a.py] now.\n", "I'll edit:\n- `src/a.py`\n- `src/b.py`\n",
                                  "Returns list[int].\n"])
def test_prose_held_at_a_bracket_is_shown_whole_at_the_end(lead):
    order, _ = _stream(lead + _HI[4:] + "\nOK.", None)
    assert "".join(p for p in order if isinstance(p, str)) == lead + "\nOK."



_H = '<tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris"}}\n</tool_call>'
_K = ('<|tool_calls_section_begin|><|tool_call_begin|>functions.get_weather:0<|tool_call_argument_begin|>'
      '{"city": "Paris"}<|tool_call_end|><|tool_calls_section_end|>')
_D = ('<\uff5ctool\u2581calls\u2581begin\uff5c><\uff5ctool\u2581call\u2581begin\uff5c>get_weather'
      '<\uff5ctool\u2581sep\uff5c>{"city": "Paris"}<\uff5ctool\u2581call\u2581end\uff5c>'
      '<\uff5ctool\u2581calls\u2581end\uff5c>')


def _shown_every_way(text: str) -> set[str]:
    """The text shown by every stream of ``text`` (thinking None and False; 1-, 3-character and
    whole deltas)."""
    return {"".join(p for p in _stream(text, thinking, size)[0] if isinstance(p, str))
            for thinking in (None, False) for size in (1, 3, 100_000)}


@pytest.mark.parametrize("result", ["<tool_response>\nIt is sunny and 20 degrees in Paris.\n</tool_response>",
                                    "<tool_result>\nIt is sunny.\n</tool_result>",
                                    "[TOOL_RESULTS]\nIt is sunny.\n[/TOOL_RESULTS]"])
def test_a_tool_result_the_model_made_up_after_its_call_is_never_shown(result):
    shown = _shown_every_way("Checking.\n" + _H + "\n" + result + "\n")
    assert {s.strip() for s in shown} == {"Checking."}


def test_a_fenced_calls_closing_fence_pairs_with_no_later_one():
    text = ('```json\n{"name": "tool_0", "arguments": {"q": "A"}}\n```\n(parenthetical remark)```json\n'
            '{"name": "tool_1", "arguments": {"q": "B"}}\n```\nDone.')
    assert all("tool_1" not in s and "```" not in s for s in _shown_every_way(text))
    two = ('Start.\n```json\n{"name": "t0", "arguments": {}}\n``` ```json\n'
           '{"name": "t1", "arguments": {}}\n```\n\nEnd.')
    assert all("```" not in s for s in _shown_every_way(two))


@pytest.mark.parametrize("text, want", [
    ("I will use `get_weather` for this. " + _K, "I will use `get_weather` for this. "),
    ("The weather in <b>Paris</b> is next. " + _K, "The weather in <b>Paris</b> is next. "),
    ("Here is the output:\n```\nls -la\n``` " + _D, "Here is the output:\n```\nls -la\n``` "),
    ("Email me at <bob@example.com> later.\n" + _H, "Email me at <bob@example.com> later.\n"),
    ("Visit <https://example.com> now.\n" + _H, "Visit <https://example.com> now.\n"),
    ("Use List<String> in Java.\n" + _H, "Use List<String> in Java.\n"),
])
def test_prose_begun_before_the_calls_is_shown_whole_never_cut(text, want):
    """Prose a stream began to show before it held is never left cut at close(): the rest of its
    line is shown (before, "I will use " stood alone)."""
    assert _shown_every_way(text) == {want}
