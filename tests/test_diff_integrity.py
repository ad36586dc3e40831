"""A cut patch is never applied, and every byte survives a diff."""

from __future__ import annotations

import glob
import os
import shutil
import subprocess

import pytest
from clirun import cli
from hypothesis import HealthCheck, given, settings, strategies as st

from toolmend.diff import PatchError, apply
from toolmend.tools import run_tool


def _pair_with_200_changes() -> tuple[str, str]:
    old = "".join(f"line {i:05d} some content here\n" for i in range(2000))
    new = "".join(f"line {i:05d} some content here{' changed' if i % 10 == 5 else ''}\n"
                  for i in range(2000))
    return old, new


def test_the_cut_diff_of_the_report_is_refused_and_the_file_untouched(tmp_path):
    old, new = _pair_with_200_changes()
    (tmp_path / "a.txt").write_text(old)
    (tmp_path / "b.txt").write_text(new)
    diff = run_tool("@diff", {"cmd": "files", "args": {"a": "a.txt", "b": "b.txt"}},
                    workspace=str(tmp_path))
    assert diff.ok and diff.truncated and diff.data["hunks"] == 200
    first = diff.output.split("\n", 1)[0]
    assert first.startswith("# toolmend patch: hunks 1-") and first.endswith(
        " of 200 shown: this patch is incomplete")
    applied = run_tool("@diff", {"cmd": "apply", "args": {"file": "a.txt", "patch": diff.output,
                                                          "dry_run": False}},
                       workspace=str(tmp_path))
    assert not applied.ok and applied.data["reason"] == "incomplete"
    assert "incomplete" in applied.output
    assert (tmp_path / "a.txt").read_text() == old and not (tmp_path / "a.txt.bak").exists()
    # what the agent should do instead: the whole patch, from data
    whole = run_tool("@diff", {"cmd": "apply", "args": {"file": "a.txt", "patch": diff.data["diff"],
                                                        "dry_run": False}},
                     workspace=str(tmp_path))
    assert whole.ok and (tmp_path / "a.txt").read_text() == new


