"""The generated check of a compiled schema: one Python function per node,
its keywords' tests written out (exact type tests first, the JSON semantics
behind them), and the plan the schema-check kernel walks (one record per
node, the node's function its fallback for whatever the record does not
carry: toolmend/_kernels/_schemacheck_py.py)."""

from __future__ import annotations

from typing import Any

from .._kernels import schemacheck as _k
from .._regex import TAME_LENGTH, tame_search
from . import _schemanodes as _nodes
from ._schemanodes import _EXACT, _MISSING, _key, _multiple, _Node, _type_ok, _unique

# -- the generated checks ------------------------------------------------------------------------

class _Gen:
    """Python source of one function per node."""

    def __init__(self, nodes: list[_Node]) -> None:
        self.nodes = nodes
        self.inline = _inlinable(nodes)
        self.consts: dict[str, Any] = {
            "_type_ok": _type_ok, "_key": _key, "_unique": _unique, "_multiple": _multiple,
            "_M": _MISSING, "_isinstance": isinstance, "_len": len, "_dict": dict, "_list": list,
            "_str": str, "_int": int, "_float": float, "_bool": bool, "_NoneType": type(None),
            "_T": _nodes.PATTERN_TIMEOUT,
        }

    def const(self, value: Any, hint: str) -> str:
        name = f"_{hint}{len(self.consts)}"
        self.consts[name] = value
        return name

    def search(self, rx: Any, text: str, v: str) -> str:
        """An expression: the search of ``rx`` in ``v``, with a timeout unless
        the pattern is tame and the string short (a timeout costs more than
        the search)."""
        p = self.const(rx.search, "search")
        fast = tame_search(text)
        if fast is not None:
            f = self.const(fast, "tame")
            return f"({f}({v}) if _len({v}) <= {TAME_LENGTH} else {p}({v}, timeout=_T))"
        return f"{p}({v}, timeout=_T)"

    def type_test(self, var: str, names: tuple[str, ...]) -> str:
        """An expression true when ``var`` is not of the types ``names``."""
        exact = sorted({t.__name__ for n in names for t in _EXACT[n]})
        # (a float is a number only when finite: JSON has no NaN or Infinity; x - x is 0.0 then)
        pieces = [f"(type({var}) is not _float or {var} - {var} != 0.0)" if t == "float" else
                  f"type({var}) is not _{'NoneType' if t == 'NoneType' else t}" for t in exact]
        return f"({' and '.join(pieces)} and not _type_ok({var}, {names!r}))"

    def child(self, out: list[str], ind: str, var: str, c: _Node, d: int = 0) -> None:
        """The check of child ``c`` on ``var``: written out in place for a node
        without children of its own (or a small one), else a call of its
        function (a node that is only a ``$ref`` is the node it names). Always
        at least one line (``pass`` for a schema that checks nothing)."""
        seen = 0
        while c.only_ref and c.ref is not None and seen < len(self.nodes):
            c, seen = c.ref, seen + 1
        before = len(out)
        if c.always is False:
            out.append(f"{ind}return False")
        elif c.always is True:
            pass
        elif c.simple is not None:
            out.append(f"{ind}if {self.type_test(var, c.simple)}: return False")
        elif _leaf(c) or (d < _INLINE_DEPTH and c.index in self.inline):
            self.checks(out, c, var, ind, d + 1)
        else:
            out.append(f"{ind}if not _v{c.index}({var}): return False")
        if len(out) == before:
            out.append(f"{ind}pass")

    def emit(self, n: _Node) -> list[str]:
        out = [f"def _v{n.index}(x):"]
        if n.always is not None:
            out.append(f"    return {n.always}")
            return out
        self.checks(out, n, "x", "    ")
        out.append("    return True")
        return _filled(out)

    def checks(self, out: list[str], n: _Node, v: str, i: str, d: int = 0) -> None:
        """``if ...: return False`` lines for every keyword of ``n`` on ``v``."""
        if n.ref is not None:
            self.child(out, i, v, n.ref, d)
        only: str | None = None
        if n.types is not None:
            out.append(f"{i}if {self.type_test(v, n.types)}: return False")
            if len(n.types) == 1:
                only = n.types[0]
        if (n.props or n.required or n.additional or n.pattern_props or n.names
                or n.min_props is not None or n.max_props is not None or n.dep_required):
            self.object_block(out, n, v, i, only, d)
        if (n.prefix or n.items or n.min_items is not None or n.max_items is not None
                or n.unique):
            body = _bounded(out, i, v, only, "array", n.min_items, n.max_items)
            for k, c in enumerate(n.prefix):
                if c.always is True:
                    continue
                out.append(f"{body}if _len({v}) > {k}:")
                out.append(f"{body}    y{d} = {v}[{k}]")
                self.child(out, body + "    ", f"y{d}", c, d)
            if n.items is not None and n.items.always is not True:
                start = len(n.prefix)
                out.append(f"{body}for y{d} in {f'{v}[{start}:]' if start else v}:")
                self.child(out, body + "    ", f"y{d}", n.items, d)
            if n.unique:
                out.append(f"{body}if not _unique({v}): return False")
        if n.min_len is not None or n.max_len is not None or n.pattern is not None:
            body = _bounded(out, i, v, only, "string", n.min_len, n.max_len)
            if n.pattern is not None:
                out.append(f"{body}if {self.search(n.pattern, n.pattern_text, v)} is None: "
                           "return False")
        numeric = [(n.minimum, "<"), (n.maximum, ">"), (n.exmin, "<="), (n.exmax, ">=")]
        if any(b is not None for b, _ in numeric) or n.multiple is not None:
            body = i
            if only not in ("number", "integer"):
                out.append(f"{i}if (type({v}) is _int or type({v}) is _float or "
                           f"(_isinstance({v}, (_int, _float)) and not _isinstance({v}, _bool))):")
                body = i + "    "
            out.append(f"{body}if {v} - {v} != 0: return False")  # (NaN, Infinity: no JSON numbers)
            for b, op in numeric:
                if b is not None:
                    out.append(f"{body}if {v} {op} {self.const(b, 'n')}: return False")
            if n.multiple is not None:
                out.append(f"{body}if not _multiple({v}, {self.const(n.multiple, 'n')}): "
                           "return False")
        if n.enum is not None:
            e = self.const(n.enum_keys, "enum")
            out.append(f"{i}if ({v} if type({v}) is _str else _key({v})) not in {e}: return False")
        if n.const is not _MISSING:
            ck = self.const(_key(n.const), "const")
            out.append(f"{i}if _key({v}) != {ck}: return False")
        for c in n.all_of:
            self.child(out, i, v, c, d)
        if n.any_of and all(c.simple is not None for c in n.any_of):
            # a union of bare types (Optional[...] in Pydantic): one type test
            union = tuple(dict.fromkeys(t for c in n.any_of for t in c.simple or ()))
            out.append(f"{i}if {self.type_test(v, union)}: return False")
        elif n.any_of:
            out.append(f"{i}if not ({' or '.join(f'_v{c.index}({v})' for c in n.any_of)}): "
                       "return False")
        if n.one_of:
            out.append(f"{i}if ({' + '.join(f'_v{c.index}({v})' for c in n.one_of)}) != 1: "
                       "return False")
        if n.not_ is not None:
            out.append(f"{i}if _v{n.not_.index}({v}): return False")

    def object_block(self, out: list[str], n: _Node, x: str, i: str, only: str | None,
                     d: int = 0) -> None:
        body = i
        if only != "object":
            out.append(f"{i}if type({x}) is _dict or _isinstance({x}, _dict):")
            body = i + "    "
        closed = (n.additional is not None and n.additional.always is False
                  and not n.pattern_props)
        if n.min_props is not None:
            out.append(f"{body}if _len({x}) < {n.min_props}: return False")
        if n.max_props is not None:
            out.append(f"{body}if _len({x}) > {n.max_props}: return False")
        if closed:
            out.append(f"{body}m{d} = 0")
        required = set(n.required)
        for name, c in n.props.items():
            lit = repr(name)
            if c.always is True and not closed:
                if name in required:
                    out.append(f"{body}if {lit} not in {x}: return False")
                continue
            if name in required:
                out.append(f"{body}if {lit} not in {x}: return False")
                out.append(f"{body}y{d} = {x}[{lit}]")
                if closed:
                    out.append(f"{body}m{d} += 1")
                self.child(out, body, f"y{d}", c, d)
            else:
                out.append(f"{body}if {lit} in {x}:")
                out.append(f"{body}    y{d} = {x}[{lit}]")
                if closed:
                    out.append(f"{body}    m{d} += 1")
                self.child(out, body + "    ", f"y{d}", c, d)
        for name in n.required:
            if name not in n.props:
                out.append(f"{body}if {name!r} not in {x}: return False")
        for name, needs in n.dep_required.items():
            cond = " or ".join(f"{r!r} not in {x}" for r in needs) or "False"
            out.append(f"{body}if {name!r} in {x} and ({cond}): return False")
        if closed:
            out.append(f"{body}if _len({x}) != m{d}: return False")
        elif n.additional is not None or n.pattern_props or n.names is not None:
            declared = self.const(frozenset(n.props), "props")
            out.append(f"{body}for k{d}, y{d} in {x}.items():")
            b2 = body + "    "
            if n.names is not None:
                self.child(out, b2, f"k{d}", n.names, d)
            if n.pattern_props or (n.additional is not None and n.additional.always is not True):
                out.append(f"{b2}h{d} = k{d} in {declared}")
                for rx, text, c in n.pattern_props:
                    out.append(f"{b2}if {self.search(rx, text, f'k{d}')} is not None:")
                    out.append(f"{b2}    h{d} = True")
                    self.child(out, b2 + "    ", f"y{d}", c, d)
                if n.additional is not None and n.additional.always is not True:
                    out.append(f"{b2}if not h{d}:")
                    if n.additional.always is False:
                        out.append(f"{b2}    return False")
                    else:
                        self.child(out, b2 + "    ", f"y{d}", n.additional, d)
            out.append(f"{b2}pass")

    def source(self) -> str:
        """The factory: every constant a parameter (a closure variable of the
        checks, read as fast as a local), every node's function inside."""
        body: list[str] = []
        for n in self.nodes:
            body.extend("    " + line for line in self.emit(n))
        names = ", ".join(f"_v{n.index}" for n in self.nodes)
        params = ", ".join(["type", *self.consts])
        return "\n".join([f"def _factory({params}):", *body, f"    return [{names}]", ""])

    def build(self) -> list[Any]:
        """The function of each node, in node order (a pattern past its time
        raises TimeoutError, a value nested past Python's stack RecursionError:
        the kernel's checker makes them a misfit)."""
        namespace: dict[str, Any] = {}
        exec(compile(self.source(), "<toolmend schema>", "exec"), namespace)  # noqa: S102
        return list(namespace["_factory"](type, **self.consts))


