"""The ``toolmend`` command line: it mirrors the library and the tools.

usage: toolmend COMMAND [options]      (toolmend COMMAND --help for each)

  demo                                  recover the bundled examples and run a model's tool calls
  repair [--tool T] [--quotes MODE] [--schema FILE] [--explain] [--json] [TEXT | -]
                                        recover tool-call arguments (standard input without TEXT;
                                        also as recover)
  json VERB [options]                   get, keys, query, schema, validate, pretty
  diff VERB [options]                   files, text, dirs, apply
  call TOOL ARGS|- [--workspace DIR] [--json]
                                        run one tool call as an agent would (capped output)
  exec [--workspace DIR] [--json]       run the @json/@diff calls in model text (standard input)
  --version, --help

The verb commands read inputs of any size (--max-size SIZE sets a limit),
FIFOs and <(...) included, write the whole result (--max-bytes N caps it) and
take any path; --workspace DIR confines paths as for an agent. Their files may
be given as words (toolmend json get FILE --path P, toolmend diff files A B);
-- ends the options. call and exec are the agent paths: paths stay in the
workspace (default: this folder), inputs are capped at 20 MB (json) / 4 MB
(diff) and output at 24,000 (json) / 30,000 (diff) bytes.

Exit status: 0 success (diff files/text/dirs: no differences); 1 refused
input, an invalid document (json validate), a patch that does not apply, or
differences found (diff files/text/dirs, as GNU diff); 2 a usage error, or
trouble in diff files/text/dirs (as GNU diff); 3 the output was cut (at
--max-bytes, or at an agent cap): the notice is on stderr.
"""

from __future__ import annotations

import os
import re
import sys
from typing import Any, BinaryIO, Sequence

from . import __version__
from ._cliargs import COMMON, HelpWanted, UsageError, parse, parse_size, positional, verb_help, verbs

USAGE = (__doc__ or "").split("\n\n")[1]
EXIT_OK, EXIT_REFUSED, EXIT_USAGE, EXIT_CUT = 0, 1, 2, 3
#: Most bytes the agent paths (call, exec) and repair read from standard input
#: (the largest file a verb takes is 20 MB); the verb commands read any size.
STDIN_LIMIT = 20 * 1024 * 1024 + 1
_CHUNK = 1 << 20

class _Stdin:
    """Standard input, read once: at most STDIN_LIMIT bytes, or ``cap``
    (None: all of it, a chunk at a time)."""

    def __init__(self, cap: int | None = STDIN_LIMIT - 1) -> None:
        self.data: bytes | None = None
        self.cap = cap

    def read(self, what: str) -> bytes:
        if self.data is not None:
            raise UsageError(f"{what}: standard input ('-') is already used by another option")
        stream = getattr(sys.stdin, "buffer", None)
        if stream is None:
            raise UsageError(f"{what}: there is no standard input to read")
        if self.cap is None:
            parts = []
            while chunk := stream.read(_CHUNK):
                parts.append(chunk)
            self.data = b"".join(parts)
            return self.data
        self.data = stream.read(self.cap + 1)
        if len(self.data) > self.cap:
            from ._text import human_size

            raise _Refused(f"{what}: standard input is larger than the limit of "
                           f"{human_size(self.cap)}")
        return self.data


class _Refused(Exception):
    """Input refused before a verb ran (exit status 1)."""


def _err(message: str) -> None:
    sys.stderr.write(f"toolmend: {message}\n")


def _write(data: str | bytes) -> None:
    """Write to stdout; a failed write (a full disk, a closed pipe) raises OSError."""
    out: BinaryIO = sys.stdout.buffer
    if isinstance(data, str):
        text = data
        try:  # (a byte of a file that is not UTF-8 stands as its escape surrogate: written as that byte)
            data = text.encode("utf-8", "surrogateescape")
        except UnicodeEncodeError:  # a lone surrogate that is no byte (a JSON escape's, \ud800): its escape
            data = _NO_BYTE.sub(lambda m: f"\\u{ord(m.group()):04x}", text).encode("utf-8", "surrogateescape")
    view = memoryview(data)
    while view:
        # With PYTHONUNBUFFERED the stream is raw: one write may take only a part.
        written = out.write(view)
        if written is None:  # a non-blocking stream that is full
            raise OSError("standard output would block")
        view = view[written:]
    out.flush()


