"""Run json-repair's own test suite against ``toolmend.compat.json_repair``.

    python bench/jsonrepair_suite.py PATH/TO/json_repair/tests [--json] [--timing]
    python bench/jsonrepair_suite.py PATH/TO/json_repair/tests --extract   # -> tests/data
    python bench/jsonrepair_suite.py [--show] [--readme README.md]        # offline, from tests/data

Offline (no PATH): the checks extracted by ``--extract`` into
``tests/data/peers/json_repair_py/`` (one call of the drop-in and the value json-repair's suite
expects from it, a line) are run again and scored by ``bench/score_peers.py`` as right / refused
/ different by *value* (the JSON text json-repair's suite compares is read back, so spacing is
not a difference); ``--readme`` rewrites the suite's README table. Extracted are the ``==``
checks and ``pytest.raises`` blocks on exactly one ``repair_json`` / ``loads`` call of a text;
schema-guided checks (``schema=``: ``bench/jsonrepair_schema_suite.py`` extracts those), checks on
the repair log, on files and on several calls are counted in ``SOURCE.json`` and left to the full run.

PATH is the ``tests`` folder of a checkout of json-repair's repository
(mangiucugna/json_repair). Nothing of it is copied or changed on
disk; the suite runs in-process under pytest, from a scratch directory.

How the suite is pointed at the drop-in
---------------------------------------
An import hook placed first on ``sys.meta_path`` answers for ``json_repair``,
``src.json_repair`` (the suite imports the package through its source tree)
and every submodule under them, so the real json-repair is never imported,
whether or not it is installed and whether or not PATH sits in a full
checkout:

* ``repair_json``, ``loads``, ``load`` and ``from_file`` (in the package and
  in ``json_repair.json_repair``) are toolmend's, wrapped so that each call
  is recorded (arguments, result or exception).
* A public name the drop-in lacks (``JSONReturnType``) is supplied by the
  harness, and reported.
* Everything else (``JSONParser``, ``schema_repair``, ``utils.*``, the
  ``cli`` entry point, the ``docs.app`` web app) is json-repair's internals,
  with no counterpart in toolmend: such a name imports as a placeholder, and
  the test that uses it is skipped, with the name in the reason. Checks the
  test ran before that point are kept.

The typing test (mypy on a snippet that imports ``json_repair``) sees a
plain re-export of the drop-in through MYPYPATH. The timing tests
(``test_performance.py``: thresholds for json-repair's parser) are skipped
unless ``--timing``.

How checks are counted
----------------------
pytest's own outcome stops a test at its first failed ``assert``, which
hides every later check of the same test. So each test module is compiled
from its source with every ``assert`` turned into a soft check (the AST is
rewritten in memory at import; the files are not touched, and pytest's own
assertion rewriting is off): the check is evaluated, recorded as passed or
failed, and the test goes on. A check that raises is a failed check, except
a skip, which skips the test. A ``with pytest.raises(...)`` block counts as
one check. A test with a failed check fails at its end, so pytest's per-test
outcome stays meaningful. A check evaluated N times (loop, parametrize)
counts N times.

For ``left <op> right`` the two sides are evaluated separately: the side
that called the drop-in is "ours", the other is json-repair's expected
value. The input shown is the call the check made (or, when the result was
computed before the ``assert``, the test's latest call). A check made in a
test that never called the drop-in is reported apart ("other checks").

Classes of difference, for a failed check (the first that applies):

  schema               the call passed ``schema=`` / ``schema_repair_mode=``
                       ("...: expected error not raised" for a pytest.raises check)
  raises: ...          a pytest.raises check: not raised / other exception type /
                       other message
  error (Type)         our call, or the check itself, raised
  logging              ``logging=True``, and the value part agrees (or the check
                       is on the log, of an input toolmend recovers); when the
                       values differ, the values are classified
  empty result         json-repair returns ``''``, ours ``'""'``
  json-repair gives up json-repair returns ``''``, toolmend a value
  refused              toolmend refuses the input (``normalize_tool_args`` not ok);
                       the report groups these by toolmend's reason
  formatting (...)     the same JSON value in different text
  different value (..) anything else, named by the first difference between the
                       two values: members absorbed into a string, number kept as
                       text, whitespace / backslash / quote kept in a string,
                       ellipsis kept as a string, other members or items

json-repair's schema tests need ``jsonschema`` (some also ``pydantic``)
importable; without them they skip, and the report says so.
"""

from __future__ import annotations

import argparse
import ast
import contextlib
import importlib.abc
import importlib.machinery
import io
import json
import operator
import os
import re
import sys
import tempfile
import types
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

import pytest

import toolmend.compat.json_repair as ours

PUBLIC = ("repair_json", "loads", "load", "from_file")
PREFIXES = ("json_repair", "src.json_repair")
FOREIGN = {  # modules of json-repair's repository that are not the library
    "docs": "json-repair's documentation web app (docs/), not part of the library",
}
REPR_LIMIT = 2000

_OPS = {
    ast.Eq: ("==", operator.eq), ast.NotEq: ("!=", operator.ne),
    ast.Is: ("is", operator.is_), ast.IsNot: ("is not", operator.is_not),
    ast.In: ("in", lambda a, b: a in b), ast.NotIn: ("not in", lambda a, b: a not in b),
    ast.Lt: ("<", operator.lt), ast.LtE: ("<=", operator.le),
    ast.Gt: (">", operator.gt), ast.GtE: (">=", operator.ge),
}
_OP_FUNCS = {name: fn for name, fn in _OPS.values()}
_PASS_THROUGH = (pytest.skip.Exception, pytest.xfail.Exception, pytest.exit.Exception,
                 KeyboardInterrupt, SystemExit)


