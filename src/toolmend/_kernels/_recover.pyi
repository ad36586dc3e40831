"""Type stub of the compiled kernel ``toolmend._kernels._recover`` (built from ``ext/_recover.pyx``).

It exports what its pure-Python twin ``toolmend._kernels._recover_py``, the reference, lists in ``__all__``,
with the same signatures (tests/test_kernel_line.py checks it): the types are the twin's."""

from toolmend._kernels._recover_py import *  # noqa: F403  (the twin's __all__)
