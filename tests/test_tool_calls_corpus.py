"""The tool-call corpus (tests/data/tool_calls/, written by bench/make_tool_call_corpus.py):
every model output parsed to exactly the calls it means, every decoy to none."""

from __future__ import annotations

import json
import os
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, os.pardir, "bench"))

from score_tool_calls import same  # noqa: E402

from toolmend import parse_tool_calls  # noqa: E402

DATA = os.path.join(HERE, "data", "tool_calls")


def _rows(name: str) -> list[dict]:
    with open(os.path.join(DATA, name), encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


CALLS = _rows("calls.jsonl")
DECOYS = _rows("decoys.jsonl")


def test_the_corpus_is_big_enough_and_up_to_date():
    assert len(CALLS) >= 60 and len(DECOYS) >= 60
    import make_tool_call_corpus

    assert make_tool_call_corpus.main(["--check"]) == 0


def _right(row: dict) -> bool:
    expected = [c for c in row["calls"] if c.get("ok", True)]
    got = [c for c in parse_tool_calls(row["text"]) if c.ok]
    return len(got) == len(expected) and all(
        c.name == e["name"] and same(e["args"], c.args) for c, e in zip(got, expected, strict=True))


def test_accuracy_on_calls_and_decoys():
    wrong = [r["id"] for r in CALLS if not _right(r)] + [
        r["id"] for r in DECOYS if parse_tool_calls(r["text"])]
    total = len(CALLS) + len(DECOYS)
    assert 100 * (total - len(wrong)) / total >= 99, wrong


@pytest.mark.parametrize("row", [r for r in CALLS if any(c.get("ok", True) is False for c in r["calls"])],
                         ids=lambda r: r["id"])
def test_cut_calls_are_reported_not_run(row):
    calls = parse_tool_calls(row["text"])
    failed = [c for c in calls if not c.ok]
    for want in (c for c in row["calls"] if c.get("ok", True) is False):
        assert any(c.name == want["name"] and c.error for c in failed)


@pytest.mark.parametrize("row", CALLS + DECOYS, ids=lambda r: r["id"])
def test_spans_are_in_order_inside_the_text_and_never_overlap(row):
    text = row["text"]
    last = 0
    for c in parse_tool_calls(text):
        start, end = c.span
        assert last <= start < end <= len(text)
        last = end
        if c.ok:
            assert isinstance(c.args, dict) and c.error is None
        else:
            assert c.args is None and c.error


@pytest.mark.parametrize("row", CALLS, ids=lambda r: r["id"])
def test_no_prefix_of_a_call_passes_for_more_than_it_holds(row):
    """Cut anywhere, a message never yields an ok call the whole message does not have."""
    text = row["text"]
    whole = [(c.name, json.dumps(c.args, sort_keys=True)) for c in parse_tool_calls(text) if c.ok]
    for n in range(0, len(text), 7):
        got = [(c.name, json.dumps(c.args, sort_keys=True)) for c in parse_tool_calls(text[:n]) if c.ok]
        assert all(g in whole for g in got), (n, got)
