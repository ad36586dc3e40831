"""Fuzz targets: each takes arbitrary bytes and checks one property.

Run them with ``tests/fuzz/run.py`` (atheris, coverage-guided, when it is
installed; hypothesis otherwise). The same functions run in the test suite
(tests/test_fuzz_targets.py) on generated inputs and on every input that
ever failed (``tests/fuzz/crashers/<target>/``).

Properties:

- ``recovery``: the compiled and the pure pipeline agree on ``ok``, ``text``,
  ``strategy`` and ``fixes``; only RecoveryError escapes ``loads``; recovered
  text always parses; every fix offset lies in the input.
- ``tool_calls``: ``parse_tool_calls`` never raises; spans lie in the text, in
  order, never overlapping.
- ``json_verbs``: every verb on arbitrary bytes answers (ok or not), never
  raises; the compiled scanner and its pure twin agree.
- ``diff_roundtrip``: for any two texts, our diff applied by our ``apply``
  gives the new text (and by GNU patch, for one input in 50).
- ``apply_mutated``: a damaged patch gives PatchError or a text, nothing else;
  through the tool, nothing is written unless every hunk matched.
- ``streaming``: any split of a text fed to StreamingArgs gives the value of
  one feed (when the streaming parser is there).
- ``tool_stream``: any split of a text fed to ToolCallStream (held, and live
  with ``thinking``, detected and with a format the input names) ends with
  ``parse_tool_calls``'s calls, and its events
  never contradict them: one start, fragments joining to ``raw_args`` and one
  finish per call, in order; the marker kernel's twins agree on every body.
"""

from __future__ import annotations

import json
import os
import shutil
import struct
import subprocess
import sys
import tempfile
from typing import Any, Callable

import toolmend
from toolmend import errors
from toolmend._kernels import _jsonscan_py, _markers_py
from toolmend.recovery import ArgsDelta, CallFinished, CallStarted

try:
    from toolmend._kernels import _jsonscan as _jsonscan_c, _markers as _markers_c
except ImportError:  # pure-only build
    _jsonscan_c = _markers_c = None  # type: ignore[assignment]

__all__ = ["TARGETS", "split", "text_of"]


def text_of(data: bytes) -> str:
    """Arbitrary bytes as text (lone surrogates included, as models send)."""
    return data.decode("utf-8", "surrogatepass") if _valid(data) else data.decode("latin-1")


def _valid(data: bytes) -> bool:
    try:
        data.decode("utf-8", "surrogatepass")
        return True
    except UnicodeDecodeError:
        return False


def _plain(text: str) -> bool:
    """No lone surrogate: text GNU patch can see as we do."""
    try:
        text.encode("utf-8")
        return True
    except UnicodeEncodeError:
        return False


def split(data: bytes, parts: int = 2) -> list[bytes]:
    """``data`` cut into ``parts`` pieces at its first 0xFF bytes."""
    out = data.split(b"\xff", parts - 1)
    return out + [b""] * (parts - len(out))


# ---------------------------------------------------------------------------
# a pure-mode twin of the whole package, in a child process

_WORKER = r"""
import json, struct, sys
import toolmend
assert not toolmend.compiled
inp, out = sys.stdin.buffer, sys.stdout.buffer
while True:
    head = inp.read(4)
    if len(head) < 4:
        break
    text = inp.read(struct.unpack("<I", head)[0]).decode("utf-8", "surrogatepass")
    r = toolmend.normalize_tool_args(text)
    fixes = [[f.code, f.offset] if hasattr(f, "code") else [f.get("code"), f.get("offset")]
             for f in (getattr(r, "fixes", None) or ())]
    body = json.dumps([r.ok, r.text, r.strategy, fixes]).encode("utf-8", "surrogatepass")
    out.write(struct.pack("<I", len(body)) + body)
    out.flush()
"""