#: How many levels of child nodes one function writes out in place.
_INLINE_DEPTH = 4
#: The most nodes under one node written out in place.
_INLINE_NODES = 16


def _bounded(out: list[str], i: str, v: str, only: str | None, kind: str, low: int | None,
             high: int | None) -> str:
    """The guard of an array's or a string's checks (none when the node's type
    is that kind alone), then its length bounds; the indent of the checks."""
    body = i
    if only != kind:
        out.append(f"{i}if _isinstance({v}, {'_list' if kind == 'array' else '_str'}):")
        body = i + "    "
    if low is not None:
        out.append(f"{body}if _len({v}) < {low}: return False")
    if high is not None:
        out.append(f"{body}if _len({v}) > {high}: return False")
    return body


def _filled(lines: list[str]) -> list[str]:
    """``pass`` in every block that came out empty (a guard whose checks all
    fell away, such as ``prefixItems: [true]``)."""
    out: list[str] = []
    for k, line in enumerate(lines):
        out.append(line)
        if line.endswith(":"):
            depth = len(line) - len(line.lstrip())
            nxt = lines[k + 1] if k + 1 < len(lines) else ""
            if len(nxt) - len(nxt.lstrip()) <= depth:
                out.append(" " * (depth + 4) + "pass")
    return out


