"""@json on 20 MB files against simdjson (pysimdjson) and orjson.loads, in one run.

Three generated documents of ~19.5 MB (under the 20 MB file limit), the
shapes agents meet in big API responses:

- ``records``: API records (ids, names, a nested owner, short tag lists);
- ``numbers``: rows of floats and integers (coordinates, metrics);
- ``strings``: records of long non-ASCII text with escapes
  (``{"k": "... café\\n\\"q\\"", "u": "café — N"}``).

Every contender starts from the file on disk and reads it the same way:
toolmend through ``run_tool`` (reading, validating, answering), simdjson
parses the bytes and navigates to the same value, orjson loads the bytes and
navigates. ``get`` and ``keys`` go to the last record (a walk over the whole
array), ``schema`` samples the records. The files are generated once per
session in a temporary folder.
"""

from __future__ import annotations

import os
import random

import orjson
import pytest
from conftest import IN_TWO_THREADS, ONE_AFTER_THE_OTHER, contend, contend_threads

import toolmend
from toolmend.tools import run_tool

simdjson = pytest.importorskip("simdjson")

TARGET_BYTES = 19_500_000
SHAPES = ["records", "numbers", "strings"]
GET_PATHS = {"records": ("items[-1].owner.login", ("items", -1, "owner", "login")),
             "numbers": ("items[-1][2]", ("items", -1, 2)),
             "strings": ("items[-1].u", ("items", -1, "u"))}
KEYS_PATH = ("items[-1]", ("items", -1))
SAMPLE = 50
# orjson takes ~10x longer than the others: a few rounds are plenty for its median
SLOW_ROUNDS = 5


def _records(n: int, rnd: random.Random) -> list[dict]:
    return [{"id": i, "name": f"service-{rnd.randrange(10 ** 6)}",
             "status": rnd.choice(["ok", "failed", "pending"]), "active": rnd.random() < 0.5,
             "owner": {"login": f"user{rnd.randrange(1000)}", "id": rnd.randrange(10 ** 9),
                       "site_admin": False},
             "tags": [rnd.choice(["web", "db", "cache", "queue"]) for _ in range(rnd.randrange(4))],
             "created_at": "2024-05-01T12:00:00Z",
             "counts": [rnd.randrange(10 ** 6) for _ in range(6)],
             "note": None if rnd.random() < 0.3 else "lorem ipsum dolor sit amet"}
            for i in range(n)]


def _numbers(n: int, rnd: random.Random) -> list[list]:
    return [[round(rnd.uniform(-90, 90), 6), round(rnd.uniform(-180, 180), 6),
             rnd.randrange(10 ** 6), rnd.random()] for _ in range(n)]


WORDS = ("the quick brown fox jumps over lazy dog café naïve résumé Straße façade über déjà "
         "señor coöperate élan garçon Zürich København данные строка текст 日本語 中文 😀 — … "
         "« » payload response value").split()
ESCAPED = ["\n", '"quoted"', "tab\there", "back\\slash", "\u0001"]


def _strings(n: int, rnd: random.Random) -> list[dict]:
    out = []
    for i in range(n):
        words = [rnd.choice(WORDS) for _ in range(rnd.randrange(30, 90))]
        for _ in range(rnd.randrange(1, 4)):
            words.insert(rnd.randrange(len(words)), rnd.choice(ESCAPED))
        out.append({"k": " ".join(words) + "é\n\"q\"", "u": f"café — {i}"})
    return out


MAKERS = {"records": _records, "numbers": _numbers, "strings": _strings}


def _generate(path: str, shape: str) -> None:
    make = MAKERS[shape]
    per = len(orjson.dumps(make(2000, random.Random(0)))) / 2000
    doc = {"meta": {"version": 3, "shape": shape},
           "items": make(int(TARGET_BYTES / per), random.Random(1))}
    with open(path, "wb") as fh:
        fh.write(orjson.dumps(doc))


@pytest.fixture(scope="session")
def json_files(tmp_path_factory) -> dict[str, str]:
    """{shape: path} of the three 20 MB files, generated once a session."""
    folder = tmp_path_factory.mktemp("bench-json")
    out = {}
    for shape in SHAPES:
        path = str(folder / f"{shape}.json")
        _generate(path, shape)
        assert 19_000_000 <= os.path.getsize(path) <= 20_000_000
        out[shape] = path
    return out


