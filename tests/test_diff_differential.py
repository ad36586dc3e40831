"""Differential suite: our diffs against GNU diff, GNU patch and git apply.

Hundreds of real source-file pairs (tests/diffcorpus.py). Every diff we
produce is applied by GNU patch and by git apply and must reproduce the new
file byte for byte; within the budget it has no more -/+ lines than
``diff --minimal``; every ``diff -u`` (and ``git diff``) output applies with
our ``apply``; and damaged patches (an altered context or removed line,
shifted line numbers, a truncated hunk, a wrong count, a patch for another
file) are refused, never mis-applied.

Subprocesses are the cost, so each tool runs once over the whole corpus.
"""

from __future__ import annotations

import os
import random
import re
import shutil
import subprocess

import pytest
from diffcorpus import Pair, make_pairs, write_tree

from toolmend.diff import PatchError, apply, compare, parse_patch

PAIRS = 300
TOOLS = {"diff": "diffutils", "patch": "patch", "git": "git"}


GNU_MARKS = {"diff": "GNU diffutils", "patch": "GNU patch", "git": "git version"}


def _need(tool: str) -> str:
    """The tool's path; skip when it is missing or not the GNU one (busybox
    and BSD diff/patch lack options used here and apply other rules)."""
    path = shutil.which(tool)
    if path is None:
        pytest.skip(f"{tool} is not installed (Debian package {TOOLS[tool]})")
    try:
        version = subprocess.run([path, "--version"], capture_output=True, text=True).stdout
    except OSError:
        version = ""
    if GNU_MARKS[tool] not in version:
        pytest.skip(f"{tool} is not {GNU_MARKS[tool]} (Debian package {TOOLS[tool]})")
    return path


def _git_env(home: str) -> dict[str, str]:
    env = dict(os.environ)
    env.update(GIT_CONFIG_NOSYSTEM="1", GIT_CONFIG_GLOBAL=os.devnull, HOME=home,
               LC_ALL="C", GIT_PAGER="cat")
    return env


@pytest.fixture(scope="module")
def corpus(tmp_path_factory):
    pairs = make_pairs(PAIRS)
    if len(pairs) < PAIRS:
        pytest.skip("no Python standard library sources found to build the corpus from")
    root = str(tmp_path_factory.mktemp("corpus"))
    dir_a, dir_b = write_tree(pairs, root)
    results = {p.name: compare(p.a, p.b, a_label=f"a/{p.name}", b_label=f"b/{p.name}")
               for p in pairs}
    return pairs, root, dir_a, dir_b, results


def _read(path: str) -> bytes:
    with open(path, "rb") as fh:
        return fh.read()


def _combined(pairs: list[Pair], results) -> str:
    return "".join(results[p.name].text for p in pairs)


def test_corpus_covers_every_kind(corpus):
    pairs, _, _, _, results = corpus
    kinds = {p.kind for p in pairs}
    assert len(kinds) == 15
    assert sum(1 for r in results.values() if r.identical) == sum(1 for p in pairs if p.kind == "identical")
    assert any("\r\n" in r.text for r in results.values())
    assert any("\\ No newline at end of file" in r.text for r in results.values())
    assert any("@@ -0,0 +1," in r.text for r in results.values())
    assert any(re.search(r"^@@ -1,\d+ \+0,0 @@$", r.text, re.M) for r in results.values())


def test_gnu_patch_reproduces_every_new_file(corpus, tmp_path):
    patch = _need("patch")
    pairs, _, dir_a, dir_b, results = corpus
    work = tmp_path / "w"
    shutil.copytree(dir_a, work)
    (tmp_path / "all.diff").write_bytes(_combined(pairs, results).encode("utf-8"))
    run = subprocess.run([patch, "-p1", "--batch", "--fuzz=0", "--binary", "--no-backup-if-mismatch",
                          "-d", str(work), "-i", str(tmp_path / "all.diff")],
                         capture_output=True, text=True)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    assert "offset" not in run.stdout and "fuzz" not in run.stdout, run.stdout
    wrong = [p.name for p in pairs if _read(str(work / p.name)) != p.b.encode("utf-8")]
    assert not wrong, f"GNU patch did not reproduce: {wrong[:10]}"


