"""Long texts through the compiled recovery kernel (issue 18): past 4,096
characters its passes (the repair engine's, the comment stripper's, the
curly-quote scanner's) run without the GIL, on the str's buffer, the engine
writing one byte a character until a wider one comes and keeping its log as C
records. The same texts must give what the pure twin, the reference, gives:
the value, the text and every fix, or the same refusal at the same offset."""

from __future__ import annotations

import threading

import pytest

import toolmend
from toolmend._kernels import _recover_py as pure

compiled = pytest.importorskip("toolmend._kernels._recover")
pytestmark = pytest.mark.skipif(not toolmend.compiled, reason="compares the compiled kernel with its twin")

PAD = ", ".join(f"k{i}: 'v{i}'" for i in range(600))  # ~8 KB of members, 1,200 fixes
# bare keys without spaces: the output (two quotes a key) outgrows the text, so
# the engine's buffer, sized from the text, grows during the pass
BARE = ",".join(f"k{i}:{i}" for i in range(1500))

LONG = {
    "escape beyond Latin-1 after 8 KB": "{" + PAD + ', z: "a\\u4e2d", w: [1, 2',
    "two-byte text": "{" + PAD + ", z: '\u4e2d\u6587', y: [1,2} , x: 3}",
    "astral escape, Latin-1 text": "{" + PAD + ', "z": "\xe9\xff\\ud83d\\ude00", h: -0x1_f, q: [1, 2',
    "Mongo calls": "{" + PAD + ', w: ObjectId("ab"), n: NumberLong(" 5 "), t: tru',
    "cut key": "{" + PAD + ', "unfinished',
    "bracket read as another": "{" + PAD + ", a: [1, 2}",
    "comments and NaN": "{" + PAD + ", // note\n b: NaN, /* c */ c: tRue}",
    "prose around": "Here you go:\n" + "{" + PAD + "}\nHope it helps",
    "concatenated values": '{"a": 1}' * 700,
    "output longer than the text": "{" + BARE + "}",
    "output longer than the text, then beyond Latin-1": "{" + BARE + ', z: "\\u4e2d\xe9"}',
    "two-byte text, output longer than it": "{" + BARE + ", z: '\u4e2d', y: [1, 2",
}

REFUSED = {
    "piece without colon": "{" + PAD + ", piece x}",
    "mismatched closer with more after": "[" + "[1, " * 1500 + "2}, 3]",
    "Mongo call of no number": "{" + PAD + ', a: NumberLong("x")}',
    "unknown call": "{" + PAD + ", a: Foo(1)}",
    "too deep": "[" * 5000,
}


def _outcome(fn, text):
    try:
        return fn(text)
    except pure.Refused as exc:
        return ("refused", exc.pos, exc.what)
    except compiled.Refused as exc:
        return ("refused", exc.pos, exc.what)


@pytest.mark.parametrize("name", sorted(LONG))
def test_long_text_repaired_as_the_twin_does(name):
    text = LONG[name]
    assert len(text) >= 4096
    got = _outcome(compiled.repair_json, text)
    assert got[0] != "refused", got
    assert got == _outcome(pure.repair_json, text)


@pytest.mark.parametrize("name", sorted(REFUSED))
def test_long_text_refused_as_the_twin_does(name):
    text = REFUSED[name]
    got = _outcome(compiled.repair_json, text)
    assert got[0] == "refused"
    assert got == _outcome(pure.repair_json, text)


@pytest.mark.parametrize("text", [
    "{" + PAD + ", // a comment\n z: 1 /* block */}",
    "{" + PAD + ", z: 1 /* never closed",
    "{" + PAD + ", \u201ckey\u201d: \u201cvalue\u201d}",
    "{" + PAD + ", \u201copen: 1}",
], ids=["comments", "unclosed block comment", "curly quotes", "curly quote that closes nothing"])
def test_long_text_scanners_agree_with_the_twin(text):
    assert len(text) >= 4096
    for name in ("strip_comments", "normalize_structural_quotes"):
        ours, theirs = getattr(compiled, name)(text), getattr(pure, name)(text)
        assert ours == theirs
        assert (ours is text) == (theirs is text)


def test_threads_repairing_at_once_get_the_serial_answers():
    texts = sorted(LONG.values())
    expected = [compiled.repair_json(t) for t in texts]
    results: list[list[object]] = [[] for _ in range(4)]

    def work(k):
        for _ in range(5):
            results[k].append([compiled.repair_json(t) for t in texts])

    threads = [threading.Thread(target=work, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert all(run == expected for out in results for run in out)
