"""Other projects' test suites (tests/data/peers/, extracted by bench/*_suite.py), run offline on
this build: the README's table for each suite is the run, every case that is not right has a
class and a reason, and the acceptance of issue 19 holds where it is met."""

from __future__ import annotations

import importlib.util
import pathlib
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
BENCH = ROOT / "bench"
SCRIPTS = ["jsonrepair_js_suite", "jsonrepair_suite", "fast_json_repair_suite", "partial_json_parser_suite",
           "json5_suite", "jsontestsuite_suite", "jsonrepair_schema_suite"]


def _load(name: str):  # type: ignore[no-untyped-def]
    if str(BENCH) not in sys.path:
        sys.path.insert(0, str(BENCH))
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, BENCH / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def runs():  # type: ignore[no-untyped-def]
    score = _load("score_peers")
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 20000))
    try:
        out = {}
        for name in SCRIPTS:
            module = _load(name)
            out[module.SUITE] = (module, *score.build(module.SUITE, *module.SCORING))
        return out
    finally:
        sys.setrecursionlimit(limit)


def _suite_of(name: str) -> str:
    return _load(name).SUITE


@pytest.mark.parametrize("script", SCRIPTS)
def test_the_readme_table_is_the_run(runs, script):
    score = _load("score_peers")
    module, cases, results, reasons, section = runs[_suite_of(script)]
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    written = score.readme_section(readme, module.SUITE)
    assert written is not None, f"README.md has no table for {module.SUITE}"
    assert written == section, (f"README.md's table for {module.SUITE} is not this run: "
                                f"python bench/{script}.py --readme README.md (and classify what is new)")


@pytest.mark.parametrize("script", SCRIPTS)
def test_every_case_that_is_not_right_has_a_class_and_a_reason(runs, script):
    score = _load("score_peers")
    _, cases, results, reasons, _ = runs[_suite_of(script)]
    assert len(cases) >= 40
    assert score.problems(cases, results, reasons) == []


def test_every_valid_file_of_jsontestsuite_comes_back_unchanged(runs):
    _, cases, results, _, _ = runs["jsontestsuite"]
    y = [c["id"] for c in cases if c["id"].startswith("y_")]
    assert len(y) == 95
    assert [cid for cid in y if results[cid]["outcome"] != "right"] == []


def test_the_drop_ins_pass_their_own_suites(runs):
    for suite in ("partial_json_parser",):
        _, cases, results, reasons, _ = runs[suite]
        assert [cid for cid, r in results.items() if r["outcome"] != "right"] == []


def test_json_repair_is_behind_on_josdejongs_suite_as_recorded(runs):
    """The README's json-repair counts on josdejong's cases are json-repair's (when the recorded
    version is the installed one), and toolmend gets more cases right."""
    score = _load("score_peers")
    module, cases, results, _, _ = runs["jsonrepair_js"]
    recorded = score.load_others("jsonrepair_js")["json-repair"]
    ours = sum(r["outcome"] == "right" for r in results.values())
    assert ours > recorded["right"]
    json_repair = pytest.importorskip("json_repair")
    import importlib.metadata

    if importlib.metadata.version("json-repair") != recorded["version"]:
        pytest.skip(f"json-repair {importlib.metadata.version('json-repair')} is installed, "
                    f"{recorded['version']} was recorded")
    assert json_repair is not None
    counted = score.other_counts(cases, module.OTHERS["json-repair"][1], module.expected)
    assert counted == {k: recorded[k] for k in ("right", "refused", "different")}


def test_a_cut_counts_right_only_when_its_completed_reading_is_the_suites_value():
    """A cut text is refused (never passed for whole); the scorer counts it right when the reading
    kept for display is the suite's value, refused when it is another, and never lets a cut through
    as a success."""
    score = _load("score_peers")
    cases = [
        {"id": "same", "input": '{"a": "b', "expect": {"a": "b"}},
        {"id": "other", "input": '{"a":', "expect": {"a": None}},
        {"id": "refuse", "input": '[1, tr', "refuse": True},
        {"id": "whole", "input": '{"a": 1}', "expect": {"a": 2}},
    ]
    ok, cut = score.toolmend_value(cases[0]["input"])
    assert ok is False and isinstance(cut, score.CutRefusal) and cut.reading == {"a": "b"}
    results = score.score(cases, lambda case: score.toolmend_value(case["input"]),
                          lambda case: case["expect"])
    assert {cid: r["outcome"] for cid, r in results.items()} == {
        "same": "right", "other": "refused", "refuse": "right", "whole": "different"}
    assert not any(r["ok"] for cid, r in results.items() if cid != "whole")
    row = score.render("t", cases[1:2], {"other": results["other"]}, {}, lambda case: "x", "t")
    assert "refused as cut, reading `{}`" in row
