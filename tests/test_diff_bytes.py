"""Files as bytes in the diff library: decoded once, split once, lines counted
without decoding; a section applied to bytes; the patch of two folders read
within caps; and ``@diff apply`` reading, decoding and splitting each file once."""

from __future__ import annotations

import os

import pytest

import toolmend.diff._bytes as diff_bytes
import toolmend.tools._workspace as workspace
from toolmend import run_tool
from toolmend.diff import (
    PatchError,
    TreeEntry,
    apply_file_patch,
    count_lines,
    decode,
    folders_patch,
    hunk_pieces,
    parse_patch,
    patch_bytes,
    readable,
    split_keepends,
    tree_patch,
    unified,
)
from toolmend.errors import WorkspaceError

UGLY = ["", "\n", "\n\n", "a", "a\n", "a\nb", "a\r\nb\r\n", "a\rb\n", "\r", "\r\r\n", "a\r\n\r",
        "x\x0by\n", "x\x0cy", "x\x1cy\x1dz\x1e\n", "é\x85ü\n", "a\u2028b\u2029c\n", "\ufeffa\n",
        "a\udcffb\n", "\n\r\n\r", "last line without newline\nsecond"]


def _reference_split(text: str) -> list[str]:
    """split_keepends as it reads: after each \\n, and only there."""
    lines, start = [], 0
    for i, c in enumerate(text):
        if c == "\n":
            lines.append(text[start:i + 1])
            start = i + 1
    if start < len(text):
        lines.append(text[start:])
    return lines


@pytest.mark.parametrize("text", UGLY)
def test_split_keepends_splits_only_after_a_newline(text):
    assert split_keepends(text) == _reference_split(text)
    assert "".join(split_keepends(text)) == text


@pytest.mark.parametrize("data", [t.encode("utf-8", "surrogateescape") for t in UGLY]
                         + [b"\xff\xfe\n\x80", b"\xe9t\xe9\r\n", b"\x00\n\x00", b"\xc3\n\xa9"])
def test_count_lines_counts_as_the_split_without_decoding(data):
    text, valid = decode(data)
    assert text.encode("utf-8", "surrogateescape") == data
    assert count_lines(data) == len(split_keepends(text))
    if not valid:
        assert readable(text).encode("utf-8")  # serializable: no surrogate left


def test_patch_bytes_is_apply_file_patch_on_bytes_with_line_counts():
    old = "".join(f"line {i}\n" for i in range(50))
    new = old.replace("line 7\n", "seven\nand a half\n").replace("line 40\n", "")
    [section] = parse_patch(unified(old, new))
    done = patch_bytes(old.encode(), section)
    assert done.data == new.encode() == apply_file_patch(old, section).encode()
    assert (done.lines_before, done.lines_after) == (50, 50)


def test_patch_bytes_keeps_bytes_that_are_not_utf8_and_a_bom():
    old = b"\xef\xbb\xbfname\n\xff\xfe raw\nend\n"
    patch = "@@ -2,2 +2,2 @@\n-\udcff\udcfe raw\n+cooked\n end\n"
    [section] = parse_patch(patch)
    assert patch_bytes(old, section).data == b"\xef\xbb\xbfname\ncooked\nend\n"
    # a BOM the patch does not show: matched without it, kept
    [first] = parse_patch("@@ -1 +1 @@\n-name\n+NAME\n")
    done = patch_bytes(old, first)
    assert done.data == b"\xef\xbb\xbfNAME\n\xff\xfe raw\nend\n" and done.lines_after == 3
    [only] = parse_patch("@@ -1 +0,0 @@\n-\n")
    with pytest.raises(PatchError):
        patch_bytes(b"\xef\xbb\xbfx\n", only)


def test_patch_bytes_never_matches_a_bom_a_patch_adds_or_removes():
    # a patch about the BOM: applied once, then refused as applied already (as GNU patch)
    [adds] = parse_patch(unified("foo\nbar\n", "\ufefffoo\nbar\n"))
    done = patch_bytes(b"foo\nbar\n", adds).data
    assert done == b"\xef\xbb\xbffoo\nbar\n"
    with pytest.raises(PatchError, match="applied already"):
        patch_bytes(done, adds)
    [removes] = parse_patch(unified("\ufefffoo\nbar\n", "foo\nbar\n"))
    assert patch_bytes(done, removes).data == b"foo\nbar\n"
    with pytest.raises(PatchError):
        patch_bytes(b"foo\nbar\n", removes)
    # a BOM the patch does not show is still matched without it
    [edit] = parse_patch(unified("foo\nbar\n", "foo\nBAR\n"))
    assert patch_bytes(done, edit).data == b"\xef\xbb\xbffoo\nBAR\n"


