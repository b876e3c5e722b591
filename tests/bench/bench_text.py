"""Text under the CircuitPython VM: ``label.Label`` against ``bitmap_label.Label``.

    MICROPYPATH=lib:hw circuitpython -X heapsize=192K tests/bench/bench_text.py

For the game's uses of ``terminalio.FONT`` (a 26-column body line, a
10-column panel line, a panel number that changes with every move, a large
line at scale 2 and the deal's digits at scale 3), for each of Adafruit's
two label classes: the heap its module holds, the heap a label holds, the
heap one change of its text allocates, the Python cost of that change, the
redraw of a page of text and of a changed number (render loops on the VM
framebuffer, as bench_ui), and a long run of text changes in a tight heap
(does one fail for want of a block, and how large is the largest free
block after it). ``label.Label`` makes a ``TileGrid`` per character;
``bitmap_label.Label`` draws its text into one ``Bitmap``, kept while the
text keeps its size.

Measured (libraries as deployed .mpy; label / bitmap_label): a 26-column
line holds 3 232 / 1 424 bytes, its change allocates 4 656 / 2 656 and costs
3 323 / 7 170 loops, a page of text redraws in 71 012 / 41 117 render
loops, and 1 500 changes of random length need a 76 / 58 KB heap (52 KB
with each text padded to its field); the modules hold 3.6 / 10.4 KB besides
the package's 5.8. So the large lines are ``bitmap_label``s (``page.py``);
every line that changes is a text grid (``textgrid.py``), cheaper than
either: the whole table is in docs/memory.md.
"""

import gc
import sys
import time

_here = __file__.replace("\\", "/").rpartition("/")[0] or "."
sys.path.append(_here)
from benchlib import (  # noqa: E402
    add_game_paths,
    allocated,
    measure,
    measure_sample,
    report,
    report_cost,  # noqa: E402
)

add_game_paths(_here + "/../..")

import board  # noqa: E402
import displayio  # noqa: E402
import terminalio  # noqa: E402

BENCH = "text"
FONT = terminalio.FONT
BODY = "Cards home: average   12.5"  # 26 columns, as a text page's body line
PANEL = "Stock   96"  # 10 columns, as a panel line
CHANGES = 1500  # text changes in the long run


def now_ns():
    return time.monotonic_ns()


def imported(name):
    """The label class of module ``name``, and the heap the import holds."""
    gc.collect()
    before = gc.mem_alloc()
    module = __import__("adafruit_display_text." + name, None, None, ["Label"])
    gc.collect()
    return module.Label, gc.mem_alloc() - before


def held_by(make):
    gc.collect()
    before = gc.mem_alloc()
    kept = make()
    gc.collect()
    return gc.mem_alloc() - before, kept


def largest_block():
    """The largest block the heap can give now, to 16 bytes (a binary search)."""
    low, high = 0, gc.mem_free()
    while high - low > 16:
        middle = (low + high) // 2
        gc.collect()
        try:
            block = bytearray(middle)
            del block
            low = middle
        except MemoryError:
            high = middle
    return low


class Lcg:
    """Pseudo-random numbers without the random module (the same on every run)."""

    def __init__(self, seed):
        self.state = seed

    def below(self, n):
        self.state = (self.state * 1103515245 + 12345) & 0x7FFFFFFF
        return self.state % n


def page(label_class, root):
    """A text page at its widest: title, eight body lines and footer of 26
    columns, two large lines of 5; and the panel's number."""
    labels = [label_class(FONT, text=BODY, x=2, y=7)]
    for row in range(8):
        labels.append(label_class(FONT, text=BODY, x=2, y=22 + 12 * row))
    labels.append(label_class(FONT, text=BODY, x=2, y=121))
    labels.append(label_class(FONT, text="Squar", x=38, y=14, scale=2))
    labels.append(label_class(FONT, text="07777", x=32, y=58, scale=3))
    for label in labels:
        root.append(label)
    number = label_class(FONT, text="96", x=130, y=86)
    root.append(number)
    return labels, number


