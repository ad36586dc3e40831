"""@diff against difflib and GNU diff, side by side in one run.

Corpus: 300 pairs of real source files with seeded edits
(tests/diffcorpus.py): toolmend.diff vs difflib.unified_diff, on texts and
on lists of lines (target: at least 5x faster). GNU diff runs once over the
same pairs as two folders (``diff -r -u``); its process start is measured
separately on two empty files and subtracted, and ours, in process, must
take no longer than what is left. Absolute limits: a 100,000-line file with
1% of its lines edited in at most 0.1 s; a 20,000-line complete rewrite
within 0.2 s, with the budget warning. Two threads diffing large files run
in parallel (the kernel releases the GIL). Every check here compares the
fastest of short rounds in CPU time (bench/conftest.py), not a median of
wall time, so a busy machine does not decide it.
"""

from __future__ import annotations

import difflib
import os
import random
import shutil
import subprocess
import sys

import pytest
from conftest import (
    IN_TWO_THREADS,
    ONE_AFTER_THE_OTHER,
    children_cpu_time,
    contend,
    contend_threads,
    fastest,
    interleaved,
)

import toolmend
from toolmend.diff import compare, unified, unified_diff

sys.path.insert(0, os.path.join(os.path.dirname(__file__), os.pardir, "tests"))
from diffcorpus import make_pairs, source_texts, write_tree  # noqa: E402

pytestmark = pytest.mark.skipif(not toolmend.compiled,
                                reason="the diff targets are for the compiled kernels")

PAIRS = make_pairs(300)
if len(PAIRS) < 300:  # pragma: no cover - no standard library sources
    pytest.skip("no Python standard library sources to build the corpus from",
                allow_module_level=True)
LINES = [(p.a.splitlines(keepends=True), p.b.splitlines(keepends=True)) for p in PAIRS]


def _ours_texts():
    return [unified(p.a, p.b) for p in PAIRS]


def _difflib_texts():
    return ["".join(difflib.unified_diff(p.a.splitlines(keepends=True),
                                         p.b.splitlines(keepends=True), "a", "b")) for p in PAIRS]


def _ours_lines():
    return [list(unified_diff(a, b, "a", "b")) for a, b in LINES]


def _difflib_lines():
    return [list(difflib.unified_diff(a, b, "a", "b")) for a, b in LINES]


CORPUS = {
    ("texts", "toolmend"): _ours_texts,
    ("texts", "difflib"): _difflib_texts,
    ("lines", "toolmend"): _ours_lines,
    ("lines", "difflib"): _difflib_lines,
}


@pytest.mark.parametrize("contender", ["toolmend", "difflib"])
@pytest.mark.parametrize("case", ["texts", "lines"])
def test_corpus_against_difflib(benchmark, case, contender):
    # difflib takes ~0.2-0.3 s a call: a few rounds show it (the gate measures the pair itself)
    result = contend(benchmark, "diff-corpus", contender, f"300 source pairs, {case}",
                     CORPUS[case, contender], rounds=5 if contender == "difflib" else None)
    assert len(result) == len(PAIRS)
    assert sum(1 for r in result if r) == sum(1 for p in PAIRS if p.a != p.b)


# ---------------------------------------------------------------------------
# GNU diff

@pytest.fixture(scope="module")
def corpus_dirs(tmp_path_factory):
    root = tmp_path_factory.mktemp("diffbench")
    write_tree(PAIRS, str(root))
    (root / "empty1").write_bytes(b"")
    (root / "empty2").write_bytes(b"")
    return root


def _read(path: str) -> str:
    fd = os.open(path, os.O_RDONLY)
    try:
        return os.read(fd, os.fstat(fd).st_size + 1).decode("utf-8")
    finally:
        os.close(fd)