def _short(value: Any, limit: int = REPR_LIMIT) -> str:
    try:
        text = repr(value)
    except Exception as exc:  # a repr that fails is still something to show
        text = f"<unrepresentable {type(value).__name__}: {exc}>"
    return text if len(text) <= limit else text[:limit] + f"... ({len(text)} chars)"


# ---------------------------------------------------------------- recording

class Recorder:
    """Calls to the drop-in and checks, per test."""

    def __init__(self) -> None:
        self.meta: list[dict[str, Any]] = []  # one per check site
        self.checks: list[dict[str, Any]] = []
        self.calls: list[dict[str, Any]] = []  # calls of the current test
        self.nodeid: str | None = None
        self.mark = 0  # calls before this index belong to earlier checks
        self.failed_in_test = 0
        self.checks_in_test = 0
        self.supplied: dict[str, str] = {}
        self.placeholders_used: Counter[str] = Counter()

    # test boundaries
    def begin(self, nodeid: str) -> None:
        self.nodeid, self.calls, self.mark = nodeid, [], 0
        self.failed_in_test = self.checks_in_test = 0

    def end(self) -> tuple[int, int]:
        counts = (self.failed_in_test, self.checks_in_test)
        self.nodeid = None
        return counts

    # calls
    def call(self, name: str, args: tuple, kwargs: dict) -> Any:
        entry: dict[str, Any] = {"func": name, "args": args, "kwargs": kwargs,
                                 "input": _input_text(name, args, kwargs)}
        try:
            result = getattr(ours, name)(*args, **kwargs)
        except BaseException as exc:
            entry["exception"] = exc
            self.calls.append(entry)
            raise
        entry["result"] = result
        self.calls.append(entry)
        return result

    def _calls_for_check(self, start: int) -> tuple[list[dict[str, Any]], bool]:
        made = self.calls[start:]
        if made:
            return made, True
        return (self.calls[-1:], False)

    # checks
    def check(self, idx: int, left_fn, right_fn, msg_fn) -> None:
        meta = self.meta[idx]
        if self.nodeid is None:  # module level or a fixture outside a test: a plain assert
            value = left_fn() if right_fn is None else _OP_FUNCS[meta["op"]](left_fn(), right_fn())
            if not value:
                raise AssertionError(meta["source"])
            return
        start, before = self.mark, len(self.calls)
        sides: dict[str, Any] = {}
        ok, error, after_left = False, None, None
        try:
            sides["left"] = left_fn()
            after_left = len(self.calls)
            if right_fn is None:
                ok = bool(sides["left"])
            else:
                sides["right"] = right_fn()
                ok = bool(_OP_FUNCS[meta["op"]](sides["left"], sides["right"]))
        except _PASS_THROUGH:
            raise
        except BaseException as exc:  # includes pytest.fail's outcome
            error = exc
            if after_left is None:
                after_left = len(self.calls)
                if right_fn is not None:  # our side raised: json-repair's side still read (--extract)
                    with contextlib.suppress(Exception):
                        sides["right"] = right_fn()
                    if len(self.calls) != after_left:  # it called the drop-in: not an expected value
                        sides.pop("right", None)
        calls, direct = self._calls_for_check(start)
        self.mark = len(self.calls)
        record: dict[str, Any] = {"nodeid": self.nodeid, "file": meta["file"], "line": meta["line"],
                                  "kind": "assert", "source": meta["source"], "passed": ok,
                                  "dropin": bool(calls)}
        # which side is ours: for the report (failed checks) and for --extract (all checks)
        ours_side = "left"
        if right_fn is not None and "right" in sides:
            left_called, right_called = after_left > before, len(self.calls) > after_left
            if right_called and not left_called:
                ours_side = "right"
            elif not (left_called or right_called) and calls and "result" in calls[-1]:
                result = calls[-1]["result"]  # computed before the assert: which side is it?
                if result is sides["right"] and result is not sides["left"]:
                    ours_side = "right"
        other = "right" if ours_side == "left" else "left"
        record.update(
            op=meta["op"], ours_side=ours_side,
            ours=sides.get(ours_side, _Missing), expected=sides.get(other, _Missing),
            error=error, calls=calls, direct=direct,
        )
        if not ok and msg_fn is not None and error is None:
            with contextlib.suppress(Exception):
                record["message"] = str(msg_fn())
        self._add(record)

    @contextlib.contextmanager
    def raises(self, idx: int):
        meta = self.meta[idx]
        if self.nodeid is None:
            yield
            return
        start = self.mark
        error = None
        try:
            yield
        except _PASS_THROUGH:
            raise
        except BaseException as exc:  # DID NOT RAISE, another type, or another message
            error = exc
        calls, direct = self._calls_for_check(start)
        self.mark = len(self.calls)
        record = {"nodeid": self.nodeid, "file": meta["file"], "line": meta["line"],
                  "kind": "raises", "source": meta["source"], "passed": error is None,
                  "dropin": bool(calls)}
        record.update(calls=calls, direct=direct)
        if error is not None:
            record.update(error=error, ours=_Missing, expected=_Missing)
        self._add(record)

    def _add(self, record: dict[str, Any]) -> None:
        self.checks_in_test += 1
        if not record["passed"]:
            self.failed_in_test += 1
            record["class"], record["detail"] = classify(record)
        self.checks.append(record)


