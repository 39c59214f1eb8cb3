# cython: language_level=3
"""Python's signals inside long C-level searches.

Why: a search in a Cython kernel runs for minutes without returning to the
interpreter, and Python runs its signal handlers only between bytecodes, so
Ctrl-C (KeyboardInterrupt) or ``solvers.solve``'s SIGTERM handler would wait for
the whole search. A search calls ``take_signal`` every few thousand nodes, next
to its time check: it runs the pending handlers now and hands back the
exception one raised, so the search can unwind its C frames (which cannot carry
a Python exception: they are ``noexcept``) and its Python entry point raises it.
Searches whose loop may raise (the Y solver, the UCT search) call
``PyErr_CheckSignals`` directly and let the exception propagate.
"""
from cpython.exc cimport PyErr_CheckSignals


cdef inline object take_signal():
    """The exception a pending signal's handler raised (cleared), or None."""
    try:
        PyErr_CheckSignals()
    except BaseException as exc:
        return exc
    return None
