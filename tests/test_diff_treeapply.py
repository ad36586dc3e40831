"""Tree patches: git's extended headers and GNU diff's, whole or refused.

Renames, copies, deletions (``+++ /dev/null``, git's ``deleted file mode``,
``diff -N`` sections dated the Epoch), mode changes and new executable files
are applied as ``git apply`` applies them, or the whole patch is refused
naming what it cannot do. Names with spaces and odd characters are written
as git and GNU diff write them and read in both styles. ``diff dirs`` lists
what it cannot read as skipped and exits 2.
"""

from __future__ import annotations

import os
import stat

import pytest
from clirun import cli

from toolmend import run_tool
from toolmend.diff import (
    PatchError,
    TreeEntry,
    c_unquote,
    compare_trees,
    header_label,
    parse_patch,
    quote_name,
    reverse,
    tree_patch,
)


def _tree(root, files: dict[str, str], exe: tuple[str, ...] = ()) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
        os.chmod(path, 0o755 if name in exe else 0o644)


def _apply(root, patch: str, **extra):
    args = {"patch": patch, "dry_run": False, **extra}
    return run_tool("diff", {"cmd": "apply", "args": args}, workspace=str(root))


def _listing(root) -> list[str]:
    return sorted(os.path.relpath(os.path.join(d, f), root).replace(os.sep, "/")
                  for d, _, files in os.walk(root) for f in files)


def _exe(path) -> bool:
    return bool(os.stat(path).st_mode & stat.S_IXUSR)


RENAME = """diff --git a/a.txt b/a2.txt
similarity index 80%
rename from a.txt
rename to a2.txt
index 0ff3bbb..fb3ced1 100644
--- a/a.txt
+++ b/a2.txt
@@ -1,3 +1,3 @@
 1
-2
+two
 3
"""


# ---------------------------------------------------------------------------
# the repros of the issue


def test_a_git_rename_creates_the_new_file_and_removes_the_old(tmp_path):
    _tree(tmp_path, {"a.txt": "1\n2\n3\n"})
    r = _apply(tmp_path, RENAME)
    assert r.ok, r.output
    assert _listing(tmp_path) == ["a.txt.bak", "a2.txt"]
    assert (tmp_path / "a2.txt").read_text() == "1\ntwo\n3\n"
    assert (tmp_path / "a.txt.bak").read_text() == "1\n2\n3\n"
    assert r.output.startswith("renamed a.txt to a2.txt with 1 hunk")
    assert r.data["renamed_from"] == "a.txt" and r.data["backup"] == "a.txt.bak"


def test_a_pure_rename_with_no_hunks(tmp_path):
    _tree(tmp_path, {"b.txt": "x\n", "run.sh": "echo\n"}, exe=("run.sh",))
    patch = ("diff --git a/b.txt b/b moved.txt\nsimilarity index 100%\nrename from b.txt\n"
             "rename to b moved.txt\n"
             "diff --git a/run.sh b/bin/run.sh\nsimilarity index 100%\nrename from run.sh\n"
             "rename to bin/run.sh\n")
    r = _apply(tmp_path, patch, backup=False)
    assert r.ok, r.output
    assert _listing(tmp_path) == ["b moved.txt", "bin/run.sh"]
    assert _exe(tmp_path / "bin/run.sh") and (tmp_path / "b moved.txt").read_text() == "x\n"


def test_mode_lines_set_and_clear_the_executable_bits(tmp_path):
    _tree(tmp_path, {"m.sh": "echo\n", "x.sh": "echo\n"}, exe=("x.sh",))
    patch = ("diff --git a/m.sh b/m.sh\nold mode 100644\nnew mode 100755\n"
             "diff --git a/x.sh b/x.sh\nold mode 100755\nnew mode 100644\n"
             "--- a/x.sh\n+++ b/x.sh\n@@ -1 +1 @@\n-echo\n+echo x\n")
    dry = _apply(tmp_path, patch, dry_run=True)
    assert dry.ok and "changes the mode of m.sh (mode 644 -> 755)" in dry.output
    assert not _exe(tmp_path / "m.sh")
    r = _apply(tmp_path, patch, backup=False)
    assert r.ok, r.output
    assert _exe(tmp_path / "m.sh") and not _exe(tmp_path / "x.sh")
    assert stat.S_IMODE(os.stat(tmp_path / "m.sh").st_mode) == 0o755
    assert (tmp_path / "x.sh").read_text() == "echo x\n"
    assert [f.get("mode") for f in r.data["files"]] == ["755", "644"]


def test_a_new_executable_file_and_a_new_empty_file(tmp_path):
    patch = ("diff --git a/new.sh b/new.sh\nnew file mode 100755\nindex 0000000..3e75765\n"
             "--- /dev/null\n+++ b/new.sh\n@@ -0,0 +1 @@\n+new\n"
             "diff --git a/e b/e\nnew file mode 100644\nindex 0000000..e69de29\n")
    r = _apply(tmp_path, patch)
    assert r.ok, r.output
    assert _listing(tmp_path) == ["e", "new.sh"]
    assert _exe(tmp_path / "new.sh") and not _exe(tmp_path / "e")
    assert (tmp_path / "e").read_bytes() == b""


