"""ToolCallStream against parse_tool_calls on the whole message (issue 20: a
message fed in 4-character deltas costs at most 3x reading it whole).

Both sides end with the same calls: the stream's ``finish()`` is
``parse_tool_calls`` on the whole text. The cases are every corpus message of
tests/data/tool_calls/ (as in bench/test_bench_tool_calls.py) and the 30 KB
Hermes call written there. The targets (bench/targets.py) are on the corpus,
held (``thinking=None``) and live (``thinking=False``, against
``parse_tool_calls(text, thinking=False)``); the 30 KB call is measured without
one: its whole parse is ~30 us and its 7,600 ``feed()`` calls cost ~0.15 us
each held, ~2 us live (each is read as JSON and passed on as an ArgsDelta), a
cost per call that does not grow with the text.
"""

from __future__ import annotations

import pytest
from conftest import contend
from test_bench_tool_calls import MESSAGES, WRITE

import toolmend
from toolmend import ToolCallStream, parse_tool_calls

DELTA = 4
CHUNKS = [[text[i:i + DELTA] for i in range(0, len(text), DELTA)] for text in MESSAGES]
WRITE_CHUNKS = [WRITE[i:i + DELTA] for i in range(0, len(WRITE), DELTA)]


def _stream(chunks: list[str], thinking: bool | None = None) -> int:
    s = ToolCallStream(thinking=thinking)
    feed = s.feed
    for c in chunks:
        feed(c)
    s.close()
    return len(s.finish())


def corpus_stream() -> int:
    return sum(_stream(chunks) for chunks in CHUNKS)


def corpus_live() -> int:
    return sum(_stream(chunks, False) for chunks in CHUNKS)


def corpus_whole() -> int:
    return sum(len(parse_tool_calls(text)) for text in MESSAGES)


def corpus_whole_no_thinking() -> int:
    return sum(len(parse_tool_calls(text, thinking=False)) for text in MESSAGES)


def test_both_sides_find_the_same_calls():
    assert corpus_stream() == corpus_whole() > 300
    assert corpus_live() == corpus_whole_no_thinking() > 300
    assert _stream(WRITE_CHUNKS) == 1 == _stream(WRITE_CHUNKS, False)


# held (thinking=None) and live (thinking=False), each against the whole parse it ends with
READINGS = {"tool-stream-corpus": (corpus_stream, corpus_whole),
            "tool-stream-live-corpus": (corpus_live, corpus_whole_no_thinking)}


@pytest.mark.parametrize("group", list(READINGS))
@pytest.mark.parametrize("contender", ["stream", "whole"])
def test_corpus_in_4_character_deltas(benchmark, group, contender):
    if not toolmend.compiled:
        pytest.skip("the ratio targets are for the compiled kernels")
    fn = READINGS[group][0 if contender == "stream" else 1]
    contend(benchmark, group, contender, "every corpus message", fn)


@pytest.mark.parametrize("contender", ["stream", "whole"])
def test_30kb_call_in_4_character_deltas(benchmark, contender):
    if not toolmend.compiled:
        pytest.skip("the ratio targets are for the compiled kernels")
    if contender == "stream":
        contend(benchmark, "tool-stream-30KB", contender, "a 30 KB Hermes call", _stream, WRITE_CHUNKS)
    else:
        contend(benchmark, "tool-stream-30KB", contender, "a 30 KB Hermes call", parse_tool_calls, WRITE)
