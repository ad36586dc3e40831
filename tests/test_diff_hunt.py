"""Patches that must be refused rather than applied: a BOM the patch does not show, and a
patch file cut inside its last line."""

from __future__ import annotations

import os
import shutil
import subprocess

import pytest
from clirun import cli

from toolmend.diff import PatchError, apply, parse_patch, patch_bytes
from toolmend.tools import run_verb

BOM = b"\xef\xbb\xbf"


def _patched(data: bytes, patch: str) -> bytes:
    return patch_bytes(data, parse_patch(patch)[0]).data


# ---------------------------------------------------------------------------
# lines added before line 1 of a file that starts with a BOM the patch does not show


@pytest.mark.parametrize("data", [BOM + b"import x\n", BOM + b"\n", BOM])
def test_lines_added_at_the_top_of_a_bom_file_are_refused_not_put_before_the_bom(data):
    # (before, they went before the BOM: '# head\n\ufeffimport x\n', a file that no longer
    # starts with its BOM and holds U+FEFF in line 2)
    with pytest.raises(PatchError, match="BOM") as caught:
        _patched(data, "--- a/f\n+++ b/f\n@@ -0,0 +1 @@\n+# head\n")
    assert caught.value.hunk == 1 and caught.value.line == 1
    # where one reading only matches, it is applied: context after the lines puts them after
    # the BOM, and so does a new last line without a newline, which must end the file
    assert _patched(BOM + b"import x\n", "@@ -1 +1,2 @@\n+# head\n import x\n") == (
        BOM + b"# head\nimport x\n")
    assert _patched(BOM, "@@ -0,0 +1 @@\n+x\n\\ No newline at end of file\n") == BOM + b"x"
    # and a patch that shows the BOM, on either side, means it as it is
    assert _patched(BOM + b"a\n", "@@ -0,0 +1 @@\n+\ufeffnew\n") == BOM + b"new\n" + BOM + b"a\n"


def test_the_tool_refuses_a_no_context_insertion_into_a_bom_file_and_writes_nothing(tmp_path):
    (tmp_path / "f.py").write_bytes(BOM + b"import x\n")
    r = run_verb("diff", "apply", {"file": "f.py", "patch": "@@ -0,0 +1 @@\n+# head\n",
                                   "dry_run": False}, str(tmp_path))
    assert not r.ok and "BOM" in r.output
    assert (tmp_path / "f.py").read_bytes() == BOM + b"import x\n"
    assert not (tmp_path / "f.py.bak").exists()


# ---------------------------------------------------------------------------
# a patch file (bytes) whose last line has no newline was cut, maybe inside that line


CUT = [
    # the added line cut short: applied, the file would get "new cont"
    (b"x\n", b"--- a/f\n+++ b/f\n@@ -1 +1 @@\n-x\n+new cont", "'+new cont' has no newline"),
    # a rename whose new name was cut short
    (b"x\n", b"diff --git a/f b/foo.txt\nsimilarity index 100%\nrename from f\nrename to fo",
     "'rename to fo' has no newline"),
    # cut between the CR and the LF of a patch that went through a CRLF conversion
    (b"x\n", b"--- a/f\r\n+++ b/f\r\n@@ -1 +1 @@\r\n-x\r\n+new content\r", "has no newline"),
]


@pytest.mark.parametrize("before, patch, says", CUT)
def test_a_patch_file_cut_inside_its_last_line_is_refused(tmp_path, before, patch, says):
    (tmp_path / "f").write_bytes(before)
    r = run_verb("diff", "apply", {"patch": patch, "dry_run": False}, str(tmp_path))
    assert not r.ok and r.data["reason"] == "incomplete" and says in r.output
    assert sorted(os.listdir(tmp_path)) == ["f"] and (tmp_path / "f").read_bytes() == before
    git = shutil.which("git")
    if git is not None:  # git apply refuses it too
        (tmp_path / "p.diff").write_bytes(patch)
        env = dict(os.environ, GIT_CONFIG_NOSYSTEM="1", GIT_CONFIG_GLOBAL=os.devnull,
                   HOME=str(tmp_path), LC_ALL="C")
        done = subprocess.run([git, "apply", "--check", "p.diff"], cwd=tmp_path,
                              capture_output=True, env=env)
        assert done.returncode != 0
    # the whole patch applies, and so does text an agent wrote by hand without a final
    # newline (text cut off inside a tool call is caught before it gets here)
    whole = patch + b"\n"
    assert run_verb("diff", "apply", {"patch": whole, "dry_run": True}, str(tmp_path)).ok
    text = patch.decode()
    assert run_verb("diff", "apply", {"patch": text, "dry_run": True}, str(tmp_path)).ok


def test_the_command_line_refuses_a_cut_patch_file(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "f").write_bytes(b"x\n")
    (tmp_path / "p.diff").write_bytes(b"--- a/f\n+++ b/f\n@@ -1 +1 @@\n-x\n+new cont")
    r = cli("diff", "apply", "--file", "f", "--patch", "p.diff", "--write")
    assert r.rc == 1 and "no newline" in r.err
    r = cli("diff", "apply", "--file", "f", "--patch", "-", "--write",
            stdin=b"--- a/f\n+++ b/f\n@@ -1 +1 @@\n-x\n+new cont")
    assert r.rc == 1 and "no newline" in r.err
    assert (tmp_path / "f").read_bytes() == b"x\n" and not (tmp_path / "f.bak").exists()
    # a "\\ No newline" marker cut short says nothing of the file
    (tmp_path / "p.diff").write_bytes(b"--- a/f\n+++ b/f\n@@ -1 +1 @@\n-x\n+y\n\\ No newline")
    r = cli("diff", "apply", "--file", "f", "--patch", "p.diff", "--write", "--no-backup")
    assert r.rc == 0 and (tmp_path / "f").read_bytes() == b"y"