def measure_kind(name, display, root, felt):
    label_class, module_heap = imported(name)
    note = "heap its import holds, the package apart"
    report(BENCH, name + " module", module_heap, "bytes", note)
    for use, text, scale in (
        ("body line", BODY, 1),
        ("panel line", PANEL, 1),
        ("panel number", "96", 1),
        ("large line", "You won!", 2),
        ("deal digits", "07777", 3),
    ):
        heap, label = held_by(lambda t=text, s=scale: label_class(FONT, text=t, scale=s))
        note = "held by a label of {} characters at scale {}".format(len(text), scale)
        report(BENCH, name + " " + use, heap, "bytes", note)
        del label
    labels, number = page(label_class, root)
    display.refresh()
    body = labels[3]
    other = "Streak: now, best     3, 7"  # as long as BODY
    texts = (BODY, other)
    flips = [0]

    def change_body():
        flips[0] += 1
        body.text = texts[flips[0] & 1]

    change_body()
    note = "allocated by one change of a 26-column line (same length)"
    report(BENCH, name + " body change alloc", allocated(change_body), "bytes", note)
    numbers = [str(n) for n in range(10, 100)]
    count = [0]

    def change_number():
        count[0] += 1
        number.text = numbers[count[0] % 90]

    change_number()
    note = "allocated by one change of the panel's number (2 digits)"
    report(BENCH, name + " number change alloc", allocated(change_number), "bytes", note)
    note = "Python cost of one change of a 26-column line"
    report_cost(BENCH, name + " body change", measure(change_body), note)
    note = "Python cost of one change of the panel's number"
    report_cost(BENCH, name + " number change", measure(change_number), note)

    def full_ns():
        felt[0] ^= 0x040404  # every pixel changes: the whole screen is sent
        t0 = now_ns()
        display.refresh()
        return now_ns() - t0

    full = measure_sample(full_ns)
    note = "refresh of the whole screen showing a page of text (12 labels)"
    report_cost(BENCH, name + " full redraw", full, note, "render loops")

    def number_ns():
        change_number()
        t0 = now_ns()
        display.refresh()
        return now_ns() - t0

    moved = measure_sample(number_ns)
    note = "refresh after the panel's number changed / full redraw"
    fraction = round(moved.value / full.value, 3)
    report(BENCH, name + " number redraw", fraction, "ratio", note, None, moved.spread)
    for label in labels + [number]:
        root.remove(label)
    long_run(name, label_class, root, False)
    if name == "bitmap_label":
        long_run(name + ", padded", label_class, root, True)


def long_run(name, label_class, root, padded):
    """A page, every label's text at its widest; ``CHANGES`` changes of
    random lengths to its labels (``padded``: each text padded to its
    label's width with blanks, so that a ``bitmap_label`` keeps its bitmap);
    every text back as it began: how much of the largest free block is left."""
    labels, number = page(label_class, root)
    first = [label.text for label in labels]
    gc.collect()
    before = largest_block()
    change_randomly(labels, padded)
    for label, text in zip(labels, first):
        label.text = text
    gc.collect()
    after = largest_block()
    note = "largest free block after {} changes, every text back as it began (before: {})"
    report(BENCH, name + " largest block after", after, "bytes", note.format(CHANGES, before))
    for label in labels + [number]:
        root.remove(label)


def change_randomly(labels, padded):
    source = "Back to game New game Deal number Restart deal Undo Redo Hint"
    rng = Lcg(7)
    for _ in range(CHANGES):
        label = labels[rng.below(len(labels))]
        width = 26 if label.scale == 1 else 5
        size = 1 + rng.below(width)
        start = rng.below(len(source) - size)
        text = source[start : start + size]
        if padded:
            text = text + " " * (width - size)
        label.text = text


def tight_run(name, padded):
    """Only the long run, from a fresh heap: the page and ``CHANGES`` changes.
    Run in smaller and smaller heaps (``-X heapsize``), it finds the least
    heap each label class needs: a MemoryError ends it with a traceback."""
    label_class = imported(name)[0]
    root = displayio.Group()
    labels = page(label_class, root)[0]
    change_randomly(labels, padded)
    gc.collect()
    print("passed, in use:", gc.mem_alloc())


def main():
    display = board.DISPLAY
    display.auto_refresh = False
    root = displayio.Group()
    palette = displayio.Palette(1)
    palette[0] = 0x006028
    root.append(
        displayio.TileGrid(
            displayio.Bitmap(16, 16, 1),
            pixel_shader=palette,
            width=10,
            height=8,
            tile_width=16,
            tile_height=16,
        )
    )
    display.root_group = root
    gc.collect()
    before = gc.mem_alloc()
    import adafruit_display_text  # noqa: F401  (LabelBase: both classes need it)

    gc.collect()
    note = "heap the package holds (LabelBase, text wrapping): both classes import it"
    report(BENCH, "package", gc.mem_alloc() - before, "bytes", note)
    for name in ("label", "bitmap_label"):
        measure_kind(name, display, root, palette)
        gc.collect()


if len(sys.argv) > 2 and sys.argv[1] == "tight":  # tight label|bitmap_label [padded]
    tight_run(sys.argv[2], "padded" in sys.argv)
else:
    main()
