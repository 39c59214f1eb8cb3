# cython: language_level=3
"""Python face of ``codes.pxd``: the enum classes ``Effect``, ``Move``,
``Stalemate`` and ``End`` (the declarations live in the .pxd only)."""
