"""The menu: its rows (``MENU_ROWS``, an entry a row), the bar on the one
chosen, its pages, and the values its rows show (a part of the screens, as
``results`` is: ``Screens`` opens it and does what a row does; this draws it).

A page turns a row a frame (``turn_page``, ``tick``) and a setting chosen
rewrites its row alone (``show_setting``): a whole page of rows is 60 ms
of drawing on a SAMD51, a row 10.
"""

from british_square.cards import const
from british_square.controls import DOWN
from british_square.layout import BODY_ROWS
from british_square.par import has_won_deal
from british_square.results import clock_text, moves_text, rules_name
from british_square.screen_ids import (
    ASK_END,
    ASK_RANDOM,
    ASK_RESTART,
    SCREEN_ABOUT,
    SCREEN_DEAL,
    SCREEN_HELP,
    SCREEN_STATS,
)
from british_square.stats import AUTOPLAY_NAMES

# What A does on a menu row (``Screens.do_row``), with the row's ``what``:
ROW_CARDS = const(0)  # back to the cards, then the table's method ``what`` (None: nothing)
ROW_HINT = const(1)  # a hint on the cards; the row says so when there is none
ROW_ASK = const(2)  # ``Screens.ask(what)``: a new deal, a restart, the end
ROW_SCREEN = const(3)  # open screen ``what`` (a ``SCREEN_*``) for the game in play
ROW_SETTING = const(4)  # the setting ``what`` (a ``stats.Settings`` attribute) turned

