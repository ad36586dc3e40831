"""Type stub of the compiled kernel ``toolmend._kernels._jsonscan`` (built from ``ext/_jsonscan.pyx``).

It mirrors its pure-Python twin ``toolmend._kernels._jsonscan_py``: the same names with the same
signatures, so the types are taken from there (tests/test_kernel_line.py checks it)."""

from toolmend._kernels._jsonscan_py import (
    E_ARRAY as E_ARRAY,
    E_COLON as E_COLON,
    E_CONTROL as E_CONTROL,
    E_ESCAPE as E_ESCAPE,
    E_KEY as E_KEY,
    E_NUMBER as E_NUMBER,
    E_OBJECT as E_OBJECT,
    E_STRING as E_STRING,
    E_TRAILING as E_TRAILING,
    E_UTF8 as E_UTF8,
    E_VALUE as E_VALUE,
    INDEX_DEPTH as INDEX_DEPTH,
    INDEX_DIGITS as INDEX_DIGITS,
    INDEX_SPAN as INDEX_SPAN,
    OK as OK,
    load_exact as load_exact,
    lookup as lookup,
    lookup_many as lookup_many,
    members as members,
    reformat as reformat,
    scan as scan,
    scan_index as scan_index,
    skip_space as skip_space,
    summary as summary,
    value_end as value_end,
)
