"""Unified format: GNU's conventions, difflib's drop-in, round trips."""

from __future__ import annotations

import difflib
import inspect
import shutil
import subprocess
import warnings

import pytest
from hypothesis import given, settings, strategies as st

import toolmend
from toolmend.diff import DEFAULT_BUDGET, BudgetWarning, PatchError, apply, compare, unified, unified_diff

NUMBERS = "".join(f"{i}\n" for i in range(1, 21))


def test_public_surface():
    assert toolmend.diff.unified is unified
    assert toolmend.diff.apply is apply
    assert toolmend.PatchError is toolmend.diff.PatchError


@pytest.mark.parametrize("a, b, context, expected", [
    # the count is left out when it is 1
    ("a\nb\nc\n", "a\nB\nc\n", 0, "@@ -2 +2 @@\n-b\n+B\n"),
    # an empty range names the line before it
    ("a\nb\nc\n", "a\nc\n", 0, "@@ -2 +1,0 @@\n-b\n"),
    ("a\nc\n", "a\nb\nc\n", 0, "@@ -1,0 +2 @@\n+b\n"),
    ("", "x\ny\n", 3, "@@ -0,0 +1,2 @@\n+x\n+y\n"),
    ("x\ny\n", "", 3, "@@ -1,2 +0,0 @@\n-x\n-y\n"),
    ("a\nb\n", "x\na\nb\n", 0, "@@ -0,0 +1 @@\n+x\n"),
    # the marker follows a last line without a newline, on either side
    ("a\nb", "a\nb\n", 3, "@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+b\n"),
    ("a\nb\n", "a\nb", 3, "@@ -1,2 +1,2 @@\n a\n-b\n+b\n\\ No newline at end of file\n"),
    ("a\nb", "A\nb", 3, "@@ -1,2 +1,2 @@\n-a\n+A\n b\n\\ No newline at end of file\n"),
    ("x", "y", 3, "@@ -1 +1 @@\n-x\n\\ No newline at end of file\n+y\n\\ No newline at end of file\n"),
    # a "\r" is content: CRLF lines diff as lines
    ("a\r\nb\r\n", "a\r\nB\r\n", 1, "@@ -1,2 +1,2 @@\n a\r\n-b\r\n+B\r\n"),
    ("a\nb\n", "a\r\nb\n", 3, "@@ -1,2 +1,2 @@\n-a\n+a\r\n b\n"),
    # only "\n" splits lines: form feed, VT, U+2028 stay inside them
    ("p\x0cq\nr\n", "p\x0cq\nR\n", 3, "@@ -1,2 +1,2 @@\n p\x0cq\n-r\n+R\n"),
    ("s\u2028t\x0bu\n", "s\u2028t\x0bv\n", 3, "@@ -1 +1 @@\n-s\u2028t\x0bu\n+s\u2028t\x0bv\n"),
])
def test_gnu_format(a, b, context, expected):
    assert unified(a, b, context) == "--- a\n+++ b\n" + expected


def test_identical_texts_give_nothing():
    assert unified("same\n", "same\n") == ""
    assert unified("", "") == ""
    assert compare("x", "x").identical


def test_changes_closer_than_twice_the_context_share_a_hunk():
    # 2 x 3 = 6 unchanged lines between the changes: one hunk
    b = NUMBERS.replace("2\n", "two\n", 1).replace("9\n", "nine\n", 1)
    assert unified(NUMBERS, b).count("@@ -") == 1
    # 7 unchanged lines: two hunks
    b = NUMBERS.replace("2\n", "two\n", 1).replace("10\n", "ten\n", 1)
    text = unified(NUMBERS, b)
    assert text.count("@@ -") == 2
    assert "@@ -1,5 +1,5 @@" in text and "@@ -7,7 +7,7 @@" in text
    assert unified(NUMBERS, b, context=4).count("@@ -") == 1


def test_labels():
    assert unified("a\n", "b\n", a_label="old/x.py", b_label="new/x.py").startswith(
        "--- old/x.py\n+++ new/x.py\n@@ -1 +1 @@\n")


def _gnu_diff() -> bool:
    if shutil.which("diff") is None:
        return False
    run = subprocess.run(["diff", "--version"], capture_output=True, text=True)
    return "GNU diffutils" in run.stdout


