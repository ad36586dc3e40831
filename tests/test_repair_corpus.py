"""The repair corpus (tests/data/repair, written by bench/make_repair_corpus.py),
scored on this build: the accuracy the README states, and no refusal ever
answered."""

from __future__ import annotations

import importlib.util
import pathlib
import sys

import pytest

BENCH = pathlib.Path(__file__).resolve().parent.parent / "bench"


@pytest.fixture(scope="module")
def score():
    spec = importlib.util.spec_from_file_location("score_repair", BENCH / "score_repair.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules["score_repair"] = module
    spec.loader.exec_module(module)
    return module


def test_corpus_accuracy(score):
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 20000))
    try:
        cases = score.load_corpus(score.CORPUS_DIR)
        run = score.FACTORIES["toolmend"]()
        outcomes = {c["id"]: score.score_case(run, c) for c in cases}
    finally:
        sys.setrecursionlimit(limit)
    assert len(cases) >= 600
    right = sum(o[0] == score.RIGHT for o in outcomes.values())
    wrong = [cid for cid, o in outcomes.items() if o[0] == score.WRONG]
    assert right / len(cases) >= 0.97, [cid for cid, o in outcomes.items() if o[0] != score.RIGHT]
    assert len(wrong) / len(cases) <= 0.01, wrong
    answered = [c["id"] for c in cases if c.get("refuse") and outcomes[c["id"]][0] != score.RIGHT]
    assert answered == []
    categories = {c["category"] for c in cases}
    assert len(categories) >= 20
