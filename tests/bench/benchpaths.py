"""The two helpers of the benches that the heap bench needs: finding the
game's tree and printing a result line. Apart from ``benchlib`` so that the
heap bench holds only these few names while it measures (``benchlib``'s
seventy would count against the interpreter's name pools as if the game
had them)."""

import json
import os
import sys


def add_game_paths(root):
    """Put the game tree at ``root`` (``lib``, ``hw`` and ``root`` itself) on
    ``sys.path``, and the desktop venv's Adafruit libraries when the caller
    did not provide them."""
    # "lib", not "./lib": a module's path is a name the interpreter interns,
    # and a board's is "lib/..." (code.py), which the deployed .mpy names too
    prefix = "" if root == "." else root + "/"
    for folder in (prefix + "lib", prefix + "hw", root):
        if folder not in sys.path:
            sys.path.append(folder)
    try:
        import adafruit_ticks  # noqa: F401  (the one library the game imports)
    except ImportError:
        venv = root + "/.venv/lib"
        for python in os.listdir(venv):
            sys.path.append(venv + "/" + python + "/site-packages")


def report(bench, metric, value, unit, note="", low=None, spread=None):
    """One result line: JSON that ``tools/bench.py`` collects into a table.
    A timed figure also carries its ``spread``, and a cost its lowest round
    (``min``); a ratio of two costs may give a spread alone."""
    row = {"bench": bench, "metric": metric, "value": value, "unit": unit, "note": note}
    if low is not None:
        row["min"] = low
    if spread is not None:
        row["spread"] = round(spread, 3)
    print(json.dumps(row))