def test_a_git_deletion_of_an_empty_file(tmp_path):
    _tree(tmp_path, {"e": "", "keep": "k\n"})
    r = _apply(tmp_path, "diff --git a/e b/e\ndeleted file mode 100644\nindex e69de29..0000000\n")
    assert r.ok, r.output
    _tree(tmp_path, {"e": ""})  # cut before its index line: it cannot be told from a cut one
    r = _apply(tmp_path, "diff --git a/e b/e\ndeleted file mode 100644\n")
    assert not r.ok and "no index line" in r.output and (tmp_path / "e").exists()
    r = _apply(tmp_path, "diff --git a/e b/e\ndeleted file mode 100644\nindex e69de29..0000000\n")
    assert r.ok, r.output
    assert _listing(tmp_path) == ["e.bak", "keep"]


def test_a_diff_ruN_deletion_removes_the_file(tmp_path):
    _tree(tmp_path, {"gone.txt": "a\nb\n", "sub/only.txt": "z\n"})
    patch = ("diff -ruN a/gone.txt b/gone.txt\n"
             "--- a/gone.txt\t2026-12-01 18:52:02.843486726 +0000\n"
             "+++ b/gone.txt\t1970-01-01 00:00:00.000000000 +0000\n"
             "@@ -1,2 +0,0 @@\n-a\n-b\n"
             "--- a/sub/only.txt\t2026-12-01 18:52:02.843486726 +0000\n"
             "+++ b/sub/only.txt\t1969-12-31 19:00:00.000000000 -0500\n"
             "@@ -1 +0,0 @@\n-z\n")
    r = _apply(tmp_path, patch, backup=False)
    assert r.ok, r.output
    assert _listing(tmp_path) == [] and not (tmp_path / "sub").exists()  # as git, as patch -E


def test_an_emptied_file_with_a_real_date_stays(tmp_path):
    _tree(tmp_path, {"e.txt": "a\n"})
    patch = ("--- a/e.txt\t2026-12-01 18:52:02 +0000\n+++ b/e.txt\t2026-12-01 18:53:02 +0000\n"
             "@@ -1 +0,0 @@\n-a\n")
    r = _apply(tmp_path, patch, backup=False)
    assert r.ok and (tmp_path / "e.txt").read_bytes() == b""


def test_a_diff_N_deletion_that_leaves_lines_is_refused(tmp_path):
    _tree(tmp_path, {"g.txt": "a\nb\n"})
    patch = ("--- a/g.txt\t2026-12-01 18:52:02 +0000\n+++ b/g.txt\t1970-01-01 00:00:00 +0000\n"
             "@@ -1 +0,0 @@\n-a\n")
    r = _apply(tmp_path, patch)
    assert not r.ok and (tmp_path / "g.txt").read_text() == "a\nb\n"


def test_a_diff_N_creation_of_an_existing_file_is_refused(tmp_path):
    _tree(tmp_path, {"n.txt": "old\n"})
    patch = ("--- a/n.txt\t1970-01-01 00:00:00.000000000 +0000\n+++ b/n.txt\t2026-12-01 10:00:00 +0000\n"
             "@@ -0,0 +1 @@\n+new\n")
    r = _apply(tmp_path, patch)
    assert not r.ok and "already exists" in r.output
    assert (tmp_path / "n.txt").read_text() == "old\n"


def test_a_copy_keeps_the_source_and_reads_its_original(tmp_path):
    _tree(tmp_path, {"c.txt": "1\n2\n3\n"})
    # git orders sections by path: c.txt's own edit comes before its copy,
    # whose hunk is against the original c.txt
    patch = ("diff --git a/c.txt b/c.txt\n--- a/c.txt\n+++ b/c.txt\n@@ -1 +1 @@\n-1\n+one\n"
             "diff --git a/c.txt b/c_copy.txt\nsimilarity index 90%\ncopy from c.txt\n"
             "copy to c_copy.txt\n--- a/c.txt\n+++ b/c_copy.txt\n@@ -3 +3 @@\n-3\n+three\n")
    r = _apply(tmp_path, patch, backup=False)
    assert r.ok, r.output
    assert (tmp_path / "c.txt").read_text() == "one\n2\n3\n"
    assert (tmp_path / "c_copy.txt").read_text() == "1\n2\nthree\n"


def test_reverse_undoes_a_rename_and_a_mode_change(tmp_path):
    _tree(tmp_path, {"a.txt": "1\n2\n3\n"})
    assert _apply(tmp_path, RENAME, backup=False).ok
    r = _apply(tmp_path, RENAME, backup=False, reverse=True)
    assert r.ok, r.output
    assert _listing(tmp_path) == ["a.txt"] and (tmp_path / "a.txt").read_text() == "1\n2\n3\n"
    flipped = reverse(parse_patch("diff --git a/m b/m\nold mode 100644\nnew mode 100755\n")[0])
    assert (flipped.old_mode, flipped.new_mode) == (0o100755, 0o100644)


