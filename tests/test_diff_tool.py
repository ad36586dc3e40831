"""The @diff tool through run_tool and the command line."""

from __future__ import annotations

import os
import stat
import sys

import pytest

from toolmend.diff import unified
from toolmend.tools import run_tool
from toolmend.tools._diff_tool import CONTEXT_MAX, FILE_LIMIT, OUTPUT_LIMIT

POSIX = os.name == "posix"


def call(ws, verb, **args):
    return run_tool("@diff", {"cmd": verb, "args": args}, workspace=str(ws))


def write(path, data):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data.encode() if isinstance(data, str) else data)
    return path


OLD = "".join(f"line {i}\n" for i in range(1, 31))
NEW = OLD.replace("line 5\n", "line five\n").replace("line 25\n", "")


# ---------------------------------------------------------------------------
# files / text

def test_files(tmp_path):
    write(tmp_path / "cfg/old.yaml", OLD)
    write(tmp_path / "cfg/new.yaml", NEW)
    r = call(tmp_path, "files", a="cfg/old.yaml", b="cfg/new.yaml")
    assert r.ok
    # an agent's patch starts with its hunk count, so that a cut copy is refused
    assert r.output == ("# toolmend patch: 2 hunks in 1 file\n" + r.data["diff"]
                        + "# toolmend patch: end\n")
    assert r.data["diff"] == unified(OLD, NEW, 3, "cfg/old.yaml", "cfg/new.yaml")
    assert r.data["diff"].startswith("--- cfg/old.yaml\n+++ cfg/new.yaml\n@@ -2,7 +2,7 @@\n")
    assert r.data["added"] == 1 and r.data["removed"] == 2 and r.data["hunks"] == 2
    assert r.data["budget_exceeded"] is False and r.data["identical"] is False
    r1 = call(tmp_path, "files", a="cfg/old.yaml", b="cfg/new.yaml", context=0)
    assert "@@ -5 +5 @@" in r1.output
    r50 = call(tmp_path, "files", a="cfg/old.yaml", b="cfg/new.yaml", context=CONTEXT_MAX)
    assert r50.ok and r50.data["hunks"] == 1
    # out of range: clamped, with a note (the same rule for every number)
    r51 = call(tmp_path, "files", a="cfg/old.yaml", b="cfg/new.yaml", context=CONTEXT_MAX + 1)
    assert r51.ok and r51.warnings == ("note: context 51 is above the maximum of 50: 50 is used",)
    assert r51.output.startswith(r51.warnings[0] + "\n# toolmend patch: 1 hunk in 1 file\n")
    r_neg = call(tmp_path, "files", a="cfg/old.yaml", b="cfg/new.yaml", context=-1)
    assert r_neg.ok and r_neg.warnings[0] == "note: context -1 is below the minimum of 0: 0 is used"
    assert "--unidiff-zero" in r_neg.warnings[1] and len(r_neg.warnings) == 2  # (context 0: git apply's need)


def test_identical_and_binary_files_in_one_line(tmp_path):
    write(tmp_path / "x.txt", OLD)
    write(tmp_path / "y.txt", OLD)
    r = call(tmp_path, "files", a="x.txt", b="y.txt")
    assert r.ok and r.output == "x.txt and y.txt are identical" and r.data["identical"]
    write(tmp_path / "p.bin", b"\x89PNG\r\n\x1a\n\x00\x00" + bytes(range(256)) * 40)
    write(tmp_path / "q.bin", b"\x89PNG\r\n\x1a\n\x00\x01" + bytes(range(256)) * 40)
    r = call(tmp_path, "files", a="p.bin", b="q.bin")
    assert r.ok and "\n" not in r.output
    assert r.output.startswith("Binary files p.bin and q.bin differ") and r.data["binary"]


def test_size_limit_is_checked_before_reading(tmp_path, monkeypatch):
    big = tmp_path / "big.log"
    with open(big, "wb") as fh:
        fh.truncate(FILE_LIMIT + 1)  # sparse: costs nothing
    write(tmp_path / "small.log", "x\n")
    opened = []
    real_open = open

    def spy(path, *args, **kwargs):
        opened.append(os.fspath(path))
        return real_open(path, *args, **kwargs)

    monkeypatch.setattr("builtins.open", spy)
    r = call(tmp_path, "files", a="big.log", b="small.log")
    assert not r.ok and "4.0 MB" in r.output and "big.log" in r.output
    assert not any(p.endswith("big.log") for p in opened)