def _children(n: _Node) -> list[_Node]:
    out = [*n.props.values(), *n.prefix, *n.all_of, *n.any_of, *n.one_of]
    out += [c for c in (n.ref, n.additional, n.names, n.items, n.not_) if c is not None]
    return out + [c for _, _, c in n.pattern_props]


def _inlinable(nodes: list[_Node]) -> set[int]:
    """The nodes small enough, and on no ``$ref`` cycle, to be written out in
    place of a call."""
    sizes: dict[int, int] = {}

    def size(n: _Node, path: frozenset[int]) -> int:
        if n.index in path:
            return _INLINE_NODES + 1  # a cycle
        if n.index not in sizes:
            sizes[n.index] = 1 + sum(size(c, path | {n.index}) for c in _children(n))
        return sizes[n.index]

    try:
        return {n.index for n in nodes if size(n, frozenset()) <= _INLINE_NODES}
    except RecursionError:  # pragma: no cover - a schema deeper than Python's stack
        return set()


def _leaf(n: _Node) -> bool:
    """A node whose checks name no other node (written out where it is used)."""
    return (n.always is None and n.ref is None and not n.props and n.additional is None
            and not n.pattern_props and n.names is None and not n.prefix and n.items is None
            and not n.all_of and not n.any_of and not n.one_of and n.not_ is None)


