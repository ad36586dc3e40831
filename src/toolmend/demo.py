"""``toolmend demo``: recover the bundled examples and show how.

The examples (examples/tool_calls.jsonl) are the fault table of the
specification plus a few harder cases; each line says what it should become
and by which strategy, and the demo checks that it does.
"""

from __future__ import annotations

import sys
from importlib import resources
from typing import Any, Sequence

import orjson

from . import compiled
from .recovery import normalize_tool_args


def load_examples() -> list[dict[str, Any]]:
    text = resources.files("toolmend").joinpath("examples/tool_calls.jsonl").read_text("utf-8")
    return [orjson.loads(line) for line in text.splitlines() if line.strip()]


def _short(text: str, width: int) -> str:
    text = text.replace("\n", "\\n")
    return text if len(text) <= width else text[: width - 1] + "\u2026"


def run_demo(argv: Sequence[str] = ()) -> int:
    if argv:
        print("toolmend demo takes no arguments", file=sys.stderr)
        return 2
    out = sys.stdout
    examples = load_examples()
    out.write(f"toolmend {'compiled' if compiled else 'pure-Python'} kernels: recovering "
              f"{len(examples)} malformed tool calls\n\n")
    failures = 0
    for ex in examples:
        r = normalize_tool_args(ex["args"], ex["tool"])
        expected_ok = ex["expect"] is not None
        good = (r.ok == expected_ok and r.strategy == ex["strategy"]
                and (not expected_ok or r.value == ex["expect"]))
        failures += not good
        mark = "ok " if good else "FAIL"
        tool = ex["tool"] or "(no tool)"
        out.write(f"[{mark}] {ex['fault']}\n")
        out.write(f"       {tool}: {_short(ex['args'], 70)}\n")
        if r.ok:
            out.write(f"    -> {_short(r.text, 70)}   [{r.strategy}]\n")
        else:
            out.write(f"    -> not recovered, text kept as it was: {ex.get('note') or r.error}\n")
        if not good:
            out.write(f"       expected {orjson.dumps(ex['expect']).decode()} by {ex['strategy']}\n")
        out.write("\n")
    total = len(examples)
    out.write(f"{total - failures}/{total} handled as documented\n")
    return 1 if failures else 0
