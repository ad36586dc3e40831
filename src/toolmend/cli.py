"""The ``toolmend`` command line: it mirrors the library and the tools.

    toolmend demo                          recover the bundled examples
    toolmend repair [--tool T] [TEXT|-]    recover tool-call arguments
    toolmend json VERB --file F [--path P ...]
    toolmend diff VERB --a A --b B [...]
    toolmend call TOOL ARGS                run a tool call given as JSON text
    toolmend exec [--workspace DIR]        run the @json/@diff calls in model text (stdin)

Exit status: 0 on success, 1 when the input was refused (the reason goes to
stderr), 2 on a usage error.
"""

from __future__ import annotations

import sys
from typing import Any, Sequence

import orjson

USAGE = __doc__.split("\n\n")[1] if __doc__ else ""


def _err(message: str) -> None:
    print(f"toolmend: {message}", file=sys.stderr)


def _read_stdin() -> str:
    data = sys.stdin.buffer.read()
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    return data.decode("utf-8", "surrogateescape")


def _tool_args(tool: str, words: Sequence[str]) -> dict[str, Any]:
    """``--name value`` pairs (``--flag`` alone means true) as a tool's args.

    A value of ``-`` is read from standard input; for @json, ``--file -``
    becomes ``text`` (the document itself).
    """
    args: dict[str, Any] = {}
    i = 0
    while i < len(words):
        word = words[i]
        if not word.startswith("--") or len(word) == 2:
            raise SystemExit(_usage_error(f"expected --name value, got {word!r}"))
        name, eq, value = word[2:].partition("=")
        name = name.replace("-", "_")
        if not eq:
            if i + 1 < len(words) and not words[i + 1].startswith("--"):
                value = words[i + 1]
                i += 1
            else:
                args[name] = True
                i += 1
                continue
        if value == "-":
            value = _read_stdin()
            if tool == "json" and name == "file":
                name = "text"
        if name in args:  # given twice: a list (--select id --select name)
            before = args[name]
            args[name] = (before if isinstance(before, list) else [before]) + [value]
        else:
            args[name] = value
        i += 1
    return args


def _usage_error(message: str) -> int:
    _err(message)
    print(USAGE, file=sys.stderr)
    return 2


def _emit(result: Any) -> int:
    if result.ok:
        out = result.output
        sys.stdout.write(out if out.endswith("\n") else out + "\n")
        return 0
    _err(result.output.removeprefix("error: "))
    return 1


def _repair(words: list[str]) -> int:
    from .recovery import QUOTE_MODES, normalize_tool_args

    tool = None
    quotes = "structural"
    show = False
    rest: list[str] = []
    i = 0
    while i < len(words):
        w = words[i]
        if w in ("--tool", "--quotes"):
            if i + 1 >= len(words):
                return _usage_error(f"{w} needs a value")
            if w == "--tool":
                tool = words[i + 1]
            else:
                quotes = words[i + 1]
            i += 2
            continue
        if w == "--explain":
            show = True
        else:
            rest.append(w)
        i += 1
    if quotes not in QUOTE_MODES:
        return _usage_error(f"--quotes must be one of {', '.join(QUOTE_MODES)}")
    if len(rest) > 1:
        return _usage_error("repair takes one TEXT argument (or - / nothing for stdin)")
    text = _read_stdin() if not rest or rest[0] == "-" else rest[0]
    r = normalize_tool_args(text, tool, quotes=quotes)
    if not r.ok:
        _err(f"not recovered: {r.error}")
        return 1
    print(r.text)
    if show:
        print(f"strategy: {r.strategy}", file=sys.stderr)
        for fix in r.fixes:
            print(f"fix: {fix.code} at offset {fix.offset}: {fix.message}", file=sys.stderr)
    return 0


def _exec(words: list[str]) -> int:
    """Find the tool calls in model text on stdin; run ours, report the rest."""
    from .recovery import json_text, parse_tool_calls
    from .tools import TOOLS, run_tool

    workspace = "."
    if words[:1] == ["--workspace"] and len(words) == 2:
        workspace = words[1]
    elif words:
        return _usage_error("usage: toolmend exec [--workspace DIR] < model-output.txt")
    calls = parse_tool_calls(_read_stdin())
    if not calls:
        _err("no <tool_call> found on standard input")
        return 1
    failed = 0
    for n, call in enumerate(calls, 1):
        print(f"--- call {n}: {call.name or '(no name)'}")
        if call.name.strip().lstrip("@").lower() not in TOOLS:
            print(f"not a toolmend tool; recovered arguments: "
                  f"{json_text(call.args) if call.ok else call.error}")
            failed += not call.ok
            continue
        result = run_tool(call.name, call.args if call.ok else call.raw_args, workspace=workspace)
        print(result.output)
        failed += not result.ok
    return 1 if failed else 0


def main(argv: Sequence[str] | None = None) -> int:
    if sys.stdout is None or sys.stderr is None:
        return 1  # nowhere to write (a closed stream): nothing useful to do
    for stream in (sys.stdout, sys.stderr):
        # text from the input may hold what the terminal's encoding cannot
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            reconfigure(errors="backslashreplace")
    words = list(sys.argv[1:] if argv is None else argv)
    if not words or words[0] in ("-h", "--help", "help"):
        print(__doc__)
        return 0 if words else 2
    command, rest = words[0], words[1:]
    try:
        if command == "demo":
            from .demo import run_demo

            return run_demo(rest)
        if command == "repair":
            return _repair(rest)
        if command in ("json", "diff"):
            from .tools import run_tool

            if not rest or rest[0].startswith("--"):
                return _usage_error(f"toolmend {command} needs a VERB")
            workspace = "."
            args = _tool_args(command, rest[1:])
            if "workspace" in args:
                workspace = str(args.pop("workspace"))
            result = run_tool(command, {"cmd": rest[0], "args": args}, workspace=workspace)
            if (command == "json" and result.ok and isinstance(result.data, dict)
                    and result.data.get("valid") is False):
                _emit(result)  # json validate: the report on stdout, exit 1 when invalid
                return 1
            return _emit(result)
        if command == "call":
            from .tools import run_tool

            if len(rest) not in (2, 4) or (len(rest) == 4 and rest[2] != "--workspace"):
                return _usage_error("usage: toolmend call TOOL ARGS [--workspace DIR]")
            raw = _read_stdin() if rest[1] == "-" else rest[1]
            workspace = rest[3] if len(rest) == 4 else "."
            return _emit(run_tool(rest[0], raw, workspace=workspace))
        if command == "exec":
            return _exec(rest)
        return _usage_error(f"unknown command {command!r}")
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0
    except orjson.JSONEncodeError as exc:  # pragma: no cover - defensive
        _err(str(exc))
        return 1


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