def test_the_pipeline_of_the_readme_applies_the_whole_patch(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    old, new = _pair_with_200_changes()
    (tmp_path / "a.txt").write_text(old)
    (tmp_path / "b.txt").write_text(new)
    patch = cli("diff", "files", "--a", "a.txt", "--b", "b.txt")
    assert patch.rc == 1 and patch.out.count(b"\n@@ -") == 200
    r = cli("diff", "apply", "--file", "a.txt", "--patch", "-", "--write", stdin=patch.out)
    assert r.rc == 0 and (tmp_path / "a.txt").read_text() == new
    # a patch cut on its way is refused: the last hunk is short of its count
    (tmp_path / "a.txt").write_text(old)
    cut = patch.out[: len(patch.out) // 2]
    r = cli("diff", "apply", "--file", "a.txt", "--patch", "-", "--write", stdin=cut)
    assert r.rc == 1 and (tmp_path / "a.txt").read_text() == old


lines = st.lists(st.sampled_from(["a\n", "b\n", "c\n", "d\n", "", "e", "é\n", "\r\n"]),
                 max_size=30).map("".join)


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(a=lines, b=lines, limit=st.sampled_from([None, 660, 700, 760]))
def test_every_cut_of_the_diff_output_is_refused_or_whole(a, b, limit):
    """For any two texts, every prefix of what @diff text hands an agent is
    either refused by apply or gives exactly the new text."""
    from toolmend.tools import run_verb

    if limit is None:
        out = run_tool("@diff", {"cmd": "text", "args": {"a": a, "b": b}}).output
    else:
        out = run_verb("diff", "text", {"a": a, "b": b, "context": 1}, limit=limit).output
    for cut in range(1, len(out) + 1):
        prefix = out[:cut]
        try:
            result = apply(a, prefix)
        except PatchError:
            continue
        assert result == b, (a, b, prefix)


def test_a_patch_that_says_nothing_of_its_hunks_still_applies():
    # agents write patches by hand: no count line, no final newline
    assert apply("a\nb\n", "@@ -1,2 +1,2 @@\n a\n-b\n+c") == "a\nc\n"


# ---------------------------------------------------------------------------
# patches for several files, deletions, trees

def _tree(root, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


def test_dirs_unified_and_apply_take_a_tree_to_the_other(tmp_path):
    _tree(tmp_path / "v1", {"keep.txt": "same\n", "edit.txt": "one\ntwo\n", "gone.txt": "bye\n",
                            "sub/deep.txt": "x\n", "__pycache__/m.pyc": "junk\n"})
    _tree(tmp_path / "v2", {"keep.txt": "same\n", "edit.txt": "one\n2\n", "new.txt": "hello\n",
                            "sub/deep.txt": "y\n", "__pycache__/m.pyc": "other junk\n"})
    r = run_tool("@diff", {"cmd": "dirs", "args": {"a": "v1", "b": "v2", "unified": True}},
                 workspace=str(tmp_path))
    assert r.ok and r.data["files"] == 4 and "__pycache__" not in r.data["diff"]
    assert [s.split(":")[0] for s in r.data["skipped"]] == ["__pycache__"]  # (listed, never compared)
    dry = run_tool("@diff", {"cmd": "apply", "args": {"patch": r.output, "dir": "v1"}},
                   workspace=str(tmp_path))
    assert dry.ok and "4 files" in dry.output and (tmp_path / "v1/gone.txt").exists()
    done = run_tool("@diff", {"cmd": "apply", "args": {"patch": r.output, "dir": "v1",
                                                       "dry_run": False}},
                    workspace=str(tmp_path))
    assert done.ok, done.output
    for name in ("keep.txt", "edit.txt", "new.txt", "sub/deep.txt"):
        assert (tmp_path / "v1" / name).read_text() == (tmp_path / "v2" / name).read_text()
    assert not (tmp_path / "v1/gone.txt").exists()
    assert (tmp_path / "v1/gone.txt.bak").read_text() == "bye\n"
    assert (tmp_path / "v1/edit.txt.bak").read_text() == "one\ntwo\n"


def test_a_multi_file_patch_is_all_or_nothing(tmp_path):
    _tree(tmp_path, {"x.txt": "1\n2\n", "y.txt": "a\nb\n"})
    patch = ("diff --git a/x.txt b/x.txt\n--- a/x.txt\n+++ b/x.txt\n@@ -1,2 +1,2 @@\n 1\n-2\n+two\n"
             "diff --git a/y.txt b/y.txt\n--- a/y.txt\n+++ b/y.txt\n@@ -1,2 +1,2 @@\n a\n-B\n+bee\n")
    r = run_tool("@diff", {"cmd": "apply", "args": {"patch": patch, "dry_run": False}},
                 workspace=str(tmp_path))
    assert not r.ok and r.data["file"] == "y.txt" and "nothing was written" in r.output
    assert (tmp_path / "x.txt").read_text() == "1\n2\n" and not (tmp_path / "x.txt.bak").exists()
    good = patch.replace("-B\n", "-b\n")
    r = run_tool("@diff", {"cmd": "apply", "args": {"patch": good, "dry_run": False}},
                 workspace=str(tmp_path))
    assert r.ok and (tmp_path / "x.txt").read_text() == "1\ntwo\n"
    assert (tmp_path / "y.txt").read_text() == "a\nbee\n"
    assert r.data["written"] and [f["backup"] for f in r.data["files"]] == ["x.txt.bak", "y.txt.bak"]


def test_a_failed_write_puts_back_the_files_already_written(tmp_path, monkeypatch):
    import toolmend.tools._diff_apply as applier

    _tree(tmp_path, {"x.txt": "1\n", "y.txt": "a\n"})
    patch = ("--- a/x.txt\n+++ b/x.txt\n@@ -1 +1 @@\n-1\n+one\n"
             "--- a/y.txt\n+++ b/y.txt\n@@ -1 +1 @@\n-a\n+ay\n")
    real = applier.write_atomic
    calls = []

    def full_disk(path, data, mode=None, owner=None):
        calls.append(path)
        if path.endswith("y.txt"):
            raise OSError(28, "No space left on device")
        return real(path, data, mode, owner)

    monkeypatch.setattr(applier, "write_atomic", full_disk)
    r = run_tool("@diff", {"cmd": "apply", "args": {"patch": patch, "dry_run": False}},
                 workspace=str(tmp_path))
    assert not r.ok and "No space left on device" in r.output and "as it was" in r.output
    assert (tmp_path / "x.txt").read_text() == "1\n" and (tmp_path / "y.txt").read_text() == "a\n"
    leftovers = [n for n in os.listdir(tmp_path) if n.endswith(".tmp")]
    assert not leftovers


def test_binary_changes_in_a_patch_are_refused():
    with pytest.raises(PatchError) as info:
        apply("a\n", "--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\nBinary files a/y and b/y differ\n")
    assert info.value.reason == "binary"


# ---------------------------------------------------------------------------
# real file pairs through the command line, with GNU patch and git apply

def _other_stdlib_pairs(limit: int = 60) -> list[tuple[str, bytes, bytes]]:
    """(name, old, new) of stdlib modules that changed between two installed
    Pythons; a tenth of them re-encoded as Latin-1."""
    roots = sorted(glob.glob(os.path.expanduser("~/.pyenv/versions/3.1[0-9]*/lib/python3.*")))
    pairs: list[tuple[str, bytes, bytes]] = []
    for old_root, new_root in zip(roots, roots[1:], strict=False):
        for path in sorted(glob.glob(os.path.join(old_root, "*.py"))):
            name = os.path.basename(path)
            other = os.path.join(new_root, name)
            if not os.path.exists(other) or os.path.getsize(path) > 300_000:
                continue
            with open(path, "rb") as fa, open(other, "rb") as fb:
                a, b = fa.read(), fb.read()
            if a != b and b"\0" not in a + b:
                pairs.append((f"{os.path.basename(new_root)}-{name}", a, b))
            if len(pairs) >= limit:
                return pairs
    return pairs


@pytest.fixture(scope="module")
def real_pairs():
    pairs = _other_stdlib_pairs()
    if len(pairs) < 50:
        from diffcorpus import make_pairs

        pairs += [(p.name.replace("/", "_"), p.a.encode(), p.b.encode())
                  for p in make_pairs(60 - len(pairs)) if p.a != p.b]
    latin = []
    for name, a, b in pairs[:8]:
        text_a = a.decode("utf-8", "replace").encode("latin-1", "replace") + "café\n".encode("latin-1")
        text_b = b.decode("utf-8", "replace").encode("latin-1", "replace") + "naïve\n".encode("latin-1")
        latin.append((f"latin1-{name}", text_a, text_b))
    return pairs + latin


def _write_trees(root, pairs) -> None:
    for side, index in (("a", 1), ("b", 2)):
        os.makedirs(root / side, exist_ok=True)
        for item in pairs:
            (root / side / item[0]).write_bytes(item[index])


def _cli_patch(root, pairs) -> bytes:
    chunks = []
    for name, _, _ in pairs:
        r = cli("diff", "files", "--a", str(root / "a" / name), "--b", str(root / "b" / name))
        assert r.rc == 1, r.err
        body = r.out.split(b"\n", 2)[2]
        chunks.append(b"--- a/" + name.encode() + b"\n+++ b/" + name.encode() + b"\n" + body)
    return b"".join(chunks)


@pytest.mark.parametrize("tool", ["patch", "git"])
def test_real_pairs_through_the_cli_reproduce_with_gnu_tools(real_pairs, tmp_path, tool):
    exe = shutil.which(tool)
    if exe is None:
        pytest.skip(f"{tool} is not installed")
    assert len(real_pairs) >= 50
    assert any(name.startswith("latin1-") for name, _, _ in real_pairs)
    _write_trees(tmp_path, real_pairs)
    (tmp_path / "all.diff").write_bytes(_cli_patch(tmp_path, real_pairs))
    work = tmp_path / "w"
    shutil.copytree(tmp_path / "a", work)
    if tool == "patch":
        cmd = [exe, "-p1", "--batch", "--fuzz=0", "--binary", "-i", str(tmp_path / "all.diff")]
    else:
        cmd = [exe, "apply", "-p1", "--whitespace=nowarn", str(tmp_path / "all.diff")]
    env = dict(os.environ, GIT_CONFIG_NOSYSTEM="1", GIT_CONFIG_GLOBAL=os.devnull, HOME=str(tmp_path))
    run = subprocess.run(cmd, cwd=work, capture_output=True, env=env, timeout=120)
    assert run.returncode == 0, run.stderr[-2000:]
    wrong = [name for name, _, b in real_pairs if (work / name).read_bytes() != b]
    assert not wrong, wrong[:5]


def test_real_pairs_through_the_cli_apply_with_ours(real_pairs, tmp_path, monkeypatch):
    _write_trees(tmp_path, real_pairs)
    (tmp_path / "all.diff").write_bytes(_cli_patch(tmp_path, real_pairs))
    monkeypatch.chdir(tmp_path / "a")
    r = cli("diff", "apply", "--patch", str(tmp_path / "all.diff"), "--write", "--no-backup")
    assert r.rc == 0, r.err
    wrong = [name for name, _, b in real_pairs if (tmp_path / "a" / name).read_bytes() != b]
    assert not wrong, wrong[:5]


def test_every_cut_of_a_capped_diff_is_refused_or_whole():
    from toolmend.tools import run_verb

    a = "".join(f"line {i}\n" for i in range(200))
    b = a.replace("0\n", "0 changed\n")
    out = run_verb("diff", "text", {"a": a, "b": b, "context": 1}, limit=1000)
    assert out.truncated and "this patch is incomplete" in out.output.split("\n", 1)[0]
    whole = run_tool("@diff", {"cmd": "text", "args": {"a": a, "b": b, "context": 1}}).output
    for text in (out.output, whole):
        for cut in range(1, len(text) + 1):
            try:
                result = apply(a, text[:cut])
            except PatchError:
                continue
            assert result == b and cut >= len(text) - 1, cut


def test_dirs_lists_a_symlink_once(tmp_path):
    if os.name != "posix":
        pytest.skip("symlinks")
    for side in ("v1", "v2"):
        (tmp_path / side).mkdir()
        (tmp_path / side / "out").symlink_to("/etc")
    r = run_tool("@diff", {"cmd": "dirs", "args": {"a": "v1", "b": "v2"}}, workspace=str(tmp_path))
    assert r.ok and r.data["skipped"] == ["out: a symlink that leads outside the workspace"]


def test_a_hunk_at_the_end_of_the_file_is_not_applied_twice(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "f").write_bytes(b"a\nb\nc\n")
    (tmp_path / "g").write_bytes(b"a\nb\nc\nd\n")
    (tmp_path / "p.diff").write_bytes(cli("diff", "files", "f", "g").out)
    apply_it = ("diff", "apply", "--patch", "p.diff", "--file", "f", "--write", "--no-backup")
    assert cli(*apply_it).rc == 0 and (tmp_path / "f").read_bytes() == b"a\nb\nc\nd\n"
    again = cli(*apply_it)
    assert again.rc == 1 and "applied already" in again.err
    assert (tmp_path / "f").read_bytes() == b"a\nb\nc\nd\n"
    (tmp_path / "f").write_bytes(b"a\nb\nc\nX\n")  # a file that grew: the hunk is not at its end
    assert cli(*apply_it).rc == 1 and (tmp_path / "f").read_bytes() == b"a\nb\nc\nX\n"
    (tmp_path / "f").write_bytes(b"a\nb\nc\nd\nX\n")
    r = run_tool("@diff", {"cmd": "apply", "args": {"file": "f", "patch": (tmp_path / "p.diff").read_text(),
                                                    "reverse": True, "dry_run": False}},
                 workspace=str(tmp_path))
    assert not r.ok and "end of the file" in r.output and (tmp_path / "f").read_bytes() == b"a\nb\nc\nd\nX\n"


def test_a_patch_that_shows_bytes_as_u_fffd_is_refused_not_applied(tmp_path):
    from toolmend.tools import run_verb

    (tmp_path / "a.txt").write_bytes(b"one\ntwo\n")
    (tmp_path / "b.txt").write_bytes(b"one\ncaf\xe9\ntwo\n")
    r = run_tool("@diff", {"cmd": "files", "args": {"a": "a.txt", "b": "b.txt"}}, workspace=str(tmp_path))
    assert r.ok and "+caf\ufffd\n" in r.data["diff"]
    assert r.data["diff"].startswith("# toolmend patch: bytes that are not UTF-8 are shown as U+FFFD")
    for patch in (r.output, r.data["diff"]):
        done = run_tool("@diff", {"cmd": "apply", "args": {"file": "a.txt", "patch": patch,
                                                           "dry_run": False}}, workspace=str(tmp_path))
        assert not done.ok and done.data["reason"] == "unsupported" and "U+FFFD" in done.output
        assert "raw" in done.output and (tmp_path / "a.txt").read_bytes() == b"one\ntwo\n"
    with pytest.raises(PatchError, match=r"U\+FFFD"):
        apply("one\ntwo\n", r.data["diff"])
    # GNU patch reads the line as text before the patch
    (tmp_path / "p.diff").write_text(r.data["diff"])
    gnu = subprocess.run(["patch", "--dry-run", "-F0", "a.txt", "p.diff"], cwd=tmp_path,
                         capture_output=True, text=True)
    assert gnu.returncode == 0, gnu.stdout + gnu.stderr
    # the patch as bytes applies byte for byte
    raw = run_verb("diff", "files", {"a": "a.txt", "b": "b.txt"}, str(tmp_path)).raw
    assert raw is not None and b"+caf\xe9\n" in raw
    done = run_verb("diff", "apply", {"file": "a.txt", "patch": raw, "dry_run": False}, str(tmp_path))
    assert done.ok and (tmp_path / "a.txt").read_bytes() == b"one\ncaf\xe9\ntwo\n"


def test_a_u_fffd_in_a_utf8_file_is_patched_as_ever(tmp_path):
    (tmp_path / "c.txt").write_text("x\n", encoding="utf-8")
    (tmp_path / "d.txt").write_text("x\n\ufffd here\n", encoding="utf-8")
    r = run_tool("@diff", {"cmd": "files", "args": {"a": "c.txt", "b": "d.txt"}}, workspace=str(tmp_path))
    assert r.ok and "U+FFFD" not in r.output
    done = run_tool("@diff", {"cmd": "apply", "args": {"file": "c.txt", "patch": r.output,
                                                       "dry_run": False}}, workspace=str(tmp_path))
    assert done.ok and (tmp_path / "c.txt").read_bytes() == (tmp_path / "d.txt").read_bytes()


def test_u_fffd_added_to_a_file_that_is_not_utf8_is_refused(tmp_path):
    (tmp_path / "e.txt").write_bytes(b"caf\xe9\nend\n")
    patch = "--- a/e.txt\n+++ b/e.txt\n@@ -2 +2,2 @@\n end\n+na\ufffdve\n"
    done = run_tool("@diff", {"cmd": "apply", "args": {"file": "e.txt", "patch": patch,
                                                       "dry_run": False}}, workspace=str(tmp_path))
    assert not done.ok and "not UTF-8" in done.output and "U+FFFD" in done.output
    assert (tmp_path / "e.txt").read_bytes() == b"caf\xe9\nend\n"


def test_the_patch_of_folders_that_shows_bytes_as_u_fffd_is_refused(tmp_path):
    (tmp_path / "x1").mkdir()
    (tmp_path / "x2").mkdir()
    (tmp_path / "x1/f").write_bytes(b"one\n")
    (tmp_path / "x2/f").write_bytes(b"one\n\xff\n")
    r = run_tool("@diff", {"cmd": "dirs", "args": {"a": "x1", "b": "x2", "unified": True}},
                 workspace=str(tmp_path))
    assert r.ok and r.data["diff"].startswith("# toolmend patch: bytes that are not UTF-8")
    done = run_tool("@diff", {"cmd": "apply", "args": {"patch": r.output, "dir": "x1", "dry_run": False}},
                    workspace=str(tmp_path))
    assert not done.ok and "U+FFFD" in done.output and (tmp_path / "x1/f").read_bytes() == b"one\n"