def _read(path: str) -> bytes:
    with open(path, "rb") as fh:
        return fh.read()


def _tool(verb: str, file_path: str, **args):
    folder, name = os.path.split(file_path)
    r = run_tool("@json", {"cmd": verb, "args": {"file": name, **args}}, workspace=folder)
    assert r.ok, r.output
    return r


def _walk(value, segments):
    for seg in segments:
        value = value[seg]
    return value


_PARSER = simdjson.Parser()


def _simdjson_get(path: str, segments):
    value = _walk(_PARSER.parse(_read(path)), segments)
    return value.as_dict() if isinstance(value, simdjson.Object) else value


def _simdjson_keys(path: str, segments):
    value = _walk(_PARSER.parse(_read(path)), segments)
    items = value.items() if isinstance(value, simdjson.Object) else enumerate(value)
    return [[k, len(v) if isinstance(v, (simdjson.Object, simdjson.Array)) else type(v).__name__]
            for k, v in items]


def _sample(n: int) -> list[int]:
    if n <= SAMPLE:
        return list(range(n))
    return sorted({round(i * (n - 1) / (SAMPLE - 1)) for i in range(SAMPLE)})


def _simdjson_schema(path: str):
    items = _PARSER.parse(_read(path))["items"]
    picked = [items[j] for j in _sample(len(items))]
    return [v.as_dict() if isinstance(v, simdjson.Object) else v.as_list() for v in picked]


def _orjson_schema(path: str):
    items = orjson.loads(_read(path))["items"]
    return [items[j] for j in _sample(len(items))]


def _need_compiled(contender: str) -> None:
    if contender == "toolmend" and not toolmend.compiled:
        pytest.skip("the ratio targets are for the compiled kernels")


def _run(benchmark, verb: str, shape: str, contender: str, fn, *args):
    """One contender of ``@json verb`` on one shape (group json-<verb>)."""
    slow = {"rounds": SLOW_ROUNDS, "warmup": 1} if contender == "orjson" else {}
    return contend(benchmark, f"json-{verb}", contender, f"20 MB {shape}", fn, *args, **slow)


CONTENDERS = ["toolmend", "simdjson", "orjson"]


@pytest.mark.parametrize("contender", CONTENDERS)
@pytest.mark.parametrize("shape", SHAPES)
def test_get_20mb(benchmark, json_files, shape, contender):
    _need_compiled(contender)
    path = json_files[shape]
    text_path, segments = GET_PATHS[shape]
    if contender == "toolmend":
        got = _run(benchmark, "get", shape, contender, lambda: _tool("get", path, path=text_path).data)
    elif contender == "simdjson":
        got = _run(benchmark, "get", shape, contender, _simdjson_get, path, segments)
    else:
        got = _run(benchmark, "get", shape, contender, lambda: _walk(orjson.loads(_read(path)), segments))
    assert got == _walk(orjson.loads(_read(path)), segments)


@pytest.mark.parametrize("contender", CONTENDERS)
@pytest.mark.parametrize("shape", SHAPES)
def test_keys_20mb(benchmark, json_files, shape, contender):
    _need_compiled(contender)
    path = json_files[shape]
    text_path, segments = KEYS_PATH
    expected = _walk(orjson.loads(_read(path)), segments)
    if contender == "toolmend":
        pairs = _run(benchmark, "keys", shape, contender, lambda: _tool("keys", path, path=text_path).data)
        assert [k for k, _ in pairs] == (list(expected) if isinstance(expected, dict)
                                         else list(range(len(expected))))
    elif contender == "simdjson":
        assert len(_run(benchmark, "keys", shape, contender, _simdjson_keys, path, segments)) == len(expected)
    else:
        got = _run(benchmark, "keys", shape, contender,
                   lambda: list(_walk(orjson.loads(_read(path)), segments)))
        assert len(got) == len(expected)