class _MissingType:
    def __repr__(self) -> str:
        return "<not evaluated>"


_Missing = _MissingType()
REC = Recorder()


def _input_text(name: str, args: tuple, kwargs: dict) -> Any:
    """The text the call repairs, for the report (files are read, not consumed)."""
    try:
        if name in ("repair_json", "loads"):
            fd = kwargs.get("json_fd")
            if fd is not None:
                return _peek(fd)
            return args[0] if args else kwargs.get("json_str", "")
        if name == "load":
            return _peek(args[0] if args else kwargs.get("fd"))
        if name == "from_file":
            filename = args[0] if args else kwargs.get("filename")
            return Path(filename).read_text(encoding="utf-8")
    except Exception as exc:
        return f"<input not readable: {exc}>"
    return None


def _peek(fd: Any) -> str:
    pos = fd.tell()
    try:
        return fd.read()
    finally:
        fd.seek(pos)


# ------------------------------------------------------------ classification

def _refusal(text: Any) -> str | None:
    """toolmend's reason for refusing ``text``; None when it recovers it."""
    if not isinstance(text, (str, bytes)):
        return None
    try:
        from toolmend import normalize_tool_args
    except ImportError:  # the reason is only for the report
        return None
    try:
        result = normalize_tool_args(text)
    except Exception as exc:
        return f"raised {type(exc).__name__}: {exc}"
    return None if result.ok else str(result.error or "refused")


def _reason_key(reason: str) -> str:
    """A refusal reason without positions and quoted pieces, to group by."""
    reason = re.sub(r" at line \d+, column \d+", "", reason)
    reason = re.sub(r"'[^']*'", "'…'", reason)
    return reason.split(" either: ")[-1]


def _as_value(value: Any) -> Any:
    if isinstance(value, str):
        try:
            return json.loads(value)
        except ValueError:
            return value
    return value


def _first_difference(expected: Any, ours: Any, path: str = "$") -> tuple[str, str, Any, Any] | None:
    if isinstance(expected, dict) and isinstance(ours, dict):
        if list(expected) != list(ours) and set(expected) != set(ours):
            return path, "members", expected, ours
        for key in expected:
            found = _first_difference(expected[key], ours[key], f"{path}[{key!r}]")
            if found:
                return found
        return None
    if isinstance(expected, list) and isinstance(ours, list):
        if len(expected) != len(ours):
            return path, "items", expected, ours
        for i, (e, o) in enumerate(zip(expected, ours, strict=True)):
            found = _first_difference(e, o, f"{path}[{i}]")
            if found:
                return found
        return None
    if expected == ours and type(expected) is type(ours):
        return None
    return path, "leaf", expected, ours


def _value_subclass(expected: Any, ours: Any) -> tuple[str, str]:
    found = _first_difference(_as_value(expected), _as_value(ours))
    if found is None:
        return "different value", ""
    path, kind, e, o = found
    where = f"at {path}: json-repair {_short(e, 120)}, toolmend {_short(o, 120)}"
    if kind == "members":
        texts = [x for x in (*o.keys(), *o.values()) if isinstance(x, str)]
        theirs = [x for x in (*e.keys(), *e.values()) if isinstance(x, str)]
        if any('"' in x for x in texts) and not any('"' in x for x in theirs):
            return "different value (members absorbed into a string)", where
        return "different value (other members)", where
    if kind == "items":
        if "..." in o and "..." not in e:
            return "different value (ellipsis kept as a string)", where
        return "different value (other items)", where
    if isinstance(o, str) and isinstance(e, (int, float)) and not isinstance(e, bool):
        return "different value (number kept as text)", where
    if isinstance(o, str) and not isinstance(e, str):
        return "different value (structure or literal read as a string)", where
    if isinstance(o, str) and isinstance(e, str):
        if o.strip() == e.strip():
            return "different value (whitespace kept in a string)", where
        if o.replace("\\", "") == e.replace("\\", ""):
            return "different value (backslash kept in a string)", where
        if o.count('"') > e.count('"'):
            return "different value (quote kept in a string)", where
    return "different value", where


def classify(record: dict[str, Any]) -> tuple[str, str]:
    """(class of difference, detail) of a failed check."""
    calls = record.get("calls") or []
    if not record["dropin"]:
        return "no call to the drop-in", ""
    call = calls[-1]
    kwargs = call["kwargs"]
    exc = call.get("exception")
    if any(k in c["kwargs"] for c in calls for k in ("schema", "schema_repair_mode")):
        if record["kind"] == "raises":
            return "schema: expected error not raised", ""
        return "schema", ""
    if record["kind"] == "raises":
        if exc is None:
            return "raises: not raised", ""
        if isinstance(record["error"], AssertionError) or "Regex" in str(record["error"]):
            return "raises: other message", ""
        return "raises: other exception type", ""
    if exc is not None:
        return f"error ({type(exc).__name__})", str(exc)[:300]
    if record.get("error") is not None:
        return f"error ({type(record['error']).__name__})", str(record["error"])[:300]
    ours_v, expected = record.get("ours"), record.get("expected")
    refusal = _refusal(call["input"])
    if kwargs.get("logging"):
        result = call.get("result")
        if isinstance(ours_v, tuple) and isinstance(expected, tuple) and len(ours_v) == len(expected) == 2:
            if ours_v[0] == expected[0]:
                return "logging", ""
            ours_v, expected = ours_v[0], expected[0]  # the values differ: classify them
        elif not (isinstance(result, tuple) and result and ours_v is result[0]):
            # a check on the log, or on something derived from it
            return ("refused", refusal) if refusal else ("logging", "")
    if expected == "":
        if ours_v == '""':
            return "empty result ('\"\"' instead of '')", ""
        return "json-repair gives up, toolmend returns a value", ""
    if refusal or ours_v in ("", '""'):
        return "refused", refusal or ""
    if isinstance(ours_v, str) and isinstance(expected, str):
        try:
            same = json.loads(ours_v) == json.loads(expected)
        except ValueError:
            same = False
        if same:
            if kwargs.get("ensure_ascii") is False:
                return "formatting (ensure_ascii=False)", ""
            return "formatting (spacing/escapes)", ""
    return _value_subclass(expected, ours_v)


