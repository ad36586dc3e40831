"""The command line behaves like the Unix tools beside it."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys

import pytest
from clirun import cli

from toolmend._cliargs import VERBS

POSIX = os.name == "posix"
OLD = "".join(f"line {i}\n" for i in range(1, 31))
NEW = OLD.replace("line 5\n", "line five\n").replace("line 25\n", "")


@pytest.fixture
def files(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "a.txt").write_text(OLD)
    (tmp_path / "b.txt").write_text(NEW)
    return tmp_path


def _toolmend(*args: str, stdin: bytes = b"", **kw) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([sys.executable, "-m", "toolmend", *args], input=stdin,
                          capture_output=True, timeout=60, **kw)


# ---------------------------------------------------------------------------
# help, version, python -m

@pytest.mark.parametrize("tool,verb", sorted(VERBS))
def test_every_verb_has_help(tool, verb):
    r = cli(tool, verb, "--help")
    assert r.rc == 0 and r.err == ""
    assert r.text.startswith(f"usage: toolmend {tool} {verb} [options]")
    for option in VERBS[(tool, verb)]:
        assert f"--{option.name}" in r.text
    assert "--max-bytes" in r.text and "--json" in r.text and "--workspace" in r.text
    # -h anywhere among the options
    assert cli(tool, verb, "--path", "x", "-h").rc == 0


@pytest.mark.parametrize("command", ["repair", "call", "exec", "json", "diff"])
def test_every_command_has_help(command):
    r = cli(command, "--help")
    assert r.rc == 0 and r.text.startswith("usage: ") and r.err == ""


def test_help_version_and_python_dash_m():
    assert cli("--help").rc == 0 and "Exit status" in cli("--help").text
    r = cli("--version")
    assert r.rc == 0 and r.text.startswith("toolmend 0.") and "Python" in r.text
    run = _toolmend("--version")
    assert run.returncode == 0 and run.stdout.startswith(b"toolmend ")
    assert cli().rc == 2  # no command: usage on stdout, a usage error


def test_repair_help_is_help_not_input():
    r = cli("repair", "--help")
    assert r.rc == 0 and r.text.startswith("usage: toolmend repair")


def test_usage_errors_say_what_and_exit_2():
    r = cli("json", "get", "--colour", "red")
    assert r.rc == 2 and "unknown option --colour" in r.err and "--path" in r.err
    assert cli("json", "nope").rc == 2
    assert cli("frobnicate").rc == 2
    r = cli("json", "get", "--path")
    assert r.rc == 2 and "--path needs a value" in r.err


# ---------------------------------------------------------------------------
# standard input, values that start with '-', --patch FILE

def test_dash_is_stdin_for_files_and_texts(files):
    r = cli("diff", "files", "--a", "-", "--b", "b.txt", stdin=OLD)
    assert r.rc == 1 and r.text.startswith("--- -\n+++ b.txt\n@@ -2,7 +2,7 @@")
    r = cli("json", "get", "--file", "-", "--path", "a[1]", stdin='{"a": [1, 2.50]}')
    assert r.rc == 0 and r.text == "2.50\n"
    r = cli("json", "get", "--text", "-", "--path", "a", stdin="a: 5\n")
    assert r.rc == 0 and r.text == "5\n"
    r = cli("diff", "text", "--a", "-", "--b", "x\n", stdin="y\n")
    assert r.rc == 1 and "-y\n+x\n" in r.text
    r = cli("diff", "files", "--a", "-", "--b", "-", stdin=OLD)
    assert r.rc == 2 and "already used" in r.err


def test_a_value_starting_with_dashes_is_a_value(files):
    k8s = "---\napiVersion: v1\nkind: Pod\n"
    r = cli("json", "get", "--text", k8s, "--path", "kind")
    assert r.rc == 0 and r.text == '"Pod"\n'
    r = cli("diff", "text", "--a", "--x", "--b", "-y")
    assert r.rc == 1 and "---x\n" in r.text and "+-y\n" in r.text


def test_patch_file_and_stdin(files):
    patch = cli("diff", "files", "--a", "a.txt", "--b", "b.txt").out
    (files / "p.diff").write_bytes(patch)
    r = cli("diff", "apply", "--file", "a.txt", "--patch", "p.diff")
    assert r.rc == 0 and r.text.startswith("dry run: the patch applies to a.txt")
    assert "nothing was written" in r.err and (files / "a.txt").read_text() == OLD
    r = cli("diff", "apply", "--file", "a.txt", "--patch", "-", "--write", stdin=patch)
    assert r.rc == 0 and (files / "a.txt").read_text() == NEW
    assert (files / "a.txt.bak").read_text() == OLD
    r = cli("diff", "apply", "--file", "a.txt", "--patch", "p.diff", "--write")
    assert r.rc == 1 and "applied already" in r.err
    r = cli("diff", "apply", "--file", "a.txt", "--patch", "missing.diff")
    assert r.rc == 1 and "missing.diff" in r.err


def test_apply_reverse_no_backup_and_the_tools_dry_run_spelling(files):
    patch = cli("diff", "files", "--a", "a.txt", "--b", "b.txt").text
    r = cli("diff", "apply", "--file", "a.txt", "--patch-text", patch, "--dry-run", "false",
            "--no-backup")
    assert r.rc == 0 and (files / "a.txt").read_text() == NEW
    assert not (files / "a.txt.bak").exists() and "no backup kept" in r.text
    r = cli("diff", "apply", "--file", "a.txt", "--patch-text", patch, "--reverse", "--write")
    assert r.rc == 0 and (files / "a.txt").read_text() == OLD
    assert (files / "a.txt.bak").read_text() == NEW
    assert cli("diff", "apply", "--file", "a.txt", "--patch-text", patch, "--write",
               "--dry-run", "true").rc == 2


@pytest.mark.skipif(not POSIX or os.geteuid() == 0 and False, reason="permission bits")
def test_apply_warns_about_a_read_only_file(files):
    os.chmod(files / "a.txt", 0o444)
    patch = cli("diff", "files", "--a", "a.txt", "--b", "b.txt").text
    r = cli("diff", "apply", "--file", "a.txt", "--patch-text", patch, "--write")
    assert r.rc == 0 and "a.txt is read-only (mode 444)" in r.err
    assert (files / "a.txt").read_text() == NEW
    assert stat.S_IMODE(os.stat(files / "a.txt").st_mode) == 0o444


# ---------------------------------------------------------------------------
# exit statuses, warnings, --json, paths

def test_diff_exit_statuses_are_gnu_diffs(files):
    assert cli("diff", "files", "--a", "a.txt", "--b", "a.txt").rc == 0
    assert cli("diff", "files", "--a", "a.txt", "--b", "b.txt").rc == 1
    r = cli("diff", "files", "--a", "a.txt", "--b", "nope.txt")
    assert r.rc == 2 and "nope.txt" in r.err
    assert cli("diff", "text", "--a", "x", "--b", "x").rc == 0
    (files / "d1").mkdir()
    (files / "d2").mkdir()
    assert cli("diff", "dirs", "--a", "d1", "--b", "d2").rc == 0
    (files / "d2" / "n.txt").write_text("n\n")
    assert cli("diff", "dirs", "--a", "d1", "--b", "d2").rc == 1


def test_warnings_go_to_stderr_never_into_the_patch(files):
    a = "".join(f"old {i}\n" for i in range(300))
    b = "".join(f"new {i}\n" for i in range(300))
    (files / "x.txt").write_text(a)
    (files / "y.txt").write_text(b)
    r = cli("diff", "files", "--a", "x.txt", "--b", "y.txt", "--budget", "100", "--context", "99")
    assert r.rc == 1 and r.text.startswith("--- x.txt\n+++ y.txt\n@@ -1,300 +1,300 @@")
    assert "more than 100 lines differ" in r.err
    assert "context 99 is above the maximum of 50" in r.err


def test_json_output_for_scripts(files):
    r = cli("json", "get", "--text", '{"a": [1.10, 123456789012345678901234567890]}',
            "--path", "a", "--json")
    doc = json.loads(r.out)
    assert r.rc == 0 and doc["ok"] is True and doc["truncated"] is False
    assert b"[1.10,123456789012345678901234567890]" in r.out  # numbers exact
    r = cli("diff", "files", "--a", "a.txt", "--b", "b.txt", "--json")
    doc = json.loads(r.out)
    assert r.rc == 1 and doc["data"]["hunks"] == 2 and doc["output"].startswith("--- a.txt")
    r = cli("json", "get", "--text", "{", "--json")
    assert r.rc == 1 and json.loads(r.out)["ok"] is False


def test_verb_commands_take_any_path_and_workspace_confines(files, tmp_path_factory):
    other = tmp_path_factory.mktemp("elsewhere") / "doc.json"
    other.write_text('{"k": 1}')
    r = cli("json", "get", "--file", str(other), "--path", "k")
    assert r.rc == 0 and r.text == "1\n"
    r = cli("json", "get", "--file", str(other), "--path", "k", "--workspace", str(files))
    assert r.rc == 1 and "absolute paths are not allowed" in r.err
    r = cli("json", "get", "--file", "../x.json", "--workspace", str(files))
    assert r.rc == 1 and "outside the workspace" in r.err


def test_whole_results_by_default_and_max_bytes_cuts_with_status_3(files):
    big = json.dumps({"items": [{"id": i, "name": f"item-{i}", "tags": ["x"] * 5}
                                for i in range(3000)]})
    (files / "big.json").write_text(big)
    r = cli("json", "pretty", "--file", "big.json")
    assert r.rc == 0 and len(r.out) > 200_000
    assert json.loads(r.out) == json.loads(big)  # the whole document, valid JSON
    r = cli("json", "pretty", "--file", "big.json", "--max-bytes", "5000")
    assert r.rc == 3 and len(r.out) <= 5001 and "cut" in r.err
    first = r.text.split("\n", 1)[0]
    assert first.startswith("[output cut at 5,000 bytes")
    with pytest.raises(ValueError):
        json.loads(r.out)  # a cut document never reads as one
    a = "".join(f"row {i}\n" for i in range(4000))
    (files / "r1.txt").write_text(a)
    (files / "r2.txt").write_text(a.replace("0\n", "0!\n"))
    r = cli("diff", "files", "--a", "r1.txt", "--b", "r2.txt")
    assert r.rc == 1 and r.text.count("@@ -") == 400  # the whole patch, no cap
    r = cli("diff", "files", "--a", "r1.txt", "--b", "r2.txt", "--max-bytes", "4000")
    assert r.rc == 3 and r.text.startswith("# toolmend patch: hunks 1-")
    assert "this patch is incomplete" in r.text.split("\n", 1)[0]


def test_stdin_has_the_same_size_limit_as_files(files):
    r = cli("diff", "files", "--a", "-", "--b", "b.txt", stdin=b"x\n" * (3 * 1024 * 1024))
    assert r.rc == 2 and "the limit is 4.0 MB" in r.err


def test_bytes_that_are_not_utf8_survive_a_diff(files):
    (files / "l1.txt").write_bytes("café\nnaïve\n".encode("latin-1"))
    (files / "l2.txt").write_bytes("café!\nnaïve\n".encode("latin-1"))
    r = cli("diff", "files", "--a", "l1.txt", "--b", "l2.txt")
    assert r.rc == 1 and b"-caf\xe9\n+caf\xe9!\n" in r.out and b"\xef\xbf\xbd" not in r.out
    (files / "l.diff").write_bytes(r.out)
    assert cli("diff", "apply", "--file", "l1.txt", "--patch", "l.diff", "--write").rc == 0
    assert (files / "l1.txt").read_bytes() == (files / "l2.txt").read_bytes()


def test_repair_refuses_bytes_that_are_not_utf8():
    r = cli("repair", stdin=b'{"a": "caf\xe9"}')
    assert r.rc == 1 and "not valid UTF-8" in r.err and r.out == b""
    r = cli("repair", "--tool", "read_file", stdin=b"main.go\n")
    assert r.rc == 0 and json.loads(r.out) == {"file": "main.go"}


# ---------------------------------------------------------------------------
# failed writes: one line, exit 1, no traceback

@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
def test_a_full_disk_is_one_line_and_exit_1(files):
    with open("/dev/full", "wb") as full:
        run = subprocess.run([sys.executable, "-m", "toolmend", "json", "pretty", "--text",
                              '{"a": 1}'], stdout=full, stderr=subprocess.PIPE, timeout=60)
    assert run.returncode == 1
    assert run.stderr.decode().strip().count("\n") == 0, run.stderr
    assert b"No space left on device" in run.stderr and b"Traceback" not in run.stderr


def test_a_closed_pipe_is_one_line_and_exit_1(files):
    big = "[" + ",".join(str(i) for i in range(400_000)) + "]"
    (files / "n.json").write_text(big)
    proc = subprocess.Popen([sys.executable, "-m", "toolmend", "json", "pretty", "--file",
                             "n.json"], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.read(10)
    proc.stdout.close()
    err = proc.stderr.read()
    assert proc.wait(timeout=60) == 1
    assert b"Traceback" not in err and err.decode().strip().count("\n") == 0, err


# ---------------------------------------------------------------------------
# the agent paths keep their caps

def test_call_and_exec_keep_the_agent_caps(files):
    big = json.dumps([{"id": i, "text": "x" * 50} for i in range(2000)])
    (files / "big.json").write_text(big)
    r = cli("call", "@json", '{"cmd": "pretty", "args": {"file": "big.json"}}')
    assert r.rc == 3 and len(r.out) <= 24_001
    r = cli("call", "@json", '{"cmd": "get", "args": {"file": "/etc/passwd"}}')
    assert r.rc == 1 and "absolute paths are not allowed" in r.err
    message = ('Let me look.\n<tool_call name="@json" '
               'args=\'{"cmd": "keys", "args": {"file": "big.json"}}\' />')
    r = cli("exec", stdin=message)
    assert r.rc == 0 and "--- call 1: @json" in r.text
