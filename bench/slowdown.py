#!/usr/bin/env python3
"""Build the package with one compiled kernel made slower, and run the gate on it: it must fail.

    python bench/slowdown.py recover                       # 20% slower, the recovery benchmarks
    python bench/slowdown.py schemacheck --fraction 0.2    # the schema-check benchmarks
    python bench/slowdown.py jsonscan -- bench/test_bench_json.py -k get

The check of the gate itself (issue 18): a real regression of our own code must
fail ``pytest bench``, not only a miss of an issue's target. A copy of the
committed tree (``git clone`` of HEAD) is made in a temporary folder; there,
each entry point the library calls in the kernel (``ENTRIES``) is renamed and
replaced by a function of the same signature that calls it and then spins for
``fraction`` of the time it took, read from the processor's time-stamp counter
(no system call, nothing added in Python): the kernel's own work costs that much
more, as a slower loop in it would, wherever it is called from (the recovery
kernel's ``loads`` path included). The copy's kernels are built in place, and the
benchmarks of that kernel run on them as .ci/run runs them (``PYTHONHASHSEED=0``,
compiled kernels required). Only the copy is changed.

Exit status: 0 when the gate failed as it must (pytest's status 6, the pairs
that regressed named in its MISSED lines), 1 when it passed (the regression went
unseen), 2 when the copy could not be made or built, or pytest's own status when
something else broke.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
MISSED_TARGET_EXIT = 6

#: per kernel: the file of ext/ that holds each entry point, and the
#: benchmarks whose pairs run mostly in that kernel
ENTRIES: dict[str, tuple[dict[str, list[str]], list[str]]] = {
    # loads' hot path (recover_value_c), the text strategies, the object
    # literal and the repair engine; none of them calls another
    "recover": ({"_recover.pyx": ["recover_value_c", "recover_text"],
                 "_recover_literal.pxi": ["parse_object_literal"],
                 "_recover_repair.pxi": ["repair_json"]},
                ["bench/test_bench_recovery.py", "bench/test_bench_exact.py"]),
    "schemacheck": ({"_schemacheck.pyx": ["is_valid", "validate"]},
                    ["bench/test_bench_schema.py"]),
    "jsonscan": ({"_jsonscan.pyx": ["scan", "scan_index", "members", "value_end", "lookup",
                                    "lookup_many", "summary", "load_exact"]},
                 ["bench/test_bench_json.py"]),
    "markers": ({"_markers.pyx": ["skip_space", "extent", "call_body"]},
                ["bench/test_bench_tool_calls.py", "bench/test_bench_tool_stream.py"]),
    "myers": ({"_myers.pyx": ["diff_lines", "unified_text"]},
              ["bench/test_bench_diff.py"]),
}

#: appended to the kernel's .pyx: the clock and the spin
SPIN = '''

# --- bench/slowdown.py: this kernel made slower by {fraction:.0%} ---
cdef extern from "x86intrin.h":
    unsigned long long __rdtsc() nogil

cdef inline unsigned long long _slowdown_now() noexcept nogil:
    return __rdtsc()

cdef inline void _slowdown_spin(unsigned long long start) noexcept nogil:
    cdef unsigned long long until = __rdtsc()
    until += <unsigned long long>((until - start) * {fraction!r})
    while __rdtsc() < until:
        pass
'''

# A definition on one line: indentation, def/cdef and return type, name, parameters, tail.
_DEF = (r"^(?P<indent>[ ]*)(?P<head>(?:c?p?def)\s+(?:[\w\*\[\]]+\s+)?){name}"
        r"\((?P<params>[^)]*)\)(?P<tail>[^:\n]*):[ ]*$")


def _params(params: str) -> list[str]:
    return [p.strip() for p in params.split(",") if p.strip()]


def _call_args(params: str) -> str:
    """The arguments that pass each of ``params`` on, in order (the work
    function takes them all by position)."""
    names = [p.split("=")[0].split()[-1] for p in _params(params) if p != "*"]
    return ", ".join(n for n in names if n != "self")


def slow_down(source: str, names: list[str]) -> str:
    """``source`` with each function of ``names`` renamed ``<name>__work`` and a
    wrapper of the same signature in front of it that spins after the call."""
    for name in names:
        found = list(re.finditer(_DEF.format(name=re.escape(name)), source, re.M))
        if len(found) != 1:
            raise SystemExit(f"slowdown: {len(found)} one-line definitions of {name!r} "
                             "(this tool wants exactly one: update ENTRIES)")
        m = found[0]
        indent, head, params, tail = m["indent"], m["head"], m["params"], m["tail"]
        is_method = params.split(",")[0].strip() == "self"
        callee = f"self.{name}__work" if is_method else f"{name}__work"  # (self typed: a C call)
        wrapper = (f"{indent}{head}{name}({params}){tail}:\n"
                   f"{indent}    cdef unsigned long long _started = _slowdown_now()\n"
                   f"{indent}    _result = {callee}({_call_args(params)})\n"
                   f"{indent}    _slowdown_spin(_started)\n"
                   f"{indent}    return _result\n\n")
        # the work function is a C function (cdef): the wrapper calls it with no
        # Python call between them, so the spin is all that is added
        work_head = "cdef object " if head.startswith("def") else head
        work_params = ", ".join(p for p in _params(params) if p != "*")
        renamed = f"{indent}{work_head}{name}__work({work_params}){tail}:"
        source = source[:m.start()] + wrapper + renamed + source[m.end():]
    return source


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("kernel", choices=sorted(ENTRIES))
    parser.add_argument("--fraction", type=float, default=0.2,
                        help="extra time per call, as a fraction of the call's own (0.2: 20%%)")
    parser.add_argument("--keep", action="store_true", help="keep the temporary copy")
    parser.add_argument("pytest_args", nargs="*", help="after --: what pytest runs "
                        "(default: the kernel's benchmarks)")
    args = parser.parse_args(argv)
    if not 0 < args.fraction <= 10:
        parser.error(f"--fraction {args.fraction}: must be above 0 and at most 10")
    files, benches = ENTRIES[args.kernel]
    work = tempfile.mkdtemp(prefix="toolmend-slowdown-")
    tree = os.path.join(work, "tree")
    try:
        subprocess.run(["git", "clone", "-q", ROOT, tree], check=True)
        pyx = f"_{args.kernel}.pyx"
        for name, entries in files.items():
            path = os.path.join(tree, "ext", name)
            with open(path, encoding="utf-8") as f:
                text = f.read()
            text = slow_down(text, entries)
            if name == pyx:
                text += SPIN.format(fraction=args.fraction)
            with open(path, "w", encoding="utf-8") as f:
                f.write(text)
        # built as a wheel (its build requirements in their own environment),
        # unpacked beside the copy and put first on the path
        env = dict(os.environ, TOOLMEND_REQUIRE_COMPILED="1", PYTHONHASHSEED="0")
        build = subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps",
                                "--wheel-dir", os.path.join(work, "wheel"), tree],
                               env=env, capture_output=True, text=True)
        if build.returncode:
            print(build.stdout[-4000:] + build.stderr[-4000:], file=sys.stderr)
            print(f"slowdown: the slowed copy did not build (in {tree})", file=sys.stderr)
            return 2
        site = os.path.join(work, "site")
        for wheel in os.listdir(os.path.join(work, "wheel")):
            with zipfile.ZipFile(os.path.join(work, "wheel", wheel)) as z:
                z.extractall(site)
        env["PYTHONPATH"] = site
        print(f"kernel {args.kernel} slowed by {args.fraction:.0%} at "
              + ", ".join(e for entries in files.values() for e in entries), flush=True)
        check = subprocess.run([sys.executable, "-c", "import toolmend, toolmend._kernels._"
                                f"{args.kernel} as k; assert toolmend.compiled; print(k.__file__)"],
                               cwd=tree, env=env, capture_output=True, text=True)
        if check.returncode or not check.stdout.startswith(site):
            print(f"slowdown: the slowed build is not the one imported: {check.stdout}{check.stderr}",
                  file=sys.stderr)
            return 2
        run = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q",
                              "--benchmark-min-rounds=5", "--benchmark-max-time=0.05",
                              *(args.pytest_args or benches)], cwd=tree, env=env)
    finally:
        if not args.keep:
            subprocess.run(["rm", "-rf", work])
    if run.returncode == MISSED_TARGET_EXIT:
        print(f"the gate failed on the {args.fraction:.0%} slower {args.kernel} kernel, as it must")
        return 0
    if run.returncode == 0:
        print(f"the gate PASSED with the {args.kernel} kernel {args.fraction:.0%} slower: "
              "the regression went unseen")
        return 1
    return run.returncode


if __name__ == "__main__":
    sys.exit(main())
