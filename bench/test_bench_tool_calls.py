"""Tool calls found in model text: toolmend.parse_tool_calls against its floor,
``orjson.loads`` on the calls' argument texts alone (the arguments must be
parsed anyway: what a parser spends beyond that is finding the calls).

The corpus is every message of tests/data/tool_calls/ (each open model
family's format, several calls per message, cut calls and decoys); its floor
is the JSON text of the arguments of the calls found ok there. The single call is a
Hermes ``<tool_call>`` writing ~30 KB of source code.
"""

from __future__ import annotations

import json
import pathlib

import orjson
import pytest
from conftest import contend

import toolmend
from toolmend import parse_tool_calls

DATA = pathlib.Path(__file__).resolve().parents[1] / "tests" / "data" / "tool_calls"
MESSAGES = [json.loads(line)["text"] for name in ("calls.jsonl", "families.jsonl", "decoys.jsonl")
            for line in (DATA / name).read_text(encoding="utf-8").splitlines() if line.strip()]
# the JSON text of each call's arguments (a call written as XML or Python has no JSON text of its own)
ARG_TEXTS = [orjson.dumps(c.args) for text in MESSAGES for c in parse_tool_calls(text) if c.ok]

_LINE = 'def f{n}(x):\n    return x.get("key{n}", {{"a": [1, 2]}}) or "default {n}"  # {n}\n'
WRITE_ARGS = json.dumps({"path": "src/generated/module.py",
                         "content": "".join(_LINE.format(n=n) for n in range(350))})
WRITE = "I'll write the module.\n<tool_call>\n" + json.dumps(
    {"name": "write_file", "arguments": "ARGS"}).replace('"ARGS"', WRITE_ARGS) + "\n</tool_call>"


def corpus_ours() -> int:
    return sum(len(parse_tool_calls(text)) for text in MESSAGES)


def corpus_floor() -> int:
    loads = orjson.loads
    for raw in ARG_TEXTS:
        loads(raw)
    return len(ARG_TEXTS)


def test_the_corpus_and_the_call():
    assert len(MESSAGES) > 400 and len(ARG_TEXTS) > 300
    assert all(isinstance(orjson.loads(raw), dict) for raw in ARG_TEXTS)
    assert 29_000 <= len(WRITE_ARGS) <= 32_000
    (call,) = parse_tool_calls(WRITE)
    assert call.ok and call.raw_args == WRITE_ARGS and call.args == json.loads(WRITE_ARGS)


@pytest.mark.parametrize("contender", ["toolmend", "orjson"])
def test_corpus(benchmark, contender):
    if not toolmend.compiled and contender == "toolmend":
        pytest.skip("the ratio targets are for the compiled kernels")
    fn = corpus_ours if contender == "toolmend" else corpus_floor
    contend(benchmark, "tool-calls-corpus", contender, "every corpus message", fn)


@pytest.mark.parametrize("contender", ["toolmend", "orjson"])
def test_one_30kb_call(benchmark, contender):
    if not toolmend.compiled and contender == "toolmend":
        pytest.skip("the ratio targets are for the compiled kernels")
    if contender == "toolmend":
        contend(benchmark, "tool-calls-30KB", contender, "a 30 KB Hermes call", parse_tool_calls, WRITE)
    else:
        contend(benchmark, "tool-calls-30KB", contender, "a 30 KB Hermes call", orjson.loads, WRITE_ARGS)
