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
    r = cli()  # no command: a usage error, the help on stderr, nothing on stdout
    assert r.rc == 2 and r.out == b"" and "usage: toolmend COMMAND" in r.err
    run = _toolmend()
    assert run.returncode == 2 and run.stdout == b"" and b"usage: toolmend COMMAND" in run.stderr
    for tool in ("json", "diff"):
        r = cli(tool)
        assert r.rc == 2 and r.out == b"" and f"usage: toolmend {tool} VERB" in r.err
        r = cli(tool, "--help")
        assert r.rc == 0 and r.text.startswith(f"usage: toolmend {tool} VERB") and r.err == ""


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
    # a cap past what any output holds is no cap (not an internal error)
    r = cli("json", "pretty", "--file", "big.json", "--max-bytes", str(2 ** 64))
    assert r.rc == 0 and json.loads(r.out) == json.loads(big)


def test_stdin_has_the_same_size_limit_as_files(files):
    # no limit by default; --max-size sets one, for standard input as for a file
    r = cli("diff", "files", "--a", "-", "--b", "b.txt", "--max-size", "4M",
            stdin=b"x\n" * (3 * 1024 * 1024))
    assert r.rc == 2 and "larger than the limit of 4.0 MB" in r.err
    r = cli("diff", "files", "--a", "-", "--b", "b.txt", stdin=b"x\n" * (3 * 1024 * 1024))
    assert r.rc == 1 and r.text.startswith("--- -\n+++ b.txt\n")


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



# ---------------------------------------------------------------------------
# the verb commands read what their users have: any size, FIFOs, <(...),
# /dev/null, files as words, --, -r, JSON Lines

def test_the_verb_commands_have_no_size_cap_and_max_size_sets_one(files):
    """Files over 20 MB (json) or 4 MB (diff) are read; --max-size sets a limit;
    the agent paths keep the documented caps."""
    big = b'{"k": "' + b"x" * (21 * 1024 * 1024) + b'", "n": 1}'
    (files / "big.json").write_bytes(big)
    r = cli("json", "get", "--file", "big.json", "--path", "n")
    assert (r.rc, r.text) == (0, "1\n")
    r = cli("json", "get", "big.json", "--path", "n", "--max-size", "20M")
    assert r.rc == 1 and "is 21.0 MB; the limit is 20.0 MB" in r.err
    r = cli("json", "get", "-", "--path", "n", stdin=big)
    assert (r.rc, r.text) == (0, "1\n")
    r = cli("json", "get", "-", "--path", "n", "--max-size", "1k", stdin=big)
    assert r.rc == 1 and "larger than the limit of 1.0 KB" in r.err
    r = cli("call", "@json", '{"cmd": "get", "args": {"file": "big.json", "path": "n"}}')
    assert r.rc == 1 and "the limit is 20.0 MB" in r.err
    lines = b"".join(b"line %d\n" % i for i in range(700_000))  # about 8 MB
    (files / "l1.txt").write_bytes(lines)
    (files / "l2.txt").write_bytes(lines.replace(b"line 5\n", b"line five\n", 1))
    r = cli("diff", "files", "l1.txt", "l2.txt")
    assert r.rc == 1 and b"-line 5\n+line five\n" in r.out
    r = cli("diff", "files", "l1.txt", "l2.txt", "--max-size", "4M")
    assert r.rc == 2 and "the limit is 4.0 MB" in r.err
    (files / "p.diff").write_bytes(r.out or cli("diff", "files", "l1.txt", "l2.txt").out)
    r = cli("diff", "apply", "--patch", "p.diff", "--file", "l1.txt")
    assert r.rc == 0, r.err  # an 8 MB file patched (a dry run)
    r = cli("call", "@diff", '{"cmd": "files", "args": {"a": "l1.txt", "b": "l2.txt"}}')
    assert r.rc == 1 and "the limit is 4.0 MB" in r.err
    for bad in ("ten", "-1", "5X", ""):
        r = cli("json", "get", "big.json", "--max-size", bad)
        assert r.rc == 2 and "--max-size takes a size" in r.err