# ------------------------------------------------------------ the shim modules

class _Absent(type):
    """A json-repair internal with no counterpart: any use skips the test."""

    def __getattr__(cls, name: str) -> Any:
        if name.startswith(("__", "pytest", "_pytest")):
            raise AttributeError(name)
        cls._jr_skip()

    def __call__(cls, *args: Any, **kwargs: Any) -> Any:
        cls._jr_skip()

    def _jr_skip(cls) -> None:
        REC.placeholders_used[cls._jr_name] += 1
        pytest.skip(cls._jr_reason, allow_module_level=True)


class _AbsentValue:
    """A json-repair internal constant (an ALL_CAPS name): any use skips the test."""

    def __init__(self, qualname: str, reason: str) -> None:
        object.__setattr__(self, "_jr_name", qualname)
        object.__setattr__(self, "_jr_reason", reason)

    def _jr_skip(self, *args: Any, **kwargs: Any) -> Any:
        REC.placeholders_used[self._jr_name] += 1
        pytest.skip(self._jr_reason, allow_module_level=True)

    def __getattr__(self, name: str) -> Any:
        if name.startswith(("__", "pytest", "_pytest")):
            raise AttributeError(name)
        self._jr_skip()

    __call__ = __deepcopy__ = __copy__ = __eq__ = __ne__ = __bool__ = __len__ = __iter__ = _jr_skip
    __hash__ = object.__hash__

    def __repr__(self) -> str:
        return f"<json-repair internal {self._jr_name}>"


def _placeholder(qualname: str, reason: str) -> Any:
    short = qualname.rsplit(".", 1)[-1]
    if short.isupper():
        return _AbsentValue(qualname, reason)
    return _Absent(short, (), {"_jr_name": qualname, "_jr_reason": reason})


def _internal_reason(qualname: str) -> str:
    if qualname.endswith(".cli"):
        return f"uses {qualname}: json-repair's command line; the drop-in has none"
    return f"uses json-repair internals ({qualname}); toolmend has no counterpart"


def _wrapper(name: str):
    def call(*args: Any, **kwargs: Any) -> Any:
        return REC.call(name, args, kwargs)
    call.__name__ = call.__qualname__ = name
    call.__doc__ = getattr(ours, name).__doc__
    return call


def _json_return_type() -> Any:
    if hasattr(ours, "JSONReturnType"):
        return ours.JSONReturnType
    REC.supplied["JSONReturnType"] = "json_repair.JSONReturnType (the type of a repaired value)"
    return dict[str, Any] | list[Any] | str | float | int | bool | None


