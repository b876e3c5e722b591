"""Measuring under CircuitPython: costs in empty-loop units, heap in bytes.

Runs on the VM (and on CPython for a smoke run). A cost is reported as the
time of the operation divided by the time of one iteration of an empty
``for`` loop measured in the same run, so figures from this fast desktop VM
carry over to a 120 MHz SAMD51 (about 3.5 us per empty iteration there,
from CircuitPython's published pystone rate on a Metro M4).
"""

import gc
import json
import os
import sys
import time

SAMD51_US_PER_LOOP = 3.5


def _now_ns():
    return time.monotonic_ns()


def add_game_paths(root):
    """Put the game tree at ``root`` (``lib``, ``hw`` and ``root`` itself) on
    ``sys.path``, and the desktop venv's Adafruit libraries when the caller
    did not provide them."""
    for folder in (root + "/lib", root + "/hw", root):
        if folder not in sys.path:
            sys.path.append(folder)
    try:
        import adafruit_display_text  # noqa: F401
    except ImportError:
        venv = root + "/.venv/lib"
        for python in os.listdir(venv):
            sys.path.append(venv + "/" + python + "/site-packages")


def loop_unit(n=200000):
    """Nanoseconds per empty ``for`` iteration (best of three)."""
    best = None
    for _ in range(3):
        t0 = _now_ns()
        for _ in range(n):
            pass
        t = (_now_ns() - t0) / n
        if best is None or t < best:
            best = t
    return best


def cost(fn, repeat, unit_ns):
    """Cost of one ``fn()`` call in loop units (best of three batches)."""
    best = None
    for _ in range(3):
        t0 = _now_ns()
        for _ in range(repeat):
            fn()
        t = (_now_ns() - t0) / repeat
        if best is None or t < best:
            best = t
    return best / unit_ns


def allocated(fn):
    """Heap bytes ``fn()`` allocates (with the collector held off)."""
    gc.collect()
    gc.disable()
    before = gc.mem_alloc()
    fn()
    after = gc.mem_alloc()
    gc.enable()
    return after - before


def held(make):
    """Heap bytes still held by what ``make()`` returns, after a collection."""
    gc.collect()
    before = gc.mem_alloc()
    kept = make()
    gc.collect()
    after = gc.mem_alloc()
    return after - before, kept


def report(bench, metric, value, unit, note=""):
    """One result line: JSON that ``tools/bench.py`` collects into a table."""
    print(
        json.dumps({"bench": bench, "metric": metric, "value": value, "unit": unit, "note": note})
    )
