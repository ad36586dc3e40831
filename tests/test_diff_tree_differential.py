"""Differential suite for tree patches: our ``@diff apply`` against ``git
apply`` and GNU ``patch -p1 -E``, on generated trees.

Each case is a seeded random tree A (folders, names with spaces, quotes and
non-ASCII letters, executable files, empty files, binary files) and a tree B
made from it by renames (some with edits), copies, deletions, mode changes,
new files (some executable, some empty), edits and binary changes. The
patch A -> B is made by real ``git diff -M -C`` in a temporary repository
and by ``diff -ruN``; it is applied to three copies of A: by our apply (the
library's ``run_tool`` and the command line), by ``git apply`` and by
``patch -p1 -E``. The trees after (contents and executable bits) must be
the same wherever the tools apply the patch; where ours refuses, a tool
refuses too or the refusal is one we make on purpose (a binary change a
text patch cannot carry). Where git's patch applies, ours gives B exactly.
Our own ``diff dirs --unified`` output goes through ``git apply`` and
``patch -p1`` and must give B too.
"""

from __future__ import annotations

import os
import random
import shutil
import stat
import subprocess
from collections import Counter

import pytest
from clirun import cli

from toolmend import run_tool
from toolmend.diff import PatchError, apply as lib_apply, parse_patch

CASES = 36
GNU_MARKS = {"diff": "GNU diffutils", "patch": "GNU patch", "git": "git version"}

NAMES = ["main.py", "util.txt", "read me.md", "notes v2.txt", "data.csv", "café.txt",
         'q"uote.txt', "run.sh", "lib/core.py", "lib/with space/mod.py", "docs/guide.md",
         "docs/a b/c d.txt", "empty.txt", "src/x.c", "src/y.h", "tab\tname.txt"]
WORDS = ["alpha", "beta", "gamma", "delta", "if x:", "    return y", "}", "", "# note",
         "value = 1", "value = 2", "print(x)", "end"]


def _need(tool: str) -> str:
    path = shutil.which(tool)
    if path is None:
        pytest.skip(f"{tool} is not installed")
    version = subprocess.run([path, "--version"], capture_output=True, text=True).stdout
    if GNU_MARKS[tool] not in version:
        pytest.skip(f"{tool} is not {GNU_MARKS[tool]}")
    return path


def _env(home: str) -> dict[str, str]:
    env = dict(os.environ)
    env.update(GIT_CONFIG_NOSYSTEM="1", GIT_CONFIG_GLOBAL=os.devnull, HOME=home, LC_ALL="C",
               GIT_PAGER="cat", GIT_AUTHOR_NAME="t", GIT_AUTHOR_EMAIL="t@example.org",
               GIT_COMMITTER_NAME="t", GIT_COMMITTER_EMAIL="t@example.org")
    return env


def _text(rng: random.Random, n: int | None = None) -> bytes:
    n = rng.randint(3, 30) if n is None else n
    lines = [rng.choice(WORDS) + (str(rng.randint(0, 9)) if rng.random() < 0.5 else "")
             for _ in range(n)]
    body = "\n".join(lines)
    return (body + ("\n" if rng.random() < 0.9 else "")).encode()


def _edit(rng: random.Random, data: bytes) -> bytes:
    lines = data.decode().split("\n")
    for _ in range(rng.randint(1, 3)):
        at = rng.randrange(len(lines))
        what = rng.random()
        if what < 0.4:
            lines[at] = lines[at] + " edited"
        elif what < 0.7:
            lines.insert(at, "inserted " + rng.choice(WORDS))
        elif len(lines) > 2:
            del lines[at]
    return "\n".join(lines).encode()


Tree = dict[str, tuple[bytes, bool]]  # path -> (content, executable)


