"""The house: libraries below the tools, one exception base, small modules."""

from __future__ import annotations

import ast
import importlib
import inspect
import pathlib
import re
import subprocess
import sys

import pytest

import toolmend
import toolmend.errors

PACKAGE = pathlib.Path(toolmend.__file__).parent
SUBPACKAGES = ["recovery", "json", "diff", "tools", "compat", "_kernels"]


def test_the_libraries_do_not_load_the_tool_layer():
    code = ("import sys, toolmend.recovery, toolmend.json, toolmend.diff; "
            "print([m for m in sys.modules if m.startswith(('toolmend.tools', 'toolmend.cli'))])")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == "[]"


def test_import_toolmend_stays_light():
    code = ("import sys, toolmend; print(sorted(m for m in sys.modules if m.startswith('toolmend.')"
            " and m.split('.')[1] in ('tools', 'json', 'diff', 'cli')))")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == "[]"


def test_every_public_exception_has_one_base():
    errors = [obj for name, obj in vars(toolmend.errors).items()
              if inspect.isclass(obj) and issubclass(obj, BaseException)
              and not name.startswith("_") and obj.__module__ == "toolmend.errors"]
    assert len(errors) >= 14
    for exc in errors:
        if issubclass(exc, Warning):  # BudgetWarning, SchemaWarning
            assert issubclass(exc, UserWarning)
            assert getattr(toolmend, exc.__name__) is exc, f"toolmend.{exc.__name__} is not exported"
            continue
        assert issubclass(exc, toolmend.errors.ToolmendError), exc
        assert issubclass(exc, ValueError), exc
        assert getattr(toolmend, exc.__name__) is exc, f"toolmend.{exc.__name__} is not exported"
    assert toolmend.RecoveryError.__mro__[1] is toolmend.ToolmendError
    assert issubclass(toolmend.PatchError, toolmend.errors.ToolmendError)


def test_exceptions_raised_by_the_libraries_are_toolmend_errors():
    from toolmend import diff, json

    cases = [
        lambda: toolmend.loads("I am sorry, I cannot do that"),
        lambda: diff.apply("a\n", "@@ -1 +1 @@\n-b\n+c\n"),
        lambda: json.get('{"a": 1}', "b"),
        lambda: json.get("{", ""),
        lambda: json.get('{"a": [1]}', "a[x"),
        lambda: json.query('[{"a": 1}]', "", "a"),
        lambda: json.loads(b"\xff"),
    ]
    for case in cases:
        with pytest.raises(toolmend.ToolmendError):
            case()


@pytest.mark.parametrize("name", SUBPACKAGES)
def test_each_subpackage_has_a_face(name):
    module = importlib.import_module(f"toolmend.{name}")
    if name == "compat":
        return
    assert module.__all__, name
    for attr in module.__all__:
        assert hasattr(module, attr), f"toolmend.{name}.{attr}"


def test_implementation_modules_are_private():
    for sub in SUBPACKAGES:
        for path in (PACKAGE / sub).glob("*.py"):
            assert path.name == "__init__.py" or path.name.startswith("_") or sub == "compat", path


@pytest.mark.builds_side_by_side  # (the sources read as text)
def test_no_module_is_over_700_lines():
    for path in PACKAGE.rglob("*.py"):
        lines = path.read_text(encoding="utf-8").count("\n")
        assert lines <= 700, f"{path.relative_to(PACKAGE)}: {lines} lines"


EXT = pathlib.Path(__file__).resolve().parent.parent / "ext"
# a Cython function's first line: def, cdef or cpdef, any qualifiers and return type, its name
_CYTHON_DEF = re.compile(r"^( *)c?p?def\s+(?!class\b|extern\b|struct\b|enum\b)[^=(]*?(\w+)\s*\(")


def _cython_functions(path: pathlib.Path) -> list[tuple[str, int]]:
    """Each function of a Cython file, with its length in lines: from its def
    to its last line indented deeper (comments and blank lines between do not count)."""
    lines = path.read_text(encoding="utf-8").split("\n")
    found = []
    for i, line in enumerate(lines):
        m = _CYTHON_DEF.match(line)
        if m is None:
            continue
        head = i  # the signature may go on over lines: to where its brackets close
        while lines[head].count("(") - lines[head].count(")") + sum(
                x.count("(") - x.count(")") for x in lines[i:head]) > 0 and head + 1 < len(lines):
            head += 1
        if not lines[head].split("#")[0].rstrip().endswith(":"):
            continue  # a declaration (a cdef variable, an extern's prototype): no body
        indent, last = len(m.group(1)), head
        for j in range(head + 1, len(lines)):
            body = lines[j]
            if body.strip() and not body.lstrip().startswith("#"):
                if len(body) - len(body.lstrip()) <= indent:
                    break
                last = j
        found.append((m.group(2), last - i + 1))
    return found


@pytest.mark.builds_side_by_side  # (the sources read as text)
def test_no_function_is_over_120_lines():
    long = []
    for path in PACKAGE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                if node.end_lineno is not None and node.end_lineno - node.lineno + 1 > 120:
                    long.append(f"{path.relative_to(PACKAGE)}: {node.name}")
    assert not long


@pytest.mark.builds_side_by_side
@pytest.mark.skipif(not EXT.is_dir(), reason="the kernels' sources are not beside the tests")
def test_no_kernel_function_is_over_120_lines():
    long = [f"ext/{path.name}: {name} ({n} lines)" for path in sorted(EXT.glob("*.p[yx][xid]"))
            for name, n in _cython_functions(path) if n > 120]
    assert not long


@pytest.mark.builds_side_by_side
@pytest.mark.skipif(not EXT.is_dir(), reason="the kernels' sources are not beside the tests")
def test_the_cython_measure_finds_each_function_whole():
    # (a signature over two lines, exact_key's; exact_read runs to the file's last line)
    found = _cython_functions(EXT / "_jsonexact.pxi")
    assert [name for name, _ in found] == ["exact_ws", "exact_string", "exact_key", "exact_read"]
    lines = (EXT / "_jsonexact.pxi").read_text(encoding="utf-8").rstrip().split("\n")
    start = next(i for i, line in enumerate(lines) if line.startswith("cdef object exact_read("))
    assert dict(found)["exact_read"] == len(lines) - start


@pytest.mark.builds_side_by_side
@pytest.mark.skipif(not EXT.is_dir(), reason="the kernels' sources are not beside the tests")
def test_no_kernel_source_is_over_900_lines():
    for path in EXT.glob("*.p[yx][xid]"):
        lines = path.read_text(encoding="utf-8").count("\n")
        assert lines <= 900, f"ext/{path.name}: {lines} lines"


def test_spec_names_still_work():
    from toolmend.compat import json_repair

    assert toolmend.diff.unified("a\n", "b\n").startswith("--- a\n+++ b\n")
    assert list(toolmend.diff.unified_diff(["a\n"], ["b\n"]))
    assert toolmend.diff.apply("a\n", toolmend.diff.unified("a\n", "b\n")) == "b\n"
    assert json_repair.loads("{'a': 1}") == {"a": 1}
    assert toolmend.run_tool("json", {"cmd": "get", "args": {"text": "[1]", "path": "[0]"}}).ok
    assert toolmend.json.dumps(toolmend.json.loads("[1.10]")) == "[1.10]"
    assert toolmend.tools.run_tool is toolmend.run_tool


def test_python_dash_m_toolmend():
    run = subprocess.run([sys.executable, "-m", "toolmend", "--help"], capture_output=True,
                         text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    assert "toolmend" in run.stdout
