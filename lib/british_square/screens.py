"""The screens besides the cards: title, menu, deal number, rules, help,
About, the question before a game in progress is thrown away, and a game's
results (Won, Game over, Finish and the statistics, drawn by ``results``).

Each draws itself on the text page (``page.TextPage``) and says what its
keys do. Nothing here allocates sprites: the page is made once, at start-up.
"""

from british_square import __version__, unload
from british_square.cards import const
from british_square.celebration import Celebration
from british_square.controls import DOWN, LEFT, RIGHT, START, UP, A, B
from british_square.deal import MIN_DEAL
from british_square.deal_entry import DealEntry
from british_square.layout import (
    ACES_PITCH,
    ACES_X,
    ACES_Y,
    BODY_ROWS,
    SCREEN_W,
    TITLE_BIG_PITCH,
    TITLE_BIG_Y,
)
from british_square.par import has_won_deal, par
from british_square.piles import BRITISH, UNION
from british_square.results import Results, clock_text, deal_text, moves_text, rules_name
from british_square.screen_ids import (
    SCREEN_ABOUT,
    SCREEN_CONFIRM,
    SCREEN_DEAL,
    SCREEN_FIRST,
    SCREEN_HELP,
    SCREEN_MENU,
    SCREEN_PLAY,
    SCREEN_RULES,
    SCREEN_TITLE,
)
from british_square.sheet import (
    FIRST_CARD,
    SMALL_DONE,
    SMALL_KING,
    TEXT_WHITE,
    WAY_DOWN,
    WAY_FREE,
    WAY_UP,
)
from british_square.sounds import BUZZ
from british_square.store import AUTOPLAY_NAMES

# The texts of words.txt some screens pick from: by rule set, by the save's
# notice (store.NOTICE_*), and the help's marks with the glyph beside each.
RULES_TEXTS = ("rules_british", "rules_american", "rules_union")
NOTICE_LINES = ("", "unreadable", "earlier")
MARKS = (
    ("up", WAY_UP),
    ("down", WAY_DOWN),
    ("free", WAY_FREE),
    ("king", SMALL_KING),
    ("done", SMALL_DONE),
    ("count", 9),  # the digit 9: a pile's count
)
# The menu's rows, by their names in words.txt's "menu", in its order
# (``files`` checks the file against it): a row's name is found here, not
# by reading the file (1.5 ms a menu on a SAMD51).
MENU_LINES = (
    "back", "new", "deal", "restart", "undo", "redo", "hint", "rules", "autoplay", "winnable",
    "brightness", "sound", "suits", "help", "stats", "about", "end",
)  # fmt: skip
MENU_COLUMN = 3  # the menu's rows start here, right of the bar's edge
IDLE_ROWS = (MENU_LINES.index("undo"), MENU_LINES.index("redo"))  # rows that may do nothing
MENU_MARK_COLUMN = 24  # and "^" or "v" says there are more above or below

# What a confirmation is for (``Screens.ask``).
ASK_RANDOM = const(0)  # a random deal
ASK_DEAL = const(1)  # deal ``pending_number``
ASK_RESTART = const(2)
ASK_RULES = const(3)  # deal ``pending_number`` under ``pending_rules``
ASK_END = const(4)