class ShimFinder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Answers for json_repair, src.json_repair, their submodules, src and docs."""

    def find_spec(self, fullname: str, path: Any = None, target: Any = None):
        top = fullname.split(".")[0]
        if (fullname == "src" or top in FOREIGN or top == "json_repair"
                or fullname == "src.json_repair" or fullname.startswith("src.json_repair.")):
            return importlib.machinery.ModuleSpec(fullname, self, is_package=True)
        return None

    def create_module(self, spec):
        return None

    def exec_module(self, module: types.ModuleType) -> None:
        name = module.__name__
        module.__path__ = []
        canonical = name[4:] if name.startswith("src.json_repair") else name
        if name == "src":
            return
        if name.split(".")[0] in FOREIGN:
            reason = FOREIGN[name.split(".")[0]]
            module.__getattr__ = lambda attr: _dunder_or(attr, lambda: _placeholder(f"{name}.{attr}", reason))
            return
        public = canonical in ("json_repair", "json_repair.json_repair")
        if public:
            for fn in PUBLIC:
                setattr(module, fn, _wrapper(fn))
            if canonical == "json_repair":
                module.JSONReturnType = _json_return_type()
            module.__all__ = [*PUBLIC] + (["JSONReturnType"] if canonical == "json_repair" else [])
        module.__getattr__ = lambda attr: _dunder_or(
            attr, lambda: _placeholder(f"{canonical}.{attr}", _internal_reason(f"{canonical}.{attr}")))


def _dunder_or(attr: str, make):
    if attr.startswith("__"):
        raise AttributeError(attr)
    return make()


TYPING_SHIM = {
    "json_repair/__init__.py": (
        "from typing import Any, Union\n"
        "from toolmend.compat.json_repair import from_file, load, loads, repair_json\n"
        "{jrt}\n"
        "__all__ = ['JSONReturnType', 'from_file', 'load', 'loads', 'repair_json']\n"),
    "json_repair/json_repair.py": (
        "from toolmend.compat.json_repair import from_file, load, loads, repair_json\n"),
}


def write_typing_shim(root: Path) -> None:
    jrt = ("from toolmend.compat.json_repair import JSONReturnType"
           if hasattr(ours, "JSONReturnType") else
           "JSONReturnType = Union[dict[str, Any], list[Any], str, float, int, bool, None]")
    for rel, text in TYPING_SHIM.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text.format(jrt=jrt), encoding="utf-8")


# ------------------------------------------------------ soft-assert test modules

class SoftChecks(ast.NodeTransformer):
    """``assert`` -> a recorded check; ``with pytest.raises`` -> a recorded block."""

    def __init__(self, filename: str, source: str) -> None:
        self.filename, self.source = filename, source

    def _site(self, node: ast.AST, op: str | None, kind: str) -> int:
        segment = ast.get_source_segment(self.source, node) or ""
        REC.meta.append({"file": self.filename, "line": node.lineno, "op": op, "kind": kind,
                         "source": " ".join(segment.split())[:400]})
        return len(REC.meta) - 1

    @staticmethod
    def _lambda(expr: ast.expr) -> ast.Lambda:
        return ast.Lambda(args=ast.arguments(posonlyargs=[], args=[], kwonlyargs=[], kw_defaults=[],
                                             defaults=[]), body=expr)

    def visit_Assert(self, node: ast.Assert) -> ast.stmt:
        test = node.test
        if isinstance(test, ast.Compare) and len(test.ops) == 1 and type(test.ops[0]) in _OPS:
            idx = self._site(node, _OPS[type(test.ops[0])][0], "assert")
            left, right = self._lambda(test.left), self._lambda(test.comparators[0])
        else:
            idx = self._site(node, None, "assert")
            left, right = self._lambda(test), ast.Constant(None)
        msg = self._lambda(node.msg) if node.msg is not None else ast.Constant(None)
        call = ast.Call(func=ast.Name("__jr_check__", ast.Load()),
                        args=[ast.Constant(idx), left, right, msg], keywords=[])
        return ast.copy_location(ast.Expr(call), node)

    def visit_With(self, node: ast.With) -> ast.stmt:
        self.generic_visit(node)
        if not any(isinstance(item.context_expr, ast.Call)
                   and ast.unparse(item.context_expr.func).split(".")[-1] == "raises"
                   for item in node.items):
            return node
        idx = self._site(node.items[0].context_expr, None, "raises")
        guard = ast.withitem(context_expr=ast.Call(func=ast.Name("__jr_raises__", ast.Load()),
                                                   args=[ast.Constant(idx)], keywords=[]))
        return ast.copy_location(ast.With(items=[guard], body=[node]), node)


class SoftLoader(importlib.machinery.SourceFileLoader):
    def __init__(self, fullname: str, path: str, label: str) -> None:
        super().__init__(fullname, path)
        self.label = label

    def get_code(self, fullname: str):  # always from source: no stale or foreign bytecode
        source = self.get_data(self.path).decode("utf-8")
        tree = SoftChecks(self.label, source).visit(ast.parse(source, self.path))
        return compile(ast.fix_missing_locations(tree), self.path, "exec", dont_inherit=True)

    def exec_module(self, module: types.ModuleType) -> None:
        module.__dict__["__jr_check__"] = REC.check
        module.__dict__["__jr_raises__"] = REC.raises
        super().exec_module(module)


class SuiteFinder(importlib.abc.MetaPathFinder):
    """Loads the suite's own modules (under its tests folder) through SoftLoader."""

    def __init__(self, tests_dir: Path) -> None:
        self.tests_dir = tests_dir

    def find_spec(self, fullname: str, path: Any = None, target: Any = None):
        spec = importlib.machinery.PathFinder.find_spec(fullname, path)
        if spec is None or not spec.origin or not spec.origin.endswith(".py"):
            return None
        origin = Path(spec.origin).resolve()
        if self.tests_dir not in origin.parents:
            return None
        label = str(origin.relative_to(self.tests_dir.parent))
        spec.loader = SoftLoader(fullname, spec.origin, label)
        return spec


# ---------------------------------------------------------------- pytest plugin

class Plugin:
    def __init__(self, timing: bool) -> None:
        self.timing = timing
        self.outcomes: dict[str, str] = {}
        self.skip_reasons: dict[str, str] = {}
        self.errors: dict[str, str] = {}
        self.collect_errors: list[str] = []

    def pytest_collection_modifyitems(self, items: list[pytest.Item]) -> None:
        if self.timing:
            return
        for item in items:
            if item.path.name == "test_performance.py":
                item.add_marker(pytest.mark.skip(
                    reason="timing threshold for json-repair's own parser, not a value check"
                           " (--timing runs it)"))

    @pytest.hookimpl(wrapper=True)
    def pytest_runtest_call(self, item: pytest.Item):
        REC.begin(item.nodeid)
        try:
            result = yield
        except BaseException:
            REC.end()
            raise
        failed, total = REC.end()
        if failed:
            raise AssertionError(f"{failed} of {total} checks failed")
        return result

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        nodeid = report.nodeid
        if report.when == "call" or (report.outcome != "passed" and nodeid not in self.outcomes):
            if report.skipped:
                self.outcomes[nodeid] = "skipped"
                reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else str(report.longrepr)
                self.skip_reasons[nodeid] = reason.removeprefix("Skipped: ")
            elif report.failed:
                self.outcomes[nodeid] = "failed" if report.when == "call" else "error"
                self.errors[nodeid] = report.longreprtext.strip().splitlines()[-1][:300] \
                    if report.longreprtext else ""
            else:
                self.outcomes[nodeid] = "passed"
        elif report.when == "teardown" and report.failed:
            self.outcomes[nodeid] = "error"

    def pytest_collectreport(self, report: pytest.CollectReport) -> None:
        if report.failed:
            self.collect_errors.append(f"{report.nodeid}: {str(report.longrepr).strip().splitlines()[-1]}")
        elif report.skipped and isinstance(report.longrepr, tuple):
            self.outcomes[report.nodeid] = "skipped"
            self.skip_reasons[report.nodeid] = report.longrepr[2].removeprefix("Skipped: ")


