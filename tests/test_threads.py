"""Many threads at once: recovery, the @json verbs and the diff give the same
results as when run alone (on free-threaded Python this runs truly parallel)."""

from __future__ import annotations

import sys
import threading
from concurrent.futures import ThreadPoolExecutor

import pytest

import toolmend
from toolmend import normalize_tool_args

THREADS = 8

RECOVERY_INPUTS = [
    ("{'cmd': 'read'}", None),
    ('{cmd: "read", file: "main.go"}', None),
    ('{"cmd":"read","file":"main.go",}', None),
    ("main.go", "read_file"),
    ("{cmd: 'read', \"file\": main.go}", None),
    ("read --file main.go", "@coder"),
    ("{cmd: read, file: main.go, n: 12345678901234567890}", None),
    ("{\u201ccmd\u201d: \u201cread\u201d}", None),
    ("{a: 1}{b: 2}", None),
    ("ls -la", "bash"),
]


def _hammer(fn, jobs, rounds=200):
    """Run every job from THREADS threads released together; return the
    results seen by each thread."""
    barrier = threading.Barrier(THREADS)

    def worker(_):
        barrier.wait()
        return [[fn(*job) for job in jobs] for _ in range(rounds)]

    with ThreadPoolExecutor(THREADS) as pool:
        return list(pool.map(worker, range(THREADS)))


def test_recovery_from_many_threads():
    expected = [normalize_tool_args(raw, tool) for raw, tool in RECOVERY_INPUTS]
    for per_thread in _hammer(normalize_tool_args, RECOVERY_INPUTS):
        for results in per_thread:
            assert results == expected


def test_register_tool_field_while_others_read():
    errors = []

    def reader():
        for _ in range(2000):
            if toolmend.field_for_tool("read_file") != "file":
                errors.append("lost read_file")

    def writer():
        for i in range(300):
            toolmend.register_tool_field(f"thread_tool_{i}", "arg")

    threads = [threading.Thread(target=reader) for _ in range(4)] + [threading.Thread(target=writer)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    assert toolmend.field_for_tool("thread_tool_299") == "arg"


def test_gil_state_is_reported():
    # On a free-threaded build our extensions must not re-enable the GIL.
    is_gil_enabled = getattr(sys, "_is_gil_enabled", None)
    if is_gil_enabled is None or not toolmend.compiled:
        pytest.skip("not a free-threaded build with compiled kernels")
    import sysconfig
    if sysconfig.get_config_var("Py_GIL_DISABLED"):
        assert not is_gil_enabled(), "importing toolmend re-enabled the GIL"


def _json_calls(workspace):
    from toolmend import run_tool

    calls = [
        {"cmd": "get", "args": {"file": "doc.json", "path": "items[*].price"}},
        {"cmd": "keys", "args": {"file": "doc.json", "path": "items[3]"}},
        {"cmd": "query", "args": {"file": "doc.json", "path": "items",
                                  "where": "tag~^t[12]$ && id!=7", "select": ["id", "price"]}},
        {"cmd": "schema", "args": {"file": "doc.json"}},
        {"cmd": "validate", "args": {"text": '{"a": [1, 2,]}'}},
        {"cmd": "pretty", "args": {"file": "doc.json", "path": "items[0]"}},
        {"cmd": "get", "args": {"file": "doc.json", "path": "items[99]"}},  # an error, as a result
    ]
    return [(lambda c=c: run_tool("@json", c, workspace=workspace)) for c in calls]


def test_json_verbs_from_many_threads(tmp_path):
    import json

    doc = {"items": [{"id": i, "price": f"{i}.10", "tag": f"t{i % 3}"} for i in range(40)]}
    text = json.dumps(doc).replace('"price": "', '"price": ').replace('0", "tag"', '0, "tag"')
    (tmp_path / "doc.json").write_text(text, encoding="utf-8")
    calls = _json_calls(str(tmp_path))
    expected = [(r.ok, r.output) for r in (call() for call in calls)]
    assert expected[0][0] and "1.10" in expected[0][1]
    assert not expected[-1][0]
    for per_thread in _hammer(lambda call: (lambda r: (r.ok, r.output))(call()),
                              [(c,) for c in calls], rounds=10):
        for results in per_thread:
            assert results == expected


def test_diff_from_many_threads():
    from toolmend import diff

    base = [f"line {i}\n" for i in range(3000)]
    pairs = []
    for k in range(4):
        new = list(base)
        for j in range(k, len(new), 97):
            new[j] = f"changed {j} by {k}\n"
        new.insert(500 + k, "inserted\n")
        pairs.append(("".join(base), "".join(new)))
    expected = [diff.unified(a, b) for a, b in pairs]

    def job(a, b):
        patch = diff.unified(a, b)
        assert diff.apply(a, patch) == b
        return patch

    for per_thread in _hammer(job, pairs, rounds=5):
        for results in per_thread:
            assert results == expected