# ---------------------------------------------------------------------------
# refused whole, naming the header


@pytest.mark.parametrize("header, says", [
    ("diff --git a/l b/l\nnew file mode 120000\n--- /dev/null\n+++ b/l\n@@ -0,0 +1 @@\n+t\n",
     "symbolic link"),
    ("diff --git a/s b/s\nindex 1234567..89abcde 160000\n--- a/s\n+++ b/s\n@@ -1 +1 @@\n"
     "-Subproject commit 1\n+Subproject commit 2\n", "submodule"),
    ("diff --git a/x.txt b/x.txt\nsomething new 1\n--- a/x.txt\n+++ b/x.txt\n@@ -1 +1 @@\n-x\n+y\n",
     "something new 1"),
    ("Only in b: extra.txt\n--- a/x.txt\n+++ b/x.txt\n@@ -1 +1 @@\n-x\n+y\n", "Only in b"),
    ("diff --git a/x.txt b/y.txt\nsimilarity index 90%\nrename from x.txt\nrename to y.txt\n",
     "90% similar"),
    ("diff --git a/x.txt b/y.txt\nrename from x.txt\n--- a/x.txt\n+++ b/y.txt\n@@ -1 +1 @@\n"
     "-x\n+y\n", "rename from"),
    ("diff --git a/x.txt b/x.txt\nindex 1234567..89abcde 100644\nBinary files a/x.txt and "
     "b/x.txt differ\n", "binary"),
])
def test_a_header_that_cannot_be_carried_out_refuses_the_whole_patch(tmp_path, header, says):
    _tree(tmp_path, {"x.txt": "x\n", "other.txt": "o\n"})
    patch = "--- a/other.txt\n+++ b/other.txt\n@@ -1 +1 @@\n-o\n+oo\n" + header
    r = _apply(tmp_path, patch)
    assert not r.ok and says in r.output, r.output
    assert (tmp_path / "other.txt").read_text() == "o\n" and _listing(tmp_path) == [
        "other.txt", "x.txt"]
    with pytest.raises(PatchError):
        parse_patch(patch)


def test_a_rename_onto_an_existing_file_is_refused(tmp_path):
    _tree(tmp_path, {"a.txt": "1\n2\n3\n", "a2.txt": "mine\n"})
    r = _apply(tmp_path, RENAME)
    assert not r.ok and "'a2.txt' already exists" in r.output
    assert (tmp_path / "a2.txt").read_text() == "mine\n" and _listing(tmp_path) == ["a.txt", "a2.txt"]


def test_a_rename_of_a_missing_file_is_refused(tmp_path):
    r = _apply(tmp_path, RENAME)
    assert not r.ok and "'a.txt' does not exist" in r.output


@pytest.mark.parametrize("target", ["../out.txt", "/tmp/abs.txt", "link/x.txt"])
def test_both_sides_of_a_rename_stay_in_the_workspace(tmp_path, target):
    ws = tmp_path / "ws"
    _tree(ws, {"a.txt": "1\n2\n3\n"})
    os.symlink(tmp_path, ws / "link")
    for patch in (RENAME.replace("a2.txt", target),
                  RENAME.replace("rename from a.txt", f"rename from {target}")
                  .replace("--- a/a.txt", f"--- a/{target}")):
        r = _apply(ws, patch)
        assert not r.ok, r.output
        assert _listing(ws) == ["a.txt"] and not (tmp_path / "out.txt").exists()


def test_a_file_argument_never_applies_a_rename_in_place(tmp_path):
    _tree(tmp_path, {"a.txt": "1\n2\n3\n"})
    r = _apply(tmp_path, RENAME, file="a.txt")
    assert not r.ok and "renames 'a.txt' to 'a2.txt'" in r.output
    assert (tmp_path / "a.txt").read_text() == "1\n2\n3\n"


def test_two_sections_removing_one_file_are_refused(tmp_path):
    _tree(tmp_path, {"a.txt": "1\n2\n3\n"})
    twice = RENAME + RENAME.replace("a2.txt", "a3.txt")
    r = _apply(tmp_path, twice)
    assert not r.ok and "twice" in r.output and _listing(tmp_path) == ["a.txt"]


def _full_disk_for(monkeypatch, suffix: str) -> None:
    """Writes of a file whose name ends in ``suffix`` fail as on a full disk."""
    import toolmend.tools._diff_apply as applier

    real = applier.write_atomic

    def full_disk(path, data, mode=None, owner=None):
        if path.endswith(suffix):
            raise OSError(28, "No space left on device")
        return real(path, data, mode, owner)

    monkeypatch.setattr(applier, "write_atomic", full_disk)


def test_a_failed_write_in_a_rename_puts_everything_back(tmp_path, monkeypatch):
    _tree(tmp_path, {"a.txt": "1\n2\n3\n", "z.txt": "z\n"})
    patch = RENAME + "--- a/z.txt\n+++ b/z.txt\n@@ -1 +1 @@\n-z\n+zz\n"
    _full_disk_for(monkeypatch, "z.txt")
    r = _apply(tmp_path, patch, backup=False)
    assert not r.ok and "as it was" in r.output
    assert _listing(tmp_path) == ["a.txt", "z.txt"]
    assert (tmp_path / "a.txt").read_text() == "1\n2\n3\n" and (tmp_path / "z.txt").read_text() == "z\n"


