"""British Square: a two-deck patience for CircuitPython handhelds.

The engine (``cards``, ``deal``, ``engine``, ``notation``) is pure Python that
runs unchanged on CircuitPython and CPython; the view and app modules wrap it
for displayio. Importing the package itself costs almost nothing.
"""

__version__ = "0.1.0"
