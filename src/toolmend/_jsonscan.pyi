"""Type stub of the compiled kernel ``toolmend._jsonscan`` (built from ``ext/_jsonscan.pyx``).

It mirrors its pure-Python twin ``toolmend._jsonscan_py``: the same names with the same
signatures, so the types are taken from there (tests/test_kernel_api.py checks it)."""

from toolmend._jsonscan_py import (
    E_ARRAY as E_ARRAY,
    E_COLON as E_COLON,
    E_CONTROL as E_CONTROL,
    E_ESCAPE as E_ESCAPE,
    E_KEY as E_KEY,
    E_NUMBER as E_NUMBER,
    E_OBJECT as E_OBJECT,
    E_STRING as E_STRING,
    E_TRAILING as E_TRAILING,
    E_VALUE as E_VALUE,
    OK as OK,
    lookup as lookup,
    lookup_many as lookup_many,
    members as members,
    reformat as reformat,
    scan as scan,
    skip_space as skip_space,
    summary as summary,
    value_end as value_end,
)
