"""Keys given more than once in a JSON object: JSON readers keep the last
value (at the first key's place, as a dict does), and so do the verbs; these
say so in a note. ``unique_members`` reads an object's members by that rule,
``path_notes`` says it of a path that went through such a key."""

from __future__ import annotations

from array import array
from typing import TYPE_CHECKING, Any, Sequence

from ._path import Segment, format_path

if TYPE_CHECKING:
    from ._document import Document

__all__ = ["DUPLICATES_SHOWN", "duplicate_notes", "unique_members", "path_notes"]

#: Notes about duplicate keys one verb gives at most.
DUPLICATES_SHOWN = 5


def _repeated(names: Sequence[str]) -> dict[str, int]:
    """The keys given more than once, with how often."""
    counts: dict[str, int] = {}
    for name in names:
        counts[name] = counts.get(name, 0) + 1
    return {name: n for name, n in counts.items() if n > 1}


def duplicate_notes(where: str, dupes: dict[str, int]) -> list[str]:
    """The notes for the keys given more than once (``dupes``, with how
    often) in the object ``where`` (a path, or "an object")."""
    notes = [f"note: JSON: the key {key!r} is given {n} times in {where}; the last value is kept"
             for key, n in list(dupes.items())[:DUPLICATES_SHOWN]]
    if len(dupes) > DUPLICATES_SHOWN:
        notes.append(f"note: JSON: {len(dupes) - DUPLICATES_SHOWN} more keys given more than "
                     f"once in {where}")
    return notes


def unique_members(doc: Document, pos: int
                   ) -> tuple[list[str] | None, array[int], dict[str, int]]:
    """``members`` with JSON's rule for a key given twice: the last value,
    at the first one's place (as a dict reading the object keeps it); and
    how often each such key was given (empty for an array)."""
    names, spans = doc.members(pos)
    if names is None or len(names) < 2:
        return names, spans, {}
    last = dict(zip(names, range(len(names)), strict=True))
    if len(last) == len(names):
        return names, spans, {}
    return list(last), _kept(spans, last.values()), _repeated(names)


def _kept(spans: array[int], picks: Any) -> array[int]:
    kept = array("q")
    for i in picks:
        kept.extend(spans[2 * i:2 * i + 2])
    return kept


def path_notes(doc: Document, path: Sequence[Segment], at: int) -> list[str]:
    """The notes for a path (from the document's root) whose segment ``at`` is
    the first key its object gives more than once (the kernel's lookup says
    which), and for each such key after it."""
    notes: list[str] = []
    holder = doc.lookup(doc.start, path[:at])[0] if at else doc.start
    while len(notes) < DUPLICATES_SHOWN:
        key = str(path[at])  # (a key: only an object's member can be given twice)
        notes += duplicate_notes(format_path(path[:at]), {key: unique_members(doc, holder)[2].get(key, 2)})
        value = doc.lookup(holder, path[at:at + 1])[0]
        further = doc.lookup(value, path[at + 1:])[3]  # the next such key on the rest of the path
        if further < 0:
            break
        holder = doc.lookup(value, path[at + 1:at + 1 + further])[0] if further else value
        at += 1 + further
    return notes