def test_git_apply_reproduces_every_new_file(corpus, tmp_path):
    git = _need("git")
    pairs, _, dir_a, _, results = corpus
    work = tmp_path / "g"
    shutil.copytree(dir_a, work)
    (tmp_path / "all.diff").write_bytes(_combined(pairs, results).encode("utf-8"))
    run = subprocess.run([git, "apply", "-p1", "--whitespace=nowarn", str(tmp_path / "all.diff")],
                         cwd=work, capture_output=True, text=True, env=_git_env(str(tmp_path)))
    assert run.returncode == 0, run.stderr[-3000:]
    wrong = [p.name for p in pairs if _read(str(work / p.name)) != p.b.encode("utf-8")]
    assert not wrong, f"git apply did not reproduce: {wrong[:10]}"


_HUNK = re.compile(r"@@ -\d+(?:,(\d+))? \+\d+(?:,(\d+))? @@")


def _changes(diff_text: str) -> int:
    """The -/+ lines of a diff, read through its hunk headers' counts (a
    removed line "-- x" reads "--- x": a file header only between hunks)."""
    changed = old = new = 0
    for line in diff_text.split("\n"):
        if old or new:
            tag = line[:1]
            if tag == "-":
                changed, old = changed + 1, old - 1
            elif tag == "+":
                changed, new = changed + 1, new - 1
            elif tag == " ":
                old, new = old - 1, new - 1
            continue
        m = _HUNK.match(line)
        if m:
            old = int(m.group(1) or "1")
            new = int(m.group(2) or "1")
    return changed


def _split_recursive(output: str, marker: str) -> dict[str, str]:
    """Per-file sections of ``diff -r`` / ``git diff`` output, by file name."""
    sections: dict[str, str] = {}
    for chunk in re.split(rf"^(?={re.escape(marker)})", output, flags=re.M):
        if not chunk.startswith(marker):
            continue
        name = chunk.split("\n", 1)[0].rsplit("/", 1)[-1]
        sections[name] = chunk
    return sections


def _gnu_diff_r(corpus, *options: str) -> dict[str, str]:
    diff = _need("diff")
    _, root, _, _, _ = corpus
    run = subprocess.run([diff, "-r", "-a", *options, "a", "b"], cwd=root, capture_output=True)
    assert run.returncode in (0, 1), run.stderr
    return _split_recursive(run.stdout.decode("utf-8"), "diff ")


def test_no_more_changed_lines_than_diff_minimal(corpus):
    pairs, _, _, _, results = corpus
    gnu = _gnu_diff_r(corpus, "--minimal", "-u")
    checked = equal = 0
    for p in pairs:
        ours = results[p.name]
        if p.kind == "identical":
            assert ours.text == "" and p.name not in gnu
            continue
        assert not ours.budget_exceeded, p.name
        theirs = _changes(gnu[p.name])
        mine = _changes(ours.text)
        assert mine == ours.added + ours.removed
        assert mine <= theirs, f"{p.name}: {mine} changed lines, diff --minimal has {theirs}"
        checked += 1
        equal += mine == theirs
    assert checked >= PAIRS - PAIRS // 15 - 1
    assert equal == checked  # both are minimal


@pytest.mark.parametrize("options", [("-u",), ("-U0",), ("-U1",), ("-U7",)],
                         ids=lambda o: " ".join(o))
def test_every_gnu_diff_applies_with_our_apply(corpus, options):
    pairs, _, _, _, _ = corpus
    gnu = _gnu_diff_r(corpus, *options)
    applied = 0
    for p in pairs:
        if p.kind == "identical":
            continue
        section = gnu[p.name]
        assert apply(p.a, section) == p.b, p.name
        applied += 1
    assert applied >= PAIRS - PAIRS // 15 - 1


def test_every_git_diff_applies_with_our_apply(corpus):
    git = _need("git")
    pairs, root, _, _, _ = corpus
    run = subprocess.run([git, "diff", "--no-index", "--no-color", "--no-renames", "a", "b"],
                         cwd=root, capture_output=True, env=_git_env(root))
    assert run.returncode in (0, 1), run.stderr
    sections = _split_recursive(run.stdout.decode("utf-8"), "diff --git ")
    for p in pairs:
        if p.kind == "identical":
            continue
        section = sections[p.name]
        assert apply(p.a, section, path=p.name) == p.b, p.name


# ---------------------------------------------------------------------------
# Damaged patches are refused

def _hunk_spans(text: str) -> list[tuple[int, int]]:
    """(header line index, end index) of each hunk in a diff's lines."""
    lines = text.split("\n")
    heads = [i for i, line in enumerate(lines) if line.startswith("@@ ")]
    return [(h, (heads[k + 1] if k + 1 < len(heads) else len(lines) - 1)) for k, h in enumerate(heads)]