def test_a_failed_creation_leaves_no_folder_it_made(tmp_path, monkeypatch):
    _tree(tmp_path, {"z.txt": "z\n"})
    patch = ("--- /dev/null\n+++ b/new/deep/n.txt\n@@ -0,0 +1 @@\n+n\n"
             "--- a/z.txt\n+++ b/z.txt\n@@ -1 +1 @@\n-z\n+zz\n")
    _full_disk_for(monkeypatch, "n.txt")
    r = _apply(tmp_path, patch, backup=False)
    assert not r.ok and "as it was" in r.output
    assert sorted(os.listdir(tmp_path)) == ["z.txt"] and (tmp_path / "z.txt").read_text() == "z\n"


def test_a_deletion_and_a_creation_of_one_path_replace_it(tmp_path):
    _tree(tmp_path, {"x": "old\n"})
    patch = ("diff --git a/x b/x\ndeleted file mode 100644\nindex 3367afd..0000000\n"
             "--- a/x\n+++ /dev/null\n@@ -1 +0,0 @@\n-old\n"
             "diff --git a/x b/x\nnew file mode 100755\nindex 0000000..3e75765\n"
             "--- /dev/null\n+++ b/x\n@@ -0,0 +1 @@\n+new\n")
    r = _apply(tmp_path, patch)
    assert r.ok, r.output
    assert (tmp_path / "x").read_text() == "new\n" and _exe(tmp_path / "x")
    assert (tmp_path / "x.bak").read_text() == "old\n"
    sections = patch.split("diff --git")
    _tree(tmp_path / "again", {"x": "old\n"})
    r = _apply(tmp_path / "again", "diff --git" + sections[2] + "diff --git" + sections[1])
    assert not r.ok and "writes 'x' and then deletes it" in r.output, r.output
    assert (tmp_path / "again" / "x").read_text() == "old\n"


def test_a_swap_by_two_renames(tmp_path):
    _tree(tmp_path, {"x": "X\n", "y": "Y\n"})
    patch = ("diff --git a/x b/y\nsimilarity index 100%\nrename from x\nrename to y\n"
             "diff --git a/y b/x\nsimilarity index 100%\nrename from y\nrename to x\n")
    r = _apply(tmp_path, patch, backup=False)
    assert r.ok, r.output
    assert (tmp_path / "x").read_text() == "Y\n" and (tmp_path / "y").read_text() == "X\n"


# ---------------------------------------------------------------------------
# names in headers


@pytest.mark.parametrize("name, quoted", [
    ("plain.txt", "plain.txt"),
    ("x y.txt", "x y.txt"),
    ('q"t.txt', '"q\\"t.txt"'),
    ("tab\tt", '"tab\\tt"'),
    ("back\\slash", '"back\\\\slash"'),
    ("café.txt", "café.txt"),
    ("nl\nx", '"nl\\nx"'),
    (b"latin\xe9".decode("utf-8", "surrogateescape"), '"latin\\351"'),
])
def test_names_are_quoted_as_git_quotes_them_and_read_back(name, quoted):
    assert quote_name(name) == quoted
    if quoted.startswith('"'):
        assert c_unquote(quoted) == (name, len(quoted))
    patch = f"--- {header_label('a/' + name)}\n+++ {header_label('b/' + name)}\n@@ -1 +1 @@\n-a\n+b\n"
    section = parse_patch(patch)[0]
    assert (section.old_name, section.new_name) == ("a/" + name, "b/" + name)


def test_a_name_with_a_space_ends_with_a_tab():
    assert header_label("a/x y.txt") == "a/x y.txt\t"
    assert header_label("a/xy.txt") == "a/xy.txt"


@pytest.mark.parametrize("line, names", [
    ('--- "a/x y.txt"\t2026-12-01 18:52:02.843486726 +0000', "a/x y.txt"),  # GNU diff 3.8
    ("--- a/x y.txt\t", "a/x y.txt"),                                       # git
    ("--- a/x y.txt", "a/x y.txt"),                                         # --label, no TAB
    ('--- "a/\\303\\251 \\303\\274.txt"\t', "a/é ü.txt"),                   # core.quotePath
    ("--- a/trailing \t2026-01-01 00:00:00 +0000", "a/trailing "),
])
def test_both_header_styles_are_read(line, names):
    section = parse_patch(f"{line}\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n")[0]
    assert section.old_name == names


def test_git_names_with_spaces_and_quotes_on_the_diff_git_line():
    sections = parse_patch('diff --git a/x y b/x y\nold mode 100644\nnew mode 100755\n'
                           'diff --git "a/q\\"t" "b/q\\"t"\nnew file mode 100644\nindex 0000000..e69de29\n'
                           'diff --git "a/s p" "b/s p"\ndeleted file mode 100644\nindex e69de29..0000000\n')
    assert [(s.old_name, s.new_name) for s in sections] == [
        ("a/x y", "b/x y"), ("/dev/null", 'b/q"t'), ("a/s p", "/dev/null")]


