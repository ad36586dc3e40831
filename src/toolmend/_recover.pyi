"""Type stub of the compiled kernel ``toolmend._recover`` (built from ``ext/_recover.pyx``).

It mirrors its pure-Python twin ``toolmend._recover_py``: the same names with the same
signatures, so the types are taken from there (tests/test_kernel_api.py checks it)."""

from toolmend._recover_py import (
    STEP_NAMES as STEP_NAMES,
    convert_single_quotes as convert_single_quotes,
    maybe_json as maybe_json,
    normalize_structural_quotes as normalize_structural_quotes,
    parse_object_literal as parse_object_literal,
    quote_bare_keys as quote_bare_keys,
    recover_text as recover_text,
    recover_value as recover_value,
    remove_trailing_commas as remove_trailing_commas,
    repair as repair,
    strip_comments as strip_comments,
)