# ---------------------------------------------------------------------- running

def run(tests_dir: Path, timing: bool, show_pytest: bool, extra: list[str]) -> tuple[Plugin, int, str]:
    for name in list(sys.modules):
        if name.split(".")[0] in ("json_repair", "src", "docs", "tests"):
            del sys.modules[name]
    plugin = Plugin(timing)
    shim, suite = ShimFinder(), SuiteFinder(tests_dir)
    sys.meta_path[:0] = [shim, suite]
    saved_env, saved_cwd = os.environ.get("MYPYPATH"), os.getcwd()
    buffer = io.StringIO()
    with tempfile.TemporaryDirectory(prefix="jrsuite-") as scratch:
        root = Path(scratch)
        write_typing_shim(root / "typing")
        (root / "pytest.ini").write_text("[pytest]\n", encoding="utf-8")
        os.environ["MYPYPATH"] = str(root / "typing")
        os.chdir(root)
        args = [str(tests_dir), "-c", str(root / "pytest.ini"), f"--rootdir={tests_dir.parent}",
                "--assert=plain", "-p", "no:cacheprovider", "-q", "-rN", "--tb=line",
                f"--basetemp={root / 'tmp'}", *extra]
        try:
            if show_pytest:
                code = pytest.main(args, plugins=[plugin])
            else:
                with contextlib.redirect_stdout(buffer):
                    code = pytest.main(args, plugins=[plugin])
        finally:
            os.chdir(saved_cwd)
            if saved_env is None:
                os.environ.pop("MYPYPATH", None)
            else:
                os.environ["MYPYPATH"] = saved_env
            sys.meta_path.remove(shim)
            sys.meta_path.remove(suite)
    return plugin, int(code), buffer.getvalue()


def _flags(kwargs: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in kwargs.items() if k not in ("json_str", "json_fd", "fd", "filename")}


def summarize(plugin: Plugin, tests_dir: Path) -> dict[str, Any]:
    checks = REC.checks
    dropin = [c for c in checks if c["dropin"]]
    other = [c for c in checks if not c["dropin"]]

    def tally(items: list[dict[str, Any]]) -> dict[str, int]:
        return {"total": len(items), "passed": sum(c["passed"] for c in items),
                "failed": sum(not c["passed"] for c in items)}

    classes: dict[str, list[dict[str, Any]]] = defaultdict(list)
    refusals: Counter[str] = Counter()
    for c in dropin:
        if c["passed"]:
            continue
        call = c["calls"][-1]
        entry = {
            "test": c["nodeid"], "where": f"{c['file']}:{c['line']}", "check": c["source"],
            "call": call["func"], "flags": {k: _short(v, 200) for k, v in _flags(call["kwargs"]).items()},
            "input": _short(call["input"]), "same_call_as_previous_check": not c["direct"],
            "expected": _short(c["expected"]), "ours": _short(c["ours"]), "detail": c["detail"],
        }
        if c["kind"] == "raises":
            entry["expected"] = c["source"]
            entry["ours"] = (f"raised {type(call['exception']).__name__}: {call['exception']}"
                             if "exception" in call else f"returned {_short(call.get('result'))}")
            entry["check_error"] = _short(str(c["error"]), 300)
        elif c.get("error") is not None:
            entry["ours"] = f"raised {type(c['error']).__name__}: {_short(str(c['error']), 300)}"
        classes[c["class"]].append(entry)
        if c["class"] == "refused" and c["detail"]:
            refusals[_reason_key(c["detail"])] += 1
    outcomes = Counter(plugin.outcomes.values())
    reasons = Counter(plugin.skip_reasons.values())
    return {
        "suite": str(tests_dir),
        "target": "toolmend.compat.json_repair",
        "tests": {"total": len(plugin.outcomes), **{k: outcomes.get(k, 0)
                                                     for k in ("passed", "failed", "skipped", "error")}},
        "checks": {**tally(dropin),
                   "asserts": tally([c for c in dropin if c["kind"] == "assert"]),
                   "raises": tally([c for c in dropin if c["kind"] == "raises"])},
        "other_checks": {**tally(other),
                         "failed_list": [{"where": f"{c['file']}:{c['line']}", "check": c["source"],
                                          "ours": _short(c.get("ours")),
                                          "expected": _short(c.get("expected")),
                                          "message": c.get("message") or (str(c.get("error") or ""))[:300]}
                                         for c in other if not c["passed"]]},
        "classes": {name: {"count": len(items), "checks": items}
                    for name, items in sorted(classes.items(), key=lambda kv: -len(kv[1]))},
        "refusal_reasons": [{"reason": r, "checks": n} for r, n in refusals.most_common()],
        "skipped": [{"reason": r, "tests": n} for r, n in reasons.most_common()],
        "failed_tests": {k: plugin.errors.get(k, "") for k, v in sorted(plugin.outcomes.items())
                         if v in ("failed", "error")},
        "collection_errors": plugin.collect_errors,
        "names_supplied_by_harness": REC.supplied,
    }


