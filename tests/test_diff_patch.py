"""Strict apply: what it accepts, what it refuses, and what it says."""

from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from toolmend import PatchError
from toolmend.diff import apply, parse_patch, unified

ORIGINAL = "".join(f"line {i}\n" for i in range(1, 41))
NEW = ORIGINAL.replace("line 10\n", "line ten\n").replace("line 30\n", "line thirty\nextra\n")
PATCH = unified(ORIGINAL, NEW, a_label="a/f.txt", b_label="b/f.txt")


def refused(original: str, patch: str, **kw) -> PatchError:
    with pytest.raises(PatchError) as info:
        apply(original, patch, **kw)
    return info.value


def test_applies_with_and_without_headers():
    assert apply(ORIGINAL, PATCH) == NEW
    body = PATCH.split("\n", 2)[2]
    assert body.startswith("@@ ")
    assert apply(ORIGINAL, body) == NEW
    git = ("diff --git a/f.txt b/f.txt\nindex 83db48f..bf269f4 100644\n" + PATCH
           + "-- \n2.39.5\n\n")
    assert apply(ORIGINAL, "From: someone\nSubject: [PATCH] edit\n\n- a note\n---\n" + git) == NEW
    assert apply(ORIGINAL, PATCH.replace("\n", "\r\n")) == NEW  # patch sent with CRLF
    assert apply(ORIGINAL, "\ufeff" + PATCH) == NEW
    assert apply(ORIGINAL, "") == ORIGINAL


def test_altered_context_line():
    exc = refused(ORIGINAL, PATCH.replace(" line 8\n", " line 8x\n"))
    assert (exc.hunk, exc.line, exc.expected, exc.actual) == (1, 8, "line 8x", "line 8")
    assert "hunk 1 (@@ -7,7 +7,7 @@)" in str(exc) and "context line" in str(exc)


def test_altered_removed_line():
    exc = refused(ORIGINAL, PATCH.replace("-line 30\n", "-line 3O\n"))
    assert (exc.hunk, exc.line, exc.expected, exc.actual) == (2, 30, "line 3O", "line 30")
    assert "removed line" in str(exc)


def test_shifted_line_numbers_name_where_the_hunk_matches():
    exc = refused(ORIGINAL, PATCH.replace("@@ -27,7 +27,8 @@", "@@ -29,7 +29,8 @@"))
    assert (exc.hunk, exc.line, exc.expected, exc.actual) == (2, 29, "line 27", "line 29")
    assert "line 27 (offset -2)" in str(exc)
    # only the old start moved: the header contradicts itself
    exc = refused(ORIGINAL, PATCH.replace("@@ -27,7 +27,8 @@", "@@ -28,7 +27,8 @@"))
    assert exc.hunk == 2 and "inconsistent" in str(exc)


def test_truncated_hunk_and_wrong_counts():
    exc = refused(ORIGINAL, PATCH[:PATCH.index(" line 32")])
    assert exc.hunk == 2 and "truncated" in str(exc)
    exc = refused(ORIGINAL, PATCH.replace("@@ -7,7 +7,7 @@", "@@ -7,6 +7,6 @@"))
    assert exc.hunk == 1 and "longer than the header" in str(exc)
    exc = refused(ORIGINAL, PATCH.replace("@@ -7,7 +7,7 @@", "@@ -7,8 +7,8 @@"))
    assert exc.hunk == 1 and "truncated or its counts are wrong" in str(exc)
    # one count off by one, the other right: never silently accepted
    exc = refused(ORIGINAL, PATCH.replace("@@ -27,7 +27,8 @@", "@@ -27,7 +27,7 @@"))
    assert exc.hunk == 2
    exc = refused(ORIGINAL, PATCH.replace("@@ -27,7 +27,8 @@", "@@ -27,6 +27,8 @@"))
    assert exc.hunk == 2


