# cython: language_level=3
"""Python face of ``codes.pxd``: one enum class for each ``cpdef enum`` declared
there (``Effect``, ``Move``, ``Stalemate``, ``End``, ``Order``, ``Fold``,
``Measure``, ``Cloak``, and the captures' ``Power``, ``Condition``,
``Result``); the
declarations live in the .pxd only."""
