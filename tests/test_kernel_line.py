"""The kernel line: each compiled kernel exports exactly the names its pure
twin (the reference) lists in ``__all__``, with the same signatures, and so
does its type stub; no compiled kernel imports a twin or a module above
``_kernels``; and the recovery kernel's values hold their integers exactly,
in both twins, however long the digit runs around them."""

from __future__ import annotations

import ast
import importlib
import inspect
import json
import pathlib
import re

import orjson
import pytest
from hypothesis import given, settings, strategies as st

import toolmend
from toolmend import normalize_tool_args
from toolmend._text import MAX_DEPTH, TOO_DEEP

KERNELS = ["_recover", "_myers", "_jsonscan", "_markers", "_schemacheck"]
PACKAGE = pathlib.Path(toolmend.__file__).parent / "_kernels"
EXT = pathlib.Path(__file__).resolve().parents[1] / "ext"  # (the checkout's, whichever toolmend is installed)


def _pure(name):
    return importlib.import_module(f"toolmend._kernels.{name}_py")


def _compiled(name):
    try:
        return importlib.import_module(f"toolmend._kernels.{name}")
    except ImportError:
        pytest.skip("the compiled kernels are not built")


def _stub_names(name):
    """The names the type stub exports: its twin's ``__all__`` when it is a
    star import of the twin (then they cannot drift apart), else those it imports."""
    tree = ast.parse((PACKAGE / f"{name}.pyi").read_text(encoding="utf-8"))
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            for alias in node.names:
                if alias.name == "*":
                    assert node.module == f"toolmend._kernels.{name}_py", node.module
                    names |= set(_pure(name).__all__)
                else:
                    names.add(alias.asname or alias.name)
    return names


def _shape(obj):
    """What must match between the twins: a function's parameters (names,
    kinds, defaults), a class's bases and constructor, a constant's value."""
    if inspect.isclass(obj):
        bases = [b for b in obj.__mro__ if b.__module__ == "builtins"]
        if getattr(obj, "__text_signature__", None):
            # (an extension type's constructor: the signature its docstring gives)
            params = inspect.signature(obj).parameters.values()
            return ("class", bases, [(p.name, p.kind, p.default) for p in params])
        return ("class", bases, _shape(obj.__init__)[1][1:])  # without self
    if callable(obj):
        params = inspect.signature(obj).parameters.values()
        return ("function", [(p.name, p.kind, p.default) for p in params])
    return ("value", obj)


@pytest.mark.parametrize("name", KERNELS)
def test_the_pure_twin_lists_its_entry_points(name):
    pure = _pure(name)
    assert pure.__all__ and len(set(pure.__all__)) == len(pure.__all__)
    assert all(hasattr(pure, n) for n in pure.__all__)
    assert _stub_names(name) == set(pure.__all__), "the stub and the pure twin disagree"


@pytest.mark.parametrize("name", KERNELS)
def test_the_compiled_kernel_exports_exactly_those_names(name):
    pure, compiled = _pure(name), _compiled(name)
    public = {n for n in dir(compiled) if not n.startswith("_")}
    assert public == set(pure.__all__)
    for n in pure.__all__:
        assert _shape(getattr(compiled, n)) == _shape(getattr(pure, n)), n


def test_the_recovery_kernel_is_narrow():
    # the text strategies, the object literal, the engine, comments, curly
    # quotes and the refusal; strategy names live in recovery, and so does
    # loads, which the kernel only builds (make_loads: its hot path without a
    # Python frame, the rest handed back to recovery; exact_json: step 0 alone, without its tuple)
    assert sorted(_pure("_recover").__all__) == [
        "Refused", "exact_json", "make_loads", "normalize_structural_quotes", "parse_object_literal",
        "recover_text", "recover_value", "repair_json", "strip_comments"]


_IMPORT = re.compile(r"^\s*(?:from\s+(\S+)\s+c?import|c?import\s+(\S+))", re.M)


@pytest.mark.parametrize("path", sorted(EXT.glob("*.p*")), ids=lambda p: p.name)
def test_no_compiled_kernel_imports_a_twin_or_a_module_above(path):
    if not EXT.is_dir():
        pytest.skip("no ext/ sources here")
    for m in _IMPORT.finditer(path.read_text(encoding="utf-8")):
        module = m.group(1) or m.group(2)
        assert not module.startswith(("toolmend", ".")), f"{path.name} imports {module}"


_TWIN = re.compile(r"Twin: src/toolmend/_kernels/(\w+)\.py")
_PARTS = sorted(p for p in EXT.glob("*.pxi") if _TWIN.search(p.read_text(encoding="utf-8")))