def test_patch_for_another_file():
    exc = refused(ORIGINAL, PATCH, path="g.txt")
    assert "the patch is for 'a/f.txt' / 'b/f.txt', not for 'g.txt'" in str(exc)
    assert apply(ORIGINAL, PATCH, path="f.txt") == NEW
    assert apply(ORIGINAL, PATCH, path="src/f.txt") == NEW
    assert apply(ORIGINAL, PATCH.replace("a/f.txt", "/tmp/x/f.txt"), path="f.txt") == NEW
    other = "".join(f"row {i}\n" for i in range(1, 41))
    exc = refused(other, PATCH)
    assert exc.line == 7 and exc.actual == "row 7" and "found nowhere" in str(exc)


def test_several_files_in_one_patch():
    second = unified("x\n", "y\n", a_label="a/g.txt", b_label="b/g.txt")
    both = PATCH + second
    assert apply(ORIGINAL, both, path="f.txt") == NEW
    assert apply("x\n", both, path="g.txt") == "y\n"
    assert "2 file sections" in str(refused(ORIGINAL, both))
    assert "not for 'h.txt'" in str(refused(ORIGINAL, both, path="h.txt"))
    assert [f.new_name for f in parse_patch(both)] == ["b/f.txt", "b/g.txt"]


def test_already_applied_patch_is_recognised():
    exc = refused(NEW, PATCH)
    assert exc.hunk == 1 and exc.line == 10 and exc.actual == "line ten"
    assert "applied already" in str(exc)


def test_whitespace_and_line_ending_explanations():
    exc = refused(ORIGINAL, PATCH.replace(" line 8\n", " line 8 \n"))
    assert "only in trailing whitespace" in str(exc)
    exc = refused(ORIGINAL, PATCH.replace(" line 8\n", " line  8\n"))
    assert "only in whitespace" in str(exc)
    crlf_patch = PATCH.replace(" line 7\n", " line 7\r\n")
    assert "line ending" in str(refused(ORIGINAL, crlf_patch))


def test_crlf_files():
    a = ORIGINAL.replace("\n", "\r\n")
    b = NEW.replace("\n", "\r\n")
    exact = unified(a, b)
    assert "\r\n" in exact and apply(a, exact) == b
    # the patch lost its "\r": matched and written with CRLF endings
    assert apply(a, PATCH) == b
    # a mixed file is matched exactly only
    mixed = a.replace("line 8\r\n", "line 8\n")
    assert "line ending" in str(refused(mixed, PATCH))


def test_no_newline_at_end_of_file():
    assert apply("a\nb", unified("a\nb", "a\nc")) == "a\nc"
    assert apply("a\nb", unified("a\nb", "a\nb\n")) == "a\nb\n"
    assert apply("a\nb\n", unified("a\nb\n", "a\nb")) == "a\nb"
    assert apply("x", unified("x", "x\ny")) == "x\ny"
    # the marker is part of the match: the file's last line has a newline
    exc = refused("a\nb\n", unified("a\nb", "a\nc"))
    assert exc.line == 2 and exc.expected == "b" and exc.actual == "b"
    assert "line ending" in str(exc)
    # an insertion after a last line that lacks its newline would join lines
    exc = refused("a\nb", "@@ -2,0 +3 @@\n+c\n")
    assert "no newline" in str(exc)
    # nothing can follow a line marked as the last
    patch = "@@ -1,2 +1,2 @@\n-a\n\\ No newline at end of file\n-b\n+x\n+y\n"
    assert "must be the last line" in str(refused("a\nb\nc\n", patch))
    assert "does not follow" in str(refused("a\n", "@@ -1 +1 @@\n\\ No newline at end of file\n-a\n+b\n"))


def test_creating_and_emptying():
    assert apply("", "--- /dev/null\n+++ b/new.txt\n@@ -0,0 +1,2 @@\n+one\n+two\n") == "one\ntwo\n"
    assert apply("", "@@ -0,0 +1 @@\n+only\n\\ No newline at end of file\n") == "only"
    exc = refused("existing\n", "--- /dev/null\n+++ b/new.txt\n@@ -0,0 +1 @@\n+one\n")
    assert "creates the file" in str(exc)
    assert apply("a\nb\n", "--- a/x\n+++ /dev/null\n@@ -1,2 +0,0 @@\n-a\n-b\n") == ""
    # a headerless -0,0 hunk inserts at the top, as it says
    assert apply("b\n", "@@ -0,0 +1 @@\n+a\n") == "a\nb\n"


