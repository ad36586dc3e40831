"""The one capped file reader (``toolmend._files``) and who reads through it."""

from __future__ import annotations

import ast
import os
import pathlib

import pytest

import toolmend
from toolmend import json as tjson
from toolmend._files import quote_path, read_capped
from toolmend.errors import JSONError, WorkspaceError

PACKAGE = pathlib.Path(toolmend.__file__).parent


def test_read_capped_reads_within_the_cap(tmp_path):
    f = tmp_path / "f.bin"
    f.write_bytes(b"\x00\xff" * 50)
    assert read_capped(str(f), 100, "f.bin") == b"\x00\xff" * 50
    assert read_capped(str(f), None, "f.bin") == b"\x00\xff" * 50
    with pytest.raises(WorkspaceError, match=r"file 'f.bin' is 100 bytes; the limit is 99 bytes") as err:
        read_capped(str(f), 99, "f.bin")
    assert err.value.path == "f.bin"
    (tmp_path / "empty").write_bytes(b"")
    assert read_capped(str(tmp_path / "empty"), 0, "empty") == b""


def test_read_capped_refuses_what_is_not_a_file(tmp_path):
    with pytest.raises(WorkspaceError, match="'nope' does not exist"):
        read_capped(str(tmp_path / "nope"), 10, "nope")
    with pytest.raises(WorkspaceError, match="is a directory, not a file"):
        read_capped(str(tmp_path), 10, "dir", what="folder")
    if hasattr(os, "mkfifo"):
        os.mkfifo(tmp_path / "fifo")
        with pytest.raises(WorkspaceError, match="not a regular file"):
            read_capped(str(tmp_path / "fifo"), 10, "fifo")
    if os.path.exists("/dev/null"):
        assert read_capped("/dev/null", 10, "/dev/null", pipes=True) == b""
        with pytest.raises(WorkspaceError, match="not a regular file"):
            read_capped("/dev/null", 10, "/dev/null")
    if os.path.exists("/dev/zero"):
        with pytest.raises(WorkspaceError, match="a device, not a file or a pipe"):
            read_capped("/dev/zero", 10, "/dev/zero", pipes=True)


def test_read_capped_reads_a_pipe_as_a_stream_within_the_cap(tmp_path):
    if not hasattr(os, "mkfifo"):
        pytest.skip("no FIFOs here")
    import threading

    fifo = tmp_path / "fifo"
    for payload, cap, ok in ((b"abc" * 1000, 3000, True), (b"abc" * 1000, 2999, False)):
        os.mkfifo(fifo)
        writer = threading.Thread(target=lambda p=payload: fifo.write_bytes(p))
        writer.start()
        try:
            if ok:
                assert read_capped(str(fifo), cap, "fifo", pipes=True) == payload
            else:
                with pytest.raises(WorkspaceError, match=r"\(a pipe\) is larger than the limit"):
                    read_capped(str(fifo), cap, "fifo", pipes=True)
        finally:  # the payload fits in the pipe's buffer: the writer is done
            writer.join(10)
            os.remove(fifo)


def test_a_long_path_is_shortened_in_messages():
    shown = quote_path("d/" * 200 + "f.txt")
    assert len(shown) < 200 and shown.endswith("(405 characters)")


def test_load_file_reads_through_it_and_refuses_with_json_errors(tmp_path):
    f = tmp_path / "doc.json"
    f.write_text('{"a": [1, 2]}')
    assert tjson.get(tjson.load_file(f), "a[1]") == 2
    with pytest.raises(JSONError, match="doc.json.* is 13 bytes; the limit is 12 bytes"):
        tjson.load_file(f, limit=12)
    with pytest.raises(JSONError, match="does not exist"):
        tjson.load_file(tmp_path / "missing.json")
    with pytest.raises(JSONError, match="is a directory"):
        tjson.load_file(tmp_path)


def _file_reads(path: pathlib.Path) -> list[str]:
    """The calls in ``path`` that open a file to read its bytes (open() or
    os.fdopen() in a binary read mode), and os.read."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        if isinstance(func, ast.Attribute) and func.attr == "read" and isinstance(
                func.value, ast.Name) and func.value.id == "os":
            found.append(f"{path.name}:{node.lineno} os.read")
        fdopen = isinstance(func, ast.Attribute) and func.attr == "fdopen"
        if fdopen or isinstance(func, ast.Name) and func.id == "open":
            mode = node.args[1] if len(node.args) > 1 else next(
                (k.value for k in node.keywords if k.arg == "mode"), None)
            text = mode.value if isinstance(mode, ast.Constant) else "r"
            if "r" in str(text) and "b" in str(text):
                found.append(f"{path.name}:{node.lineno} open")
    return found


def test_one_module_reads_files_with_a_cap():
    """Reading a file's bytes is done in _files.py only (the diff tree's
    comparison of two files, chunk by chunk, compares without holding them)."""
    allowed = {"_files.py", "_tree.py"}
    readers = [hit for path in PACKAGE.rglob("*.py") if path.name not in allowed
               and "compat" not in path.parts and path.name != "cli.py"
               for hit in _file_reads(path)]
    assert readers == []