# the surrogates that stand for no byte (surrogateescape writes U+DC80-U+DCFF as bytes 0x80-0xFF)
_NO_BYTE = re.compile("[\ud800-\udc7f\udd00-\udfff]")


def _dumps(value: Any) -> str:
    from .json import dumps

    return dumps(value)


def _tool_args(tool: str, verb: str, opts: dict[str, object], stdin: _Stdin,
               cap: int | None) -> dict[str, Any]:
    """The tool arguments of parsed command-line options."""
    options = {o.key: o for o in verbs()[(tool, verb)]}
    setters: dict[str, list[str]] = {}  # tool argument -> the options given that set it
    for key, value in opts.items():
        opt = options[key]
        target = opt.stdin_arg if opt.stdin_arg and value == "-" else opt.tool_arg
        setters.setdefault(target, []).append(opt.name)
    for names in setters.values():
        if len(names) > 1:
            order = [o.name for o in options.values() if o.name in names]
            raise UsageError(f"give {' or '.join('--' + n for n in order)}, not both")
    args: dict[str, Any] = {}
    for key, value in opts.items():
        opt = options[key]
        name = opt.tool_arg
        if opt.kind == "patch" and isinstance(value, str):
            args[name] = stdin.read(f"--{opt.name}") if value == "-" else _read_patch(value, cap)
        elif opt.kind in ("path", "text") and value == "-":
            data = stdin.read(f"--{opt.name}")
            if opt.stdin_arg:
                args[opt.stdin_arg] = data  # the document's bytes (a BOM, UTF-8 checked)
            elif opt.kind == "path":
                args[name] = data
            else:
                args[name] = data.decode("utf-8", "surrogateescape")
        elif opt.invert:
            args[name] = not value
        else:
            args[name] = value
    return args


def _read_patch(path: str, cap: int | None) -> bytes:
    """The patch file (any path; a FIFO, <(git diff), is read as a stream)."""
    from .errors import WorkspaceError
    from .tools import Workspace

    try:
        return Workspace(".", confined=False, max_size=cap, pipes=True).read_bytes(
            path, 0, what="--patch")
    except WorkspaceError as exc:
        raise _Refused(str(exc)) from None


def _verb(tool: str, words: list[str]) -> int:
    table = verbs()
    names = sorted({v for t, v in table if t == tool})
    if not words or words[0] in ("-h", "--help"):
        text = (f"usage: toolmend {tool} VERB [options]\n\nverbs: {', '.join(names)} "
                f"(toolmend {tool} VERB --help for each)\n")
        if not words:  # a usage error: the help goes to stderr, as the error would
            sys.stderr.write(text)
            return EXIT_USAGE
        _write(text)
        return EXIT_OK
    verb = words[0]
    if (tool, verb) not in table:
        raise UsageError(f"{tool} has no verb {verb!r}; the verbs are {', '.join(names)}")
    try:
        opts = parse(words[1:], table[(tool, verb)] + COMMON, positional().get((tool, verb), ()))
    except HelpWanted:
        _write(verb_help(tool, verb) + "\n")
        return EXIT_OK
    as_json = bool(opts.pop("json", False))
    raw = bool(opts.pop("raw", False))
    limit = _max_bytes(opts.pop("max_bytes", None))
    size = opts.pop("max_size", None)
    cap = None if size is None else parse_size(str(size))
    workspace = opts.pop("workspace", None)
    stdin = _Stdin(cap)
    try:
        args = _tool_args(tool, verb, opts, stdin, cap)
    except _Refused as exc:  # an input too large or unreadable: trouble, for diff as GNU diff
        _err(str(exc))
        return EXIT_USAGE if tool == "diff" and verb in ("files", "text", "dirs") else EXIT_REFUSED
    from .tools import Workspace, run_verb

    try:
        # a person's reading: no size cap unless --max-size, FIFOs and /dev/null as diff reads them
        ws = (Workspace(str(workspace), max_size=cap, pipes=True) if workspace is not None
              else Workspace(".", confined=False, max_size=cap, pipes=True))
    except ValueError as exc:
        raise _Refused(str(exc)) from None
    result = run_verb(tool, verb, args, ws, limit=limit)
    if raw and result.ok and not as_json and not result.truncated:  # a cut answer says so instead
        return _raw(result, str(opts.get("path", "")))
    return _finish(result, tool, verb, as_json)


