"""Pure-Python twin of ``ext/_schemacheck.pyx``: the check of a compiled JSON Schema on a value.

recovery/_schemagen.py turns each node of a compiled schema into a *plan*
record and a generated Python function (the node's whole check, the
reference). The kernel walks the records over the value, handling the exact
JSON types itself (``None``, ``bool``, ``int``, ``float``, ``str``, ``list``,
``dict``); anything else (a subclass, a float where only integers are wanted, a
keyword the records do not carry, a value nested past ``CHECK_DEPTH`` levels)
it hands to the node's function, so the two always give the same verdict.

``make_checker(nodes, key, slow)`` -> an object with ``is_valid(x)`` (the
verdict: a pattern past its time, or a value nested past Python's stack, is a
misfit) and ``validate(x, *, coerce=True, fill_defaults=False)`` (``x`` itself
when it fits and no defaults are asked, else ``slow(x, coerce, fill_defaults)``).
``key(x)``: the JSON-equality key of a value (what ``enum`` sets hold).

A record is a tuple, node 0 the root:

    (kind, fallback, ref, kinds, props, required, closed, min_props, max_props,
     prefix, items, min_items, max_items, min_len, max_len, pattern, bounds, enum, all_of,
     additional)

``kind``: ALWAYS (fits), NEVER, CALL (``fallback(x)`` decides) or CHECKS (the
fields below); ``fallback``: the node's function; ``ref``: a node checked first
(-1: none); ``kinds``: the exact types accepted (KIND_* bits; one outside them
goes to the fallback); ``props``: ``(name, node, required)`` of the declared
properties; ``required``: required names not declared; ``closed``: no other
property allowed; counts are -1 when absent; ``prefix``: nodes of the first
items; ``items``: the node of the others (-1: none); ``pattern``: None or
``(tame, tame_length, search, timeout, prefix)``: when ``prefix`` is not None
(a pattern that only says how a string starts), a tuple of ``(negated,
characters)``, one for each of the first characters, and the string matches when
it is at least that long and each of them is (negated: is not) among its
characters (ASCII); else ``tame(s)`` on a string of at most ``tame_length``
characters when ``tame`` is not None, else ``search(s, timeout=timeout)``;
``bounds``: None or ``(minimum, maximum, exclusive minimum, exclusive
maximum)``, each None when absent; ``enum``: None or a frozenset of keys;
``all_of``: nodes that must fit too; ``additional``: the node each property not
declared must fit (-1: none).
"""

from __future__ import annotations

from math import isfinite
from typing import Any, Callable

__all__ = ["make_checker", "CHECK_DEPTH", "ALWAYS", "NEVER", "CALL", "CHECKS",
           "KIND_NULL", "KIND_BOOL", "KIND_OBJECT", "KIND_ARRAY", "KIND_STRING", "KIND_INT",
           "KIND_FLOAT"]

#: Levels of nodes walked by the kernel; deeper, each node's function checks.
CHECK_DEPTH = 48

ALWAYS, NEVER, CALL, CHECKS = 0, 1, 2, 3
KIND_NULL, KIND_BOOL, KIND_OBJECT, KIND_ARRAY = 1, 2, 4, 8
KIND_STRING, KIND_INT, KIND_FLOAT = 16, 32, 64

_KIND = {type(None): KIND_NULL, bool: KIND_BOOL, dict: KIND_OBJECT, list: KIND_ARRAY,
         str: KIND_STRING, int: KIND_INT, float: KIND_FLOAT}