def _make_case(seed: int) -> tuple[Tree, Tree]:
    rng = random.Random(seed)
    a: Tree = {}
    for name in rng.sample(NAMES, rng.randint(5, len(NAMES))):
        if name == "empty.txt":
            a[name] = (b"", False)
        else:
            a[name] = (_text(rng, rng.randint(12, 30)), name.endswith(".sh") or rng.random() < 0.15)
    if rng.random() < 0.4:
        a["blob.bin"] = (bytes(rng.randrange(256) for _ in range(64)) + b"\0", False)
    b: Tree = dict(a)
    names = sorted(a)
    rng.shuffle(names)
    for name in names:
        if name not in b:
            continue
        content, exe = b[name]
        op = rng.random()
        binary = b"\0" in content
        if op < 0.15:  # rename, with an edit now and then
            new = _fresh(rng, b, name)
            del b[name]
            b[new] = (_edit(rng, content) if content and not binary and rng.random() < 0.5
                      else content, exe)
        elif op < 0.25 and content and not binary:  # copy with a small edit
            b[_fresh(rng, b, name)] = (_edit(rng, content) if rng.random() < 0.5 else content,
                                       exe)
        elif op < 0.35:
            del b[name]
        elif op < 0.45:
            b[name] = (content, not exe)
        elif op < 0.65 and content and not binary:
            b[name] = (_edit(rng, content), exe if rng.random() < 0.8 else not exe)
        elif op < 0.7 and binary and rng.random() < 0.5:
            b[name] = (content[:-1] + b"\1\0", exe)
    for _ in range(rng.randint(0, 3)):
        new = _fresh(rng, b, rng.choice(NAMES))
        kind = rng.random()
        b[new] = (b"" if kind < 0.2 else _text(rng), kind > 0.7)
    return a, b


def _fresh(rng: random.Random, tree: Tree, like: str) -> str:
    folder, _, base = like.rpartition("/")
    stem, dot, ext = base.partition(".")
    while True:
        name = f"{stem} {rng.choice(['new', 'moved', 'copy'])}{rng.randint(1, 99)}{dot}{ext}"
        if rng.random() < 0.3:
            folder = rng.choice(["", "lib", "moved dir", "docs/a b"])
        path = f"{folder}/{name}" if folder else name
        if path not in tree and not any(p.startswith(path + "/") for p in tree) and not any(
                path.startswith(p + "/") for p in tree):
            return path


def _write_tree(root: str, tree: Tree) -> None:
    for path, (content, exe) in tree.items():
        full = os.path.join(root, path)
        os.makedirs(os.path.dirname(full), exist_ok=True)
        with open(full, "wb") as fh:
            fh.write(content)
        os.chmod(full, 0o755 if exe else 0o644)


def _snapshot(root: str) -> Tree:
    found: Tree = {}
    for folder, dirs, files in os.walk(root):
        dirs[:] = [d for d in dirs if d != ".git"]
        for name in files:
            full = os.path.join(folder, name)
            with open(full, "rb") as fh:
                found[os.path.relpath(full, root).replace(os.sep, "/")] = (
                    fh.read(), bool(os.stat(full).st_mode & stat.S_IXUSR))
    return found


def _git_patch(work: str, a: Tree, b: Tree, binary: bool) -> bytes:
    repo = os.path.join(work, "repo")
    env = _env(work)
    os.makedirs(repo)
    run = lambda *cmd: subprocess.run(cmd, cwd=repo, env=env, check=True,  # noqa: E731
                                      capture_output=True).stdout
    run("git", "init", "-q")
    run("git", "config", "core.quotePath", "false")
    _write_tree(repo, a)
    run("git", "add", "-A")
    run("git", "commit", "-qm", "a", "--allow-empty")
    for path in a:
        os.remove(os.path.join(repo, path))
    _write_tree(repo, b)
    run("git", "add", "-A")
    opts = ["--binary"] if binary else []
    return run("git", "diff", "--cached", "-M", "-C", *opts)


def _gnu_patch(work: str, a: Tree, b: Tree) -> bytes:
    left, right = os.path.join(work, "ga", "a"), os.path.join(work, "ga", "b")
    _write_tree(left, a)
    _write_tree(right, b)
    os.makedirs(left, exist_ok=True)
    os.makedirs(right, exist_ok=True)
    out = subprocess.run(["diff", "-ruN", "a", "b"], cwd=os.path.join(work, "ga"),
                         capture_output=True, env=_env(work))
    assert out.returncode in (0, 1), out.stderr
    return out.stdout


def _copy(work: str, name: str, a: Tree) -> str:
    root = os.path.join(work, name)
    os.makedirs(root)
    _write_tree(root, a)
    return root


