"""What the desktop runs and a board never does: the command line
(``python3 -m british_square``, in ``cli``), the solver, the survey of
deals, and the text formats of positions and moves (``notation``; the VM
reads them too, for ``code.py --position`` and its tests).

Nothing a board runs imports this package, so deploy never copies it (its
import walk from ``code.py`` is the judge; tests/test_imports.py checks).
Everything here imports the game, never the other way round. The text
formats stay in CircuitPython's subset; the rest may use all of CPython.
"""