def test_non_utf8_text_is_diffed_and_shown_safely(tmp_path):
    write(tmp_path / "l1.txt", "caf\xe9\nend\n".encode("latin-1"))
    write(tmp_path / "l2.txt", "caf\xe8\nend\n".encode("latin-1"))
    r = call(tmp_path, "files", a="l1.txt", b="l2.txt")
    assert r.ok and "not valid UTF-8" in r.output and "-caf\ufffd" in r.output
    r.output.encode("utf-8")  # no lone surrogates


def test_text_verb():
    r = run_tool("@diff", {"cmd": "text", "args": {"a": "one\ntwo", "b": "one\n2"}})
    assert r.ok
    assert r.output == ("# toolmend patch: 1 hunk in 1 file\n"
                        "--- a\n+++ b\n@@ -1,2 +1,2 @@\n one\n-two\n\\ No newline at end of file\n"
                        "+2\n\\ No newline at end of file\n# toolmend patch: end\n")
    same = run_tool("diff", {"cmd": "text", "args": {"a": "x", "b": "x"}})
    assert same.ok and same.output == "the texts are identical"
    # args as (malformed) text go through recovery
    r = run_tool("@diff", "{cmd: 'text', args: {a: 'x\\n', b: 'y\\n'}}")
    assert r.ok and "-x\n+y\n" in r.output
    bad = run_tool("@diff", {"cmd": "text", "args": {"a": "x", "b": "y", "colour": True}})
    assert not bad.ok and "unknown argument" in bad.output
    assert not run_tool("@diff", {"cmd": "nope"}).ok


def test_budget_warning_in_output_and_flag_in_data():
    a = "".join(f"old {i}\n" for i in range(300))
    b = "".join(f"new {i}\n" for i in range(300))
    r = run_tool("@diff", {"cmd": "text", "args": {"a": a, "b": b, "budget": 100}})
    assert r.ok and r.data["budget_exceeded"] is True
    assert r.output.startswith("warning: more than 100 lines differ")
    assert "--- a\n+++ b\n@@ -1,300 +1,300 @@\n" in r.output
    assert not r.data["diff"].startswith("warning")
    r = run_tool("@diff", {"cmd": "text", "args": {"a": a, "b": b}})
    assert r.data["budget_exceeded"] is False and not r.output.startswith("warning")


def test_output_is_capped_with_a_notice(tmp_path):
    a = "".join(f"row {i} " + "x" * 60 + "\n" for i in range(3000))
    b = a.replace("x\n", "y\n")
    write(tmp_path / "a.txt", a)
    write(tmp_path / "b.txt", b)
    r = call(tmp_path, "files", a="a.txt", b="b.txt")
    assert r.ok and len(r.output.encode()) <= OUTPUT_LIMIT
    assert r.data["truncated"] is True and r.truncated
    # one hunk larger than the cap: none of it is shown, and the output says so first
    assert r.output.startswith("# toolmend patch: none of its 1 hunk shown: this patch is incomplete")
    assert "context" in r.output and "@@" not in r.output
    assert len(r.data["diff"]) > OUTPUT_LIMIT  # programs get it whole


def test_paths_stay_inside_the_workspace(tmp_path):
    ws = tmp_path / "ws"
    write(ws / "in.txt", "x\n")
    write(tmp_path / "secret.txt", "s\n")
    for a in ("../secret.txt", str(tmp_path / "secret.txt")):
        r = call(ws, "files", a=a, b="in.txt")
        assert not r.ok and "workspace" in r.output
    if POSIX:
        os.symlink(tmp_path / "secret.txt", ws / "link.txt")
        r = call(ws, "files", a="link.txt", b="in.txt")
        assert not r.ok and "symlink leads outside" in r.output
        r = call(ws, "apply", file="link.txt", patch="@@ -1 +1 @@\n-s\n+t\n", dry_run=False)
        assert not r.ok and (tmp_path / "secret.txt").read_text() == "s\n"
    r = call(ws, "dirs", a="..", b=".")
    assert not r.ok and "outside" in r.output


# ---------------------------------------------------------------------------
# dirs

