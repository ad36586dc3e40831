"""The Myers myers_kernel: minimal, budget-exact, the same in both builds."""

from __future__ import annotations

import random
import threading

import pytest
from hypothesis import given, settings, strategies as st

from toolmend._kernels import myers
from toolmend._kernels._hunks import split_lines


def lcs_length(a, b) -> int:
    """Textbook dynamic programming, the reference for minimality."""
    prev = [0] * (len(b) + 1)
    for x in a:
        cur = [0]
        for j, y in enumerate(b):
            cur.append(prev[j] + 1 if x == y else max(prev[j + 1], cur[j]))
        prev = cur
    return prev[-1]


def edit_distance(a, b) -> int:
    return len(a) + len(b) - 2 * lcs_length(a, b)


def check_blocks(a, b, blocks) -> int:
    """The blocks turn a into b, with equal items between them; returns the
    number of changed items."""
    i = j = 0
    changed = 0
    for k, (a0, a1, b0, b1) in enumerate(blocks):
        assert i <= a0 <= a1 <= len(a) and j <= b0 <= b1 <= len(b)
        assert a0 - i == b0 - j and a[i:a0] == b[j:b0]
        assert a1 > a0 or b1 > b0
        assert k == 0 or a0 > i, "blocks must be separated by equal items"
        changed += (a1 - a0) + (b1 - b0)
        i, j = a1, b1
    assert a[i:] == b[j:]
    return changed


lines = st.lists(st.sampled_from(["a", "b", "c", "d", "", "}"]), max_size=40)


@settings(max_examples=400, deadline=None)
@given(a=lines, b=lines)
def test_minimal_within_budget(myers_kernel, a, b):
    blocks, exceeded = myers_kernel.diff_lines(a, b, 10_000)
    assert not exceeded
    assert check_blocks(a, b, blocks) == edit_distance(a, b)


@settings(max_examples=300, deadline=None)
@given(a=lines, b=lines, budget=st.integers(0, 30))
def test_budget_is_exact(myers_kernel, a, b, budget):
    """exceeded <=> the minimal diff changes more than budget items; then the
    differing middle is one block."""
    blocks, exceeded = myers_kernel.diff_lines(a, b, budget)
    d = edit_distance(a, b)
    assert exceeded == (d > budget)
    changed = check_blocks(a, b, blocks)
    if exceeded:
        assert len(blocks) == 1
        a0, a1, b0, b1 = blocks[0]
        prefix = 0
        while prefix < min(len(a), len(b)) and a[prefix] == b[prefix]:
            prefix += 1
        assert a0 == b0 == prefix
    else:
        assert changed == d


@settings(max_examples=500, deadline=None)
@given(a=st.lists(st.sampled_from("abcde"), max_size=60), b=st.lists(st.sampled_from("abcde"), max_size=60),
       budget=st.sampled_from([0, 1, 3, 8, 20, 1000]))
def test_twins_give_identical_edit_scripts(myers_twins, a, b, budget):
    compiled, pure = myers_twins
    assert compiled.diff_lines(a, b, budget) == pure.diff_lines(a, b, budget)


def test_twins_agree_on_larger_edits(myers_twins):
    compiled, pure = myers_twins
    rng = random.Random(11)
    for _ in range(40):
        alphabet = rng.choice([3, 20, 500])
        a = [str(rng.randrange(alphabet)) for _ in range(rng.randrange(0, 2000))]
        b = list(a)
        for _ in range(rng.randrange(0, 60)):
            pos = rng.randrange(len(b) + 1)
            op = rng.random()
            if op < 0.4:
                b[pos:pos] = [str(rng.randrange(alphabet)) for _ in range(rng.randrange(1, 6))]
            elif op < 0.8:
                del b[pos:pos + rng.randrange(1, 6)]
            else:
                b[pos:pos + 2] = ["new"]
        for budget in (10, 200, 100_000):
            assert compiled.diff_lines(a, b, budget) == pure.diff_lines(a, b, budget)


def test_edge_cases(myers_kernel):
    assert myers_kernel.diff_lines([], [], 0) == ([], False)
    assert myers_kernel.diff_lines(["x"], ["x"], 0) == ([], False)
    assert myers_kernel.diff_lines([], ["x", "y"], 5) == ([(0, 0, 0, 2)], False)
    assert myers_kernel.diff_lines(["x", "y"], [], 5) == ([(0, 2, 0, 0)], False)
    assert myers_kernel.diff_lines(["x", "y"], [], 1) == ([(0, 2, 0, 0)], True)
    assert myers_kernel.diff_lines(["a", "b", "c"], ["a", "c"], 8) == ([(1, 2, 1, 1)], False)
    # no common line: the block replacement is minimal, yet past the budget
    assert myers_kernel.diff_lines(["a", "b"], ["c", "d"], 3) == ([(0, 2, 0, 2)], True)
    assert myers_kernel.diff_lines(["a", "b"], ["c", "d"], 4) == ([(0, 2, 0, 2)], False)
    assert myers_kernel.diff_lines(("a", "b"), iter(["a", "c"]), 8) == ([(1, 2, 1, 2)], False)
    with pytest.raises(ValueError):
        myers_kernel.diff_lines(["a"], ["b"], -1)
    with pytest.raises(TypeError):
        myers_kernel.diff_lines([["unhashable"]], [["x"]], 5)