class Screens:
    """The screen on show when it is not the cards, for ``app`` (an ``app.App``).

    Of the session the screens read the game in play (``app.table``), the
    settings, the statistics and the game's record (``seconds``,
    ``hints_used``, ``bettered``); they act through its methods (a new
    deal, a restart, the end of a game, the hint, Finish, the settings'
    changes, back to the cards), and About asks it for the machine's facts."""

    def __init__(self, app):
        self.app = app
        self.page = app.view.page
        self.words = app.words
        self.current = SCREEN_PLAY
        self.handler = None
        self.row = 0  # menu: the chosen row, and the first row on show
        self.top = 0
        self.turning = 0  # menu: a bit per row on show still to be written after a page turned
        self.menu_rows = self.words.rows("menu")
        self.on_off_words = ()  # ``on_off``'s, once read
        self.entry = DealEntry(self)  # the deal number entry
        self.results = Results(self)  # Won, Game over, Finish and the statistics
        self.choice = 0  # rules: the rule set on show
        self.help_page = 0
        self.no_hint = False  # the last hint asked for found nothing: the menu says so
        self.pending = ASK_RANDOM  # the confirmation: what for, and where B goes back to
        self.pending_number = 0
        self.pending_rules = 0
        self.back = SCREEN_MENU
        self.heap = ""  # About's heap figure, once A has measured it
        self.celebration = Celebration(self.page, app.glow)

    def open(self, screen, handler):
        """Clear the page for ``screen``, whose keys ``handler`` takes."""
        self.app.show_page()
        self.leave()  # the screen on show goes, and a celebration with it
        self.current = screen
        self.handler = handler
        self.page.clear()

    def leave(self):
        """The screen on show goes (the cards are back, or another screen opens)."""
        self.current = SCREEN_PLAY
        self.turning = 0
        self.celebration.stop()

    def handle(self, action):
        """Do what ``action`` means on the screen on show."""
        self.handler(action)

    def tick(self, now):
        """A frame of the celebration when one is due; a row of a menu page
        turned, while one is still to be written."""
        self.celebration.tick(now)
        if self.turning:
            row = 0
            while not self.turning >> row & 1:
                row += 1
            self._write_row(row)

    def resting(self):
        """Nothing timed is under way on the screen on show."""
        return not (self.celebration.on or self.turning)

    # ---------------------------------------------------------------- title

    def title(self, notice=0):
        """The game's name, its deal and par, and what A does: play, or
        continue the game kept from last time; ``notice`` (``store.NOTICE_*``)
        says in place of par that a save could not be read whole."""
        self.open(SCREEN_TITLE, self._title)
        app = self.app
        page, game, words = self.page, app.table.game, self.words
        for row in range(2):
            page.place_big(row, SCREEN_W // 2, TITLE_BIG_Y + TITLE_BIG_PITCH * row)
        for suit in range(4):
            page.show_card(suit, FIRST_CARD + suit * 13, ACES_X + ACES_PITCH * suit, ACES_Y)
        page.footer.color = TEXT_WHITE
        if notice:  # in place of par
            found = words.line("title_words", NOTICE_LINES[notice])
        else:
            found = par(game.rules, game.deal_number)
            found = b"Par: %d cards home" % found if found else b""
        battery = app.battery_text()
        battery = "Battery " + battery if battery else b""
        play = words.line("title_words", "continue" if app.table.in_progress() else "play")
        values = (found, battery, deal_text(game), rules_name(words, game.rules), play)
        words.show(page, "title", values)

    def _title(self, action):
        if action == START:
            self.menu()
        elif action == A or action == B:
            self.app.show_play()

    # ----------------------------------------------------------------- menu

    def menu(self, line="back"):
        """The menu, the bar behind its row named ``line`` (words.txt's "menu"),
        the game's moves and time in its title; the rows scroll when there
        are more than the page holds."""
        self.open(SCREEN_MENU, self._menu)
        self.no_hint = False
        self._choose(MENU_LINES.index(line))

    def _show_row(self, row):
        """The bar on menu row ``row``; past the rows on show, the page
        turned so that the row is the first on show going down, the last
        going up."""
        self.row = row
        if row < self.top:
            self.top = max(0, row - BODY_ROWS + 1)
        elif row >= self.top + BODY_ROWS:
            self.top = min(row, self.menu_rows - BODY_ROWS)

    def _turn_page(self, row):
        """Turn the menu's page to show ``row`` (``_show_row``), a row a
        frame (a whole page of text is 60 ms on a SAMD51, a row 10): first
        the bar's, with the bar on it, then the others in turn (``tick``),
        keys taken between them."""
        self._show_row(row)
        self.turning = (1 << BODY_ROWS) - 1
        page = self.page
        page.undim()  # the page before's dimmed rows go; this page's come as written
        page.draw()
        self._write_row(row - self.top)

    def _write_row(self, shown):
        """Row ``shown`` of the menu on show, written (its value, its dimming,
        the mark of more rows), and the bar on it if it is the chosen row."""
        self.turning &= ~(1 << shown)
        page, row = self.page, self.top + shown
        line = MENU_LINES[row]
        value = self._row_value(line)
        text = self.words.line("menu", line, () if value is None else (value,))
        page.body_line(shown, text, column=MENU_COLUMN)
        self._mark_more(shown)
        if row in IDLE_ROWS and self._idle(row):
            page.dim_row(shown)
            page.draw()
        if row == self.row:
            page.show_bar(shown)
        page.dirty = True

    def _idle(self, row):
        """Would menu row ``row`` (Undo or Redo) do nothing now?"""
        game = self.app.table.game
        if row == IDLE_ROWS[0]:
            return not game.history_count
        return game.history_end == game.history_count

    def _choose(self, row):
        """The menu composed whole, the bar on ``row`` (``_show_row``)."""
        self._show_row(row)
        self.turning = 0
        app, page = self.app, self.page
        # the title's values (the moves and the time, while the game pauses),
        # then each row's that has one, in the rows' order
        values = [moves_text(app.table.game.history_count), clock_text(app.seconds)]
        for line in MENU_LINES:
            value = self._row_value(line)
            if value is not None:
                values.append(value)
        self.words.show(page, "menu", values, MENU_COLUMN, self.top, draw=False)
        # rows that would do nothing now are dimmed
        for idle in IDLE_ROWS:
            if 0 <= idle - self.top < BODY_ROWS and self._idle(idle):
                page.dim_row(idle - self.top)
        # marks near the end of the first and last rows: more rows above, below
        self._mark_more(0)
        self._mark_more(BODY_ROWS - 1)
        page.draw()
        page.show_bar(row - self.top)

    def _row_value(self, line):
        """What fills the "{}" of the menu's row ``line``; ``None`` for a row without one."""
        settings = self.app.settings
        if line == "hint":
            return b": nothing found" if self.no_hint else b""
        if line == "rules":
            return rules_name(self.words, settings.rules)
        if line == "autoplay":
            return self.words.line("autoplay_modes", AUTOPLAY_NAMES[settings.autoplay])
        if line == "winnable":
            return self.winnable_text(settings.rules)
        if line == "brightness":
            return settings.brightness
        if line == "sound":
            return self.on_off(settings.sound)
        if line == "suits":
            return self.on_off(settings.four_colours)
        return None

    def _show_setting(self, line):
        """The menu's row ``line`` anew, its setting changed: only the
        characters that changed are written (a whole menu is 20 ms on a
        SAMD51), and the bar's copy of the row with them."""
        page = self.page
        row = MENU_LINES.index(line) - self.top
        page.body_line(row, self.words.line("menu", line, (self._row_value(line),)),
                       column=MENU_COLUMN)  # fmt: skip
        self._mark_more(row)
        page.show_bar(row)

    def _mark_more(self, row):
        """The mark at the end of the first or last row on show (``row``):
        more rows above, or below."""
        if row == 0 and self.top:
            self.page.mark_line(0, b"^", MENU_MARK_COLUMN)
        elif row == BODY_ROWS - 1 and self.top + BODY_ROWS < self.menu_rows:
            self.page.mark_line(BODY_ROWS - 1, b"v", MENU_MARK_COLUMN)

    def say_no_hint(self):
        """The hint found nothing: the menu stays, and its Hint row says so."""
        self.no_hint = True
        self._choose(self.row)

    def on_off(self, flag):
        """The words "on" or "off" as words.txt has them (bytes): read once
        (the menu says them two or three times a redraw)."""
        if not self.on_off_words:
            line = self.words.line
            self.on_off_words = (line("on_off", "off"), line("on_off", "on"))
        return self.on_off_words[1 if flag else 0]

    def winnable_text(self, rules):
        """The Winnable only row's value: on or off, or "none" where no deal
        of ``rules`` is known to be winnable (British Square)."""
        if not has_won_deal(rules):
            return self.words.line("on_off", "none")
        return self.on_off(self.app.settings.winnable_only)

    def _menu(self, action):
        app = self.app
        count = self.menu_rows
        if action == UP or action == DOWN:
            row = (self.row + (1 if action == DOWN else count - 1)) % count
            if self.top <= row < self.top + BODY_ROWS:  # no scroll: the bar moves, nothing else
                self.row = row
                self.page.show_bar(row - self.top)
            else:
                self._turn_page(row)
            return
        if action == B or action == START:
            app.show_play()
            return
        if action != A:
            return
        row = self.row
        line = MENU_LINES[row]
        game = app.table.game
        if line == "back":
            app.show_play()
        elif line == "new":
            self.ask(ASK_RANDOM, SCREEN_MENU)
        elif line == "deal":
            self.deal(game.deal_number or MIN_DEAL)
        elif line == "restart":
            self.ask(ASK_RESTART, SCREEN_MENU)
        elif line == "undo":
            app.show_play()
            app.table.undo()
        elif line == "redo":
            app.show_play()
            app.table.redo()
        elif line == "hint":
            if not app.hint():
                self.say_no_hint()
        elif line == "rules":
            self.rules(game.rules)
        elif line == "autoplay":
            moves = game.history_end
            app.next_autoplay()  # applied at once: a card may go home, or the game end
            if self.current == SCREEN_MENU:
                if game.history_end == moves:
                    self._show_setting(line)
                else:  # the title's moves, Undo and Redo changed too
                    self._choose(row)
        elif line == "winnable":
            if has_won_deal(game.rules):
                app.toggle("winnable_only")
                self._show_setting(line)
            else:  # nothing to choose among: the row says "none"
                app.beep(BUZZ)
        elif line == "brightness":
            app.next_brightness()
            self._show_setting(line)
        elif line == "sound":
            app.toggle("sound")
            self._show_setting(line)
        elif line == "suits":
            app.toggle("four_colours")
            self._show_setting(line)
        elif line == "help":
            self.help(0)
        elif line == "stats":
            self.results.statistics(game.rules)
        elif line == "about":
            self.about()
        elif line == "end":
            if app.table.in_progress():
                self.ask(ASK_END, SCREEN_MENU)
            else:
                app.end_game()

    # ---------------------------------------------------------------- about

    def about(self):
        """For owners: version, board, heap, NVM, battery and errors caught,
        also printed to the console; A times the actions (``timing``), the
        full-screen redraws a second and the heap, to report."""
        self.open(SCREEN_ABOUT, self._about)
        press = "press " + self.words.key("A")  # the heap and the redraws, until measured
        board, nvm, battery, errors, redraws = self.app.owner_facts(press)
        values = (__version__, board, self.heap or press, nvm, battery, errors, redraws)
        self.words.show(self.page, "about", values)
        self.app.console("about: " + ", ".join(str(value) for value in values))

    def _about(self, action):
        if action == A:  # for owners: time the actions, the redraws, the heap
            try:
                from british_square import timing

                self.heap = timing.run(self.app)
            except MemoryError:  # the heap in pieces: say so, and play on
                self.app.console("timing: not enough memory")
            unload("british_square.timing")
            self.app.measure_redraw()
            self.about()
        elif action == B or action == START:
            self.heap = ""  # measured again next time: the heap moves as the game plays
            self.menu("about")

    # ---------------------------------------------- leaving a game in progress

    def ask(self, what, back, number=0, rules=0):
        """Do ``what`` (an ``ASK_*``), first asking "Abandon this game?" when
        the game in progress has moves; B goes back to the screen ``back``."""
        self.pending = what
        self.pending_number = number
        self.pending_rules = rules
        self.back = back
        app = self.app
        if what != ASK_END and not app.table.in_progress():
            self._do_pending()
            return
        self.open(SCREEN_CONFIRM, self._confirm)
        page, game = self.page, app.table.game
        page.footer.color = TEXT_WHITE
        text = "confirm_abandon"
        if what == ASK_END:
            text = "confirm_end"
        elif what == ASK_RESTART:
            text = "confirm_restart"
        self.words.show(page, text, (moves_text(game.history_count), game.score()))

    def ask_deal(self, number):
        """Deal ``number`` (in range), first asking when a game is in progress;
        B goes back to the deal number entry."""
        self.ask(ASK_DEAL, SCREEN_DEAL, number)

    def _do_pending(self):
        app, what = self.app, self.pending
        if what == ASK_RANDOM:
            app.new_random_deal()
        elif what == ASK_DEAL:
            app.new_deal(self.pending_number, app.table.game.rules)
        elif what == ASK_RESTART:
            app.restart()
        elif what == ASK_RULES:
            app.new_deal(self.pending_number, self.pending_rules)
        else:
            app.end_game()

    def _confirm(self, action):
        if action == A:
            self._do_pending()
        elif action == B or action == START:
            back = self.back
            if back == SCREEN_DEAL:
                self.deal(self.entry.number, self.entry.digit)
            elif back == SCREEN_RULES:
                self.rules(self.choice)
            elif back == SCREEN_PLAY:  # a desktop's direct key asked, from the cards
                self.app.show_play()
            else:
                self.menu(MENU_LINES[self.row])

    # ---------------------------------------------------- deal number entry

    def deal(self, number, digit=4, typed=False):
        """The deal number entry (``deal_entry.DealEntry``) at ``number``, the
        mark under ``digit``; ``typed``: the number is being typed on a keyboard."""
        self.open(SCREEN_DEAL, self.entry.handle)
        self.entry.show(number, digit, typed)

    # ---------------------------------------------------------------- rules

    def rules(self, rules):
        """What a rule set is like, in plain words; left and right show the others."""
        self.open(SCREEN_RULES, self._rules)
        self.choice = rules
        self.words.show(self.page, RULES_TEXTS[rules])

    def _rules(self, action):
        if action == LEFT or action == RIGHT:
            self.rules((self.choice + (1 if action == RIGHT else 2)) % 3)
        elif action == A:
            app = self.app
            self.ask(
                ASK_RULES,
                SCREEN_RULES,
                app.table.game.deal_number or app.random_deal(self.choice),
                self.choice,
            )
        elif action == B or action == START:
            self.menu("rules")

    # ----------------------------------------------------------------- help

    def help(self, number, first=False):
        """Pages for the rule set in play: the keys, what the marks mean, and
        where the machine's adapter has one (``help_page``: the desktop's keys
        and mouse) a page of its own; ``first``: the first page on a new
        board's first start, before the title, which any key goes on to."""
        self.open(SCREEN_HELP, self._first_start if first else self._help)
        self.help_page = number
        page, game, words = self.page, self.app.table.game, self.words
        if number == 0:
            words.show(page, "help_keys_union" if game.rules == UNION else "help_keys", draw=False)
            if first:
                page.footer_line(words.line("title_words", "skip"))
            page.draw()
            return
        if number == 2:  # the machine's own page
            page.show_lines(self.app.hardware.help_page)
            return
        text = "help_marks" if game.rules == BRITISH else "help_marks_piles"
        words.show(page, text)
        for line, glyph in MARKS:  # each glyph beside the line that says what it means
            row = words.row(text, line)
            if row >= 0:
                page.glyph(row, glyph)

    def _help(self, action):
        if action == LEFT or action == RIGHT:
            pages = 3 if getattr(self.app.hardware, "help_page", None) else 2
            self.help((self.help_page + (1 if action == RIGHT else pages - 1)) % pages)
        elif action in (A, B, START):
            self.menu("help")

    def _first_start(self, action):
        app = self.app
        app.setting_changed()  # saved now: a record says the first start is past
        self.title()

    def first_start(self):
        """A new board's first start: the choice of a rule set
        (``first_start.RuleChoice``, loaded for it and let go after), then
        the keys' help."""
        from british_square.first_start import RuleChoice

        choice = RuleChoice(self)
        self.open(SCREEN_FIRST, choice.handle)
        choice.show()