class _Checker:
    __slots__ = ("_nodes", "_key", "_slow")

    def __init__(self, nodes: list[tuple[Any, ...]], key: Callable[[Any], Any],
                 slow: Callable[[Any, bool, bool], Any]) -> None:
        self._nodes = [tuple(n) for n in nodes]
        if not self._nodes:
            raise ValueError("a schema plan has at least its root node")
        for n in self._nodes:
            links = [n[2], n[10], n[19]]  # ref, items, additional: -1 for none
            others = [c for _, c, _ in n[4]] + list(n[9]) + list(n[18])
            if any(not -1 <= i < len(self._nodes) for i in links) or \
                    any(not 0 <= i < len(self._nodes) for i in others):
                raise ValueError(f"a schema plan names a node outside its {len(self._nodes)}")
        self._key = key
        self._slow = slow

    def is_valid(self, x: Any) -> bool:
        try:
            return self._check(0, x, 0)
        except (RecursionError, TimeoutError):
            return False

    def validate(self, x: Any, *, coerce: bool = True, fill_defaults: bool = False) -> Any:
        if fill_defaults:
            return self._slow(x, coerce, fill_defaults)
        try:
            fits = self._check(0, x, 0)
        except (RecursionError, TimeoutError):
            fits = False
        return x if fits else self._slow(x, coerce, False)

    def _check(self, i: int, x: Any, depth: int) -> bool:
        (kind, fallback, ref, kinds, props, required, closed, min_props, max_props, prefix, items,
         min_items, max_items, min_len, max_len, pattern, bounds, enum, all_of,
         additional) = self._nodes[i]
        if kind == ALWAYS:
            return True
        if kind == NEVER:
            return False
        if kind == CALL or depth >= CHECK_DEPTH:
            return bool(fallback(x))
        if ref >= 0 and not self._check(ref, x, depth + 1):
            return False
        k = _KIND.get(type(x), 0)
        if k == KIND_FLOAT and not isfinite(x):
            k = 0  # (NaN and Infinity are no JSON numbers: the node's function judges them)
        if not k & kinds:
            return bool(fallback(x))
        if k == KIND_OBJECT:
            if not self._object(x, props, required, closed, min_props, max_props, depth):
                return False
            if additional >= 0:
                declared = {name for name, _, _ in props}
                for name, y in x.items():
                    if name not in declared and not self._check(additional, y, depth + 1):
                        return False
        elif k == KIND_ARRAY:
            n = len(x)
            if min_items >= 0 and n < min_items or max_items >= 0 and n > max_items:
                return False
            for c, y in zip(prefix, x, strict=False):
                if not self._check(c, y, depth + 1):
                    return False
            if items >= 0:
                for y in x[len(prefix):]:
                    if not self._check(items, y, depth + 1):
                        return False
        elif k == KIND_STRING:
            n = len(x)
            if min_len >= 0 and n < min_len or max_len >= 0 and n > max_len:
                return False
            if pattern is not None:
                tame, tame_length, search, timeout, prefix = pattern
                if prefix is not None:
                    if n < len(prefix) or any((ch in chars) == negated
                                              for (negated, chars), ch in zip(prefix, x, strict=False)):
                        return False
                elif (tame(x) if tame is not None and n <= tame_length
                      else search(x, timeout=timeout)) is None:
                    return False
        elif (k == KIND_INT or k == KIND_FLOAT) and bounds is not None:
            low, high, exlow, exhigh = bounds
            if (low is not None and x < low or high is not None and x > high
                    or exlow is not None and x <= exlow or exhigh is not None and x >= exhigh):
                return False
        if enum is not None and (x if k == KIND_STRING else self._key(x)) not in enum:
            return False
        return all(self._check(c, x, depth + 1) for c in all_of)

    def _object(self, x: dict[str, Any], props: tuple[tuple[str, int, bool], ...],
                required: tuple[str, ...], closed: bool, min_props: int, max_props: int,
                depth: int) -> bool:
        n = len(x)
        if min_props >= 0 and n < min_props or max_props >= 0 and n > max_props:
            return False
        matched = 0
        for name, c, needed in props:
            if name in x:
                matched += 1
                if not self._check(c, x[name], depth + 1):
                    return False
            elif needed:
                return False
        if any(name not in x for name in required):
            return False
        return not closed or matched == n


def make_checker(nodes: list[tuple[Any, ...]], key: Callable[[Any], Any],
                 slow: Callable[[Any, bool, bool], Any]) -> Any:
    """The checker walking the records ``nodes`` (node 0 the root)."""
    return _Checker(nodes, key, slow)