# -- the plan the kernel walks -------------------------------------------------------------------

_KINDS = {"null": _k.KIND_NULL, "boolean": _k.KIND_BOOL, "object": _k.KIND_OBJECT,
          "array": _k.KIND_ARRAY, "string": _k.KIND_STRING, "integer": _k.KIND_INT,
          "number": _k.KIND_INT | _k.KIND_FLOAT}
_ALL_KINDS = (_k.KIND_NULL | _k.KIND_BOOL | _k.KIND_OBJECT | _k.KIND_ARRAY | _k.KIND_STRING
              | _k.KIND_INT | _k.KIND_FLOAT)


def _kinds(names: tuple[str, ...] | None) -> int:
    """The exact Python types the JSON types ``names`` accept without a second
    look (a float is an integer only when whole: the node's function says)."""
    if names is None:
        return _ALL_KINDS
    out = 0
    for name in names:
        out |= _KINDS[name]
    return out


def _target(c: _Node, limit: int) -> int:
    """The node checked for child ``c``: past the nodes that are only a ``$ref``."""
    seen = 0
    while c.only_ref and c.ref is not None and seen < limit:
        c, seen = c.ref, seen + 1
    return c.index


def _walked(n: _Node) -> bool:
    """Whether the kernel's records carry every keyword of ``n`` (else the
    node's function checks it whole)."""
    simple_union = all(c.simple is not None for c in n.any_of)
    return not (n.multiple is not None or n.unique or n.pattern_props or n.names is not None
                or n.dep_required or n.one_of or n.not_ is not None or not simple_union)


#: characters a pattern of the anchored-prefix form never holds outside a class
_SPECIAL = frozenset("\\.^$*+?{}[]()|")
#: and inside one (``-`` only between two letters or digits, or at either end)
_CLASS_SPECIAL = frozenset("\\[]^&~|")