@pytest.mark.skipif(not POSIX or not os.path.exists("/bin/bash"), reason="needs bash")
def test_process_substitution_fifos_and_dev_null_read_as_gnu_diff_reads_them(files):
    """<(...) and a named FIFO are read once, as a stream; /dev/null is empty."""
    script = ('"$0" -m toolmend diff files <(printf "a\\nb\\n") <(printf "a\\nc\\n"); echo "rc=$?"; '
              '"$0" -m toolmend json get <(printf \'{"k": [1, 2]}\') --path "k[1]"; '
              '"$0" -m toolmend diff apply --file x.txt --write --patch '
              '<(printf -- "--- x.txt\\n+++ x.txt\\n@@ -1 +1 @@\\n-a\\n+b\\n")')
    (files / "x.txt").write_text("a\n")
    import toolmend

    env = {**os.environ, "PYTHONPATH": os.path.dirname(os.path.dirname(toolmend.__file__))}
    run = subprocess.run(["/bin/bash", "-c", script, sys.executable], capture_output=True,
                         timeout=120, env=env)
    out = run.stdout.decode()
    assert "-b\n+c\n" in out and "rc=1" in out and "\n2\n" in out, (out, run.stderr)
    assert (files / "x.txt").read_text() == "b\n"
    r = cli("diff", "files", "/dev/null", "a.txt")
    assert r.rc == 1 and r.text.startswith("--- /dev/null\n+++ a.txt\n@@ -0,0 +1,30 @@\n")
    r = cli("diff", "files", "a.txt", "/dev/null")
    assert r.rc == 1 and "@@ -1,30 +0,0 @@" in r.text
    assert cli("diff", "files", "/dev/null", "/dev/null").rc == 0
    r = cli("json", "validate", "/dev/null")
    assert r.rc == 1 and "empty input" in r.text
    fifo = files / "fifo"
    os.mkfifo(fifo)
    writer = subprocess.Popen([sys.executable, "-c", f"open({str(fifo)!r}, 'w').write({NEW!r})"])
    r = cli("diff", "files", "a.txt", str(fifo))
    writer.wait(timeout=60)
    assert r.rc == 1 and "-line 5\n+line five\n" in r.text
    # an agent's call never waits on a pipe
    r = cli("call", "@diff", '{"cmd": "files", "args": {"a": "a.txt", "b": "fifo"}}')
    assert r.rc == 1 and "not a regular file" in r.err
    if os.path.exists("/dev/zero"):
        r = cli("diff", "files", "a.txt", "/dev/zero")
        assert r.rc == 2 and "a device, not a file or a pipe" in r.err


def test_files_as_words_where_jq_and_diff_take_them(files):
    (files / "doc.json").write_text('{"p": {"q": [1, "two"]}}')
    assert cli("json", "get", "doc.json", "--path", "p.q[1]").text == '"two"\n'
    assert cli("json", "get", "--path", "p.q[1]", "doc.json").text == '"two"\n'
    assert cli("json", "get", "--file", "doc.json", "--path", "p.q[1]").text == '"two"\n'
    assert cli("json", "keys", "doc.json").rc == 0
    assert cli("json", "get", "-", "--path", "a", stdin='{"a": 5}').text == "5\n"
    r = cli("diff", "files", "a.txt", "b.txt")
    assert r.rc == 1 and r.text.startswith("--- a.txt\n+++ b.txt\n")
    assert cli("diff", "files", "--a", "a.txt", "b.txt").text == r.text  # one as an option
    assert cli("diff", "files", "a.txt", "a.txt").rc == 0
    (files / "d1").mkdir()
    (files / "d2").mkdir()
    (files / "d2" / "new.txt").write_text("n\n")
    r = cli("diff", "dirs", "d1", "d2")
    assert r.rc == 1 and "A new.txt" in r.text
    r = cli("diff", "files", "a.txt", "b.txt", "c.txt")
    assert r.rc == 2 and "unexpected 'c.txt'" in r.err
    r = cli("json", "get", "--file", "doc.json", "doc.json")
    assert r.rc == 2 and "unexpected 'doc.json'" in r.err and "--file" in r.err
    r = cli("diff", "text", "a", "b")
    assert r.rc == 2 and "unexpected 'a'" in r.err