def _cut(text: str, width: int) -> str:
    return text if len(text) <= width else text[:width] + f"... ({len(text)} chars)"


def print_report(summary: dict[str, Any], examples: int | None, width: int) -> None:
    t, c, o = summary["tests"], summary["checks"], summary["other_checks"]
    print(f"json-repair's test suite ({summary['suite']}) against {summary['target']}\n")
    print(f"checks (calls to the drop-in): {c['passed']}/{c['total']} passed, {c['failed']} failed"
          f"  [assert {c['asserts']['passed']}/{c['asserts']['total']},"
          f" pytest.raises {c['raises']['passed']}/{c['raises']['total']}]")
    print(f"tests: {t['passed']}/{t['total']} passed, {t['failed']} failed, {t['skipped']} skipped,"
          f" {t['error']} errors")
    print(f"other checks (test never called the drop-in): {o['passed']}/{o['total']} passed")
    for f in o["failed_list"]:
        print(f"    {f['where']}: {f['check']}  ({f['message'] or f['ours']})")
    if summary["names_supplied_by_harness"]:
        print("public names the drop-in lacks (supplied by the harness): "
              + ", ".join(summary["names_supplied_by_harness"]))
    if summary["collection_errors"]:
        print("collection errors:")
        for e in summary["collection_errors"]:
            print("    " + e)
    print("\nclasses of difference (failed checks):")
    for name, cls in summary["classes"].items():
        print(f"  {name}: {cls['count']}")
    for name, cls in summary["classes"].items():
        print(f"\n== {name} ({cls['count']})")
        shown = cls["checks"] if examples is None else cls["checks"][:examples]
        for e in shown:
            flags = ", ".join(f"{k}={v}" for k, v in e["flags"].items())
            print(f"  {e['where']}  {e['call']}({flags})" + ("  [result of the previous call]"
                                                          if e["same_call_as_previous_check"] else ""))
            print(f"      input:       {_cut(e['input'], width)}")
            print(f"      json-repair: {_cut(e['expected'], width)}")
            print(f"      toolmend:    {_cut(e['ours'], width)}")
            if e["detail"]:
                label = "why:   " if name == "refused" else "detail:"
                print(f"      {label}      {_cut(e['detail'], width)}")
        if len(shown) < cls["count"]:
            print(f"  ... {cls['count'] - len(shown)} more")
    if summary["refusal_reasons"]:
        print("\nrefusals by toolmend's reason:")
        for r in summary["refusal_reasons"]:
            print(f"  {r['checks']:4d}  {r['reason']}")
    print("\nskipped tests:")
    for s in summary["skipped"]:
        print(f"  {s['tests']:4d}  {s['reason']}")
    missing = sorted({s["reason"].split("'")[1] for s in summary["skipped"]
                      if s["reason"].startswith("could not import '")} & {"jsonschema", "pydantic"})
    if missing:
        print(f"  (json-repair's schema tests need {' and '.join(missing)}: install to run them)")


SUITE = "json_repair_py"


def _jsonable(value: Any) -> Any:
    """``value`` as JSON data (tuples as lists), or raise TypeError/ValueError."""
    return json.loads(json.dumps(value, allow_nan=False))


