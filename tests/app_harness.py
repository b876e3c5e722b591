"""The app in process on fake hardware, for the tests that drive it: the
fake adapter (a display that counts refreshes, no keys, the test's clock),
presses, waiting, and the text page read back as words.
"""

from words_text import body

from british_square.controls import DOWN, NONE, START, A
from british_square.desktop.font import SheetFont
from british_square.layout import BODY_Y, TEXT_COLUMNS, TEXT_LINE
from british_square.page import DIM_COLUMNS
from british_square.screen_ids import SCREEN_NAMES

MENU = [line.split("{")[0] for line in body("menu")]


class FakeDisplay:
    root_group = None
    refreshes = 0

    def refresh(self):
        self.refreshes += 1


class NoKeys:
    finished = False

    def poll(self, now):
        return NONE


class Clock:
    def __init__(self):
        self.now = 1000

    def __call__(self):
        return self.now


class FakeHardware:
    """An adapter (docs/architecture.md, "The hardware adapter") with a
    display that counts its refreshes, no keys, the test's clock, no save,
    and whatever else a test passes by name (``backlight``, ``facts``,
    ``sound``, ``lights``, ``font``): what it does not is ``None``."""

    nvm = facts = backlight = sound = lights = None
    font = SheetFont()  # the board's glyph cells, which the text page tiles

    def __init__(self, clock, **parts):
        self.display = FakeDisplay()
        self.actions = NoKeys()
        self.ticks_ms = clock
        for name, part in parts.items():
            setattr(self, name, part)

    def idle(self, resting):
        pass

    def started(self, app):
        pass

    def stopped(self, app):
        pass


def shown(app):
    """The screen on show, by its name in ``screen_ids.SCREEN_NAMES``
    ("play": the cards)."""
    return SCREEN_NAMES[app.screens.current]


def press(app, *actions):
    """Press each of ``actions``, each once the last one's effect is all on
    the screen (``App.settled``: a menu's page, auto-play's cards home, a
    hint, the cursor after a move, come a turn of the loop at a time)."""
    for action in actions:
        app.handle(action)
        settle(app)


def settle(app):
    """Turns of the loop until all a press (or a move made in the test) did is on the screen."""
    while not app.settled():
        turn(app)


def turn(app):
    """The loop's turn after its press: what is due, then what changed drawn."""
    app.tick(app.now)
    if app.view.dirty:
        app.view.refresh()


# Long enough for a save's turns, a share a turn (``App.save_step``), at
# ``wait``'s 10 ms a turn: a 400-move game's is 26 turns.
SAVE_MS = 300


def wait(app, ms):
    """Let the loop run for ``ms`` milliseconds: timers and the dead test."""
    for _ in range(max(1, ms // 10)):
        app.clock.now += 10
        app.now = app.clock.now
        turn(app)


def lines(grid):
    """Each row a text grid (``textgrid.TextGrid``) is to show, a string, its
    blanks at the end cut."""
    return [bytes(grid.line(row)).decode().rstrip() for row in range(grid.rows)]


def row_cells(line):
    """A body row as a reader tells its parts: (its text, its figure); the
    figure is what is right-aligned at the row's end after a gap of blanks
    (the statistics', the About screen's), "" where there is none."""
    text = line.rstrip()
    if len(text) == TEXT_COLUMNS:  # it reaches the row's end: a figure after a gap?
        gap = text.rfind("  ")
        if gap >= 0 and text[:gap].strip():
            return text[:gap].strip(), text[gap:].strip()
    return text.strip(), ""


def cell_text(app, column, row):
    """What row ``row`` of the text page's body says in ``column`` (0: its
    text, 1: its figure), read from the text grid that holds it (a dim
    row's grid where the row is dimmed, in grey over its text)."""
    page = app.view.page
    line = lines(page.body)[row]
    if column == 0 and page.dimmed >> row & 1:  # drawn in grey, by a dim row's grid
        y = BODY_Y + row * TEXT_LINE
        dim = next(dim for dim in page.dims if dim.grid.y == y and not dim.grid.hidden)
        line = lines(dim)[0].ljust(DIM_COLUMNS) + line[DIM_COLUMNS:]
    return row_cells(line)[column]


def page_text(app):
    """What the text page says: its title, each body row (its text, then its
    figure), its footer, a line each, the blanks around them cut."""
    page = app.view.page
    said = [lines(page.title)[0].strip()]
    for row in range(page.rows):
        cells = (cell_text(app, 0, row), cell_text(app, 1, row))
        said.append(" ".join(cell for cell in cells if cell))
    said.append(lines(page.footer)[0].strip())
    return "\n".join(said)


def menu_choose(app, item):
    """From the cards: Start, down to ``item`` (its line in words.txt's "menu"), A."""
    press(app, START, *[DOWN] * MENU.index(item), A)
