"""``toolmend demo``: the bundled examples recovered, then a model message's calls parsed and run."""

from __future__ import annotations

import io

from toolmend.demo import EXPECTED_CALLS, run_demo


def test_the_demo_parses_and_runs_the_calls_of_a_model_message(monkeypatch):
    out = io.StringIO()
    monkeypatch.setattr("sys.stdout", out)
    assert run_demo() == 0
    text = out.getvalue()
    assert "handled as documented" in text
    assert "tool calls in a model message" in text
    assert "data.items[0]: {\"id\":1,\"price\":1.10}" in text   # @json query ran
    assert "+replicas: 3" in text                               # the diff ran
    assert "not run: the call was cut off" in text
    ran = sum(ok for _, ok in EXPECTED_CALLS)
    assert f"{ran} calls run, {len(EXPECTED_CALLS) - ran} refused as cut off\n" in text


def test_the_demo_takes_no_arguments():
    assert run_demo(["x"]) == 2