def test_dirs(tmp_path):
    write(tmp_path / "v1/main.go", "package main\n")
    write(tmp_path / "v2/main.go", "package main\n// edited\n")
    write(tmp_path / "v1/same.go", "x\n")
    write(tmp_path / "v2/same.go", "x\n")
    write(tmp_path / "v1/old.go", "o\n")
    write(tmp_path / "v2/pkg/new.go", "n\n")
    write(tmp_path / "v2/pkg/readme.md", "r\n")
    for skipped in (".git/HEAD", "node_modules/x/index.js", "vendor/lib/a.go"):
        write(tmp_path / "v2" / skipped, "skip me\n")
    r = call(tmp_path, "dirs", a="v1", b="v2")
    assert r.ok
    assert r.data["changed"] == ["main.go"]
    assert r.data["removed"] == ["old.go"]
    assert r.data["added"] == ["pkg/new.go", "pkg/readme.md"]
    assert r.output.splitlines()[1:5] == ["M main.go", "D old.go", "A pkg/new.go", "A pkg/readme.md"]
    # the folders skipped by default are listed so, never compared unless a glob names them
    assert "skip me" not in r.output and [s.split(":")[0] for s in r.data["skipped"]] == \
        [".git", "node_modules", "vendor"]
    named = call(tmp_path, "dirs", a="v1", b="v2", glob="vendor/*")
    assert named.data["added"] == ["vendor/lib/a.go"]
    assert [s.split(":")[0] for s in named.data["skipped"]] == [".git", "node_modules"]
    g = call(tmp_path, "dirs", a="v1", b="v2", glob="*.go")
    assert g.data["added"] == ["pkg/new.go"]
    g = call(tmp_path, "dirs", a="v1", b="v2", glob="pkg/*")
    assert g.data["added"] == ["pkg/new.go", "pkg/readme.md"] and g.data["changed"] == []
    same = call(tmp_path, "dirs", a="v1", b="v1")
    assert same.ok and "no differences" in same.output
    assert not call(tmp_path, "dirs", a="v1/main.go", b="v2").ok
    assert "does not exist" in call(tmp_path, "dirs", a="v9", b="v2").output


def test_dirs_entry_budget_says_where_it_stopped(tmp_path):
    for i in range(1200):
        write(tmp_path / "a" / f"f{i:04d}.txt", "x\n")
        write(tmp_path / "b" / f"g{i:04d}.txt", "x\n")
    r = call(tmp_path, "dirs", a="a", b="b")
    assert r.ok and r.data["complete"] is False and r.data["entries"] == 2000
    assert "stopped after 2,000 entries" in r.output and "glob or a subfolder" in r.output
    assert len(r.output.encode()) <= OUTPUT_LIMIT


@pytest.mark.skipif(not POSIX, reason="symlinks")
def test_dirs_symlinks(tmp_path):
    ws = tmp_path / "ws"
    write(ws / "a/x.txt", "1\n")
    write(ws / "b/x.txt", "1\n")
    write(ws / "shared/s.txt", "s\n")
    write(tmp_path / "outside/o.txt", "o\n")
    os.symlink(tmp_path / "outside", ws / "b/out")
    os.symlink(ws / "shared", ws / "b/inside")
    os.symlink(ws / "b", ws / "b/loop")
    r = call(ws, "dirs", a="a", b="b")
    assert r.ok
    assert "inside/s.txt" in r.data["added"]
    assert not any(p.startswith("out/") for p in r.data["added"])
    assert any("out: a symlink that leads outside" in s for s in r.data["skipped"])
    assert r.data["complete"]


@pytest.mark.skipif(not POSIX, reason="symlinks")
@pytest.mark.parametrize("linked", ["x1", "x2"])
def test_dirs_walks_every_link_to_a_folder_as_diff_r_does(tmp_path, linked):
    real = "x2" if linked == "x1" else "x1"
    for d in ("a", "b", "c"):
        write(tmp_path / real / d / "f", "same\n")
    write(tmp_path / linked / "a/f", "same\n")
    os.symlink("a", tmp_path / linked / "b")
    os.symlink("a", tmp_path / linked / "c")
    r = call(tmp_path, "dirs", a="x1", b="x2", unified=True)
    assert r.ok and (r.data["added"], r.data["removed"], r.data["changed"]) == ([], [], [])
    assert r.data["skipped"] == [] and r.data["diff"] == "" and r.data["files_compared"] == 3
    write(tmp_path / real / "c/f", "other\n")
    r = call(tmp_path, "dirs", a="x1", b="x2", unified=True)
    assert r.ok and (r.data["added"], r.data["removed"], r.data["changed"]) == ([], [], ["c/f"])