def _tools(work: str, a: Tree, patch: bytes,
           gnu: tuple[str, ...] = ("-p1", "-E")) -> dict[str, tuple[bool, Tree]]:
    """(applied, tree after) for git apply and GNU patch, each on a copy of A."""
    path = os.path.join(work, "p.diff")
    with open(path, "wb") as fh:
        fh.write(patch)
    results = {}
    git_root = _copy(work, "by-git", a)
    done = subprocess.run(["git", "apply", "--whitespace=nowarn", path], cwd=git_root,
                          capture_output=True, env=_env(work))
    results["git"] = (done.returncode == 0, _snapshot(git_root))
    patch_root = _copy(work, "by-patch", a)
    done = subprocess.run(["patch", *gnu, "-s", "-f", "--no-backup-if-mismatch", "-i", path],
                          cwd=patch_root, capture_output=True, env=_env(work))
    results["patch"] = (done.returncode == 0, _snapshot(patch_root))
    return results


def _ours(work: str, a: Tree, patch: bytes, how: str) -> tuple[bool, Tree, str]:
    root = _copy(work, f"by-ours-{how}", a)
    if how == "run_tool":
        r = run_tool("diff", {"cmd": "apply", "args": {"patch": patch.decode("utf-8", "surrogateescape"),
                                                       "dry_run": False, "backup": False}},
                     workspace=root)
        return r.ok, _snapshot(root), r.output
    path = os.path.join(work, f"{how}.diff")
    with open(path, "wb") as fh:
        fh.write(patch)
    cwd = os.getcwd()
    os.chdir(root)
    try:
        r = cli("diff", "apply", "--patch", path, "--write", "--no-backup")
    finally:
        os.chdir(cwd)
    return r.rc == 0, _snapshot(root), r.err


def _library(a: Tree, b: Tree, patch: bytes) -> int:
    """Each plain edit of the patch through ``toolmend.diff.apply``: the new
    text of B. Returns how many were checked."""
    text = patch.decode("utf-8", "surrogateescape")
    checked = 0
    for section in parse_patch(text):
        if section.git and (section.renames or section.copies or section.new_file
                            or section.deletes or not section.hunks):
            continue
        names = section.names()
        if not names or names[0] == "/dev/null":
            continue
        path = names[0][2:] if names[0].startswith(("a/", "b/")) else names[0]
        if path not in a or path not in b or section.deletes or section.new_file:
            continue
        try:
            got = lib_apply(a[path][0].decode("utf-8", "surrogateescape"), text, path=path)
        except PatchError as exc:
            if exc.reason == "no_file":  # names that are suffixes of each other: ambiguous
                continue
            raise
        assert got.encode("utf-8", "surrogateescape") == b[path][0], path
        checked += 1
    return checked


def _binary_change(patch: bytes) -> bool:
    return any(line.startswith((b"Binary files", b"GIT binary patch"))
               for line in patch.split(b"\n"))


def _expected_gnu(a: Tree, b: Tree) -> Tree:
    """B as a ``diff -ruN`` patch can carry it: contents only (modes stay as
    in A, new files are not executable), and no empty file created or
    deleted (diff -N writes nothing for one)."""
    out: Tree = {}
    for p in set(a) | set(b):
        if p in a and p in b:
            out[p] = (b[p][0], a[p][1])
        elif p in a and not a[p][0]:
            out[p] = a[p]
        elif p in b and b[p][0]:
            out[p] = (b[p][0], False)
    return out


@pytest.fixture(scope="module")
def tools():
    return {t: _need(t) for t in ("git", "patch", "diff")}


def _check(seed: int, work: str, a: Tree, b: Tree, patch: bytes, flavour: str,
           stats: Counter[str]) -> None:
    theirs = _tools(work, a, patch)
    binary_change = _binary_change(patch)
    for how in ("run_tool", "cli"):
        ok, tree, why = _ours(work, a, patch, how)
        where = f"seed {seed}, {flavour} patch, our apply by {how}"
        if not ok:
            assert tree == a, f"{where}: refused ({why}) but changed the tree"
            refusers = [t for t, (done, _) in theirs.items() if not done]
            assert refusers or binary_change, f"{where}: refused ({why}) what every tool applies"
            stats["refused"] += 1
            continue
        stats["applied"] += 1
        assert not binary_change, f"{where}: applied a patch with a binary change"
        for tool, (done, after) in theirs.items():
            if not done:
                stats[f"{tool} refused"] += 1
                continue
            expect = tree
            if flavour == "diff -ruN" and tool == "patch":
                # patch -E also removes a file the patch leaves empty, deletion or not
                expect = {p: v for p, v in tree.items() if v[0] or p not in a or not a[p][0]}
            assert after == expect, f"{where}: differs from {tool}"
            stats[f"same as {tool}"] += 1
        assert tree == (b if flavour == "git diff" else _expected_gnu(a, b)), \
            f"{where}: not the tree the patch describes"