def test_empty_context_lines_whose_space_was_stripped():
    a = "def f():\n\n    return 1\n"
    b = "def f():\n\n    return 2\n"
    patch = unified(a, b).replace("\n \n", "\n\n")
    assert "\n\n" in patch
    assert apply(a, patch) == b


def test_hunk_order_and_malformed_input():
    first, second = PATCH.split("@@ -27")
    swapped = first.split("@@")[0] + "@@ -27" + second + "@@" + first.split("@@", 1)[1]
    assert "in order" in str(refused(ORIGINAL, swapped))
    assert "no hunks" in str(refused(ORIGINAL, "just some text\n"))
    assert "not a hunk header" in str(refused(ORIGINAL, "@@ -1,2 +1,2\n a\n"))
    assert "is empty" in str(refused(ORIGINAL, "@@ -1,0 +1,0 @@\n"))
    assert "start at 1" in str(refused(ORIGINAL, "@@ -0,1 +0,1 @@\n-a\n+b\n"))
    exc = refused(ORIGINAL, "@@ -50,2 +50,2 @@\n-line 50\n+x\n line 51\n")
    assert exc.line == 50 and exc.actual is None and "only 40 lines" in str(exc)
    with pytest.raises(TypeError):
        apply(b"x", "@@ -1 +1 @@\n-x\n+y\n")  # type: ignore[arg-type]


def test_lines_that_look_like_headers_inside_a_hunk():
    a = "-- sql comment\n++counter;\n@@ not a header\nend\n"
    b = "-- other comment\n++counter;\n@@ still not\nend\n"
    patch = unified(a, b)
    assert "\n--- sql comment\n" in patch and "\n+++counter;\n" not in patch
    assert apply(a, patch) == b


def test_removed_and_added_lines_that_look_like_a_file_header():
    # "--- x" / "+++ y" right before the next hunk are body lines: the
    # counts say so (a header-sniffing parser would cut the hunk there)
    a = "-- x\nk1\nk2\nq\n"
    b = "++ y\nk1\nk2\nQ\n"
    patch = unified(a, b, 0)
    assert "@@ -1 +1 @@\n--- x\n+++ y\n@@ -4 +4 @@\n" in patch
    assert apply(a, patch) == b


# -- found by review: never write to a place the patch does not prove ---------

@pytest.mark.parametrize("original, patch, why", [
    ("a\nb\nc\n", "@@ -500,0 +501,1 @@\n+INJECTED\n", "has only 3 lines"),
    ("a\nb\nc\nd\ne\n", "@@ -10,0 +11,1 @@\n+X\n", "has only 5 lines"),
    ("items:\n- a\n- b\n- c\n", "@@ -1,2 +1,2 @@\n items:\n - a\n-- b\n - c\n", "longer"),
    ("x\n- a\n- b\n", "@@ -1,2 +1,1 @@\n x\n-- a\n-- b\n", "longer"),
    ("a\n", "@@ -" + "9" * 5000 + ",3 +2,3 @@\n b\n-c\n+C\n d\n", "too large"),
    ("a\nb\nc\n", "@@ -\u0661,1 +\u0661,1 @@\n-a\n+A\n", "not a hunk header"),
])
def test_review_refusals(original, patch, why):
    with pytest.raises(PatchError, match=why):
        apply(original, patch)


def test_insert_after_the_last_line_still_works():
    assert apply("a\nb\nc\n", "@@ -3,0 +4 @@\n+d\n") == "a\nb\nc\nd\n"
    assert apply("a\nb\n", "@@ -2,0 +3,2 @@\n+c\n+d\n-- \n2.39.5\n") == "a\nb\nc\nd\n"


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(["a\n", "b\n", "a"]), max_size=16),
       st.lists(st.sampled_from(["a\n", "b\n", "a"]), max_size=5), st.integers(1, 4))