@pytest.mark.skipif(not POSIX, reason="symlinks")
def test_dirs_leaves_a_symlink_loop_out_on_both_sides(tmp_path):
    write(tmp_path / "x1/f", "same\n")
    write(tmp_path / "x2/f", "same\n")
    write(tmp_path / "x1/loop/g", "only here\n")
    os.symlink(".", tmp_path / "x2/loop")
    r = call(tmp_path, "dirs", a="x1", b="x2", unified=True)
    assert r.ok and (r.data["added"], r.data["removed"], r.data["changed"]) == ([], [], [])
    assert r.data["unreadable"] == ["loop: a symlink to a folder it is in (a loop), not walked"]
    assert r.data["diff"] == "" and any("incomplete" in w for w in r.warnings)


# ---------------------------------------------------------------------------
# apply

def test_apply_is_a_dry_run_by_default(tmp_path):
    f = write(tmp_path / "main.txt", OLD)
    patch = unified(OLD, NEW, a_label="a/main.txt", b_label="b/main.txt")
    r = call(tmp_path, "apply", file="main.txt", patch=patch)
    assert r.ok and r.output.startswith("dry run: the patch applies to main.txt: 2 hunks, +1 -2")
    assert "nothing written" in r.output
    assert r.data["dry_run"] is True and r.data["written"] is False
    assert f.read_text() == OLD and sorted(os.listdir(tmp_path)) == ["main.txt"]


@pytest.mark.skipif(not POSIX, reason="a backslash is a separator on Windows")
def test_a_backslash_in_a_name_is_part_of_the_name(tmp_path):
    """As GNU patch and git apply read it: never a folder separator, which
    would patch (or create) another file than the one named."""
    write(tmp_path / "back\\slash.txt", OLD)
    patch = unified(OLD, NEW, a_label="a/back\\slash.txt", b_label="b/back\\slash.txt")
    r = call(tmp_path, "apply", patch=patch, dry_run=False)
    assert r.ok, r.output
    assert (tmp_path / "back\\slash.txt").read_text() == NEW and not (tmp_path / "back").exists()
    made = unified("", "new\n", a_label="/dev/null", b_label="x\\y")
    r = call(tmp_path, "apply", patch=made, dry_run=False)
    assert r.ok and (tmp_path / "x\\y").read_text() == "new\n" and not (tmp_path / "x").exists()


def test_apply_writes_backup_then_replaces_atomically(tmp_path):
    f = write(tmp_path / "src/main.txt", OLD)
    if POSIX:
        os.chmod(f, 0o640)
    patch = unified(OLD, NEW, a_label="a/src/main.txt", b_label="b/src/main.txt")
    r = call(tmp_path, "apply", file="src/main.txt", patch=patch, dry_run=False)
    assert r.ok and r.data["written"] is True and r.data["backup"] == "src/main.txt.bak"
    assert "the original is in src/main.txt.bak" in r.output
    assert f.read_text() == NEW
    assert (tmp_path / "src/main.txt.bak").read_text() == OLD
    assert sorted(os.listdir(tmp_path / "src")) == ["main.txt", "main.txt.bak"]  # no temp left
    if POSIX:
        assert stat.S_IMODE(os.stat(f).st_mode) == 0o640
    # applying it again is refused and leaves everything as it is
    again = call(tmp_path, "apply", file="src/main.txt", patch=patch, dry_run=False)
    assert not again.ok and "applied already" in again.output
    assert f.read_text() == NEW and (tmp_path / "src/main.txt.bak").read_text() == OLD


def test_apply_never_overwrites_an_older_backup(tmp_path):
    f = write(tmp_path / "x.txt", "a\n")
    write(tmp_path / "x.txt.bak", "someone's own backup\n")
    r = call(tmp_path, "apply", file="x.txt", patch="@@ -1 +1 @@\n-a\n+b\n", dry_run="false")
    assert r.ok and r.data["backup"] == "x.txt.bak.1"
    assert (tmp_path / "x.txt.bak").read_text() == "someone's own backup\n"
    assert (tmp_path / "x.txt.bak.1").read_text() == "a\n" and f.read_text() == "b\n"


@pytest.mark.skipif(not POSIX, reason="permission bits")
def test_apply_keeps_an_executable_bit(tmp_path):
    f = write(tmp_path / "run.sh", "#!/bin/sh\necho a\n")
    os.chmod(f, 0o755)
    r = call(tmp_path, "apply", file="run.sh", patch="@@ -2 +2 @@\n-echo a\n+echo b\n", dry_run=False)
    assert r.ok and stat.S_IMODE(os.stat(f).st_mode) == 0o755
    assert f.read_text() == "#!/bin/sh\necho b\n"