def test_no_slower_than_gnu_diff(benchmark, corpus_dirs, capsys):
    diff = shutil.which("diff")
    if diff is None or "GNU diffutils" not in subprocess.run(
            [diff, "--version"], capture_output=True, text=True).stdout:
        pytest.skip("GNU diff is not installed (Debian package diffutils)")
    root = str(corpus_dirs)

    def gnu_all():
        subprocess.run([diff, "-r", "-u", "a", "b"], cwd=root, stdout=subprocess.DEVNULL, check=False)

    def gnu_start():
        subprocess.run([diff, "-u", "empty1", "empty2"], cwd=root, stdout=subprocess.DEVNULL,
                       check=True)

    def ours_with_reads():
        for p in PAIRS:
            unified(_read(os.path.join(root, "a", p.name)), _read(os.path.join(root, "b", p.name)))

    gnu_all()  # warm the page cache
    # interleaved rounds, the fastest of each (bench/conftest.py), in CPU time,
    # GNU's included: its net time is its fastest run over the tree less its
    # fastest start on two empty files
    m = interleaved({"toolmend": _ours_texts, "gnu": gnu_all, "start": gnu_start,
                     "with_reads": ours_with_reads},
                    passes=lambda mn: mn["toolmend"] <= mn["gnu"] - mn["start"], clock=children_cpu_time)
    ours, gnu_total, start, with_reads = (m.minima[k] for k in ("toolmend", "gnu", "start", "with_reads"))
    gnu_net = gnu_total - start
    contend(benchmark, "diff-gnu", "toolmend", "300 source pairs in process")
    benchmark(_ours_texts)
    benchmark.extra_info.update(gnu_total_s=gnu_total, gnu_start_s=start, gnu_net_s=gnu_net,
                                ours_s=ours, ours_with_file_reads_s=with_reads,
                                rounds=m.rounds, attempts=m.attempts)
    with capsys.disabled():
        print(f"\n    GNU diff -r -u: {gnu_total * 1e3:.2f} ms, process start {start * 1e3:.2f} ms, "
              f"net {gnu_net * 1e3:.2f} ms; toolmend in process {ours * 1e3:.2f} ms "
              f"({ours / gnu_net:.2f}x GNU's net time), with the file reads "
              f"{with_reads * 1e3:.2f} ms ({with_reads / gnu_net:.2f}x); fastest of {m.rounds} "
              f"interleaved rounds, {m.attempts} attempt(s)")
    assert ours <= gnu_net, (f"toolmend took {ours * 1e3:.2f} ms, GNU diff {gnu_net * 1e3:.2f} ms "
                             f"net ({gnu_total * 1e3:.2f} ms - {start * 1e3:.2f} ms process start)")


# ---------------------------------------------------------------------------
# Absolute limits

def _source_lines(count: int, skip: int = 0) -> list[str]:
    lines: list[str] = []
    texts = source_texts(1, 1_000_000)
    while len(lines) < count + skip:
        for _, text in texts:
            lines.extend(text.split("\n"))
    return lines[skip:skip + count]


@pytest.fixture(scope="module")
def hundred_k():
    rng = random.Random(100)
    a_lines = _source_lines(100_000)
    b_lines = list(a_lines)
    for i in sorted(rng.sample(range(len(b_lines)), 1000), reverse=True):
        op = rng.randrange(3)
        if op == 0:
            b_lines[i] = b_lines[i] + "  # edited"
        elif op == 1:
            del b_lines[i]
        else:
            b_lines.insert(i, f"inserted_{i} = {i}")
    return "\n".join(a_lines) + "\n", "\n".join(b_lines) + "\n"


def test_100k_lines_with_1pct_edited(benchmark, hundred_k):
    a, b = hundred_k
    contend(benchmark, "diff-large", "toolmend", "100,000 lines, 1% edited")
    result = benchmark(compare, a, b)
    assert not result.budget_exceeded and 900 <= result.hunks
    assert 1000 <= result.added + result.removed <= 2000
    took = fastest(lambda: compare(a, b), within=0.1)
    assert took <= 0.1, f"{took:.3f} s > 0.1 s"


def test_20k_line_complete_rewrite(benchmark):
    a_lines = _source_lines(20_000)
    b_lines = _source_lines(20_000, skip=40_000)
    a = "\n".join(a_lines) + "\n"
    b = "\n".join(b_lines) + "\n"
    shared = set(a_lines) & set(b_lines)
    assert shared  # blank lines and the like: a rewrite of real code, not of noise
    contend(benchmark, "diff-large", "toolmend", "20,000-line complete rewrite")
    result = benchmark(compare, a, b)
    assert result.budget_exceeded
    assert result.warning and result.warning.startswith("warning: more than 8,000 lines differ")
    assert result.blocks == [(0, 20_000, 0, 20_000)] or len(result.blocks) == 1
    took = fastest(lambda: compare(a, b), within=0.2)
    assert took <= 0.2, f"{took:.3f} s > 0.2 s"
    with pytest.warns(toolmend.diff.BudgetWarning):
        unified(a, b)


# ---------------------------------------------------------------------------
# Two threads at once

@pytest.mark.parametrize("contender", [ONE_AFTER_THE_OTHER, IN_TWO_THREADS])
def test_two_threads_diff_in_parallel(benchmark, hundred_k, contender):
    """The GIL is released: two diffs in two threads take clearly less
    than the two run one after the other (the diff-threads target; wall
    time, two free CPUs)."""
    a, b = hundred_k
    rng = random.Random(2)
    lines = b.split("\n")
    for _ in range(1500):  # moved lines: a search-heavy diff
        lines.insert(rng.randrange(len(lines)), lines.pop(rng.randrange(len(lines) - 1)))
    c = "\n".join(lines)
    jobs = [(a, c), (c, a)]  # the same work both ways: one thread must not wait for the other
    expected = [compare(x, y) for x, y in jobs]
    results: list[object] = [None, None]

    def run(k):
        def go():
            results[k] = compare(*jobs[k])
        return go

    contend_threads(benchmark, "diff-threads", contender, "two 100,000-line diffs", run(0), run(1))
    assert results == expected