STATS: Counter[str] = Counter()


@pytest.mark.parametrize("seed", range(CASES))
def test_git_and_gnu_patches_apply_as_the_tools_apply_them(tools, tmp_path, seed):
    a, b = _make_case(seed)
    for flavour, make in (("git diff", lambda w: _git_patch(w, a, b, False)),
                          ("git diff --binary", lambda w: _git_patch(w, a, b, True)),
                          ("diff -ruN", lambda w: _gnu_patch(w, a, b))):
        work = str(tmp_path / flavour.replace(" ", "_"))
        os.makedirs(work)
        patch = make(work)
        if not patch:
            continue
        _check(seed, work, a, b, patch, flavour.replace(" --binary", ""), STATS)
        if not _binary_change(patch):
            STATS["library edits"] += _library(a, b, patch)


def test_the_cases_cover_every_kind_of_change():
    """The generator makes what the suite claims to test."""
    seen: set[str] = set()
    for seed in range(CASES):
        a, b = _make_case(seed)
        seen.update(k for k, v in _kinds(a, b).items() if v)
    assert seen >= {"rename", "delete", "mode", "binary", "space", "new exec", "new empty",
                    "edit"}, seen


def _kinds(a: Tree, b: Tree) -> dict[str, bool]:
    gone = {p: v for p, v in a.items() if p not in b}
    new = {p: v for p, v in b.items() if p not in a}
    return {
        "rename": any(v in new.values() for v in gone.values() if v[0]),
        "delete": bool(gone),
        "mode": any(a[p][1] != b[p][1] for p in a if p in b),
        "binary": any(b"\0" in c for c, _ in a.values()),
        "space": any(" " in p for p in set(a) | set(b)),
        "new exec": any(x for _, x in new.values()),
        "new empty": any(not c for c, _ in new.values()),
        "edit": any(a[p][0] != b[p][0] for p in a if p in b),
    }


def _our_tree_patch(work: str, a: Tree, b: Tree) -> tuple[bytes, bytes]:
    """``diff dirs --unified`` of A and B: the command line's plain patch and
    the agent's (with its count and end lines)."""
    ws = os.path.join(work, "ws")
    _write_tree(os.path.join(ws, "a"), a)
    _write_tree(os.path.join(ws, "b"), b)
    os.makedirs(os.path.join(ws, "a"), exist_ok=True)
    os.makedirs(os.path.join(ws, "b"), exist_ok=True)
    r = run_tool("diff", {"cmd": "dirs", "args": {"a": "a", "b": "b", "unified": True}},
                 workspace=ws)
    assert r.ok, r.output
    cwd = os.getcwd()
    os.chdir(ws)
    try:
        plain = cli("diff", "dirs", "--a", "a", "--b", "b", "--unified")
    finally:
        os.chdir(cwd)
    assert plain.rc in (0, 1), plain.err
    return plain.out, r.output.encode("utf-8", "surrogateescape")


@pytest.mark.parametrize("seed", range(CASES))
def test_our_tree_patch_applies_with_git_and_gnu_patch(tools, tmp_path, seed):
    a, b = _make_case(seed)
    a = {p: v for p, v in a.items() if b"\0" not in v[0]}  # a text patch carries no binary
    b = {p: v for p, v in b.items() if b"\0" not in v[0]}
    work = str(tmp_path)
    plain, agent = _our_tree_patch(work, a, b)
    if not plain:
        assert a == b
        return
    for name, patch in (("plain", plain), ("agent", agent)):
        sub = os.path.join(work, name)
        os.makedirs(sub)
        theirs = _tools(sub, a, patch, ("-p1",))
        done, after = theirs["git"]
        assert done and after == b, f"seed {seed}: git apply of our {name} patch"
        done, after = theirs["patch"]
        assert done and after == b, f"seed {seed}: GNU patch of our {name} patch"
        ok, tree, why = _ours(sub, a, patch, "run_tool")
        assert ok and tree == b, f"seed {seed}: our apply of our {name} patch: {why}"
