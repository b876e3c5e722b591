"""The app in process on fake hardware, for the tests that drive it: the
fake adapter (a display that counts refreshes, no keys, the test's clock),
presses, waiting, and the text page read back as words.
"""

from words_text import body

from british_square.controls import DOWN, NONE, START, A
from british_square.desktop.font import SheetFont
from british_square.layout import BODY_Y, TEXT_LINE

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

    def finish(self, app):
        pass


def press(app, *actions):
    for action in actions:
        app.handle(action)


def wait(app, ms):
    """Let the loop run for ``ms`` milliseconds: timers and the dead test."""
    for _ in range(max(1, ms // 10)):
        app.clock.now += 10
        app.now = app.clock.now
        app.tick(app.now)


def cell_text(app, column, row):
    """What row ``row`` of the text page's body says in ``column`` (0: its
    text, 1: its figure), read from the text grid that holds the column."""
    page = app.view.page
    grid = page.cell(column)
    if column == 0 and page.dimmed >> row & 1:  # drawn in grey, by a dim row's grid
        y = BODY_Y + row * TEXT_LINE
        grid = next(dim for dim in page.dims if dim.grid.y == y and not dim.grid.hidden)
        row = 0
    lines = grid.text.split("\n")
    return lines[row].strip() if row < len(lines) else ""


def page_text(app):
    """What the text page says: its title, each body row (its text, then its
    figure), its footer, a line each, the blanks around them cut."""
    page = app.view.page
    lines = [page.title.text.strip()]
    for row in range(page.rows):
        cells = (cell_text(app, 0, row), cell_text(app, 1, row))
        lines.append(" ".join(cell for cell in cells if cell))
    lines.append(page.footer.text.strip())
    return "\n".join(lines)


def menu_choose(app, item):
    """From the cards: Start, down to ``item`` (its line in words.txt's "menu"), A."""
    press(app, START, *[DOWN] * MENU.index(item), A)
