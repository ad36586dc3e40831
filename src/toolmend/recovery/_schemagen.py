"""The generated check of a compiled schema: one Python function per node,
its keywords' tests written out (exact type tests first, the JSON semantics
behind them), so that a value that fits runs no interpretation."""

from __future__ import annotations

from typing import Any

from . import _schemanodes as _nodes
from ._schemanodes import _EXACT, _MISSING, _key, _multiple, _Node, _type_ok, _unique

# -- the generated checks ------------------------------------------------------------------------

class _Gen:
    """Python source of one function per node."""

    def __init__(self, nodes: list[_Node]) -> None:
        self.nodes = nodes
        self.consts: dict[str, Any] = {
            "_type_ok": _type_ok, "_key": _key, "_unique": _unique, "_multiple": _multiple,
            "_M": _MISSING, "_isinstance": isinstance, "_len": len, "_dict": dict, "_list": list,
            "_str": str, "_int": int, "_float": float, "_bool": bool, "_NoneType": type(None),
            "_T": _nodes.PATTERN_TIMEOUT,
        }
        self.lines: list[str] = []

    def const(self, value: Any, hint: str) -> str:
        name = f"_{hint}{len(self.consts)}"
        self.consts[name] = value
        return name

    def type_test(self, var: str, names: tuple[str, ...]) -> str:
        """An expression true when ``var`` is not of the types ``names``."""
        exact = sorted({t.__name__ for n in names for t in _EXACT[n]})
        pieces = [f"type({var}) is not _{'NoneType' if t == 'NoneType' else t}" for t in exact]
        return f"({' and '.join(pieces)} and not _type_ok({var}, {names!r}))"

    def child(self, out: list[str], ind: str, var: str, c: _Node) -> None:
        if c.always is True:
            return
        if c.simple is not None:
            out.append(f"{ind}if {self.type_test(var, c.simple)}: return False")
        else:
            out.append(f"{ind}if not _v{c.index}({var}): return False")

    def emit(self, n: _Node) -> list[str]:
        out = [f"def _v{n.index}(x):"]
        i = "    "
        if n.always is not None:
            out.append(f"{i}return {n.always}")
            return out
        if n.ref is not None:
            self.child(out, i, "x", n.ref)
        only: str | None = None
        if n.types is not None:
            out.append(f"{i}if {self.type_test('x', n.types)}: return False")
            if len(n.types) == 1:
                only = n.types[0]
        obj = bool(n.props or n.required or n.additional or n.pattern_props or n.names
                   or n.min_props is not None or n.max_props is not None or n.dep_required)
        if obj:
            self.object_block(out, n, only)
        arr = bool(n.prefix or n.items or n.min_items is not None or n.max_items is not None
                   or n.unique)
        if arr:
            guard = "" if only == "array" else "_isinstance(x, _list)"
            body = i + "    " if guard else i
            if guard:
                out.append(f"{i}if {guard}:")
            out.append(f"{body}L = _len(x)")
            if n.min_items is not None:
                out.append(f"{body}if L < {n.min_items}: return False")
            if n.max_items is not None:
                out.append(f"{body}if L > {n.max_items}: return False")
            for k, c in enumerate(n.prefix):
                if c.always is True:
                    continue
                out.append(f"{body}if L > {k}:")
                self.child(out, body + "    ", f"x[{k}]", c)
            if n.items is not None and n.items.always is not True:
                start = len(n.prefix)
                out.append(f"{body}for y in (x[{start}:] if {start} else x):")
                self.child(out, body + "    ", "y", n.items)
            if n.unique:
                out.append(f"{body}if not _unique(x): return False")
            if not guard:
                pass
        if n.min_len is not None or n.max_len is not None or n.pattern is not None:
            guard = "" if only == "string" else "_isinstance(x, _str)"
            body = i + "    " if guard else i
            if guard:
                out.append(f"{i}if {guard}:")
            if n.min_len is not None:
                out.append(f"{body}if _len(x) < {n.min_len}: return False")
            if n.max_len is not None:
                out.append(f"{body}if _len(x) > {n.max_len}: return False")
            if n.pattern is not None:
                p = self.const(n.pattern.search, "search")
                out.append(f"{body}if {p}(x, timeout=_T) is None: return False")
        numeric = [(n.minimum, "<"), (n.maximum, ">"), (n.exmin, "<="), (n.exmax, ">=")]
        if any(v is not None for v, _ in numeric) or n.multiple is not None:
            if only in ("number", "integer"):
                body = i
            else:
                out.append(f"{i}if (type(x) is _int or type(x) is _float or "
                           "(_isinstance(x, (_int, _float)) and not _isinstance(x, _bool))):")
                body = i + "    "
            for v, op in numeric:
                if v is not None:
                    out.append(f"{body}if x {op} {self.const(v, 'n')}: return False")
            if n.multiple is not None:
                out.append(f"{body}if not _multiple(x, {self.const(n.multiple, 'n')}): return False")
        if n.enum is not None:
            e = self.const(n.enum_keys, "enum")
            out.append(f"{i}if (x if type(x) is _str else _key(x)) not in {e}: return False")
        if n.const is not _MISSING:
            ck = self.const(_key(n.const), "const")
            out.append(f"{i}if _key(x) != {ck}: return False")
        for c in n.all_of:
            self.child(out, i, "x", c)
        if n.any_of:
            out.append(f"{i}if not ({' or '.join(f'_v{c.index}(x)' for c in n.any_of)}): "
                       "return False")
        if n.one_of:
            out.append(f"{i}if ({' + '.join(f'_v{c.index}(x)' for c in n.one_of)}) != 1: "
                       "return False")
        if n.not_ is not None:
            out.append(f"{i}if _v{n.not_.index}(x): return False")
        out.append(f"{i}return True")
        return out

    def object_block(self, out: list[str], n: _Node, only: str | None) -> None:
        i = "    "
        if only == "object":
            body = i
        else:
            out.append(f"{i}if type(x) is _dict or _isinstance(x, _dict):")
            body = i + "    "
        closed = (n.additional is not None and n.additional.always is False
                  and not n.pattern_props)
        if n.min_props is not None:
            out.append(f"{body}if _len(x) < {n.min_props}: return False")
        if n.max_props is not None:
            out.append(f"{body}if _len(x) > {n.max_props}: return False")
        if closed:
            out.append(f"{body}m = 0")
        required = set(n.required)
        for name, c in n.props.items():
            lit = repr(name)
            if c.always is True and not closed:
                if name in required:
                    out.append(f"{body}if {lit} not in x: return False")
                continue
            out.append(f"{body}y = x.get({lit}, _M)")
            if name in required:
                out.append(f"{body}if y is _M: return False")
                if closed:
                    out.append(f"{body}m += 1")
                self.child(out, body, "y", c)
            else:
                out.append(f"{body}if y is not _M:")
                if closed:
                    out.append(f"{body}    m += 1")
                self.child(out, body + "    ", "y", c)
                if out[-1] == f"{body}if y is not _M:":
                    out.append(f"{body}    pass")
        for name in n.required:
            if name not in n.props:
                out.append(f"{body}if {name!r} not in x: return False")
        for name, needs in n.dep_required.items():
            cond = " or ".join(f"{r!r} not in x" for r in needs) or "False"
            out.append(f"{body}if {name!r} in x and ({cond}): return False")
        if closed:
            out.append(f"{body}if _len(x) != m: return False")
        elif n.additional is not None or n.pattern_props or n.names is not None:
            declared = self.const(frozenset(n.props), "props")
            out.append(f"{body}for k, y in x.items():")
            b2 = body + "    "
            if n.names is not None:
                self.child(out, b2, "k", n.names)
            if n.pattern_props or (n.additional is not None and n.additional.always is not True):
                out.append(f"{b2}hit = k in {declared}")
                for rx, _, c in n.pattern_props:
                    s = self.const(rx.search, "search")
                    out.append(f"{b2}if {s}(k, timeout=_T) is not None:")
                    out.append(f"{b2}    hit = True")
                    self.child(out, b2 + "    ", "y", c)
                if n.additional is not None and n.additional.always is not True:
                    out.append(f"{b2}if not hit:")
                    if n.additional.always is False:
                        out.append(f"{b2}    return False")
                    else:
                        self.child(out, b2 + "    ", "y", n.additional)
            out.append(f"{b2}pass")

    def build(self) -> dict[str, Any]:
        src: list[str] = []
        for n in self.nodes:
            src.extend(self.emit(n))
            src.append("")
        namespace = dict(self.consts)
        exec(compile("\n".join(src), "<toolmend schema>", "exec"), namespace)  # noqa: S102
        return namespace