@pytest.mark.parametrize("stamp, epoch", [
    ("1970-01-01 00:00:00.000000000 +0000", True),
    ("1970-01-01 01:00:00 +0100", True),
    ("1969-12-31 19:00:00.000000000 -0500", True),
    ("1970-01-01 00:00:01 +0000", False),
    ("2026-12-01 18:52:02 +0000", False),
    ("", False),
])
def test_the_epoch_in_any_time_zone_marks_a_missing_side(stamp, epoch):
    section = parse_patch(f"--- a/x\t2026-01-01 00:00:00 +0000\n+++ b/x\t{stamp}\n"
                          "@@ -1 +0,0 @@\n-a\n")[0]
    assert section.new_epoch is epoch and section.deletes is epoch


def test_diff_files_writes_a_tab_after_a_name_with_a_space(tmp_path):
    _tree(tmp_path, {"x y.txt": "1\n2\n", "new y.txt": "1\nz\n"})
    r = run_tool("diff", {"cmd": "files", "args": {"a": "x y.txt", "b": "new y.txt"}},
                 workspace=str(tmp_path))
    assert "--- x y.txt\t\n+++ new y.txt\t\n" in r.output


# ---------------------------------------------------------------------------
# the tree patch of diff dirs


def test_the_tree_patch_carries_modes_and_empty_files(tmp_path):
    _tree(tmp_path / "a", {"run.sh": "x\n", "gone": "", "same.txt": "s\n"})
    _tree(tmp_path / "b", {"run.sh": "x\n", "new.sh": "n\n", "e": "", "same.txt": "s\n"},
          exe=("run.sh", "new.sh"))
    tree = compare_trees(str(tmp_path / "a"), str(tmp_path / "b"), str(tmp_path))
    assert tree.changed == ["run.sh"] and tree.added == ["e", "new.sh"] and tree.removed == ["gone"]
    entries = [TreeEntry(p, t, *tree.modes[p]) for p, t in
               [("e", "A"), ("gone", "D"), ("new.sh", "A"), ("run.sh", "M")]]

    def read(side, rel):
        return (tmp_path / side / rel).read_bytes()

    made = tree_patch(entries, read, context=3, budget=100)
    assert made.text == ("diff --git a/e b/e\nnew file mode 100644\nindex 000000000000..e69de29bb2d1\n"
                         "diff --git a/gone b/gone\ndeleted file mode 100644\n"
                         "index e69de29bb2d1..000000000000\n"
                         "diff --git a/new.sh b/new.sh\nnew file mode 100755\n"
                         "index 000000000000..8ba3a16384aa\n--- /dev/null\n"
                         "+++ b/new.sh\n@@ -0,0 +1 @@\n+n\n"
                         "diff --git a/run.sh b/run.sh\nold mode 100644\nnew mode 100755\n")
    assert (made.hunks, made.files) == (1, 4)


def test_an_unreadable_folder_is_skipped_not_taken_for_empty(tmp_path, monkeypatch):
    _tree(tmp_path / "a", {"top.txt": "1\n", "sub/x.txt": "x\n"})
    _tree(tmp_path / "b", {"top.txt": "2\n", "sub/x.txt": "x\n", "sub/y.txt": "y\n"})
    real = os.listdir
    locked = str(tmp_path / "a" / "sub")

    def listdir(path="."):
        if os.fspath(path) == locked:
            raise PermissionError(13, "Permission denied", path)
        return real(path)

    monkeypatch.setattr(os, "listdir", listdir)
    r = run_tool("diff", {"cmd": "dirs", "args": {"a": "a", "b": "b", "unified": True}},
                 workspace=str(tmp_path))
    assert r.ok
    assert r.data["unreadable"] == ["sub: the folder could not be read (Permission denied)"]
    assert r.data["added"] == [] and r.data["changed"] == ["top.txt"]
    assert "y.txt" not in r.data["diff"] and "sub/" not in r.data["diff"]
    assert "could not be read" in r.output
    cwd = os.getcwd()
    os.chdir(tmp_path)
    try:
        run = cli("diff", "dirs", "--a", "a", "--b", "b", "--unified")
        listing = cli("diff", "dirs", "--a", "a", "--b", "b")
    finally:
        os.chdir(cwd)
    assert run.rc == 2 and listing.rc == 2, (run.err, listing.err)
    assert b"y.txt" not in run.out and "Permission denied" in run.err
    assert "sub: the folder could not be read (Permission denied)" in listing.text