def _damaged(pairs: list[Pair], results, rng: random.Random):
    """(kind, pair, patch) for each kind of damage, over the corpus."""
    for p in pairs:
        text = results[p.name].text
        if not text:
            continue
        lines = text.split("\n")
        spans = _hunk_spans(text)
        h, end = spans[rng.randrange(len(spans))]
        body = list(range(h + 1, end))
        context = [i for i in body if lines[i].startswith(" ")]
        removed = [i for i in body if lines[i].startswith("-")]
        if context:
            i = rng.choice(context)
            damaged = list(lines)
            damaged[i] = damaged[i] + "x"
            yield "context", p, "\n".join(damaged)
        if removed:
            i = rng.choice(removed)
            damaged = list(lines)
            damaged[i] = damaged[i][:1] + "#" + damaged[i][1:]
            yield "removed", p, "\n".join(damaged)
        # truncated: drop the last body lines of the last hunk
        last_h, last_end = spans[-1]
        real = [i for i in range(last_h + 1, last_end) if not lines[i].startswith("\\")]
        keep = rng.randint(last_h + 1, real[-1])
        yield "truncated", p, "\n".join(lines[:keep]) + "\n"
        # wrong count: one more or one fewer old (or new) line than the body has
        match = re.match(r"@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@", lines[h])
        assert match
        o_start, o_count = int(match[1]), 1 if match[2] is None else int(match[2])
        n_start, n_count = int(match[3]), 1 if match[4] is None else int(match[4])
        delta = rng.choice([-1, 1])
        damaged = list(lines)
        if rng.random() < 0.5 and o_count + delta >= 0:
            damaged[h] = f"@@ -{o_start},{o_count + delta} +{n_start},{n_count} @@"
        else:
            damaged[h] = f"@@ -{o_start},{o_count} +{n_start},{max(0, n_count + delta)} @@"
        if damaged[h] != lines[h]:
            yield "count", p, "\n".join(damaged)
        # shifted line numbers (both sides, so the header stays consistent)
        shift = rng.choice([-3, -2, -1, 1, 2, 3])
        if o_start + shift >= 1 and n_start + shift >= 1 and o_count and n_count:
            damaged = list(lines)
            damaged[h] = (f"@@ -{o_start + shift},{o_count} +{n_start + shift},{n_count} @@")
            yield "shifted", p, "\n".join(damaged)
            damaged[h] = f"@@ -{o_start + shift},{o_count} +{n_start},{n_count} @@"
            yield "shifted-old-only", p, "\n".join(damaged)


def _old_lines_at(p: Pair, patch: str, hunk_index: int) -> bool:
    """Whether the file really has, at the damaged hunk's declared place,
    the lines the hunk expects (then applying there is not a mis-apply)."""
    section = parse_patch(patch)[0]
    hunk = section.hunks[hunk_index]
    lines = p.a.split("\n")
    want = [text for tag, text, _ in hunk.lines if tag != "+"]
    return lines[hunk.old_pos:hunk.old_pos + len(want)] == want


def test_damaged_patches_are_refused(corpus):
    pairs, _, _, _, results = corpus
    rng = random.Random(7)
    refused: dict[str, int] = {}
    for kind, p, patch in _damaged(pairs, results, rng):
        try:
            got = apply(p.a, patch)
        except PatchError as exc:
            refused[kind] = refused.get(kind, 0) + 1
            assert exc.hunk is None or exc.hunk >= 1
            continue
        # Applied: only acceptable when the damage left a patch that is true
        # of the file (a context line altered into what the file has there is
        # impossible; a shift onto identical lines is possible in repetitive
        # code), and then the result must be what that patch says.
        assert kind == "shifted", f"{kind} damage to {p.name} was applied"
        hunks = parse_patch(patch)[0].hunks
        assert all(_old_lines_at(p, patch, k) for k in range(len(hunks))), p.name
        assert isinstance(got, str)
    for kind in ("context", "removed", "truncated", "count", "shifted", "shifted-old-only"):
        assert refused.get(kind, 0) >= 100, (kind, refused)


def test_patches_for_another_file_are_refused(corpus):
    pairs, _, _, _, results = corpus
    changed = [p for p in pairs if results[p.name].text and p.a]
    refused = 0
    for k, p in enumerate(changed):
        other = changed[(k + 1) % len(changed)]
        if other.a == p.a:
            continue
        with pytest.raises(PatchError):
            apply(other.a, results[p.name].text)
        # the same patch named for another path is refused before any line is read
        with pytest.raises(PatchError, match="not for"):
            apply(p.a, results[p.name].text, path=f"elsewhere/{other.name}")
        refused += 1
    assert refused >= 200