class PureTwin:
    """The pure-Python package in a child process, asked one input at a time."""

    def __init__(self) -> None:
        env = {k: v for k, v in os.environ.items() if not k.startswith("TOOLMEND_")}
        env["TOOLMEND_PURE_PYTHON"] = "1"
        self.proc = subprocess.Popen([sys.executable, "-c", _WORKER], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, env=env)

    def recover(self, text: str) -> list[Any]:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        data = text.encode("utf-8", "surrogatepass")
        self.proc.stdin.write(struct.pack("<I", len(data)) + data)
        self.proc.stdin.flush()
        size = struct.unpack("<I", self.proc.stdout.read(4))[0]
        return json.loads(self.proc.stdout.read(size).decode("utf-8", "surrogatepass"))  # type: ignore[no-any-return]

    def close(self) -> None:
        if self.proc.stdin:
            self.proc.stdin.close()
        self.proc.wait(timeout=10)


_twin: PureTwin | None = None


def _pure() -> PureTwin | None:
    global _twin
    if not toolmend.compiled:
        return None  # this process is the pure one already
    if _twin is None:
        _twin = PureTwin()
    return _twin


def _fixes(r: Any) -> list[list[Any]]:
    return [[f.code, f.offset] if hasattr(f, "code") else [f.get("code"), f.get("offset")]
            for f in (getattr(r, "fixes", None) or ())]


# ---------------------------------------------------------------------------
# targets

def recovery(data: bytes) -> None:
    text = text_of(data)
    r = toolmend.normalize_tool_args(text)
    if r.ok:
        toolmend.json.loads(r.text)  # recovered text always parses (exact numbers)
    for code, offset in _fixes(r):
        assert isinstance(code, str) and code, code
        assert 0 <= offset <= len(text), (code, offset, len(text))
    twin = _pure()
    if twin is not None:
        mine = [r.ok, r.text, r.strategy, _fixes(r)]
        theirs = twin.recover(text)
        assert mine == theirs, (text, mine, theirs)
    try:
        toolmend.loads(text)
    except errors.RecoveryError:
        pass
    for tool in ("read_file", "bash", "@coder"):
        t = toolmend.normalize_tool_args(text, tool)
        assert not t.ok or isinstance(t.value, dict)


def tool_calls(data: bytes) -> None:
    text = text_of(data)
    last = 0
    for call in toolmend.parse_tool_calls(text):
        start, end = call.span
        assert last <= start <= end <= len(text), (call.span, last, len(text))
        assert call.ok == (call.error is None)
        last = end


def json_verbs(data: bytes) -> None:
    for verb, extra in (("get", {"path": "a[0].b"}), ("keys", {}), ("schema", {}),
                        ("validate", {}), ("pretty", {}), ("query", {"where": "a=1"})):
        r = toolmend.run_tool("@json", {"cmd": verb, "args": {"text": text_of(data), **extra}})
        assert isinstance(r.ok, bool) and isinstance(r.output, str)
        assert "internal error" not in r.output, r.output
    if _jsonscan_c is not None:
        text = text_of(data)
        assert _jsonscan_c.scan(text) == _jsonscan_py.scan(text), text


_runs = 0


def diff_roundtrip(data: bytes) -> None:
    global _runs
    a_raw, b_raw = split(data)
    a, b = text_of(a_raw), text_of(b_raw)
    patch = toolmend.diff.unified(a, b)
    assert toolmend.diff.apply(a, patch) == b
    _runs += 1
    gnu = shutil.which("patch")
    if gnu and _runs % 50 == 0 and _plain(a) and _plain(b):
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "f")
            with open(path, "wb") as fh:
                fh.write(a.encode("utf-8", "surrogatepass"))
            if patch:
                run = subprocess.run([gnu, "--batch", "--fuzz=0", "--binary", "-s", path],
                                     input=patch.encode("utf-8", "surrogatepass"),
                                     capture_output=True, timeout=30)
                assert run.returncode == 0, run.stderr
            with open(path, "rb") as fh:
                assert fh.read() == b.encode("utf-8", "surrogatepass")