def _raw(result: Any, path: str) -> int:
    """``json get -r`` (as jq -r): each value on a line of its own, a string
    as its text (no quotes, no escapes; a lone surrogate as U+FFFD), another
    value as the JSON get writes (compact when the path fans out)."""
    from .json import dumps, parse_path

    for warning in result.warnings:
        _err(warning)
    fanned = any(not isinstance(seg, (str, int)) for seg in parse_path(path))  # * or a slice
    if not fanned and not isinstance(result.data, str):
        _write(result.output.rstrip("\n") + "\n")
        return EXIT_CUT if result.truncated else EXIT_OK
    parts = []
    for value in (result.data if fanned else [result.data]):
        if isinstance(value, str):
            parts.append(value.encode("utf-16", "surrogatepass").decode("utf-16", "replace"))
        else:
            parts.append(dumps(value))
    _write("".join(part + "\n" for part in parts))
    return EXIT_OK


def _max_bytes(value: object) -> int | None:
    if value is None:
        return None
    try:
        n = int(str(value))
    except ValueError:
        raise UsageError(f"--max-bytes takes a number of bytes, not {value!r}") from None
    if n < 1024:
        raise UsageError(f"--max-bytes {n}: at least 1024 (room for the notice of a cut)")
    return min(n, sys.maxsize)  # (more than any output can hold: no cap, as written)


def _finish(result: Any, tool: str, verb: str, as_json: bool) -> int:
    """Write a result; the exit status it means."""
    for warning in result.warnings:
        _err(warning)
    if as_json:
        _write(_dumps({"ok": result.ok, "output": result.output, "data": result.data,
                       "warnings": list(result.warnings), "truncated": result.truncated}) + "\n")
    elif result.ok and not (tool == "diff" and verb in ("files", "text") and isinstance(result.data, dict)
                            and result.data.get("identical")):
        # (identical inputs: no patch, and nothing on standard output, as GNU diff)
        body = result.raw if result.raw is not None else result.output
        if isinstance(body, str) and body and not body.endswith("\n"):
            body += "\n"
        _write(body)
    differs = tool == "diff" and verb in ("files", "text", "dirs")
    if not result.ok:
        if not as_json:
            _err(result.output.removeprefix("error: "))
        return EXIT_USAGE if differs else EXIT_REFUSED
    if result.truncated:
        _err("the output was cut (see its first line): it is not the whole result; "
             "raise --max-bytes or narrow the request")
        return EXIT_CUT
    data = result.data if isinstance(result.data, dict) else {}
    if tool == "diff" and verb == "apply" and data.get("dry_run") and not data.get("written"):
        if any(f.get("changed") for f in data.get("files", [])):
            _err("dry run: nothing was written (--write applies the patch)")
    if tool == "json" and verb == "validate" and data.get("valid") is False:
        return EXIT_REFUSED
    if differs:
        if verb == "dirs":
            if data.get("unreadable"):  # trouble, as GNU diff: the comparison is incomplete
                return EXIT_USAGE
            return EXIT_REFUSED if (data.get("added") or data.get("removed")
                                    or data.get("changed")) else EXIT_OK
        return EXIT_OK if data.get("identical") else EXIT_REFUSED
    return EXIT_OK