def test_apply_refusal_names_the_place_and_changes_nothing(tmp_path):
    f = write(tmp_path / "m.txt", OLD)
    patch = unified(OLD, NEW).replace(" line 3\n", " line three\n")
    r = call(tmp_path, "apply", file="m.txt", patch=patch, dry_run=False)
    assert not r.ok
    assert r.output.startswith("error: m.txt: hunk 1 (@@ -2,7 +2,7 @@) does not match at line 3")
    assert r.data == {"file": "m.txt", "hunk": 1, "line": 3, "expected": "line three",
                      "actual": "line 3", "reason": "mismatch"}
    assert f.read_text() == OLD and os.listdir(tmp_path) == ["m.txt"]


def test_apply_refuses_a_patch_for_another_file(tmp_path):
    write(tmp_path / "m.txt", OLD)
    patch = unified(OLD, NEW, a_label="a/other.txt", b_label="b/other.txt")
    r = call(tmp_path, "apply", file="m.txt", patch=patch)
    assert not r.ok and "not for 'm.txt'" in r.output


def test_apply_crlf_bom_and_no_final_newline(tmp_path):
    old = "\ufeffone\r\ntwo\r\nthree"
    f = write(tmp_path / "w.txt", old.encode("utf-8"))
    patch = "@@ -1,3 +1,3 @@\n one\n-two\n+TWO\n three\n\\ No newline at end of file\n"
    r = call(tmp_path, "apply", file="w.txt", patch=patch, dry_run=False)
    assert r.ok, r.output
    assert f.read_bytes() == "\ufeffone\r\nTWO\r\nthree".encode("utf-8")
    assert (tmp_path / "w.txt.bak").read_bytes() == old.encode("utf-8")


def test_apply_creates_a_missing_file(tmp_path):
    patch = "--- /dev/null\n+++ b/pkg/new.go\n@@ -0,0 +1,2 @@\n+package pkg\n+\n"
    r = call(tmp_path, "apply", file="pkg/new.go", patch=patch)
    assert r.ok and r.output.startswith("dry run: the patch creates pkg/new.go (2 lines)")
    assert not (tmp_path / "pkg").exists()
    r = call(tmp_path, "apply", file="pkg/new.go", patch=patch, dry_run=False)
    assert r.ok and r.data["created"] and r.data["backup"] is None
    assert (tmp_path / "pkg/new.go").read_text() == "package pkg\n\n"
    missing = call(tmp_path, "apply", file="nope.txt", patch="@@ -1 +1 @@\n-a\n+b\n")
    assert not missing.ok and "does not exist" in missing.output


def test_apply_to_a_file_that_becomes_empty(tmp_path):
    f = write(tmp_path / "e.txt", "a\nb\n")
    r = call(tmp_path, "apply", file="e.txt", patch=unified("a\nb\n", ""), dry_run=False)
    assert r.ok and f.exists() and f.read_text() == ""
    write(tmp_path / "g.txt", "x\n")
    r = call(tmp_path, "apply", file="g.txt", dry_run=False,
             patch="--- a/g.txt\n+++ /dev/null\n@@ -1 +0,0 @@\n-x\n")
    # a deletion patch deletes the file, after the backup
    assert r.ok and r.output.startswith("deleted g.txt (1 line); the original is in g.txt.bak")
    assert not (tmp_path / "g.txt").exists() and r.data["deleted"]
    assert (tmp_path / "g.txt.bak").read_text() == "x\n"


def test_apply_refuses_binary_and_oversized_input(tmp_path):
    write(tmp_path / "b.bin", b"a\x00b\n")
    r = call(tmp_path, "apply", file="b.bin", patch="@@ -1 +1 @@\n-a\n+b\n")
    assert not r.ok and "binary" in r.output
    write(tmp_path / "t.txt", "a\n")
    assert not call(tmp_path, "apply", file="t.txt", patch="").ok
    assert "no hunks" in call(tmp_path, "apply", file="t.txt", patch="hello").output


# ---------------------------------------------------------------------------
# command line

