"""Pairs of real source files for the diff tests and benchmarks.

The old side of each pair is a file of the Python standard library found on
this machine (read at run time, never stored here); the new side is the
same file after seeded edits of one kind: inserts, deletes, replacements,
moved blocks, whitespace-only changes, CRLF files, missing final newlines,
empty files, files that become empty, complete rewrites, or a mix. Same
seed, same machine: same pairs.
"""

from __future__ import annotations

import os
import random
import sysconfig
from dataclasses import dataclass
from functools import lru_cache

KINDS = (
    "insert", "delete", "replace", "move", "whitespace", "crlf", "crlf-convert",
    "no-final-newline", "add-final-newline", "from-empty", "to-empty", "rewrite",
    "all-lines", "mixed", "identical",
)


@dataclass(frozen=True)
class Pair:
    name: str
    kind: str
    a: str
    b: str


@lru_cache(maxsize=1)
def source_texts(min_bytes: int = 1500, max_bytes: int = 40_000) -> tuple[tuple[str, str], ...]:
    """(name, text) of the standard library's .py files in a size range."""
    stdlib = sysconfig.get_paths()["stdlib"]
    found = []
    for folder in (stdlib, os.path.join(stdlib, "json"), os.path.join(stdlib, "email"),
                   os.path.join(stdlib, "asyncio"), os.path.join(stdlib, "unittest"),
                   os.path.join(stdlib, "logging"), os.path.join(stdlib, "http")):
        try:
            names = sorted(os.listdir(folder))
        except OSError:
            continue
        for name in names:
            if not name.endswith(".py"):
                continue
            path = os.path.join(folder, name)
            try:
                size = os.path.getsize(path)
                if not (min_bytes <= size <= max_bytes):
                    continue
                with open(path, "rb") as fh:
                    text = fh.read().decode("utf-8")
            except (OSError, UnicodeDecodeError):
                continue
            if "\r" in text:
                continue  # the CRLF kinds add their own
            found.append((os.path.relpath(path, stdlib), text))
    return tuple(found)


def _keep(text: str) -> list[str]:
    """Lines with their "\\n" (split on "\\n" only)."""
    parts = text.split("\n")
    last = parts.pop()
    out = [p + "\n" for p in parts]
    if last:
        out.append(last)
    return out


def _blocks(rng: random.Random, lines: list[str], other: list[str], kind: str) -> list[str]:
    lines = list(lines)
    edits = rng.randint(1, 4)
    for _ in range(edits):
        n = len(lines)
        pos = rng.randint(0, n)
        size = rng.randint(1, 8)
        if kind == "insert" or not lines:
            start = rng.randint(0, max(0, len(other) - size))
            lines[pos:pos] = other[start:start + size]
        elif kind == "delete":
            del lines[pos:pos + size]
        elif kind == "replace":
            start = rng.randint(0, max(0, len(other) - size))
            lines[pos:pos + rng.randint(1, 6)] = other[start:start + size]
        elif kind == "move":
            block = lines[pos:pos + size + 4]
            del lines[pos:pos + size + 4]
            to = rng.randint(0, len(lines))
            lines[to:to] = block
        elif kind == "whitespace":
            for i in range(pos, min(n, pos + size * 3)):
                line = lines[i]
                body = line.rstrip("\n")
                choice = rng.randrange(4)
                if choice == 0:
                    body = body + " "
                elif choice == 1:
                    body = body.replace("    ", "\t", 1)
                elif choice == 2:
                    body = "  " + body
                else:
                    body = body.rstrip()
                lines[i] = body + ("\n" if line.endswith("\n") else "")
    return lines


def _ensure_newline(lines: list[str]) -> list[str]:
    if lines and not lines[-1].endswith("\n"):
        lines = lines[:-1] + [lines[-1] + "\n"]
    return lines


def _pair(rng: random.Random, index: int, kind: str, sources: tuple[tuple[str, str], ...]) -> Pair:
    name_a, text_a = sources[rng.randrange(len(sources))]
    name_o, text_o = sources[rng.randrange(len(sources))]
    a_lines = _keep(text_a)
    other = _keep(text_o)
    if kind in ("insert", "delete", "replace", "move", "whitespace"):
        b_lines = _blocks(rng, a_lines, other, kind)
    elif kind == "mixed":
        b_lines = a_lines
        for sub in rng.sample(["insert", "delete", "replace", "move", "whitespace"], 3):
            b_lines = _blocks(rng, b_lines, other, sub)
    elif kind == "crlf":
        a_lines = [line[:-1] + "\r\n" if line.endswith("\n") else line for line in a_lines]
        b_lines = _blocks(rng, a_lines, [line.replace("\n", "\r\n") for line in other],
                          rng.choice(["insert", "delete", "replace"]))
    elif kind == "crlf-convert":
        b_lines = [line[:-1] + "\r\n" if line.endswith("\n") else line for line in a_lines]
    elif kind == "no-final-newline":
        b_lines = _blocks(rng, a_lines, other, rng.choice(["insert", "delete", "replace"]))
        b_lines = _ensure_newline(b_lines)
        if b_lines:
            b_lines[-1] = b_lines[-1].rstrip("\n")
        if rng.random() < 0.5 and a_lines:  # sometimes both sides lack it
            a_lines = a_lines[:-1] + [a_lines[-1].rstrip("\n")]
    elif kind == "add-final-newline":
        a_lines = a_lines[:-1] + [a_lines[-1].rstrip("\n")]
        b_lines = _ensure_newline(_blocks(rng, a_lines, other, "replace"))
    elif kind == "from-empty":
        a_lines, b_lines = [], a_lines
    elif kind == "to-empty":
        b_lines = []
    elif kind == "rewrite":
        b_lines = other
    elif kind == "all-lines":
        b_lines = [("# " + line) if line.strip() else ("#" + line) for line in a_lines]
    else:  # identical
        b_lines = list(a_lines)
    a = "".join(a_lines)
    b = "".join(b_lines)
    if kind not in ("identical",) and a == b:
        b = b + "# a final edit\n" if b.endswith("\n") or not b else b + "\n# a final edit"
    stem = os.path.splitext(os.path.basename(name_a))[0]
    return Pair(f"{index:03d}-{kind}-{stem}.txt", kind, a, b)


def make_pairs(count: int, seed: int = 20261130) -> list[Pair]:
    """``count`` pairs cycling through KINDS (empty when no sources exist)."""
    sources = source_texts()
    if len(sources) < 2:
        return []
    rng = random.Random(seed)
    return [_pair(rng, i, KINDS[i % len(KINDS)], sources) for i in range(count)]


def write_tree(pairs: list[Pair], root: str) -> tuple[str, str]:
    """Write the pairs as ``root/a/NAME`` and ``root/b/NAME`` (bytes exact)."""
    dir_a = os.path.join(root, "a")
    dir_b = os.path.join(root, "b")
    os.makedirs(dir_a, exist_ok=True)
    os.makedirs(dir_b, exist_ok=True)
    for pair in pairs:
        with open(os.path.join(dir_a, pair.name), "wb") as fh:
            fh.write(pair.a.encode("utf-8"))
        with open(os.path.join(dir_b, pair.name), "wb") as fh:
            fh.write(pair.b.encode("utf-8"))
    return dir_a, dir_b