def test_double_dash_ends_the_options(files):
    (files / "-x.json").write_text('{"k": 1}')
    (files / "--b").write_text(NEW)
    assert cli("json", "get", "--path", "k", "--", "-x.json").text == "1\n"
    r = cli("json", "get", "-x.json")
    assert r.rc == 2 and "-- -x.json" in r.err
    r = cli("diff", "files", "--", "a.txt", "--b")
    assert r.rc == 1 and r.text.startswith("--- a.txt\n+++ --b\n")


def test_raw_output_of_strings_as_jq_r(files):
    (files / "doc.json").write_text('{"s": "tab\\there \\u00e9 \\"q\\"", "n": 1.50, "o": {"a": 1},'
                                    ' "l": ["x", 2, null]}')
    assert cli("json", "get", "doc.json", "--path", "s", "-r").out == 'tab\there é "q"\n'.encode()
    assert cli("json", "get", "doc.json", "--path", "s", "--raw").rc == 0
    assert cli("json", "get", "doc.json", "--path", "s").text == '"tab\\there \\u00e9 \\"q\\""\n' \
        or cli("json", "get", "doc.json", "--path", "s").text.startswith('"tab\\t')
    assert cli("json", "get", "doc.json", "--path", "n", "-r").text == "1.50\n"  # not a string: JSON
    assert cli("json", "get", "doc.json", "--path", "o", "-r").text == '{\n  "a": 1\n}\n'
    assert cli("json", "get", "doc.json", "--path", "l[*]", "-r").text == "x\n2\nnull\n"
    r = cli("json", "keys", "doc.json", "-r")
    assert r.rc == 2 and "unknown option -r" in r.err
    (files / "long.json").write_text(json.dumps({"s": "y" * 5000}))
    r = cli("json", "get", "long.json", "--path", "s", "-r", "--max-bytes", "2000")
    assert r.rc == 3 and r.text.startswith("[output cut")  # a cut answer never passes for whole
    r = cli("json", "get", "-", "--path", "s", "-r", stdin='{"s": "lone \\ud800 pair \\ud83d\\ude00"}')
    assert r.rc == 0 and r.out == "lone \ufffd pair \U0001f600\n".encode()


JSONL = (b'{"name": "web1", "status": "ok", "n": 1}\n'
         b'{"name": "db", "status": "failed", "n": 2}\n'
         b'\n'
         b'{"name": "web2", "status": "failed", "n": 3.10}\n')


def test_json_lines_input(files):
    (files / "log.jsonl").write_bytes(JSONL)
    r = cli("json", "get", "log.jsonl", "--path", "[1].name")
    assert (r.rc, r.text) == (0, '"db"\n')
    r = cli("json", "get", "log.jsonl", "--path", "[-1].n")
    assert r.text == "3.10\n"  # numbers exact
    r = cli("json", "query", "log.jsonl", "--where", "status=failed", "--select", "name")
    assert r.rc == 0 and r.text.startswith("2 of 3 rows in $ matched where status=failed")
    assert '[1]: {"name":"db"}' in r.text and '[2]: {"name":"web2"}' in r.text
    r = cli("json", "keys", "log.jsonl")
    assert r.rc == 0 and r.text.startswith("$: array[3]") and "[0]: object{3}" in r.text
    r = cli("json", "schema", "log.jsonl")
    assert r.rc == 0 and "name: string" in r.text
    r = cli("json", "validate", "log.jsonl")
    assert (r.rc, r.text) == (0, "valid JSON Lines\n")
    r = cli("json", "get", "-", "--format", "jsonl", "--path", "[0].n", stdin=JSONL)
    assert r.text == "1\n"
    (files / "bad.jsonl").write_bytes(JSONL + b'{"name": "x", "n": }\n')
    r = cli("json", "get", "bad.jsonl")
    assert r.rc == 1 and "not valid JSON Lines" in r.err and "line 5, column 20" in r.err
    r = cli("json", "validate", "bad.jsonl")
    assert r.rc == 1 and r.text.startswith("invalid JSON Lines: expected a value") \
        and "line 5" in r.text
    # JSON Lines read as JSON: the error says what it is
    r = cli("json", "get", "-", stdin=JSONL)
    assert r.rc == 1 and "JSON Lines: format jsonl" in r.err