# The menu, a row an entry: its line in words.txt's "menu", in that order
# (``files`` checks the file against it; ``row_of``), what A does on it and
# with what. A setting's row shows the setting's value, the hint's row
# whether it found nothing. One flat tuple, ``ENTRY_SIZE`` values a row (read
# by ``row_entry``): a tuple a row would cost 464 B more of heap (memory.md).
ENTRY_SIZE = const(3)
MENU_ROWS = (
    "back", ROW_CARDS, None,
    "new", ROW_ASK, ASK_RANDOM,
    "deal", ROW_SCREEN, SCREEN_DEAL,
    "restart", ROW_ASK, ASK_RESTART,
    "undo", ROW_CARDS, "undo",
    "redo", ROW_CARDS, "redo",
    "hint", ROW_HINT, None,
    "rules", ROW_SETTING, "rules",  # turned on the Rules screen
    "autoplay", ROW_SETTING, "autoplay",
    "winnable", ROW_SETTING, "winnable_only",
    "brightness", ROW_SETTING, "brightness",
    "sound", ROW_SETTING, "sound",
    "suits", ROW_SETTING, "four_colours",
    "help", ROW_SCREEN, SCREEN_HELP,
    "stats", ROW_SCREEN, SCREEN_STATS,
    "about", ROW_SCREEN, SCREEN_ABOUT,
    "end", ROW_ASK, ASK_END,
)  # fmt: skip
MENU_COLUMN = 3  # the menu's rows start here, right of the bar's edge
# rows that may have nothing to do: Restart deal, Undo, Redo
IDLE_ROWS = tuple(MENU_ROWS.index(line) // ENTRY_SIZE for line in ("restart", "undo", "redo"))
MENU_MARK_COLUMN = 24  # and "^" or "v" says there are more above or below


class MenuRows:
    """The menu on the text page, for ``screens`` (a ``screens.Screens``:
    its app, page and words): the chosen row (``row``), the first on show
    (``top``) and the rows of a page still to be written (``turning``)."""

    def __init__(self, screens):
        self.app = screens.app
        self.page = screens.page
        self.words = screens.words
        self.grid = self.page.menu_body  # the menu's own rows, kept between visits
        self.count = self.words.rows("menu")
        self.row = 0
        self.top = 0
        self.turning = 0  # a bit per row on show still to be written after a page turned
        self.turned = False  # a page turned this turn of the loop: its rows from the next
        self.no_hint = False  # the last hint asked for found nothing: its row says so
        self.on_off_words = ()  # ``on_off``'s, once read
        # the rule sets' and auto-play's names, each read once (a search of
        # words.txt for each is 1 ms a menu on a SAMD51)
        self.names = {}
        # What each row on show holds: the menu's row, and the value written
        # in it (a row is written again only when one of them changes).
        self.written = [-1] * BODY_ROWS
        self.values = [None] * BODY_ROWS
        self.starts = ()  # where each row's line is in words.txt (``_find_lines``)
        self.footer = b""
        # rows of the first page still to write while the menu is hidden
        # (``prepare``): all of them, after start-up's first screen
        self.pending = (1 << BODY_ROWS) - 1

    def step(self, action):
        """The bar a row up or down (``action``): past the rows on show the page turns."""
        count = self.count
        row = (self.row + (1 if action == DOWN else count - 1)) % count
        if self.top <= row < self.top + BODY_ROWS:  # no scroll: the bar moves, nothing else
            self.row = row
            self.page.show_bar(row - self.top)
        else:
            self.turn_page(row)

    def tick(self):
        """A row of a page turned, while one is still to be written (from
        the turn after the press's: its frame shows the bar alone)."""
        if self.turned:
            self.turned = False
        elif not self.starts:
            self._find_lines()  # a turn of its own, before the rows read where it found them
        elif self.turning:
            row = 0
            while not self.turning >> row & 1:
                row += 1
            self._turn_row(row)

    def put_away(self):
        """The menu left for the cards: it opens next on its first page,
        which ``prepare`` writes while it is hidden."""
        self.row = self.top = 0
        self.pending = (1 << BODY_ROWS) - 1

    def prepare(self):
        """Rows of the menu's first page written while another screen is on
        show, half a page a turn (hidden, they cost no drawing: 8 ms a turn
        on a SAMD51), so that Start opens the menu with nothing to compose
        but its title: written as it opens, a page's rows are 20 ms."""
        if not self.starts:
            self._find_lines()  # a turn of its own: 8 ms
            return
        for _ in range(BODY_ROWS // 2):
            pending = self.pending
            if not pending:
                return
            shown = 0
            while not pending >> shown & 1:
                shown += 1
            self.pending = pending & ~(1 << shown)
            self._write_row(shown)

    def _find_lines(self):
        """Where the menu's rows are in words.txt, and its footer: read once."""
        self.starts = self.words.starts("menu")
        if not self.footer:  # read already if the menu opened before this
            self.footer = self.words.line("menu", "footer")

    def _row_text(self, row, value):
        """Menu row ``row``'s text, its "{}" filled with ``value`` (``None``:
        a row without one): read where ``_find_lines`` found it, or found by
        its name until then (the menu opened at once)."""
        values = () if value is None else (value,)
        if self.starts:
            return self.words.line_at(self.starts[row], values)
        return self.words.line("menu", MENU_ROWS[ENTRY_SIZE * row], values)

    def _show_row(self, row):
        """The bar on menu row ``row``; past the rows on show, the page
        turned so that the row is the first on show going down, the last
        going up."""
        self.row = row
        if row < self.top:
            self.top = max(0, row - BODY_ROWS + 1)
        elif row >= self.top + BODY_ROWS:
            self.top = min(row, self.count - BODY_ROWS)

    def turn_page(self, row):
        """Turn the menu's page to show ``row`` (``_show_row``), a row a
        frame (a whole page of text is 60 ms on a SAMD51, a row 7): first
        the bar, moved to the row with the row's text on it (the row under
        it is written later: the bar hides it), then the rows in turn
        (``tick``), keys taken between them."""
        self._show_row(row)
        self.turning = (1 << BODY_ROWS) - 1
        self.turned = True
        text = self._row_text(row, self.row_value(row))
        self.page.show_bar_text(row - self.top, text, MENU_COLUMN)

    def _turn_row(self, shown):
        """Row ``shown`` of a page turned: written, dimmed if it would do
        nothing, and the bar on it if it is the chosen row."""
        self.turning &= ~(1 << shown)
        self._write_row(shown)
        page, row = self.page, self.top + shown
        page.dim(shown, row in IDLE_ROWS and self._idle(row))
        if row == self.row:
            page.show_bar(shown)
        page.dirty = True

    def _write_row(self, shown):
        """Row ``shown`` of the menu on show written, if what it holds has
        changed (its line, or its value), with the mark of more rows."""
        row = self.top + shown
        value = self.row_value(row)
        if self.written[shown] == row and self.values[shown] == value:
            return
        self.written[shown] = row
        self.values[shown] = value
        self.grid.set_line(shown, self._row_text(row, value), MENU_COLUMN)
        self._mark_more(shown)

    def _idle(self, row):
        """Would menu row ``row`` (Restart deal, Undo or Redo) do nothing now?"""
        game = self.app.table.game
        if row == IDLE_ROWS[2]:
            return game.history_end == game.history_count
        return not game.history_count  # no move: nothing to restart, nor to undo

    def choose(self, row):
        """The menu shown, the bar on ``row`` (``_show_row``): its title (the
        game's moves and time, while it pauses) and footer written, and of
        its rows only those whose value changed since it was last shown.
        Rows never written (the menu opened before ``prepare`` had its
        turns) are blank: they come a frame each after this one, as a page
        turned does (``tick``), the bar's row on the bar at once."""
        self._show_row(row)
        self.turning = self.pending = 0
        app, page, words = self.app, self.page, self.words
        page.show_menu_body()
        title = (
            moves_text(app.table.game.history_count),  # {moves}
            clock_text(app.scorecard.seconds),  # {time}
        )
        page.title_line(words.line("menu", "title", title))
        bar = row - self.top
        if not self.starts:  # the lines not found yet: that is a turn of its own
            self.footer = words.line("menu", "footer")
            page.footer_line(self.footer)
            page.draw()
            text = self._row_text(row, self.row_value(row))
            page.show_bar_text(bar, text, MENU_COLUMN)
            self.turning = (1 << BODY_ROWS) - 1
            self.turned = True
            return
        page.footer_line(self.footer)
        written = self.written
        for shown in range(BODY_ROWS):
            if written[shown] < 0 and shown != bar:
                self.turning |= 1 << shown
            else:
                self._write_row(shown)
        page.draw()
        for shown in range(BODY_ROWS):  # rows that would do nothing now are dimmed
            idle = self.top + shown
            if not self.turning >> shown & 1:
                page.dim(shown, idle in IDLE_ROWS and self._idle(idle))
        page.show_bar(bar)
        self.turned = self.turning != 0

    def row_value(self, row):
        """What fills the "{}" of menu row ``row``; ``None`` for a row without one."""
        kind, what = row_entry(row)
        if kind == ROW_HINT:
            return b": nothing found" if self.no_hint else b""
        if kind != ROW_SETTING:
            return None
        settings = self.app.settings
        if what == "rules":
            return self._name(settings.rules)
        if what == "autoplay":
            return self._name(-1 - settings.autoplay)
        if not self.can_turn(what):  # nothing to choose among
            return self.words.line("on_off", "none" if what == "winnable_only" else "no_backlight")
        if what == "brightness":
            return b"%d%%" % settings.brightness
        return self.on_off(getattr(settings, what))

    def can_turn(self, setting):
        """Has ``setting`` a choice here? Winnable only has none for a rule
        set without a winnable deal known (British Square), the brightness
        none without a backlight (a window)."""
        app = self.app
        if setting == "winnable_only":
            return has_won_deal(app.settings.rules)
        return setting != "brightness" or app.hardware.backlight is not None

    def show_setting(self, row):
        """Menu row ``row`` anew, its setting changed: only the characters
        that changed are written (a whole menu is 20 ms on a SAMD51), and
        the bar's copy of the row with them."""
        shown = row - self.top
        self._write_row(shown)
        self.page.show_bar(shown)

    def _mark_more(self, row):
        """The mark at the end of the first or last row on show (``row``):
        more rows above, or below."""
        if row == 0 and self.top:
            self.grid.put(0, MENU_MARK_COLUMN, b"^")
        elif row == BODY_ROWS - 1 and self.top + BODY_ROWS < self.count:
            self.grid.put(BODY_ROWS - 1, MENU_MARK_COLUMN, b"v")

    def say_no_hint(self):
        """The hint found nothing: the menu stays, the bar on its Hint row,
        which says so."""
        self.no_hint = True
        self.choose(row_of("hint"))

    def _name(self, key):
        """Rule set ``key``'s name (0 or more), or auto-play way ``-1 - key``'s."""
        names = self.names
        if key not in names:
            if key >= 0:
                names[key] = rules_name(self.words, key)
            else:
                names[key] = self.words.line("autoplay_modes", AUTOPLAY_NAMES[-1 - key])
        return names[key]

    def on_off(self, flag):
        """The words "on" or "off" as words.txt has them (bytes): read once
        (the menu says them two or three times a redraw)."""
        if not self.on_off_words:
            line = self.words.line
            self.on_off_words = (line("on_off", "off"), line("on_off", "on"))
        return self.on_off_words[1 if flag else 0]


def row_of(line):
    """The menu's row named ``line``: found here, not by reading the file
    (1.5 ms a menu on a SAMD51)."""
    return MENU_ROWS.index(line) // ENTRY_SIZE


def row_entry(row):
    """What A does on menu row ``row`` (a ``ROW_*``), and with what."""
    at = ENTRY_SIZE * row
    return MENU_ROWS[at + 1], MENU_ROWS[at + 2]