def test_an_unreadable_file_a_broken_link_and_a_fifo_are_skipped(tmp_path, monkeypatch):
    _tree(tmp_path / "a", {"ok.txt": "1\n"})
    _tree(tmp_path / "b", {"ok.txt": "1\n", "secret.txt": "s\n"})
    os.symlink("nowhere", tmp_path / "b" / "broken")
    os.mkfifo(tmp_path / "b" / "pipe")
    import toolmend.diff._tree as tree_mod

    real = tree_mod._open_check

    def check(path):
        if path.endswith("secret.txt"):
            raise PermissionError(13, "Permission denied", path)
        real(path)

    monkeypatch.setattr(tree_mod, "_open_check", check)
    r = run_tool("diff", {"cmd": "dirs", "args": {"a": "a", "b": "b", "unified": True}},
                 workspace=str(tmp_path))
    assert r.ok and r.data["added"] == [] and r.data["diff"] == ""
    assert sorted(r.data["unreadable"]) == [
        "broken: a broken symlink (No such file or directory)",
        "pipe: a FIFO, not a regular file or folder",
        "secret.txt: could not be read (Permission denied)"]


@pytest.mark.skipif(hasattr(os, "geteuid") and os.geteuid() == 0,
                    reason="permission bits do not stop root from reading")
def test_a_chmod_000_folder_is_reported(tmp_path):
    _tree(tmp_path / "a", {"sub/x.txt": "x\n"})
    _tree(tmp_path / "b", {"sub/x.txt": "x\n", "sub/y.txt": "y\n"})
    os.chmod(tmp_path / "a" / "sub", 0)
    try:
        r = run_tool("diff", {"cmd": "dirs", "args": {"a": "a", "b": "b", "unified": True}},
                     workspace=str(tmp_path))
    finally:
        os.chmod(tmp_path / "a" / "sub", 0o755)
    assert r.data["unreadable"] and r.data["added"] == [] and "y.txt" not in r.data["diff"]


def test_our_tree_patch_with_odd_names_round_trips(tmp_path):
    names = {"x y.txt": "1\n", 'q"t.txt': "2\n", "tab\tt.txt": "3\n", "dir with space/é.txt": "4\n"}
    _tree(tmp_path / "a", {n: t for n, t in names.items()})
    _tree(tmp_path / "b", {n: t + "more\n" for n, t in names.items()}, exe=("x y.txt",))
    r = run_tool("diff", {"cmd": "dirs", "args": {"a": "a", "b": "b", "unified": True}},
                 workspace=str(tmp_path))
    assert r.ok and '--- "a/q\\"t.txt"\n' in r.output and "--- a/x y.txt\t\n" in r.output
    done = _apply(tmp_path, r.output, dir="a", backup=False)
    assert done.ok, done.output
    for name, text in names.items():
        assert (tmp_path / "a" / name).read_text() == text + "more\n"
    assert _exe(tmp_path / "a" / "x y.txt")


@pytest.mark.parametrize("patch, says", [
    # cut before the hunks: the index line says the content is not empty
    ("diff --git a/n.txt b/n.txt\nnew file mode 100644\nindex 0000000..3e75765\n", "no hunk"),
    ("diff --git a/x.txt b/x.txt\ndeleted file mode 100644\nindex 587be6b..0000000\n", "no hunk"),
    ("diff --git a/x.txt b/x.txt\nold mode 100644\nnew mode 100755\nindex 587be6b..3e75765\n",
     "no hunk"),
    # the ---/+++ names contradict the extended header
    ("diff --git a/n.txt b/n.txt\nnew file mode 100644\n--- a/n.txt\n+++ b/n.txt\n"
     "@@ -1 +1 @@\n-x\n+y\n", "inconsistent"),
    ("diff --git a/x.txt b/x.txt\ndeleted file mode 100644\n--- a/x.txt\n+++ b/x.txt\n"
     "@@ -1 +1 @@\n-x\n+y\n", "inconsistent"),
])
def test_a_git_section_that_lost_its_content_is_refused(tmp_path, patch, says):
    _tree(tmp_path, {"x.txt": "x\n"})
    r = _apply(tmp_path, patch)
    assert not r.ok and says in r.output, r.output
    assert _listing(tmp_path) == ["x.txt"] and (tmp_path / "x.txt").read_text() == "x\n"