@pytest.mark.parametrize("contender", CONTENDERS)
@pytest.mark.parametrize("shape", SHAPES)
def test_schema_20mb(benchmark, json_files, shape, contender):
    _need_compiled(contender)
    path = json_files[shape]
    if contender == "toolmend":
        r = _run(benchmark, "schema", shape, contender, lambda: _tool("schema", path))
        assert r.data["keys"]["items"]["sampled"] == SAMPLE, r.output
    elif contender == "simdjson":
        assert len(_run(benchmark, "schema", shape, contender, _simdjson_schema, path)) == SAMPLE
    else:
        assert len(_run(benchmark, "schema", shape, contender, _orjson_schema, path)) == SAMPLE


VERB_ARGS = {
    "get": {"path": "items[-1]"},
    "keys": {"path": "items[0]"},
    "query": {"path": "items", "where": "id>=0 && name~^service-1", "limit": 20},  # records
    "schema": {},
    "validate": {},
    "pretty": {"path": "items[-1]"},
}
# a query names fields the rows have (one that no row has is refused)
QUERY_WHERE = {"records": "id>=0 && name~^service-1", "numbers": "[0]>=0 && [2]<100",
               "strings": "u~^café — 1"}
_MEASURE = """
import sys, tracemalloc
from toolmend.tools import run_tool

def status(field):  # kB, Linux only: the peak resident size of this process
    try:
        with open("/proc/self/status") as fh:
            return next(int(line.split()[1]) for line in fh if line.startswith(field + ":"))
    except (OSError, StopIteration):
        return -1

folder, name, verb, args = sys.argv[1], sys.argv[2], sys.argv[3], eval(sys.argv[4])
run_tool("@json", {"cmd": "get", "args": {"text": "[1]", "path": "[0]"}})  # imports, first calls
base = status("VmRSS")
tracemalloc.start()
r = run_tool("@json", {"cmd": verb, "args": {"file": name, **args}}, workspace=folder)
peak = tracemalloc.get_traced_memory()[1]
tracemalloc.stop()
assert r.ok, r.output[:2000]
print(peak, (status("VmHWM") - base) * 1024 if base >= 0 else -1)
"""


@pytest.mark.parametrize("verb", list(VERB_ARGS))
@pytest.mark.parametrize("shape", SHAPES)
def test_json_peak_memory(json_files, shape, verb):
    """Peak memory of one call in a fresh process, the file's bytes included:
    Python's allocations (tracemalloc) and, on Linux, the growth of the peak
    resident size (every allocation). At most 1.5x the file size."""
    if not toolmend.compiled:
        pytest.skip("the memory bound is for the compiled kernels (the pure twin validates "
                    "with the stdlib parser, which builds the document)")
    import subprocess
    import sys

    path = json_files[shape]
    folder, name = os.path.split(path)
    args = dict(VERB_ARGS[verb])
    if verb == "query":
        args["where"] = QUERY_WHERE[shape]
    out = subprocess.run([sys.executable, "-c", _MEASURE, folder, name, verb, repr(args)],
                         capture_output=True, text=True)
    assert out.returncode == 0, f"the measuring process failed:\n{out.stdout}{out.stderr}"
    traced, resident = map(int, out.stdout.split())
    size = os.path.getsize(path)
    print(f"\n@json {verb} on {shape} ({size / 1e6:.1f} MB): traced peak {traced / size:.2f}x, "
          f"resident growth {resident / size:.2f}x")
    assert traced <= 1.5 * size
    assert resident <= 1.5 * size


@pytest.mark.parametrize("contender", [ONE_AFTER_THE_OTHER, IN_TWO_THREADS])
def test_two_threads_scan_in_parallel(benchmark, json_files, contender):
    """The byte scanner releases the GIL: two validations of 20 MB files in
    two threads take clearly less than the two one after the other (the
    json-threads target; wall time, two free CPUs)."""
    if not toolmend.compiled:
        pytest.skip("the pure twin holds the GIL")
    from toolmend.json import validate

    doc = _read(json_files["records"])  # the same job in both threads: neither waits for the other
    results: list[object] = [None, None]

    def run(k):
        def go():
            results[k] = validate(doc)["valid"]
        return go

    contend_threads(benchmark, "json-threads", contender, "two 20 MB validations", run(0), run(1))
    assert results == [True, True]