def extract(tests_dir: Path) -> dict[str, int]:
    """The single-call checks of the last run, as cases for the offline run."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    import score_peers

    cases: list[dict[str, Any]] = []
    skipped: Counter[str] = Counter()
    seen: Counter[str] = Counter()
    for c in REC.checks:
        calls = c.get("calls") or []
        if not c["dropin"]:
            continue
        if len(calls) != 1 or not c.get("direct"):
            skipped["several calls, or a value computed before the check"] += 1
            continue
        call = calls[0]
        kwargs = dict(call["kwargs"])
        if any(k in kwargs for k in ("schema", "schema_repair_mode")):
            skipped["schema-guided (schema=: bench/jsonrepair_schema_suite.py)"] += 1
            continue
        if call["func"] not in ("repair_json", "loads") or "json_fd" in kwargs:
            skipped["a file or a file object"] += 1
            continue
        args = list(call["args"])
        text = args.pop(0) if args else kwargs.pop("json_str", None)
        if not isinstance(text, str) or args:
            skipped["not one text argument"] += 1
            continue
        try:
            kwargs = _jsonable(kwargs)
        except (TypeError, ValueError):
            skipped["arguments that are not JSON data"] += 1
            continue
        case: dict[str, Any] = {"test": c["nodeid"].split("::", 1)[-1], "func": call["func"],
                                "input": text, "kwargs": kwargs}
        if c["kind"] == "raises":
            m = re.search(r"raises\(\s*([\w.]+)", c["source"])
            case.update(refuse=True, raises=m.group(1) if m else "Exception")
        elif c.get("op") == "==":
            expected = c.get("expected")
            if c.get("ours_side") is None or expected is _Missing:
                skipped["a check whose sides could not be told apart"] += 1
                continue
            if kwargs.get("logging"):
                if not (isinstance(expected, (tuple, list)) and len(expected) == 2):
                    skipped["a check on the repair log"] += 1
                    continue
                expected = expected[0]
            if expected == "":
                case["refuse"] = True  # json-repair gives up: '' is its refusal
            else:
                try:
                    case["expect_py"] = _jsonable(expected)
                except (TypeError, ValueError):
                    skipped["an expected value that is not JSON data"] += 1
                    continue
        else:
            skipped[f"a check with {c.get('op') or 'no comparison'}"] += 1
            continue
        where = f"{c['file'].split('/')[-1]}:{c['line']}"
        seen[where] += 1
        case = {"id": where if seen[where] == 1 else f"{where}#{seen[where]}", **case}
        cases.append(case)
    repo = tests_dir.parent
    licence = (repo / "LICENSE").read_text(encoding="utf-8") if (repo / "LICENSE").exists() else ""
    commit = os.environ.get("JSON_REPAIR_COMMIT", "unknown: set JSON_REPAIR_COMMIT when extracting")
    score_peers.write_suite(SUITE, cases, licence=licence, source={
        "repository": "https://github.com/mangiucugna/json_repair", "commit": commit, "path": "tests/",
        "licence": "MIT (LICENSE)",
        "extracted": "bench/jsonrepair_suite.py TESTS --extract: the suite run under the soft-check "
                     "harness, each single-call check of a text recorded with json-repair's expected value",
        "checks_not_extracted": dict(skipped.most_common()),
    })
    return {"cases": len(cases), **skipped}


def _offline_value(func: str, kwargs: dict[str, Any], value: Any) -> tuple[bool, Any]:
    """(ok, value) of what a call gave, read the way json-repair's API means it."""
    if kwargs.get("logging") and isinstance(value, (tuple, list)) and len(value) == 2:
        value = value[0]
    if value == "":
        return False, "''"
    if func == "repair_json" and not kwargs.get("return_objects") and not kwargs.get("logging") \
            and isinstance(value, str):
        sys.path.insert(0, str(Path(__file__).resolve().parent))
        import score_peers

        try:
            return True, score_peers.parse_exact(value)
        except ValueError:
            return True, f"<not JSON: {value[:60]!r}>"
    return True, value


def offline_run(case: dict[str, Any]) -> tuple[bool, Any]:
    kwargs = dict(case["kwargs"])
    try:
        value = getattr(ours, case["func"])(case["input"], **kwargs)
    except Exception as exc:
        if case.get("raises"):
            import builtins

            wanted = getattr(builtins, case["raises"].split(".")[-1], None)
            if (isinstance(wanted, type) and isinstance(exc, wanted)) or type(exc).__name__ == case["raises"]:
                return False, f"raised {type(exc).__name__}"
            return True, f"<raised {type(exc).__name__}, not {case['raises']}>"
        return False, f"raised {type(exc).__name__}: {exc}"
    if case.get("raises"):
        return True, value
    return _offline_value(case["func"], kwargs, value)


def offline_expected(case: dict[str, Any]) -> Any:
    return _offline_value(case["func"], case["kwargs"], case["expect_py"])[1]


def offline_text(case: dict[str, Any]) -> str:
    import score_peers

    return score_peers.describe_value(offline_expected(case))


TITLE = "json-repair's suite (mangiucugna/json_repair, tests/), on the drop-in"
SCORING = (offline_run, offline_expected, offline_text, TITLE)


def offline(argv: list[str]) -> int:
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    import score_peers

    return score_peers.main(SUITE, __doc__, offline_run, offline_expected, expected_text=offline_text,
                            title=TITLE, argv=argv)


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if not argv or (argv[0].startswith("--") and not {"--extract", "--json", "--timing"} & set(argv)):
        return offline(argv)
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("tests_dir", type=Path, help="the tests/ folder of a json-repair checkout")
    parser.add_argument("--extract", action="store_true",
                        help="write the single-call checks to tests/data/peers/json_repair_py/")
    parser.add_argument("--json", action="store_true", help="print the result as JSON")
    parser.add_argument("--timing", action="store_true", help="also run test_performance.py")
    parser.add_argument("--examples", type=int, default=None, help="at most N failed checks per class")
    parser.add_argument("--width", type=int, default=240, help="cut values longer than this (text output)")
    parser.add_argument("--show-pytest", action="store_true", help="let pytest print its own output")
    parser.epilog = "Arguments after -- go to pytest (e.g. -- -k test_parse_number)."
    extra = argv[argv.index("--") + 1:] if "--" in argv else []
    ns = parser.parse_args(argv[:argv.index("--")] if "--" in argv else argv)
    tests_dir = ns.tests_dir.resolve()
    if not tests_dir.is_dir():
        parser.error(f"not a folder: {tests_dir}")
    plugin, code, output = run(tests_dir, ns.timing, ns.show_pytest, extra)
    if code not in (0, 1):  # 1 = some tests failed: expected; anything else is a harness problem
        sys.stderr.write(output)
        sys.stderr.write(f"pytest exited with status {code}\n")
    summary = summarize(plugin, tests_dir)
    summary["pytest_exit_status"] = code
    if ns.extract:
        print(json.dumps(extract(tests_dir), indent=1))
        return 0
    if ns.json:
        print(json.dumps(summary, indent=2, ensure_ascii=False))
    else:
        print_report(summary, ns.examples, ns.width)
    return 0 if code in (0, 1) else 2


if __name__ == "__main__":
    sys.exit(main())