def test_every_prefix_of_a_git_patch_is_refused_or_whole(tmp_path):
    """A git patch with renames, copies, modes and deletions, cut at every
    line: each prefix is refused, or applies to exactly what the prefix
    holds whole (no section half applied)."""
    import subprocess

    env = dict(os.environ, GIT_CONFIG_NOSYSTEM="1", GIT_CONFIG_GLOBAL=os.devnull, HOME=str(tmp_path))
    repo = tmp_path / "repo"
    repo.mkdir()
    files = {"a.txt": "".join(f"{n}\n" for n in range(20)), "b.txt": "b\n" * 3,
             "c.txt": "".join(f"c{n}\n" for n in range(12)), "gone.txt": "g\n", "m.sh": "m\n"}
    _tree(repo, files)

    def git(*cmd):
        return subprocess.run(["git", *cmd], cwd=repo, env=env, check=True,
                              capture_output=True).stdout.decode()

    if not os.path.exists("/usr/bin/git") and not any(
            os.path.exists(os.path.join(d, "git")) for d in os.environ.get("PATH", "").split(":")):
        pytest.skip("git is not installed")
    git("init", "-q")
    git("add", "-A")
    git("-c", "user.name=t", "-c", "user.email=t@e", "commit", "-qm", "a")
    os.rename(repo / "a.txt", repo / "a2.txt")
    (repo / "a2.txt").write_text(files["a.txt"].replace("5\n", "five\n"))
    (repo / "c copy.txt").write_text(files["c.txt"].replace("c3\n", "C3\n"))
    os.remove(repo / "gone.txt")
    os.chmod(repo / "m.sh", 0o755)
    (repo / "new.sh").write_text("new\n")
    os.chmod(repo / "new.sh", 0o755)
    git("add", "-A")
    patch = git("diff", "--cached", "-M", "-C", "--find-copies-harder")
    assert "rename from" in patch and "copy from" in patch and "new mode" in patch
    lines = patch.splitlines(keepends=True)
    after = {**{k: v for k, v in files.items() if k not in ("a.txt", "gone.txt")},
             "a2.txt": files["a.txt"].replace("5\n", "five\n"),
             "c copy.txt": files["c.txt"].replace("c3\n", "C3\n"), "new.sh": "new\n"}
    applied = 0
    for cut in range(1, len(lines) + 1):
        prefix = "".join(lines[:cut])
        ws = tmp_path / f"cut{cut}"
        _tree(ws, files)
        r = _apply(ws, prefix, backup=False)
        if not r.ok:
            assert _listing(ws) == sorted(files), f"cut at line {cut}: refused but changed"
            continue
        applied += 1
        # every file is as before or as after: none half patched
        for name in _listing(ws):
            text = (ws / name).read_text()
            assert text in (files.get(name), after.get(name)), f"cut at line {cut}: {name}"
    assert 3 <= applied < len(lines) // 2


# ---------------------------------------------------------------------------
# symlinks: a patch changes the files it names, never what a link leads to (as git apply)


def test_a_patch_for_a_symlink_is_refused_and_its_target_left_alone(tmp_path):
    _tree(tmp_path, {"target": "l\n"})
    os.symlink("target", tmp_path / "sl")
    r = _apply(tmp_path, "--- a/sl\n+++ b/sl\n@@ -1 +1 @@\n-l\n+sl\n")
    assert not r.ok and "is a symlink (to 'target')" in r.output
    assert (tmp_path / "target").read_text() == "l\n" and os.path.islink(tmp_path / "sl")
    assert _listing(tmp_path) == ["sl", "target"]


@pytest.mark.parametrize("patch", [
    "--- a/linkdir/x\n+++ /dev/null\n@@ -1 +0,0 @@\n-x\n",       # a deletion: it removed data/real and data
    "--- a/linkdir/x\n+++ b/linkdir/x\n@@ -1 +1 @@\n-x\n+y\n",
    "--- /dev/null\n+++ b/linkdir/new\n@@ -0,0 +1 @@\n+n\n",
])
def test_a_file_reached_through_a_symlinked_folder_is_refused(tmp_path, patch):
    _tree(tmp_path, {"data/real/x": "x\n"})
    os.symlink(os.path.join("data", "real"), tmp_path / "linkdir")
    r = _apply(tmp_path, patch, backup=False)
    assert not r.ok and "through the symlink 'linkdir'" in r.output
    assert _listing(tmp_path) == ["data/real/x"] and os.path.islink(tmp_path / "linkdir")
    assert (tmp_path / "data" / "real" / "x").read_text() == "x\n"
    # by its own path it is patched
    r = _apply(tmp_path, "--- a/data/real/x\n+++ b/data/real/x\n@@ -1 +1 @@\n-x\n+y\n", backup=False)
    assert r.ok and (tmp_path / "data" / "real" / "x").read_text() == "y\n"


def test_a_tree_patch_over_a_symlink_turned_file_is_refused_on_the_command_line(tmp_path, monkeypatch):
    for side in ("a", "b"):
        _tree(tmp_path / side, {"target": "l\n"})
    os.symlink("target", tmp_path / "a" / "sl")
    (tmp_path / "b" / "sl").write_text("sl\n")
    monkeypatch.chdir(tmp_path)
    made = cli("diff", "dirs", "a", "b", "--unified")
    (tmp_path / "u.diff").write_bytes(made.out)
    monkeypatch.chdir(tmp_path / "a")
    r = cli("diff", "apply", "--patch", "../u.diff", "--write", "--no-backup")
    assert r.rc == 1 and "symlink" in r.err
    assert (tmp_path / "a" / "target").read_text() == "l\n"


# ---------------------------------------------------------------------------
# a file turned folder and a folder turned file, in one patch (as dirs --unified writes it)

_FILE_TO_FOLDER = ("--- a/t\n+++ /dev/null\n@@ -1 +0,0 @@\n-x\n"
                   "--- /dev/null\n+++ b/t/inner\n@@ -0,0 +1 @@\n+y\n")
_FOLDER_TO_FILE = ("--- /dev/null\n+++ b/t\n@@ -0,0 +1 @@\n+x\n"
                   "--- a/t/inner\n+++ /dev/null\n@@ -1 +0,0 @@\n-y\n")


