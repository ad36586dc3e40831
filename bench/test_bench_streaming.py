"""Streamed tool-call arguments: toolmend.StreamingArgs over a whole stream
against partial_json_parser.loads on every prefix (what vLLM's and SGLang's
tool parsers do at each token).

The argument is ~5 KB of @diff/@json-style JSON (a patch string, nested
objects, numbers, booleans), streamed in 3-character chunks. Both contenders
produce the best value at every chunk; ours reads each character once.
"""

from __future__ import annotations

import json

import pytest
from conftest import contend

import toolmend

partial_json_parser = pytest.importorskip("partial_json_parser")

PATCH = "".join(f"@@ -{n},3 +{n},3 @@\n context line {n}\n-old value {n}\n+new value {n}\n"
                for n in range(1, 40))
ARGS = json.dumps({
    "cmd": "apply",
    "args": {
        "file": "services/api/handlers/user_profile.py",
        "patch": PATCH,
        "dry_run": False,
        "meta": {"attempt": 3, "ratio": 0.75, "labels": ["agent", "stream", "tool-call"] * 8,
                 "rows": [{"id": n, "name": f"row-{n}", "ok": n % 2 == 0, "score": n / 7}
                          for n in range(30)]},
    },
})
CHUNKS = [ARGS[i:i + 3] for i in range(0, len(ARGS), 3)]


def ours() -> object:
    s = toolmend.StreamingArgs("@diff")
    for chunk in CHUNKS:
        s.feed(chunk)
    return s.finish().value


def theirs() -> object:
    loads = partial_json_parser.loads
    text = ""
    value = None
    for chunk in CHUNKS:
        text += chunk
        value = loads(text)
    return value


def test_the_stream_is_about_5_kb():
    assert 4_500 <= len(ARGS) <= 6_500
    assert ours() == theirs() == json.loads(ARGS)


@pytest.mark.parametrize("contender", ["toolmend", "partial_json_parser"])
def test_stream_5kb_in_3_char_chunks(benchmark, contender):
    fn = ours if contender == "toolmend" else theirs
    result = contend(benchmark, "stream-args", contender, "5KB/3-char chunks", fn,
                     rounds=5 if contender == "partial_json_parser" else 50)
    assert result == json.loads(ARGS)
