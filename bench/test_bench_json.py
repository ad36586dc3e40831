"""@json on 20 MB files against a bare orjson.loads of the same bytes, in one run.

Two generated API-style documents of ~19.5 MB (under the 20 MB file limit):
``exact`` holds no float tokens (orjson would already be exact: exactness
costs nothing) and ``floats`` is full of them (lat/lon, metrics, scores).
toolmend is measured end to end through ``run_tool`` (reading the file,
decoding, validating, answering); orjson.loads gets the bytes already in
memory. Peak memory of each verb is measured with tracemalloc and must stay
within 5x the file size.
"""

from __future__ import annotations

import os
import random
import tempfile
import tracemalloc

import orjson
import pytest
from conftest import contend

import toolmend
from toolmend.tools import run_tool

TARGET_BYTES = 19_500_000
CACHE = os.path.join(tempfile.gettempdir(), "toolmend-bench-json-v1")
GET_PATH = "items[-1].owner.login"


def _records(n: int, floats: bool, seed: int) -> list[dict]:
    rnd = random.Random(seed)
    out = []
    for i in range(n):
        r = {"id": i, "name": f"service-{rnd.randrange(10 ** 6)}",
             "status": rnd.choice(["ok", "failed", "pending"]), "active": rnd.random() < 0.5,
             "owner": {"login": f"user{rnd.randrange(1000)}", "id": rnd.randrange(10 ** 9),
                       "site_admin": False},
             "tags": [rnd.choice(["web", "db", "cache", "queue"]) for _ in range(rnd.randrange(4))],
             "created_at": "2024-05-01T12:00:00Z",
             "note": None if rnd.random() < 0.3 else "lorem ipsum dolor sit amet"}
        if floats:
            r["lat"] = round(rnd.uniform(-90, 90), 6)
            r["lon"] = round(rnd.uniform(-180, 180), 6)
            r["metrics"] = [round(rnd.random() * 100, 3) for _ in range(6)]
            r["score"] = rnd.random()
        else:
            r["counts"] = [rnd.randrange(10 ** 6) for _ in range(6)]
        out.append(r)
    return out


def _generate(path: str, floats: bool) -> None:
    per = len(orjson.dumps(_records(2000, floats, 0))) / 2000
    doc = {"meta": {"version": 3, "generated": "2024-05-01"},
           "items": _records(int(TARGET_BYTES / per), floats, 1)}
    tmp = path + ".tmp"
    with open(tmp, "wb") as fh:
        fh.write(orjson.dumps(doc))
    os.replace(tmp, path)


@pytest.fixture(scope="session")
def json_files() -> dict[str, tuple[str, bytes]]:
    """{case: (folder, bytes)}, generated once and cached in the temp folder."""
    os.makedirs(CACHE, exist_ok=True)
    out = {}
    for case, floats in (("exact", False), ("floats", True)):
        path = os.path.join(CACHE, f"{case}.json")
        if not os.path.exists(path) or not 19_000_000 <= os.path.getsize(path) <= 20_000_000:
            _generate(path, floats)
        with open(path, "rb") as fh:
            out[case] = (path, fh.read())
    return out


def _tool(verb: str, file_path: str, **args):
    folder, name = os.path.split(file_path)
    return run_tool("@json", {"cmd": verb, "args": {"file": name, **args}}, workspace=folder)


def _need_compiled(contender: str) -> None:
    if contender == "toolmend" and not toolmend.compiled:
        pytest.skip("the ratio targets are for the compiled kernels")


@pytest.mark.parametrize("contender", ["toolmend", "orjson"])
@pytest.mark.parametrize("case", ["exact", "floats"])
def test_get_20mb(benchmark, json_files, case, contender):
    _need_compiled(contender)
    path, data = json_files[case]
    contend(benchmark, f"json-get-{case}", contender, "20 MB file")
    if contender == "toolmend":
        r = benchmark(_tool, "get", path, path=GET_PATH)
        assert r.ok and r.data.startswith("user"), r.output
    else:
        value = benchmark(orjson.loads, data)
        assert value["items"][-1]["owner"]["login"].startswith("user")


@pytest.mark.parametrize("contender", ["toolmend", "orjson"])
@pytest.mark.parametrize("case", ["exact", "floats"])
def test_schema_20mb(benchmark, json_files, case, contender):
    _need_compiled(contender)
    path, data = json_files[case]
    contend(benchmark, "json-schema", contender, f"20 MB file, {case}")
    if contender == "toolmend":
        r = benchmark(_tool, "schema", path)
        assert r.ok and r.data["keys"]["items"]["sampled"] == 50, r.output
    else:
        assert len(benchmark(orjson.loads, data)["items"]) > 50_000


VERB_ARGS = {
    "get": {"path": GET_PATH},
    "schema": {},
    "keys": {"path": "items[0]"},
    "query": {"path": "items", "where": "status=failed && name~^service-1", "limit": 20},
    "validate": {},
    "pretty": {},
}


@pytest.mark.parametrize("verb", list(VERB_ARGS))
@pytest.mark.parametrize("case", ["exact", "floats"])
def test_json_peak_memory(json_files, case, verb):
    """Peak Python memory of one call, at most 5x the file size."""
    if not toolmend.compiled:
        pytest.skip("the memory bound is for the compiled kernels (the pure twin validates "
                    "with the stdlib parser, which builds the document)")
    path, data = json_files[case]
    _tool(verb, path, **VERB_ARGS[verb])  # imports, first-call caches
    tracemalloc.start()
    try:
        r = _tool(verb, path, **VERB_ARGS[verb])
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert r.ok, r.output
    ratio = peak / len(data)
    print(f"\n@json {verb} on {case} ({len(data) / 1e6:.1f} MB): peak {peak / 1e6:.1f} MB = {ratio:.2f}x")
    assert ratio <= 5.0