def test_patch_bytes_of_no_file_and_of_no_hunks():
    [create] = parse_patch("--- /dev/null\n+++ b/n\n@@ -0,0 +1,2 @@\n+a\n+b\n")
    done = patch_bytes(None, create)
    assert (done.data, done.lines_before, done.lines_after) == (b"a\nb\n", 0, 2)
    with pytest.raises(PatchError, match="already"):
        patch_bytes(b"x\n", create)
    [mode] = parse_patch("diff --git a/x b/x\nold mode 100644\nnew mode 100755\n")
    done = patch_bytes(b"one\ntwo", mode)
    assert (done.data, done.lines_before, done.lines_after) == (b"one\ntwo", 2, 2)


def test_patch_bytes_an_added_empty_last_line_without_newline_adds_no_line():
    [section] = parse_patch("@@ -1 +1,2 @@\n a\n+\n\\ No newline at end of file\n")
    done = patch_bytes(b"a\n", section)
    assert done.data == b"a\n" and done.lines_after == count_lines(done.data) == 1


def test_patch_bytes_refuses_a_mismatch_naming_the_line():
    [section] = parse_patch("@@ -2 +2 @@\n-b\n+B\n")
    with pytest.raises(PatchError) as err:
        patch_bytes(b"a\nc\n", section)
    assert err.value.line == 2 and err.value.expected == "b"


def test_hunk_pieces_cut_a_diff_between_hunks_only():
    old = [f"{i}\n" for i in range(40)]
    new = old[:3] + ["three\n"] + old[4:30] + ["thirty\n"] + old[31:]
    one = unified("".join(old), "".join(new), a_label="a/x", b_label="b/x")
    two = unified("p\n", "q\n", a_label="a/y", b_label="b/y")
    text = "diff --git a/x b/x\n" + one + two
    pieces = hunk_pieces(text)
    # the text before a file's names is a piece of its own, under the names before it
    assert pieces[0] == ("", "diff --git a/x b/x\n")
    assert [h for h, _ in pieces[1:]] == ["--- a/x\n+++ b/x\n"] * 2 + ["--- a/y\n+++ b/y\n"]
    assert all(body.startswith("@@") for _, body in pieces[1:])
    shown, last = [], None
    for header, body in pieces:
        shown.append((header if header != last else "") + body)
        last = header
    assert "".join(shown) == text
    assert hunk_pieces("") == []


def test_hunk_pieces_split_only_after_a_newline():
    # a form feed, a lone CR or U+2028 in a line is not a line break: no header hides there
    for body in ("@@ -1 +1 @@\n-x\x0c--- q\x0c+++ r\n+y\u2028--- s\u2028+++ t\n",
                 "@@ -1 +1 @@\n-x\r--- q\r+++ r\n+y\n"):
        text = "--- a\n+++ b\n" + body
        assert hunk_pieces(text) == [("--- a\n+++ b\n", body)]


# ---------------------------------------------------------------------------
# the patch of two folders


def _folders(tmp_path, a: dict[str, bytes], b: dict[str, bytes]) -> tuple[str, str]:
    for side, files in (("a", a), ("b", b)):
        (tmp_path / side).mkdir()
        for name, data in files.items():
            (tmp_path / side / name).write_bytes(data)
    return str(tmp_path / "a"), str(tmp_path / "b")


def test_folders_patch_is_the_tree_patch_of_the_files_on_disk(tmp_path):
    root_a, root_b = _folders(tmp_path, {"x": b"1\n2\n", "gone": b"g\n"},
                              {"x": b"1\ntwo\n", "new": b"\xffn\n"})
    entries = [TreeEntry("gone", "D"), TreeEntry("new", "A"), TreeEntry("x", "M")]
    made = folders_patch(root_a, root_b, entries, context=3)
    expected = tree_patch(entries, lambda side, rel: (tmp_path / side / rel).read_bytes(),
                          context=3, budget=10_000)
    assert made == expected and made.files == 3 and not made.valid_utf8