def _class_chars(body: str) -> str | None:
    """The characters of a character class's body (ASCII letters, digits and
    punctuation, ranges of letters or digits), None for anything else."""
    out: list[str] = []
    i = 0
    while i < len(body):
        c = body[i]
        if c in _CLASS_SPECIAL or not " " <= c <= "~":
            return None
        if c == "-" and 0 < i < len(body) - 1:
            lo, hi = body[i - 1], body[i + 1]
            same = (lo.isdigit() and hi.isdigit()) or (lo.islower() and hi.islower()) or \
                (lo.isupper() and hi.isupper())
            if not (same and lo.isalnum() and lo <= hi) or body[i - 2:i - 1] == "-":
                return None
            out.extend(chr(k) for k in range(ord(lo) + 1, ord(hi) + 1))
            i += 2
            continue
        out.append(c)
        i += 1
    return "".join(dict.fromkeys(out)) or None


def anchored_prefix(pattern: str) -> tuple[tuple[bool, str], ...] | None:
    """For a pattern that only says how a string starts (``^``, then ASCII
    characters and character classes, then at most ``.*``), each position's
    ``(negated, characters)``: the string matches when it is at least that long
    and each of its first characters is (or, negated, is not) among those.
    None for any other pattern (the regex engine decides)."""
    if not pattern.startswith("^"):
        return None
    body = pattern[1:]
    if body.endswith(".*"):
        body = body[:-2]
    atoms: list[tuple[bool, str]] = []
    i = 0
    while i < len(body):
        c = body[i]
        if c == "[":
            end = body.find("]", i + 1)
            if end < 0:
                return None
            inner = body[i + 1:end]
            negated = inner.startswith("^")
            chars = _class_chars(inner[1:] if negated else inner)
            if chars is None:
                return None
            atoms.append((negated, chars))
            i = end + 1
        elif c in _SPECIAL or not " " <= c <= "~":
            return None
        else:
            atoms.append((False, c))
            i += 1
    return tuple(atoms)


def _count(v: int | None) -> int:
    return -1 if v is None else v


def plan(nodes: list[_Node]) -> list[tuple[Any, ...]]:
    """The kernel's record of each node (toolmend/_kernels/_schemacheck_py.py
    says the fields), its generated function (``n.fn``) the fallback."""
    out: list[tuple[Any, ...]] = []
    limit = len(nodes)
    for n in nodes:
        if n.always is not None or not _walked(n):
            kind = _k.CALL if n.always is None else _k.ALWAYS if n.always else _k.NEVER
            out.append((kind, n.fn, -1, 0, (), (), False, -1, -1, (), -1, -1, -1, -1, -1, None, None,
                        None, (), -1))
            continue
        kinds = _kinds(n.types)
        if n.any_of:  # a union of bare types
            kinds &= _kinds(tuple(t for c in n.any_of for t in c.simple or ()))
        props = tuple((name, _target(c, limit), name in n.required) for name, c in n.props.items())
        required = tuple(r for r in n.required if r not in n.props)
        closed = n.additional is not None and n.additional.always is False
        pattern = None
        if n.pattern is not None:
            pattern = (tame_search(n.pattern_text), TAME_LENGTH, n.pattern.search, _nodes.PATTERN_TIMEOUT,
                       anchored_prefix(n.pattern_text))
        bounds = (n.minimum, n.maximum, n.exmin, n.exmax)
        enum = n.enum_keys if n.enum is not None else None
        if n.const is not _MISSING:  # an enum of one
            ck = _key(n.const)
            enum = frozenset((ck,)) if enum is None or ck in enum else frozenset()
        extra = n.additional if n.additional is not None and n.additional.always is None else None
        out.append((
            _k.CHECKS, n.fn, -1 if n.ref is None else _target(n.ref, limit), kinds, props, required,
            closed, _count(n.min_props), _count(n.max_props),
            tuple(_target(c, limit) for c in n.prefix),
            -1 if n.items is None else _target(n.items, limit), _count(n.min_items),
            _count(n.max_items), _count(n.min_len), _count(n.max_len), pattern,
            None if all(b is None for b in bounds) else bounds,
            enum, tuple(_target(c, limit) for c in n.all_of),
            -1 if extra is None else _target(extra, limit)))
    return out
