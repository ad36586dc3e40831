"""Long texts whose reading once went back over them at each of a repeated token: the
stream's live reading of a harmony call whose arguments hold ``<|start|>``, and Kimi
K3's (XTML) call heads repeated without a call. Times are generous bounds in CPU
seconds (what a quadratic reading took is given beside each), not measurements."""

from __future__ import annotations

import gc
import json
import time

import toolmend

_HARMONY_HEAD = "<|start|>assistant<|channel|>commentary to=functions.write_file <|constrain|>json<|message|>"


class _Bounded:
    """The body takes at most ``seconds`` of this thread's CPU time."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds

    def __enter__(self) -> _Bounded:
        gc.freeze()  # (the collector's passes over what earlier tests left are not the body's)
        self.cpu = time.thread_time()
        return self

    def __exit__(self, *exc: object) -> None:
        cpu = time.thread_time() - self.cpu
        gc.unfreeze()
        assert exc[0] is not None or cpu < self.seconds, \
            f"took {cpu:.1f} s of CPU time (bound {self.seconds:g} s)"


def _harmony_call(lines: int, closed: bool = True) -> str:
    doc = "".join(f"Line {i}: a message opens with <|start|> here.\n" for i in range(lines))
    return _HARMONY_HEAD + json.dumps({"path": "doc.md", "content": doc}) + ("<|call|>" if closed else "")


def _streamed(text: str, step: int, thinking: bool) -> list[toolmend.ToolCall]:
    stream = toolmend.ToolCallStream(thinking=thinking)
    for i in range(0, len(text), step):
        stream.feed(text[i:i + step])
    return stream.finish()


def test_a_harmony_string_holding_start_tokens_is_streamed_in_linear_time() -> None:
    text = _harmony_call(1200)  # 58 KB: 18-24 s when each <|start|> read the call again
    expected = toolmend.parse_tool_calls(text, thinking=False)
    assert [c.name for c in expected] == ["write_file"]
    with _Bounded(2 if toolmend.compiled else 4):
        calls = _streamed(text, 4, False)
    assert calls == expected


def test_harmony_calls_around_the_long_one_read_as_the_whole_text_does() -> None:
    second = "<|start|>assistant<|channel|>commentary to=functions.ls <|constrain|>json<|message|>{}<|call|>"
    for lines in (3, 90, 400):  # short, past the whole-text reading, past the held call's size
        for text in (_harmony_call(lines), _harmony_call(lines, closed=False), _harmony_call(lines) + second,
                     "Intro.\n" + _harmony_call(lines) + "\nafter"):
            for thinking in (False, True):
                expected = toolmend.parse_tool_calls(text, thinking=thinking)
                for step in (4, 7):
                    assert _streamed(text, step, thinking) == expected, (lines, step, thinking)


def test_repeated_xtml_call_heads_are_read_in_linear_time() -> None:
    unit = '<|open|>call tool="f"<|sep|>'
    text = unit * (1_600_000 // len(unit))  # 1.6 MB: about 20 s when each head copied the rest
    with _Bounded(3 if toolmend.compiled else 5):
        calls = toolmend.parse_tool_calls(text)
    assert len(calls) == len(text) // len(unit) and not any(c.ok for c in calls)
    assert calls[-1].span == (len(text) - len(unit), len(text)) and "cut off" in (calls[-1].error or "")
    with _Bounded(3 if toolmend.compiled else 5):
        closed = toolmend.parse_tool_calls(text + "<|close|>call<|sep|>")
    assert len(closed) == 1 and not closed[0].ok and closed[0].span == (0, len(text) + 20)


def test_xtml_calls_after_failed_heads_are_still_read() -> None:
    unit = '<|open|>call tool="f"<|sep|>'
    good = ('<|open|>call tool="g"<|sep|><|open|>argument key="k" type="string"<|sep|>v'
            '<|close|>argument<|sep|><|close|>call<|sep|>')
    for n in (2, 3, 40):  # (one head alone and its closer is a call without arguments)
        calls = toolmend.parse_tool_calls(unit * n + "<|close|>call<|sep|>" + good)
        assert [(c.name, c.ok) for c in calls] == [("f", False), ("g", True)]
        assert calls[1].args == {"k": "v"}


def test_a_long_harmony_string_holding_call_tokens_is_streamed_in_linear_time() -> None:
    # (each <|call|> read the call again: 40 KB in 8-character deltas took ~11 s)
    doc = "<|call|>" * 5000  # (a closer in every delta)
    text = _HARMONY_HEAD + json.dumps({"path": "doc.md", "content": doc}) + "<|call|>after"
    expected = toolmend.parse_tool_calls(text, thinking=False)
    assert [(c.name, c.ok) for c in expected] == [("write_file", True)]
    with _Bounded(2 if toolmend.compiled else 4):
        calls = _streamed(text, 8, False)
    assert calls == expected


def test_many_qwen3_coder_calls_are_read_in_linear_time() -> None:
    """The scan inside each call (to its closer) once made the next search for a marker word the
    text never holds run to the text's end again: 4,000 calls took 1.4 s, 10,000 ~8.5 s."""
    text = "".join(f"<tool_call>\n<function=w>\n<parameter=c>\n{i}\n</parameter>\n</function>\n</tool_call>\n"
                   for i in range(10_000)) + "Done." + " and more prose" * 20_000
    with _Bounded(4):
        calls = toolmend.parse_tool_calls(text, thinking=False)
    assert len(calls) == 10_000 and all(c.ok for c in calls)
    assert calls[-1].args == {"c": "9999"}


def test_the_words_around_many_calls_are_shown_in_linear_time() -> None:
    """Reasoning blocks between the calls, and a run of fence lines that never close, once made a
    stream's close() cost calls x text (16,000 calls: 5.2 s; 16,000 fence lines: 9.3 s)."""
    call = '<tool_call>\n{"name": "f", "arguments": {}}\n</tool_call>\n'
    for text in ("".join(f"<think>r</think>Prose {i}.\n{call}" for i in range(16_000)),
                 call + "```py\n" * 16_000 + call):
        stream = toolmend.ToolCallStream()
        stream.feed(text)
        with _Bounded(3):
            events = stream.close()
        assert stream.finish() and events