def test_package_surface_in_a_fresh_interpreter():
    import subprocess

    code = ("import sys, toolmend\n"
            "assert 'toolmend.diff' not in sys.modules\n"
            "r = toolmend.run_tool('@diff', {'cmd': 'text', 'args': {'a': 'x\\n', 'b': 'y\\n'}})\n"
            "assert r.ok and isinstance(r, toolmend.ToolResult)\n"
            "assert toolmend.diff.unified('x\\n', 'y\\n') == r.data['diff']\n"
            "assert toolmend.diff.apply('x\\n', r.output) == 'y\\n'\n")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr


def test_apply_refuses_when_the_file_changes_meanwhile(tmp_path, monkeypatch):
    import toolmend.tools._diff_apply as verbs

    f = write(tmp_path / "r.txt", "a\n")
    real_backup = verbs.write_backup

    def racing(path, data, mode):
        name = real_backup(path, data, mode)
        with open(path, "a") as fh:  # another writer, between our read and our write
            fh.write("someone else\n")
        return name

    monkeypatch.setattr(verbs, "write_backup", racing)
    r = call(tmp_path, "apply", file="r.txt", patch="@@ -1 +1 @@\n-a\n+b\n", dry_run=False)
    assert not r.ok and "changed while" in r.output
    assert f.read_text() == "a\nsomeone else\n"


def test_an_apply_that_fails_midway_puts_back_every_file_and_drops_its_backups(tmp_path, monkeypatch):
    import toolmend.tools._diff_apply as apply_mod

    a = write(tmp_path / "a.txt", OLD)
    b = write(tmp_path / "sub/b.txt", OLD)
    patch = (unified(OLD, NEW, a_label="a/a.txt", b_label="b/a.txt")
             + unified(OLD, NEW, a_label="a/sub/b.txt", b_label="b/sub/b.txt"))
    real = apply_mod.write_atomic

    def failing(path, data, *rest):
        if path.endswith("b.txt") and data != OLD.encode():
            raise PermissionError(13, "Permission denied")
        real(path, data, *rest)

    monkeypatch.setattr(apply_mod, "write_atomic", failing)
    r = call(tmp_path, "apply", patch=patch, dry_run=False)
    assert not r.ok and "could not be written" in r.output and "every file is as it was" in r.output
    assert a.read_text() == OLD and b.read_text() == OLD
    # the copies of the originals went with the changes: a later apply starts clean
    assert sorted(os.listdir(tmp_path)) == ["a.txt", "sub"] and os.listdir(tmp_path / "sub") == ["b.txt"]


def test_an_apply_that_fails_midway_keeps_a_backup_it_did_not_make(tmp_path, monkeypatch):
    # a.txt.bak already holds a.txt's bytes (the user's own copy, or an earlier apply's): the
    # apply reuses it, and putting things back must not remove it with the copies it made
    import toolmend.tools._diff_apply as apply_mod

    a = write(tmp_path / "a.txt", OLD)
    own = write(tmp_path / "a.txt.bak", OLD)
    write(tmp_path / "sub/b.txt", OLD)
    patch = (unified(OLD, NEW, a_label="a/a.txt", b_label="b/a.txt")
             + unified(OLD, NEW, a_label="a/sub/b.txt", b_label="b/sub/b.txt"))
    real = apply_mod.write_atomic

    def failing(path, data, *rest):
        if path.endswith("b.txt") and data != OLD.encode():
            raise PermissionError(13, "Permission denied")
        real(path, data, *rest)

    monkeypatch.setattr(apply_mod, "write_atomic", failing)
    r = call(tmp_path, "apply", patch=patch, dry_run=False)
    assert not r.ok and "every file is as it was" in r.output
    assert a.read_text() == OLD and own.read_text() == OLD
    assert sorted(os.listdir(tmp_path)) == ["a.txt", "a.txt.bak", "sub"]
    assert os.listdir(tmp_path / "sub") == ["b.txt"]


def test_a_patch_with_no_context_says_what_git_apply_needs(tmp_path):
    # (git apply without --unidiff-zero puts such a hunk at the end of the file, or refuses it)
    write(tmp_path / "a.txt", "".join(f"l{n}\n" for n in range(20)))
    lines = [f"l{n}\n" for n in range(20)]
    write(tmp_path / "b.txt", "".join(lines[:10]) + "NEW\n" + "".join(lines[10:]))
    bare = call(tmp_path, "files", a="a.txt", b="b.txt", context=0)
    assert bare.ok and any("--unidiff-zero" in w for w in bare.warnings)
    assert not any("--unidiff-zero" in w for w in call(tmp_path, "files", a="a.txt", b="b.txt").warnings)