def apply_mutated(data: bytes) -> None:
    a_raw, b_raw, noise = split(data, 3)
    a, b = text_of(a_raw), text_of(b_raw)
    patch = toolmend.diff.unified(a, b) or "@@ -1 +1 @@\n-x\n+y\n"
    damaged = bytearray(patch.encode("utf-8", "surrogatepass"))
    for k in range(0, len(noise) - 1, 2):
        if damaged:
            damaged[noise[k] * 7919 % len(damaged)] = noise[k + 1]
    mutated = damaged.decode("utf-8", "replace")
    try:
        result = toolmend.diff.apply(a, mutated)
    except errors.PatchError:
        result = None
    assert result is None or isinstance(result, str)
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "f.txt")
        with open(path, "wb") as fh:
            fh.write(a.encode("utf-8", "surrogatepass"))
        r = toolmend.run_tool("@diff", {"cmd": "apply", "args": {
            "file": "f.txt", "patch": mutated, "dry_run": False}}, workspace=tmp)
        with open(path, "rb") as fh:
            now = fh.read()
        if not r.ok:
            assert now == a.encode("utf-8", "surrogatepass"), "a refused patch changed the file"
            assert sorted(os.listdir(tmp)) == ["f.txt"], os.listdir(tmp)
        elif result is not None:
            assert now == result.encode("utf-8", "surrogatepass")


def streaming(data: bytes) -> None:
    streaming_args = getattr(toolmend, "StreamingArgs", None)
    if streaming_args is None:
        return
    text_raw, cuts = split(data)
    text = text_of(text_raw)
    whole = streaming_args()
    whole.feed(text)
    expected = whole.finish()
    pieces = streaming_args()
    pos = 0
    for c in cuts:
        step = c % 7 + 1
        pieces.feed(text[pos:pos + step])
        pos += step
    pieces.feed(text[pos:])
    got = pieces.finish()
    assert (got.ok, got.text) == (expected.ok, expected.text), (text, cuts)


# the formats a stream is also told (a byte of the input picks one): the live reading's families
_STREAM_FORMATS = (None, "kimi_k2", "deepseek_v3", "deepseek_v32", "minimax_m2", "harmony", "mistral",
                   "gemma4", "lfm2", "granite", "command", "hy_v3", "glm45", "qwen3_coder", "step3")


def tool_stream(data: bytes) -> None:
    head, rest = split(data)
    text = text_of(rest)
    cuts = sorted({b % (len(text) + 1) for b in head[:12]})
    named = _STREAM_FORMATS[head[12] % len(_STREAM_FORMATS)] if len(head) > 12 else None
    for thinking, fmt in ((None, None), (False, None), (True, None), (False, named)):
        stream = toolmend.ToolCallStream(format=fmt, thinking=thinking)
        events: list[Any] = []
        last = 0
        for c in cuts + [len(text)]:
            events += stream.feed(text[last:c])
            last = c
        events += stream.close()
        calls = stream.finish()
        assert calls == toolmend.parse_tool_calls(text, format=fmt, thinking=thinking), (text, cuts, thinking)
        started = [e.index for e in events if isinstance(e, CallStarted)]
        finished = [e.call for e in events if isinstance(e, CallFinished)]
        assert started == list(range(len(calls))) and finished == calls, (text, cuts, thinking)
        for i, call in enumerate(calls):
            sent = "".join(e.arguments for e in events if isinstance(e, ArgsDelta) and e.index == i)
            assert sent == call.raw_args, (text, cuts, thinking, i)
    if _markers_c is not None:
        at = text.find("{")
        for _ in range(8):
            if at < 0:
                break
            for limit in (len(text), (at + len(text)) // 2):
                assert _markers_c.tag_body(text, at, limit) == _markers_py.tag_body(text, at, limit), text
            at = text.find("{", at + 1)


TARGETS: dict[str, Callable[[bytes], None]] = {
    "recovery": recovery,
    "tool_calls": tool_calls,
    "json_verbs": json_verbs,
    "diff_roundtrip": diff_roundtrip,
    "apply_mutated": apply_mutated,
    "streaming": streaming,
    "tool_stream": tool_stream,
}
