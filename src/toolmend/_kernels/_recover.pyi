"""Type stub of the compiled kernel ``toolmend._kernels._recover`` (built from ``ext/_recover.pyx``).

It mirrors its pure-Python twin ``toolmend._kernels._recover_py``, the reference: the same names
with the same signatures, so the types are taken from there (tests/test_kernel_line.py checks it)."""

from toolmend._kernels._recover_py import (
    Refused as Refused,
    make_loads as make_loads,
    normalize_structural_quotes as normalize_structural_quotes,
    parse_object_literal as parse_object_literal,
    recover_text as recover_text,
    recover_value as recover_value,
    repair_json as repair_json,
    strip_comments as strip_comments,
)