def test_folders_patch_refuses_past_its_caps_naming_the_file(tmp_path):
    root_a, root_b = _folders(tmp_path, {"x": b"a\n" * 100, "y": b"y\n"},
                              {"x": b"b\n" * 100, "y": b"z\n"})
    entries = [TreeEntry("x", "M"), TreeEntry("y", "M")]
    with pytest.raises(WorkspaceError, match="'x' is 200 bytes; the limit is 100 bytes") as err:
        folders_patch(root_a, root_b, entries, limit=100)
    assert err.value.path == "x"
    with pytest.raises(WorkspaceError, match="more than 401 bytes.*'y'") as err:
        folders_patch(root_a, root_b, entries, limit=1000, total_limit=401)
    assert err.value.path == "y"
    assert folders_patch(root_a, root_b, entries, limit=200, total_limit=404).hunks == 2
    os.remove(tmp_path / "b" / "y")
    with pytest.raises(WorkspaceError, match="'y' does not exist"):
        folders_patch(root_a, root_b, entries)


def test_diff_dirs_says_which_file_passed_the_cap(tmp_path):
    _folders(tmp_path, {"x": b"a\n" * 100}, {"x": b"b\n" * 100})
    r = run_tool("diff", {"cmd": "dirs", "args": {"a": "a", "b": "b", "unified": True}},
                 workspace=workspace.Workspace(str(tmp_path), max_size=150))
    assert not r.ok and "@diff dirs: file 'x' is 200 bytes; the limit is 150 bytes" in r.output
    assert "narrow with a glob" in r.output


# ---------------------------------------------------------------------------
# @diff apply reads, decodes and splits each file once


def test_diff_apply_reads_decodes_and_splits_each_file_once(tmp_path, monkeypatch):
    big = "".join(f"row {i}\n" for i in range(2000))
    (tmp_path / "big.txt").write_text(big)
    (tmp_path / "small.txt").write_text("s\n")
    patch = ("diff --git a/big.txt b/big.txt\n--- a/big.txt\n+++ b/big.txt\n"
             + unified(big, big.replace("row 5\n", "five\n").replace("row 1900\n", ""))
             .split("\n", 2)[2]
             + "diff --git a/big.txt b/copy.txt\nsimilarity index 100%\ncopy from big.txt\n"
               "copy to copy.txt\n"
             + "diff --git a/small.txt b/small.txt\n--- a/small.txt\n+++ b/small.txt\n"
               "@@ -1 +1 @@\n-s\n+S\n")
    reads: list[str] = []
    decodes: list[int] = []
    splits: list[int] = []
    real_read, real_decode, real_split = (workspace.read_capped, diff_bytes.decode,
                                          diff_bytes.split_keepends)

    def read(real, cap, shown, **kw):
        reads.append(shown)
        return real_read(real, cap, shown, **kw)

    def dec(data):
        decodes.append(len(data))
        return real_decode(data)

    def split(text):
        splits.append(len(text))
        return real_split(text)

    monkeypatch.setattr(workspace, "read_capped", read)
    monkeypatch.setattr(diff_bytes, "decode", dec)
    monkeypatch.setattr(diff_bytes, "split_keepends", split)
    for dry_run in (True, False):
        for seen in (reads, decodes, splits):
            seen.clear()
        r = run_tool("diff", {"cmd": "apply", "args": {"patch": patch, "dry_run": dry_run}},
                     workspace=str(tmp_path))
        assert r.ok, r.output
        # big.txt is read once for its two sections; copy.txt does not exist yet (a stat says so)
        assert sorted(reads) == ["big.txt", "small.txt"], reads
        assert sorted(decodes) == [2, len(big)] and sorted(splits) == [2, len(big)]
        first = r.data["files"][0]
        assert first["file"] == "big.txt" and first["hunks"] == 2
    assert (tmp_path / "copy.txt").read_text() == big
    assert (tmp_path / "big.txt").read_text().count("\n") == 1999
