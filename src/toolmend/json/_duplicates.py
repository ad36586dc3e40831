"""Keys given more than once in a JSON object: JSON readers keep the last
value (at the first key's place, as a dict does), and so do the verbs; these
say so in a note."""

from __future__ import annotations

from typing import Sequence

__all__ = ["DUPLICATES_SHOWN", "repeated", "duplicate_notes"]

#: Notes about duplicate keys one verb gives at most.
DUPLICATES_SHOWN = 5


def repeated(names: Sequence[str]) -> dict[str, int]:
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
