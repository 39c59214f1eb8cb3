# cython: language_level=3
"""Python face of ``codes.pxd``: one enum class for each ``cpdef enum`` declared
there (``Effect``, ``Move``, ``Stalemate``, ``End``, ``Order``, ``Fold``,
``Measure``, ``Cloak``); the
declarations live in the .pxd only."""