@pytest.mark.parametrize("path", _PARTS, ids=lambda p: p.name)
def test_an_included_part_sits_beside_its_twin_of_the_same_name(path):
    # a kernel split along its concerns: each part that has a pure twin names
    # it, the twin is the file of the same name, and a pure kernel imports it
    name = _TWIN.search(path.read_text(encoding="utf-8")).group(1)
    assert name == path.stem
    assert (PACKAGE / f"{name}.py").is_file()
    assert any(f'include "{path.name}"' in p.read_text("utf-8") for p in EXT.glob("*.pyx"))
    pure_kernels = " ".join(p.read_text("utf-8") for p in PACKAGE.glob("_*_py.py"))
    assert f"from .{name} import" in pure_kernels


def test_py_typed_and_stubs_ship():
    assert (PACKAGE.parent / "py.typed").exists()
    for name in KERNELS:
        assert (PACKAGE / f"{name}.pyi").exists()


# ---------------------------------------------------------------------------
# the depth bound the compiled kernel declares for itself is toolmend._text's

@pytest.mark.parametrize("opener", ["[", "{a: "])
def test_both_twins_refuse_past_the_same_depth(recover_twins, opener):
    compiled, pure = recover_twins
    closer = "]" if opener == "[" else "}"
    ok = opener * MAX_DEPTH + "1" + closer * MAX_DEPTH
    deep = opener * (MAX_DEPTH + 1) + "1" + closer * (MAX_DEPTH + 1)
    for k in (compiled, pure):
        k.repair_json(ok)
        k.parse_object_literal(ok)
        for fn in (k.repair_json, k.parse_object_literal):
            with pytest.raises(k.Refused) as info:
                fn(deep)
            assert info.value.what == TOO_DEEP


def test_a_refusal_becomes_a_literal_error_with_line_and_column():
    r = normalize_tool_args('{"a": [1,\n 2, "k": 3]}')
    assert not r.ok and "a key inside an array at line 2, column 8 (offset 17)" in r.error


# ---------------------------------------------------------------------------
# exact numbers: one reader, in the kernel, whatever the digits around them

BIG = 2**64 + 7
LONG_CASES = [
    ('{"t": 1733059200123456789}', {"t": 1733059200123456789}),          # 19 digits, u64
    ('{"id": "12345678901234567890123456"}', {"id": "12345678901234567890123456"}),
    (f'{{"n": {BIG}}}', {"n": BIG}),
    (f'[-{2**63}, -{2**63 + 1}, {2**64 - 1}, {2**64}]', [-2**63, -(2**63 + 1), 2**64 - 1, 2**64]),
    (f'{{"s": "x:{BIG}", "n": {BIG}}}', {"s": f"x:{BIG}", "n": BIG}),
    (f'{{"s": "x:{BIG}"}}', {"s": f"x:{BIG}"}),
    (f'{{"f": {BIG}.5, "e": {BIG}e2, "E": -{BIG}E-2}}', {"f": float(f"{BIG}.5"),
                                                      "e": float(f"{BIG}e2"),
                                                      "E": float(f"-{BIG}E-2")}),
    (f'{{"a": [{{"b": [{BIG}, {{"c": {{}}}}, []]}}], "d": "\\u00e9\\ud83d\\ude00", "e": true}}',
     {"a": [{"b": [BIG, {"c": {}}, []]}], "d": "\u00e9\U0001f600", "e": True}),
    (f'{{"k": 1, "k": {BIG}}}', {"k": BIG}),
    (f'  \n[ {BIG} ,\t{{ "x" : null , "y" : false }} ]  ', [BIG, {"x": None, "y": False}]),
]


def _same(a, b):
    """Equal, with every number of the same type (an int never a float)."""
    return repr(a) == repr(b)


@pytest.mark.parametrize("raw,value", LONG_CASES)
def test_valid_text_with_long_digit_runs_keeps_its_integers(recover_kernel, raw, value):
    r = normalize_tool_args(raw)
    assert r.ok and r.strategy == "parse" and _same(r.value, value)
    assert _same(toolmend.loads(raw), value)
    step, _, got, _ = recover_kernel.recover_text(raw)
    assert step == 0 and _same(got, value)
    assert _same(recover_kernel.recover_value(raw), value)


PAD = "x" * 4000  # a long text: its value is looked at before its characters are probed
WIDE = [{"k": i} for i in range(400)]  # more members than that look may take
LOOKED_AT_CASES = [
    {"content": PAD, "a": [{"b": [BIG]}]},             # few members, a lost integer deep in them
    {"content": PAD, "n": 5, "f": 1.5, "m": -BIG},      # a float: the text is probed
    {"content": PAD, "n": 2**63, "s": str(BIG)},        # no float: nothing was lost
    {"wide": WIDE, "last": BIG},                        # too many members to look at: probed
    [PAD, [[[[BIG]]]], {}],
]