def test_broken_yaml_on_stdin_reports_the_yaml_error(files):
    r = cli("json", "get", "-", stdin="a: 1\n  b: 2\n")
    assert r.rc == 1 and "not valid YAML" in r.err and "line 2" in r.err
    r = cli("json", "validate", "-", stdin="key: [1, 2\nother: 3\n")
    assert r.rc == 1 and "invalid YAML" in r.text
    r = cli("json", "validate", "-", stdin="- a\n- b: [\n")
    assert r.rc == 1 and "invalid YAML" in r.text
    r = cli("json", "get", "-", stdin='{"a": 1,}')  # JSON still gets the JSON error
    assert r.rc == 1 and "not valid JSON" in r.err
    r = cli("json", "get", "-", stdin="hello there")
    assert r.rc == 1 and "not valid JSON" in r.err


ROWS = json.dumps([{"name": "web1", "a": 1, "b": 3, "price": 10, "code": "10"},
                   {"name": "db", "a": 2, "b": 1, "price": 5, "code": "9"},
                   {"name": "web2", "a": 1, "b": 1, "price": 7, "code": "12"}])


@pytest.mark.parametrize("where,note", [
    ("name=~web", "a regex match is written name~web"),
    ("a=1 and b>2", "did you mean 'a=1 && b>2'?"),
    ("price>abc", "price holds numbers and 'abc' is not one"),
])
def test_query_notes_an_empty_answer_the_issue_repros(files, where, note):
    (files / "rows.json").write_text(ROWS)
    r = cli("json", "query", "--file", "rows.json", "--where", where)
    assert r.rc == 0 and r.text.startswith("0 of 3 rows in $ matched")
    assert f"toolmend: note: where {where!r}: " in r.err and note in r.err


def test_query_sort_and_select_fields_get_a_did_you_mean(files):
    (files / "rows.json").write_text(ROWS)
    r = cli("json", "query", "--file", "rows.json", "--sort", "pirce")
    assert r.rc == 1 and "sort field 'pirce'" in r.err and "did you mean 'price'?" in r.err
    r = cli("json", "query", "--file", "rows.json", "--select", "nmae")
    assert r.rc == 0 and "did you mean 'name'?" in r.err


def test_identical_files_write_no_patch_on_standard_output(tmp_path, monkeypatch):
    # (as GNU diff: a patch file made of them is empty, not a sentence)
    monkeypatch.chdir(tmp_path)
    (tmp_path / "s1").write_text("same\n")
    (tmp_path / "s2").write_text("same\n")
    r = cli("diff", "files", "s1", "s2")
    assert r.rc == 0 and r.out == b""
    r = cli("diff", "text", "--a", "x", "--b", "x")
    assert r.rc == 0 and r.out == b""
    r = cli("diff", "files", "s1", "s2", "--json")
    assert r.rc == 0 and b"are identical" in r.out


@pytest.mark.parametrize("verb", [("keys",), ("schema",), ("get", "--path", "*"), ("pretty",)])
def test_a_key_holding_an_escaped_lone_surrogate_is_written_as_its_escape(files, verb):
    # (valid JSON, which UTF-8 cannot write as it reads: the escape, never a traceback)
    (files / "sur.json").write_text('{"k\\ud800": {"x": 1}}')
    run = cli("json", verb[0], "sur.json", *verb[1:])
    assert run.rc == 0, run.err
    assert "\\ud800" in run.out.decode("utf-8") and "Traceback" not in run.err