def _repair(words: list[str]) -> int:
    from .recovery import QUOTE_MODES, normalize_tool_args

    takes_value = {"tool": True, "quotes": True, "schema": True, "explain": False, "json": False}
    opts: dict[str, Any] = {}
    rest: list[str] = []
    i = 0
    while i < len(words):
        w = words[i]
        name, eq, value = w[2:].partition("=") if w.startswith("--") else ("", "", "")
        if w in ("-h", "--help"):
            _write("usage: toolmend repair [--tool T] [--quotes structural|always|off] "
                   "[--schema FILE] [--explain] [--json] [TEXT | -]\n\nRecover tool-call arguments: "
                   "the JSON text on stdout; --explain shows the strategy and each fix on stderr;\n"
                   "--schema FILE checks them against a JSON Schema (or, with --tool, the tool's in a\n"
                   "file of tool definitions: OpenAI, Anthropic or an MCP tools/list result);\n"
                   "exit status 1 when nothing could be recovered (the reason on stderr).\n")
            return EXIT_OK
        if name in takes_value:
            if takes_value[name]:
                if not eq:
                    if i + 1 >= len(words):
                        raise UsageError(f"--{name} needs a value")
                    value = words[i + 1]
                    i += 1
                opts[name] = value
            else:
                opts[name] = True
        elif w.startswith("--") and w != "--":
            raise UsageError(f"unknown option {w}; repair takes --tool, --quotes, --schema, --explain, "
                             "--json")
        else:
            rest.append(w)
        i += 1
    quotes = str(opts.get("quotes", "structural"))
    if quotes not in QUOTE_MODES:
        raise UsageError(f"--quotes must be one of {', '.join(QUOTE_MODES)}")
    if len(rest) > 1:
        raise UsageError("repair takes one TEXT argument (or - / nothing for standard input)")
    if not rest or rest[0] == "-":
        raw: bytes = _Stdin().read("repair")
    else:  # a command-line word holds the bytes it was given (as surrogate escapes)
        raw = rest[0].encode("utf-8", "surrogateescape")
    schema = _schema_file(str(opts["schema"]), opts.get("tool")) if "schema" in opts else None
    r = normalize_tool_args(raw, opts.get("tool"), quotes=quotes, schema=schema)
    fixes = list(getattr(r, "fixes", None) or ())
    if opts.get("json"):
        _write(_dumps({"ok": r.ok, "text": r.text if r.ok else None, "strategy": r.strategy,
                       "value": r.value, "error": r.error,
                       "fixes": [_fix(f) for f in fixes],
                       **({"problems": [p._asdict() for p in r.problems]} if hasattr(r, "problems") else {})
                       }) + "\n")
        return EXIT_OK if r.ok else EXIT_REFUSED
    if not r.ok:
        _err(f"not recovered: {r.error}")
        return EXIT_REFUSED
    _write(r.text + "\n")
    if opts.get("explain"):
        sys.stderr.write(f"strategy: {r.strategy}\n")
        for f in fixes:
            d = _fix(f)
            sys.stderr.write(f"fix: {d.get('code')} at offset {d.get('offset')}: "
                             f"{d.get('message')}\n")
    return EXIT_OK


def _schema_file(path: str, tool: Any) -> Any:
    """``repair --schema FILE``: a JSON Schema, or (with --tool) that tool's in
    a file of tool definitions."""
    import json

    from .errors import SchemaError
    from .recovery import Schema, tool_schemas

    try:
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
    except (OSError, ValueError) as exc:
        raise UsageError(f"--schema {path}: {exc}") from None
    try:
        if isinstance(data, list) or (isinstance(data, dict) and ("tools" in data or "result" in data)):
            tools = tool_schemas(data)
            if tool not in tools:
                raise UsageError(f"--schema {path} holds tool definitions: name one of them with "
                                 f"--tool ({', '.join(sorted(tools)) or 'none'})")
            return tools[tool]
        return Schema(data)
    except SchemaError as exc:
        raise UsageError(f"--schema {path}: {exc}") from None


def _fix(fix: Any) -> dict[str, Any]:
    if isinstance(fix, dict):
        return fix
    return {k: getattr(fix, k, None) for k in ("code", "offset", "message")}


def _workspace_only(words: list[str], usage: str) -> tuple[str, bool]:
    workspace, as_json, i = ".", False, 0
    while i < len(words):
        w = words[i]
        if w == "--json":
            as_json = True
        elif w == "--workspace" and i + 1 < len(words):
            workspace = words[i + 1]
            i += 1
        elif w.startswith("--workspace="):
            workspace = w.split("=", 1)[1]
        else:
            raise UsageError(f"unexpected {w!r}; usage: {usage}")
        i += 1
    return workspace, as_json


# the usage and help of the commands that run tool calls
_RUN_HELP = {
    "call": ("toolmend call TOOL ARGS|- [--workspace DIR] [--json]",
             "Run one tool call as an agent would: ARGS is {\"cmd\": VERB, \"args\": {...}} as "
             "(possibly malformed) text; paths stay in the workspace; output capped."),
    "exec": ("toolmend exec [--workspace DIR] [--json] < model-output.txt",
             "Find the tool calls in model text on standard input and run the @json/@diff ones as an "
             "agent would (paths in the workspace, capped output);\na call that is not whole or not "
             "readable is reported and never run."),
}


def _usage(words: list[str], command: str) -> str | None:
    """The command's usage line, or None when it was asked for its help
    (``-h``/``--help`` alone), which is then written."""
    usage, text = _RUN_HELP[command]
    if words[:1] not in (["-h"], ["--help"]):
        return usage
    _write(f"usage: {usage}\n\n{text}\n")
    return None