def test_the_hint_finds_where_a_hunk_would_match_as_a_plain_search_does(lines, want, limit):
    from toolmend.diff._apply import _find

    plain = [p for p in range(len(lines) - len(want) + 1) if want and lines[p:p + len(want)] == want]
    assert _find(lines, want, limit) == plain[:limit]


def test_the_hint_after_a_failed_hunk_is_linear_on_a_file_of_repeated_lines():
    import time

    import toolmend.diff as D

    patch = "--- a\n+++ b\n@@ -1,2001 +1,2001 @@\n" + " a\n" * 2000 + "-b\n+c\n"
    start = time.thread_time()
    with pytest.raises(PatchError, match="does not match"):
        D.apply("a\n" * 200_000, patch)
    assert time.thread_time() - start < 2.0  # (each place the first line matches compared whole: ~12 s)


def test_text_between_two_hunks_of_a_file_is_refused_not_skipped():
    # (a line that lost its ' ', '-' or '+': git refuses it, GNU patch stops there)
    patch = ("--- a/f\n+++ b/f\n@@ -2,3 +2,3 @@\n 2\n-3\n+Y\n 4\nthis line is not part of any hunk\n"
             "@@ -15,3 +15,3 @@\n 15\n-16\n+X\n 17\n")
    with pytest.raises(PatchError, match="line 8 of the patch, 'this line is not part of any hunk', "
                                         "stands between two hunks"):
        parse_patch(patch)
    # blank lines between them, and text between two files' sections, are fine
    assert len(parse_patch(patch.replace("this line is not part of any hunk\n", "\n"))[0].hunks) == 2
    two = ("--- a/f\n+++ b/f\n@@ -1 +1 @@\n-a\n+b\nsome words\n--- a/g\n+++ b/g\n@@ -1 +1 @@\n-c\n+d\n")
    assert [len(s.hunks) for s in parse_patch(two)] == [1, 1]


# -- a hunk made at an end of the file must still be at that end --------------

def test_a_hunk_with_no_trailing_context_must_end_the_file():
    patch = unified("a\nb\nc\n", "a\nb\nc\nd\n")
    assert apply("a\nb\nc\n", patch) == "a\nb\nc\nd\n"
    # applied twice, or to a file that grew: GNU patch and git apply refuse both
    exc = refused("a\nb\nc\nd\n", patch)
    assert exc.hunk == 1 and exc.line == 4 and exc.actual == "d"
    assert "end of the file" in str(exc) and "applied already" in str(exc)
    exc = refused("a\nb\nc\nX\n", patch)
    assert exc.line == 4 and exc.actual == "X" and "applied already" not in str(exc)
    # the same, undone
    back = unified("a\nb\nc\nd\n", "a\nb\nc\n")
    assert apply("a\nb\nc\nd\n", back) == "a\nb\nc\n"
    assert "end of the file" in str(refused("a\nb\nc\nd\nX\n", back))
    # a line of context after the changes: its lines all match where it says, and it applies
    # there (as git apply applies it; GNU patch without fuzz asks the end of the file of it)
    one = unified("a\nb\nc\nd\ne\n", "a\nb\nc\nD\ne\n")
    assert apply("a\nb\nc\nd\ne\nX\n", one) == "a\nb\nc\nD\ne\nX\n"
    assert "does not match" in str(refused("a\nb\nc\nD\ne\n", one))  # (applied already)
    # and at the top: less leading context than trailing, from line 1 only
    top = unified("a\nb\nc\n", "Z\na\nb\nc\n")
    assert apply("a\nb\nc\nX\n", top) == "Z\na\nb\nc\nX\n"
    assert "does not match" in str(refused("Z\na\nb\nc\n", top))


def test_a_hunk_without_context_applies_where_it_says():
    # (-U0: no context on either side, so no end to keep, as GNU patch reads it)
    patch = unified("a\nb\nc\n", "a\nb\nc\nd\n", 0)
    assert patch.endswith("@@ -3,0 +4 @@\n+d\n")
    assert apply("a\nb\nc\nX\n", patch) == "a\nb\nc\nd\nX\n"
    assert apply("a\nb\nc\n", unified("a\nb\nc\n", "Z\na\nb\nc\n", 0)) == "Z\na\nb\nc\n"