# ---------------------------------------------------------------------------
# lines only added to a CRLF file, ending with LF alone, with nothing of the file to match


@pytest.mark.parametrize("text, patch", [
    ("a\r\nb\r\n", "@@ -1,0 +2 @@\n+new\n"),
    ("a\r\nb\r\n", "--- a/f\n+++ b/f\n@@ -0,0 +1 @@\n+top\n"),
    # the old last line has no newline, so it matches in both readings
    ("a\r\nb", "@@ -2 +2,2 @@\n-b\n\\ No newline at end of file\n+b\n+c\n\\ No newline at end of file\n"),
])
def test_lines_only_added_to_a_crlf_file_with_lf_endings_are_refused(text, patch):
    # (before, they were written with LF: 'a\r\nnew\nb\r\n', a file that mixes the two)
    with pytest.raises(PatchError, match="CRLF") as caught:
        apply(text, patch)
    assert caught.value.hunk == 1
    # with a line of the file to match, the patch's lines lost their CR: they get CRLF
    assert apply("a\r\nb\r\n", "@@ -1,2 +1,3 @@\n a\n+new\n b\n") == "a\r\nnew\r\nb\r\n"
    # lines that carry their CR, or a last line without a newline, are added as they are
    assert apply("a\r\nb\r\n", "@@ -1,0 +2 @@\n+new\r\n") == "a\r\nnew\r\nb\r\n"
    assert apply("a\r\nb\r\n", "@@ -2,0 +3 @@\n+new\n\\ No newline at end of file\n") == (
        "a\r\nb\r\nnew")
    # an LF file takes them as they are
    assert apply("a\nb\n", "@@ -1,0 +2 @@\n+new\n") == "a\nnew\nb\n"


def test_the_tool_refuses_lf_lines_only_added_to_a_crlf_file(tmp_path):
    (tmp_path / "w.bat").write_bytes(b"@echo off\r\necho hi\r\n")
    r = run_verb("diff", "apply", {"file": "w.bat", "patch": "@@ -1,0 +2 @@\n+rem note\n",
                                   "dry_run": False}, str(tmp_path))
    assert not r.ok and "CRLF" in r.output
    assert (tmp_path / "w.bat").read_bytes() == b"@echo off\r\necho hi\r\n"
    assert sorted(os.listdir(tmp_path)) == ["w.bat"]


# ---------------------------------------------------------------------------
# a name in a .git folder: a hook or the config there runs commands


@pytest.mark.parametrize("name", [".git/hooks/pre-commit", "sub/.git/hooks/post-checkout",
                                  ".GIT/hooks/pre-commit", ".git./hooks/pre-commit",
                                  "git~1/hooks/pre-commit"])
def test_a_patch_that_writes_into_a_git_folder_is_refused(tmp_path, name):
    hooks = tmp_path / os.path.dirname(name)
    hooks.mkdir(parents=True)
    patch = (f"diff --git a/{name} b/{name}\nnew file mode 100755\n--- /dev/null\n"
             f"+++ b/{name}\n@@ -0,0 +1,2 @@\n+#!/bin/sh\n+echo ran\n")
    r = run_verb("diff", "apply", {"patch": patch, "dry_run": False}, str(tmp_path))
    assert not r.ok and "'.git' folder" in r.output
    assert os.listdir(hooks) == []
    git = shutil.which("git")
    if git is not None and name.startswith(".git/"):  # git apply refuses it too
        (tmp_path / "p.diff").write_text(patch)
        env = dict(os.environ, GIT_CONFIG_NOSYSTEM="1", GIT_CONFIG_GLOBAL=os.devnull,
                   HOME=str(tmp_path), LC_ALL="C")
        done = subprocess.run([git, "apply", "--check", "p.diff"], cwd=tmp_path,
                              capture_output=True, env=env)
        assert done.returncode != 0 and b"invalid path" in done.stderr


def test_a_patch_that_edits_a_git_config_is_refused_and_a_dot_git_like_name_is_not(tmp_path):
    (tmp_path / ".git").mkdir()
    (tmp_path / ".git" / "config").write_text("[core]\n\tbare = false\n")
    patch = ("--- a/.git/config\n+++ b/.git/config\n@@ -1,2 +1,3 @@\n [core]\n"
             "+\thooksPath = /tmp/elsewhere\n \tbare = false\n")
    r = run_verb("diff", "apply", {"patch": patch, "dry_run": False}, str(tmp_path))
    assert not r.ok and "'.git' folder" in r.output
    assert (tmp_path / ".git" / "config").read_text() == "[core]\n\tbare = false\n"
    (tmp_path / ".gitignore").write_text("a\n")
    (tmp_path / "x.git").write_text("a\n")
    for name in (".gitignore", "x.git"):
        patch = f"--- a/{name}\n+++ b/{name}\n@@ -1 +1 @@\n-a\n+b\n"
        r = run_verb("diff", "apply", {"patch": patch, "dry_run": False, "backup": False},
                     str(tmp_path))
        assert r.ok and (tmp_path / name).read_text() == "b\n"