@pytest.mark.skipif(not _gnu_diff(), reason="GNU diff is not installed (Debian package diffutils)")
@pytest.mark.parametrize("a, b", [
    (NUMBERS, NUMBERS.replace("5\n", "five\n").replace("16\n", "")),
    (NUMBERS, "0\n" + NUMBERS + "21"),
    (NUMBERS + "x", NUMBERS + "y"),
    ("", NUMBERS),
    (NUMBERS, ""),
    ("a\r\nb\r\nc\r\n", "a\r\nc\r\nd"),
])
@pytest.mark.parametrize("context", [0, 1, 3, 10])
def test_matches_gnu_diff_byte_for_byte(tmp_path, a, b, context):
    (tmp_path / "a").write_bytes(a.encode())
    (tmp_path / "b").write_bytes(b.encode())
    run = subprocess.run(["diff", "-a", f"-U{context}", "--minimal", "--label", "a", "--label", "b",
                          str(tmp_path / "a"), str(tmp_path / "b")], capture_output=True)
    assert unified(a, b, context) == run.stdout.decode()


# ---------------------------------------------------------------------------
# Budget

def test_budget_warning_and_block_replacement():
    a = "keep\n" + "".join(f"old {i}\n" for i in range(50)) + "end\n"
    b = "keep\n" + "".join(f"new {i}\n" for i in range(50)) + "end\n"
    with pytest.warns(BudgetWarning, match="more than 10 lines differ"):
        text = unified(a, b, budget=10)
    assert "@@ -1,52 +1,52 @@" in text
    assert apply(a, text) == b
    result = compare(a, b, budget=10)
    assert result.budget_exceeded and result.warning.startswith("warning: ")
    assert "lines 2-51 of a and 2-51 of b" in result.warning
    assert result.blocks == [(1, 51, 1, 51)]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert unified(a, b, budget=100) == text  # no common lines: same text, no warning
    assert DEFAULT_BUDGET == 8000


def test_budget_only_changes_the_result_past_it():
    a = "".join(f"{i % 7}\n" for i in range(200))
    b = "".join(f"{(i * 3) % 7}\n" for i in range(200))
    minimal = compare(a, b, budget=10_000)
    assert not minimal.budget_exceeded
    edits = minimal.added + minimal.removed
    assert compare(a, b, budget=edits).text == minimal.text
    with pytest.warns(BudgetWarning):
        assert unified(a, b, budget=edits - 1) != minimal.text


@pytest.mark.parametrize("bad", [-1, 1.5, "3", True])
def test_arguments_are_checked(bad):
    with pytest.raises((TypeError, ValueError)):
        unified("a", "b", context=bad)
    with pytest.raises((TypeError, ValueError)):
        unified("a", "b", budget=bad)
    with pytest.raises(TypeError):
        unified(b"a", "b")  # type: ignore[arg-type]


# ---------------------------------------------------------------------------
# difflib drop-in

def test_unified_diff_has_difflibs_signature():
    ours = inspect.signature(unified_diff).parameters
    theirs = inspect.signature(difflib.unified_diff).parameters
    positional = [p for p in ours.values() if p.kind != inspect.Parameter.KEYWORD_ONLY]
    assert [(p.name, p.default) for p in positional] == [(p.name, p.default) for p in theirs.values()]


@pytest.mark.parametrize("kwargs", [
    {},
    {"fromfile": "old.py", "tofile": "new.py"},
    {"fromfile": "a", "tofile": "b", "fromfiledate": "2026-01-01", "tofiledate": "2026-01-02"},
    {"n": 0},
    {"n": 1, "lineterm": ""},
])
def test_unified_diff_output_matches_difflib_where_both_are_minimal(kwargs):
    a = NUMBERS.splitlines(keepends=True)
    b = list(a)
    b[4] = "five\n"
    del b[12]
    b.insert(17, "new\n")
    if kwargs.get("lineterm") == "":
        a = [x.rstrip("\n") for x in a]
        b = [x.rstrip("\n") for x in b]
    assert list(unified_diff(a, b, **kwargs)) == list(difflib.unified_diff(a, b, **kwargs))