def test_inserted_duplicate_block_follows_the_original(myers_kernel):
    a = ["def f():", "    return 1", "", "x = 1"]
    b = ["def f():", "    return 1", "", "def f():", "    return 1", "", "x = 1"]
    assert myers_kernel.diff_lines(a, b, 100) == ([(3, 3, 3, 6)], False)


def test_long_inputs_need_no_recursion(myers_kernel):
    n = 60_000 if myers_kernel.__name__.endswith("_py") else 300_000
    a = [str(i % 1000) for i in range(n)]
    b = [x for i, x in enumerate(a) if i % 97] + ["tail"]
    blocks, exceeded = myers_kernel.diff_lines(a, b, 20_000)
    assert not exceeded
    assert check_blocks(a, b, blocks) == len(a) - len(b) + 2


def test_complete_rewrite_stops_at_the_bound_quickly():
    a = [f"old {i}" for i in range(20_000)]
    b = [f"new {i}" for i in range(20_000)]
    assert myers.diff_lines(a, b, 8000) == ([(0, 20_000, 0, 20_000)], True)


def test_threads_get_the_same_results(myers_twins):
    compiled, pure = myers_twins
    rng = random.Random(5)
    jobs = []
    for _ in range(8):
        a = [str(rng.randrange(50)) for _ in range(3000)]
        b = [x if rng.random() > 0.05 else "edit" for x in a]
        jobs.append((a, b))
    expected = [compiled.diff_lines(a, b, 8000) for a, b in jobs]
    results: list[object] = [None] * len(jobs)

    def work(k):
        for _ in range(5):
            results[k] = compiled.diff_lines(*jobs[k], 8000)

    threads = [threading.Thread(target=work, args=(k,)) for k in range(len(jobs))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results == expected


# ---------------------------------------------------------------------------
# The text path: lines found and hashed inside the strings, diff written in C

text_lines = st.sampled_from(["x", "y", "", "\r", "x\r", "é", "€uro", "😀", "a" * 17, "\x0c", "\t  "])
texts = st.lists(text_lines, max_size=30).map("\n".join) | st.lists(text_lines, max_size=30).map(
    lambda ls: "".join(s + "\n" for s in ls))


@settings(max_examples=300, deadline=None)
@given(a=texts, b=texts, context=st.integers(0, 3), budget=st.sampled_from([0, 3, 10_000]))
def test_unified_text_blocks_are_those_of_diff_lines(myers_kernel, a, b, context, budget):
    text, blocks, exceeded = myers_kernel.unified_text(a, b, context, "a", "b", budget)
    la, _ = split_lines(a)
    lb, _ = split_lines(b)
    assert (blocks, exceeded) == myers_kernel.diff_lines(la, lb, budget)
    assert (text == "") == (not blocks)


@settings(max_examples=500, deadline=None)
@given(a=texts, b=texts, context=st.integers(0, 4), budget=st.sampled_from([0, 2, 5, 10_000]),
       label=st.sampled_from(["a", "naïve.txt", "δ/€.py", "😀"]))
def test_twins_write_identical_diffs(myers_twins, a, b, context, budget, label):
    compiled, pure = myers_twins
    assert (compiled.unified_text(a, b, context, label, "b", budget)
            == pure.unified_text(a, b, context, label, "b", budget))


def test_unified_text_arguments(myers_kernel):
    with pytest.raises(ValueError):
        myers_kernel.unified_text("a", "b", -1, "a", "b", 5)
    with pytest.raises(ValueError):
        myers_kernel.unified_text("a", "b", 3, "a", "b", -1)
    assert myers_kernel.unified_text("same\n", "same\n", 3, "a", "b", 5) == ("", [], False)


class Line(str):
    """A str subclass: compared through Python, not the buffer fast path."""


def test_items_of_other_types(myers_kernel):
    a = ["x", Line("y"), 3, (1, 2), "z", b"raw"]
    b = ["x", "y", 3.0, (1, 2), "Z", b"raw"]
    # Line("y") == "y" and 3 == 3.0: equal as Python says
    assert myers_kernel.diff_lines(a, b, 10) == ([(4, 5, 4, 5)], False)
    assert myers_kernel.diff_lines(["a", "b", "c"], ("a", Line("B"), "c"), 10) == ([(1, 2, 1, 2)], False)

    class Boom:
        def __eq__(self, other):
            raise RuntimeError("boom")

        __hash__ = object.__hash__

    with pytest.raises(RuntimeError, match="boom"):
        myers_kernel.diff_lines([Boom()], [Boom()], 10)