def _call(words: list[str]) -> int:
    usage = _usage(words, "call")
    if usage is None:
        return EXIT_OK
    if len(words) < 2:
        raise UsageError(f"usage: {usage}")
    workspace, as_json = _workspace_only(words[2:], usage)
    raw: str | bytes = _Stdin().read("call") if words[1] == "-" else words[1]
    from .tools import run_tool

    result = run_tool(words[0], raw, workspace=workspace)
    return _finish(result, "call", "", as_json)


def _exec(words: list[str]) -> int:
    """Find the tool calls in model text on stdin; run ours, report the rest."""
    usage = _usage(words, "exec")
    if usage is None:
        return EXIT_OK
    workspace, as_json = _workspace_only(words, usage)
    from .recovery import json_text, parse_tool_calls
    from .tools import TOOLS, run_tool

    text = _Stdin().read("exec").decode("utf-8", "replace")
    calls = parse_tool_calls(text)
    if not calls:
        _err("no tool call found on standard input")
        return EXIT_REFUSED
    failed = 0
    report = []
    for n, call in enumerate(calls, 1):
        mine = call.name.strip().lstrip("@").lower() in TOOLS
        if not mine:
            entry = {"name": call.name, "ok": call.ok, "args": call.args, "error": call.error,
                     "run": False}
            line = (f"--- call {n}: {call.name or '(no name)'}\nnot a toolmend tool; recovered "
                    f"arguments: {json_text(call.args) if call.ok else call.error}")
            failed += not call.ok
        elif not call.ok:  # cut off or unreadable: never run, and its text is not passed on
            entry = {"name": call.name, "ok": False, "error": call.error, "run": False}
            if call.cut is not None:
                entry["cut"] = {"offset": call.cut.offset, "what": call.cut.what}
            line = f"--- call {n}: {call.name}\nerror: not run: {call.error}"
            failed += 1
        else:
            result = run_tool(call.name, call.args, workspace=workspace)
            entry = {"name": call.name, "ok": result.ok, "output": result.output,
                     "data": result.data, "run": True}
            line = f"--- call {n}: {call.name}\n{result.output}"
            failed += not result.ok
        report.append(entry)
        if not as_json:
            _write(line + "\n")
    if as_json:
        _write(_dumps(report) + "\n")
    return EXIT_REFUSED if failed else EXIT_OK


def _version() -> str:
    from . import compiled

    kind = "compiled kernels" if compiled else "pure-Python twins"
    return f"toolmend {__version__} ({kind}; Python {sys.version.split()[0]})"


def _dispatch(command: str, rest: list[str]) -> int:
    if command == "demo":
        from .demo import run_demo

        return run_demo(rest)
    if command in ("repair", "recover"):  # recover: the library's word for it
        return _repair(rest)
    if command in ("json", "diff"):
        return _verb(command, rest)
    if command == "call":
        return _call(rest)
    if command == "exec":
        return _exec(rest)
    raise UsageError(f"unknown command {command!r}; the commands are demo, repair, json, diff, "
                     "call, exec")


def main(argv: Sequence[str] | None = None) -> int:
    if sys.stdout is None or sys.stderr is None:
        return EXIT_REFUSED  # nowhere to write (a closed stream): nothing useful to do
    reconfigure = getattr(sys.stderr, "reconfigure", None)
    if reconfigure is not None:  # text from the input may hold what the terminal cannot show
        reconfigure(errors="backslashreplace")
    words = list(sys.argv[1:] if argv is None else argv)
    try:
        if not words:  # a usage error: the help on stderr, stdout left empty
            sys.stderr.write((__doc__ or "").strip() + "\n")
            return EXIT_USAGE
        if words[0] in ("-h", "--help", "help"):
            _write((__doc__ or "").strip() + "\n")
            return EXIT_OK
        if words[0] in ("-V", "--version"):
            _write(_version() + "\n")
            return EXIT_OK
        return _dispatch(words[0], words[1:])
    except UsageError as exc:
        _err(str(exc))
        _err("(toolmend --help, or toolmend COMMAND --help)")
        return EXIT_USAGE
    except _Refused as exc:
        _err(str(exc))
        return EXIT_REFUSED
    except KeyboardInterrupt:
        return 130
    except OSError as exc:  # writing the output failed: a full disk, a closed pipe
        _silence_stdout()
        _err(f"cannot write the output: {exc.strerror or exc}")
        return EXIT_REFUSED


def _silence_stdout() -> None:
    """After a failed write, point stdout at /dev/null so that the flush at
    exit does not fail a second time (with a traceback)."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):
        pass


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