def test_unified_diff_conventions():
    assert list(unified_diff(["a\n"], ["a\n"])) == []
    assert list(unified_diff([], [])) == []
    gen = unified_diff(["x\n"], ["y\n"])
    assert list(gen) == ["--- \n", "+++ \n", "@@ -1 +1 @@\n", "-x\n", "+y\n"]
    assert list(gen) == []  # consumed, like a generator
    # lazy like difflib's generator: nothing is checked before the first line
    lazy = unified_diff([b"x"], [b"y"])
    assert next(unified_diff(["x\n"], ["y\n"], "f", "g")) == "--- f\n"
    it = unified_diff(["x\n"], ["y\n"])
    assert [next(it), next(it)] + list(it) == ["--- \n", "+++ \n", "@@ -1 +1 @@\n", "-x\n", "+y\n"]
    with pytest.raises(TypeError):
        next(lazy)
    # lines go out as given: no marker (difflib writes none), any hashable str
    assert list(unified_diff(["x"], ["y"], lineterm="")) == ["--- ", "+++ ", "@@ -1 +1 @@", "-x", "+y"]
    with pytest.raises(TypeError, match="lines to compare must be str"):
        list(unified_diff([b"x"], [b"y"]))
    with pytest.raises(TypeError, match="all arguments must be str"):
        list(unified_diff(["x"], ["y"], fromfile=b"a"))  # type: ignore[arg-type]


def test_unified_diff_is_minimal_where_difflib_is_not():
    # difflib's autojunk and longest-block heuristics give a non-minimal
    # diff on repetitive input; ours is minimal.
    a = ["x\n", "y\n"] * 150 + ["end\n"]
    b = ["y\n", "x\n"] * 150 + ["end\n"]
    ours = [ln for ln in unified_diff(a, b) if ln[:1] in "+-" and ln[:3] not in ("---", "+++")]
    theirs = [ln for ln in difflib.unified_diff(a, b) if ln[:1] in "+-" and ln[:3] not in ("---", "+++")]
    assert len(ours) == 2 < len(theirs)


def test_unified_diff_agrees_with_unified_on_source_files():
    from diffcorpus import make_pairs

    pairs = [p for p in make_pairs(90) if "\r" not in p.a + p.b
             and p.a.endswith("\n") and p.b.endswith("\n")]
    assert len(pairs) > 40 or not make_pairs(2)
    for p in pairs:
        # lines end at "\n" only (str.splitlines also splits at \f, \x1c, ...)
        a_lines = [line + "\n" for line in p.a.split("\n")[:-1]]
        b_lines = [line + "\n" for line in p.b.split("\n")[:-1]]
        joined = "".join(unified_diff(a_lines, b_lines, "a", "b"))
        assert joined == unified(p.a, p.b)


# ---------------------------------------------------------------------------
# Round trips for arbitrary texts

line = st.sampled_from(["x", "y", "", " ", "\r", "x\r", "-- a", "++ b", "@@ c", "\\ d", "\t", "é"])
texts = st.lists(line, max_size=25).map("\n".join) | st.lists(line, max_size=25).map(
    lambda ls: "".join(s + "\n" for s in ls))


@settings(max_examples=500, deadline=None)
@given(a=texts, b=texts, context=st.integers(0, 4))
def test_apply_reverses_unified(a, b, context):
    patch = unified(a, b, context)
    try:
        assert apply(a, patch) == b
    except PatchError as exc:
        # (the one patch refused: -U0 lines only added to a file whose lines all end with CRLF, ending
        # with LF alone; with nothing of the file to match, whether they lost their CR is a guess)
        ends = [ln for ln in a.splitlines(keepends=True) if ln.endswith("\n")]
        assert context == 0 and "end with LF alone" in str(exc), exc
        assert ends and all(ln.endswith("\r\n") for ln in ends), exc
    else:
        if patch:
            assert apply(a, patch, path="b") == b
    result = compare(a, b, context=context)
    assert result.text == patch
    assert result.added == sum(1 for ln in patch.split("\n")[2:] if ln.startswith("+"))
    assert result.removed == sum(1 for ln in patch.split("\n")[2:] if ln.startswith("-"))
