"""The fuzz targets on generated inputs, and every input that ever failed."""

from __future__ import annotations

import os
import sys

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "fuzz"))

from targets import TARGETS  # noqa: E402

CRASHERS = os.path.join(os.path.dirname(__file__), "fuzz", "crashers")


def _crashers() -> list[tuple[str, str]]:
    found = []
    for name in sorted(TARGETS):
        folder = os.path.join(CRASHERS, name)
        if os.path.isdir(folder):
            found.extend((name, os.path.join(folder, f)) for f in sorted(os.listdir(folder))
                         if not f.startswith("."))
    return found


@pytest.mark.parametrize("name,path", _crashers() or [pytest.param("", "", marks=pytest.mark.skip(
    reason="no crasher found so far"))])
def test_every_crasher_stays_fixed(name, path):
    with open(path, "rb") as fh:
        TARGETS[name](fh.read())


# the structure of tool-call text, so that the targets see more than noise
SEEDS = [b'{"cmd": "read", "file": "main.go"}', b"{cmd: 'read', n: 1.50,}", b'["a" "b"',
         b'<tool_call name="x" args=\'{"a": 1}\' />', b"a\nb\nc\n\xffa\nB\nc\n",
         b"```json\n{\"a\": 1}\n```", b'{"a": [1, {"b": null}]}']


@pytest.mark.parametrize("name", sorted(TARGETS))
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.one_of(st.binary(max_size=300), st.sampled_from(SEEDS),
                      st.builds(lambda a, b: a + b, st.sampled_from(SEEDS), st.binary(max_size=40))))
def test_target_holds(name, data):
    TARGETS[name](data)


def test_the_hypothesis_engine_passes_when_its_time_is_up(monkeypatch, tmp_path):
    """The time-up ends a run quietly: a target that never fails is ok, and
    one that fails is reported with its input saved."""
    import run

    monkeypatch.setattr(run, "CRASHERS", str(tmp_path))
    monkeypatch.setitem(run.TARGETS, "never_fails", lambda data: None)
    ok, count, detail = run._hypothesis("never_fails", 1)
    assert (ok, detail) == (True, "") and count > 0

    def fails(data: bytes) -> None:
        raise ValueError("boom")

    monkeypatch.setitem(run.TARGETS, "fails", fails)
    ok, count, detail = run._hypothesis("fails", 1)
    assert not ok and "boom" in detail
    assert os.listdir(tmp_path / "fails")


def test_targets_run_in_child_processes_report_in_order(capsys):
    """--jobs N: each target in its own process, N at a time, the reports in
    the targets' order whatever order they finish in."""
    import run

    names = ["streaming", "recovery"]
    assert run.main([*names, "--seconds", "1", "--jobs", "2", "--engine", "hypothesis"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [line.split()[:3] for line in lines] == [[name, "hypothesis", "ok"] for name in names]


def test_a_child_that_fails_or_dies_fails_the_run(monkeypatch, capsys):
    import subprocess

    import run

    def fake(cmd, **kwargs):
        name = cmd[2]
        if name == "recovery":  # a failure it reported itself
            return subprocess.CompletedProcess(cmd, 1, f"{name:<16} hypothesis FAILED\n", "boom\n")
        if name == "streaming":  # killed before it printed anything
            return subprocess.CompletedProcess(cmd, -9, "", "")
        return subprocess.CompletedProcess(cmd, 0, f"{name:<16} hypothesis ok\n", "")

    monkeypatch.setattr(run.subprocess, "run", fake)
    assert run.main(["json_verbs", "recovery", "streaming", "--jobs", "2", "--engine", "hypothesis"]) == 1
    out, err = capsys.readouterr()
    lines = out.splitlines()
    assert lines[0].split()[:3] == ["json_verbs", "hypothesis", "ok"]
    assert lines[1].split()[:3] == ["recovery", "hypothesis", "FAILED"]
    assert lines[2].split()[:3] == ["streaming", "hypothesis", "FAILED"] and "exited with -9" in lines[2]
    assert "boom" in err