def test_a_file_the_patch_deletes_may_become_a_folder(tmp_path):
    _tree(tmp_path, {"t": "x\n"})
    r = _apply(tmp_path, _FILE_TO_FOLDER)
    assert r.ok, r.output
    assert _listing(tmp_path) == ["t.bak", "t/inner"] and (tmp_path / "t" / "inner").read_text() == "y\n"
    # the file is not deleted by the patch: refused, named
    _tree(tmp_path / "u", {"t": "x\n"})
    r = _apply(tmp_path / "u", "--- /dev/null\n+++ b/t/inner\n@@ -0,0 +1 @@\n+y\n")
    assert not r.ok and "'t' is a file, not a folder" in r.output
    assert (tmp_path / "u" / "t").read_text() == "x\n"


def test_a_folder_the_patch_empties_may_become_a_file(tmp_path):
    _tree(tmp_path, {"t/inner": "y\n"})
    # the backups of its files would keep the folder: refused up front, dry run or not
    for dry in (True, False):
        r = _apply(tmp_path, _FOLDER_TO_FILE, dry_run=dry)
        assert not r.ok and "turns the folder 't' into a file" in r.output
        assert _listing(tmp_path) == ["t/inner"]
    r = _apply(tmp_path, _FOLDER_TO_FILE, backup=False)
    assert r.ok, r.output
    assert _listing(tmp_path) == ["t"] and (tmp_path / "t").read_text() == "x\n"
    # a folder holding a file the patch does not delete stays a folder: refused
    _tree(tmp_path / "u", {"t/inner": "y\n", "t/other": "z\n"})
    r = _apply(tmp_path / "u", _FOLDER_TO_FILE, backup=False)
    assert not r.ok and "'t' is not a regular file" in r.output
    assert _listing(tmp_path / "u") == ["t/inner", "t/other"]


def test_dirs_unified_then_apply_carries_a_type_change_both_ways(tmp_path, monkeypatch):
    _tree(tmp_path / "a", {"t": "x\n", "keep": "k\n"})
    _tree(tmp_path / "b", {"t/inner": "y\n", "keep": "k\n"})
    monkeypatch.chdir(tmp_path)
    for old, new in (("a", "b"), ("b", "a")):
        made = cli("diff", "dirs", old, new, "--unified")
        (tmp_path / "u.diff").write_bytes(made.out)
        work = tmp_path / f"w{old}"
        _tree(work, {"t": "x\n", "keep": "k\n"} if old == "a" else {"t/inner": "y\n", "keep": "k\n"})
        r = cli("diff", "apply", "--patch", str(tmp_path / "u.diff"), "--dir", str(work), "--write",
                "--no-backup")
        assert r.rc == 0, r.err
        assert _listing(work) == _listing(tmp_path / new)


_OUTSIDE = "--- a/{0}\n+++ b/{0}\n@@ -1 +1 @@\n-old\n+new\n"


@pytest.mark.parametrize("patch", [_OUTSIDE.format("../victim.txt"), _OUTSIDE.format("sub/../../victim.txt"),
                                   "--- /dev/null\n+++ b/../created.txt\n@@ -0,0 +1 @@\n+new\n",
                                   "--- {0}\n+++ {0}\n@@ -1 +1 @@\n-old\n+new\n"])
def test_an_unconfined_apply_never_follows_a_patched_name_out_of_its_folder(tmp_path, monkeypatch, patch):
    # (the names in a patch are its author's, not the person's who runs it: GNU patch and git apply
    # refuse a name with ".." or an absolute one, wherever they are run)
    work = tmp_path / "work"
    work.mkdir()
    victim = tmp_path / "victim.txt"
    victim.write_text("old\n")
    (work / "p.diff").write_text(patch.format(victim))
    monkeypatch.chdir(work)
    run = cli("diff", "apply", "--patch", "p.diff", "--write", "--no-backup")
    assert run.rc != 0 and "leads out" in run.err + run.text, (run.rc, run.text, run.err)
    assert victim.read_text() == "old\n" and not (tmp_path / "created.txt").exists()
    assert sorted(os.listdir(work)) == ["p.diff"]
    # an absolute folder to apply in, given by the person, is theirs to give
    (work / "q.diff").write_text(_OUTSIDE.format("victim.txt"))
    run = cli("diff", "apply", "--patch", "q.diff", "--dir", str(tmp_path), "--write", "--no-backup")
    assert run.rc == 0 and victim.read_text() == "new\n", (run.text, run.err)


def test_an_old_and_a_new_name_that_both_exist_patch_the_one_gnu_patch_takes(tmp_path):
    # (diff -u main.c.orig main.c, the classic way: both exist, and the shorter name is the file)
    _tree(tmp_path, {"main.c": "one\ntwo\n", "main.c.orig": "one\ntwo\n"})
    r = _apply(tmp_path, "--- main.c.orig\n+++ main.c\n@@ -1,2 +1,2 @@\n one\n-two\n+TWO\n")
    assert r.ok, r.output
    assert (tmp_path / "main.c").read_text() == "one\nTWO\n"
    assert (tmp_path / "main.c.orig").read_text() == "one\ntwo\n"