@pytest.mark.parametrize("value", LOOKED_AT_CASES)
def test_long_valid_text_keeps_its_integers_however_it_is_checked(recover_kernel, value):
    raw = json.dumps(value)
    assert len(raw) > 4000
    step, _, got, _ = recover_kernel.recover_text(raw)
    assert step == 0 and _same(got, value)
    assert _same(recover_kernel.recover_value(raw), value)
    assert _same(toolmend.loads(raw), value)


@pytest.mark.parametrize("raw,value", LONG_CASES)
def test_long_runs_past_every_path(recover_twins, raw, value):
    padded = raw.rstrip()
    for broken in (padded + "\n// note", padded.replace(":", ": ", 1) + ",",
                   "Here: " + padded):
        outcomes = [normalize_tool_args(broken)]
        for k in recover_twins:
            outcomes.append(k.recover_text(broken))
            try:
                outcomes.append(k.repair_json(broken)[:2])
            except k.Refused as exc:
                outcomes.append((exc.pos, exc.what))
        compiled_text, pure_text = outcomes[1], outcomes[3]
        assert repr(compiled_text) == repr(pure_text)
        assert repr(outcomes[2]) == repr(outcomes[4])


# the pure twin's probe for integers beyond 64 bits, as one pattern (its look-behind is tried
# at every character: the probe asks first whether there is a run of 19 digits at all, in the
# text's bytes, then finds the runs and looks around them)
_LONG_INT = re.compile(r"(?:(?<=[ \t\n\r\[,:])|^)(-?)([0-9]{19,})(?![0-9.eE])")
_AROUND = st.sampled_from(["", " ", "\n", "[", ",", ":", "-", "--", '"', "a", "x-", ".", ".5", "e", "E3",
                           "]", "}", "{", "\t", "\r", "0", "\u00e9", "\u0663", "\ud800", "\U0001f600"])


# (numbers near each bound: 2**63 for a sign, 2**64 - 1 without one, and the runs of 18-20 digits)
_NUMBERS = st.one_of(st.integers(0, 2**70), st.integers(2**63 - 2, 2**63 + 2),
                     st.integers(2**64 - 2, 2**64 + 2), st.integers(10**17, 10**18 + 2),
                     st.integers(10**19 - 2, 10**19 + 2))


@pytest.mark.builds_side_by_side  # (the pure twin's function, imported as such)
@settings(max_examples=1500, deadline=None)
@given(st.lists(st.tuples(_AROUND, _NUMBERS, st.integers(0, 21), _AROUND), max_size=6))
def test_the_pure_probe_finds_what_the_pattern_finds(parts):
    from toolmend._kernels._recover_py import _lossy_ints

    text = "".join(a + str(n).zfill(width) + b for a, n, width, b in parts)
    bounds = {"": 2**64 - 1, "-": 2**63}
    want = any(int(m.group(2)) > bounds[m.group(1)] for m in _LONG_INT.finditer(text))
    assert _lossy_ints(text) == want, text


def test_the_engine_keeps_integers_exact_where_orjson_refuses(recover_twins):
    # orjson refuses a lone surrogate: the engine's value then comes from the
    # kernel's exact reader, in both twins; a number beyond a double is null
    # (JSON has no Infinity), as NaN is
    raw = f"{{a: {BIG}, b: '\\ud800', c: 1e400, d: [{BIG}, -{BIG}]"
    compiled, pure = recover_twins
    got = [k.repair_json(raw) for k in (compiled, pure)]
    assert repr(got[0]) == repr(got[1])
    value = got[0][0]
    assert value == {"a": BIG, "b": "\ud800", "c": None, "d": [BIG, -BIG]}
    assert ("nan", 42) in [(code, pos) for code, pos, _ in got[0][2]]
    assert type(value["a"]) is int


def test_a_big_integer_inside_a_50kb_argument(recover_kernel):
    # the shape of the benchmark: a nanosecond timestamp, an id in a string
    body = {"content": "x" * 50_000, "ts": 1733059200123456789, "id": "1234567890123456789",
            "big": BIG}
    raw = orjson.dumps({k: v for k, v in body.items() if k != "big"}).decode()[:-1] \
        + f',"big":{BIG}}}'
    r = normalize_tool_args(raw, "write_file")
    assert r.ok and r.value == body and type(r.value["big"]) is int
