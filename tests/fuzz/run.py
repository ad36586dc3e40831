#!/usr/bin/env python3
"""Run the fuzz targets of tests/fuzz/targets.py for a given time.

    python tests/fuzz/run.py --all --seconds 600          # each target 10 minutes
    python tests/fuzz/run.py recovery json_verbs --seconds 60
    python tests/fuzz/run.py --all --seconds 10 --engine hypothesis
    python tests/fuzz/run.py --all --seconds 10 --jobs 2  # two targets at a time

With atheris installed (``pip install atheris``) each target runs in its own
process under libFuzzer, coverage-guided over the Python code, and a crash of
the compiled kernels is caught as one; otherwise hypothesis feeds it random
bytes. Every failing input is saved in tests/fuzz/crashers/<target>/, which
the test suite replays. Prints the executions per target; exits 1 on a
failure.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from targets import TARGETS  # noqa: E402

CRASHERS = os.path.join(HERE, "crashers")
MAX_LEN = 4096

_ATHERIS_CHILD = r"""
import sys
sys.path.insert(0, {here!r})
import atheris
with atheris.instrument_imports(include=["toolmend"]):
    import toolmend, toolmend.json, toolmend.diff, toolmend.tools
from targets import TARGETS
atheris.Setup(sys.argv, TARGETS[{name!r}])
atheris.Fuzz()
"""


def _atheris(name: str, seconds: int) -> tuple[bool, int, str]:
    out_dir = os.path.join(CRASHERS, name)
    os.makedirs(out_dir, exist_ok=True)
    corpus = os.path.join(HERE, "corpus", name)
    os.makedirs(corpus, exist_ok=True)
    cmd = [sys.executable, "-c", _ATHERIS_CHILD.format(here=HERE, name=name),
           f"-max_total_time={seconds}", f"-max_len={MAX_LEN}", "-timeout=20",
           "-rss_limit_mb=4096", "-print_final_stats=1", f"-artifact_prefix={out_dir}/", corpus]
    run = subprocess.run(cmd, capture_output=True, text=True, timeout=seconds + 120)
    log = run.stdout + run.stderr
    execs = re.findall(r"stat::number_of_executed_units:\s*(\d+)", log)
    return run.returncode == 0, int(execs[-1]) if execs else 0, log[-3000:]


def _hypothesis(name: str, seconds: int) -> tuple[bool, int, str]:
    """Random bytes for ``seconds``, in rounds of BATCH examples: the time-up
    ends the last round quietly (an example past the deadline is skipped, never
    raised as a failure, which hypothesis would then shrink and report)."""
    from hypothesis import HealthCheck, given, settings, strategies as st

    target = TARGETS[name]
    count = 0
    failing = False
    deadline = time.monotonic() + seconds

    @settings(max_examples=BATCH, deadline=None, database=None,
              suppress_health_check=list(HealthCheck))
    @given(st.binary(max_size=MAX_LEN))
    def check(data: bytes) -> None:
        nonlocal count, failing
        # once an input failed, hypothesis replays and shrinks it: every
        # example runs then, or the replay would pass and the failure be "flaky"
        if time.monotonic() > deadline and not failing:
            return
        count += 1
        try:
            target(data)
        except Exception:
            failing = True
            _save(name, data)
            raise

    while time.monotonic() < deadline:
        try:
            check()
        except Exception as exc:  # the failure, reported with its input saved
            return False, count, f"{type(exc).__name__}: {exc}"
    return True, count, ""


#: Examples of one hypothesis round.
BATCH = 500


def _save(name: str, data: bytes) -> None:
    import hashlib

    folder = os.path.join(CRASHERS, name)
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, "crash-" + hashlib.sha1(data).hexdigest()), "wb") as fh:
        fh.write(data)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("targets", nargs="*", help=f"some of: {', '.join(TARGETS)}")
    ap.add_argument("--all", action="store_true", help="every target")
    ap.add_argument("--seconds", type=int, default=60, help="time per target (default 60)")
    ap.add_argument("--engine", choices=("auto", "atheris", "hypothesis"), default="auto")
    ap.add_argument("--jobs", type=int, default=1, help="targets run at once, each in its own "
                                                       "process (default 1)")
    args = ap.parse_args(argv)
    names = list(TARGETS) if args.all or not args.targets else args.targets
    unknown = [n for n in names if n not in TARGETS]
    if unknown:
        ap.error(f"unknown target(s) {', '.join(unknown)}; the targets are {', '.join(TARGETS)}")
    engine = args.engine
    if engine == "auto":
        try:
            import atheris  # noqa: F401
            engine = "atheris"
        except ImportError:
            engine = "hypothesis"
    if args.jobs < 1:
        ap.error("--jobs is at least 1")
    if args.jobs > 1 and len(names) > 1:
        return _in_children(names, args.seconds, engine, args.jobs)
    failed = 0
    for name in names:
        began = time.monotonic()
        run = _atheris if engine == "atheris" else _hypothesis
        ok, execs, detail = run(name, args.seconds)
        took = time.monotonic() - began
        print(f"{name:<16} {engine:<10} {'ok' if ok else 'FAILED':<7} {execs:>10,} executions "
              f"in {took:6.1f} s", flush=True)
        if not ok:
            failed += 1
            print(detail, file=sys.stderr)
    return 1 if failed else 0


def _in_children(names: list[str], seconds: int, engine: str, jobs: int) -> int:
    """Each target in a child process of this script, ``jobs`` at a time (each
    still fuzzed for ``seconds``); their reports printed in the targets' order."""
    from concurrent.futures import ThreadPoolExecutor

    def child(name: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, os.path.abspath(__file__), name, "--seconds", str(seconds),
                               "--engine", engine], capture_output=True, text=True)

    with ThreadPoolExecutor(max_workers=jobs) as pool:
        runs = list(pool.map(child, names))
    for name, run in zip(names, runs, strict=True):
        sys.stdout.write(run.stdout)
        sys.stderr.write(run.stderr)
        if run.returncode != 0 and not run.stdout.strip():  # it died before its report
            print(f"{name:<16} {engine:<10} FAILED  (its process exited with {run.returncode})")
    sys.stdout.flush()
    return 1 if any(run.returncode != 0 for run in runs) else 0


if __name__ == "__main__":
    sys.exit(main())
