"""The screens besides the cards: title, menu, deal number, rules, help,
About, the question before a game in progress is thrown away, and a game's
results (Won, Game over, Finish and the statistics, drawn by ``results``).

Each draws itself on the text page (``page.TextPage``) and says what its
keys do. Nothing here allocates sprites: the page is made once, at start-up.
"""

from british_square import __version__, unload
from british_square.cards import const
from british_square.celebration import Celebration
from british_square.controls import DOWN, LEFT, RIGHT, SELECT, START, UP, A, B
from british_square.deal import MIN_DEAL
from british_square.deal_entry import DealEntry
from british_square.layout import (
    ACES_PITCH,
    ACES_X,
    ACES_Y,
    SCREEN_W,
    TITLE_BIG_PITCH,
    TITLE_BIG_Y,
)
from british_square.menu import (
    ROW_ASK,
    ROW_CARDS,
    ROW_HINT,
    ROW_SETTING,
    MenuRows,
    row_entry,
    row_of,
)
from british_square.par import par
from british_square.piles import DEALT, RULE_NAMES, RULE_SETS, SPACE_TAKES_ANY
from british_square.results import Results, deal_text, moves_text, rules_name
from british_square.screen_ids import (
    ASK_DEAL,
    ASK_END,
    ASK_RANDOM,
    ASK_RESTART,
    ASK_RULES,
    SCREEN_ABOUT,
    SCREEN_CONFIRM,
    SCREEN_DEAL,
    SCREEN_FIRST,
    SCREEN_HELP,
    SCREEN_MENU,
    SCREEN_PLAY,
    SCREEN_RULES,
    SCREEN_STATS,
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
from british_square.stats import AUTOPLAY_NAMES, BRIGHTNESS_LEVELS
from british_square.table import OUTCOME_STUCK

# The texts of words.txt some screens pick from: by the save's notice
# (store.NOTICE_*), and the help's marks with the glyph beside each (a rule
# set's own text is "rules_" and its name).
NOTICE_LINES = ("", "unreadable", "earlier")
MARK_LINES = (b"up", b"down", b"free", b"king", b"done", b"count")
MARKS = (WAY_UP, WAY_DOWN, WAY_FREE, SMALL_KING, SMALL_DONE, 9)  # 9: the digit, a pile's count

_REDRAW_MS = const(1000)  # About's redraw benchmark runs this long (keys wait)


class Screens:
    """The screen on show when it is not the cards, for ``app`` (an ``app.App``).

    Of the session the screens read the game in play (``app.table``), the
    settings, the statistics and the game's figures (``scorecard``, a
    ``stats.Scorecard``); they act through its methods (a new
    deal, a restart, the end of a game, the hint, Finish, the settings'
    changes, back to the cards), and About asks it for the machine's facts."""

    def __init__(self, app):
        self.app = app
        self.page = app.view.page
        self.words = app.words
        # the screen on show, known here alone: a session starts on one (the
        # title, or a first start's), never on the cards
        self.current = SCREEN_TITLE
        self.handler = None
        self.entry = DealEntry(self)  # the deal number entry
        self.results = Results(self)  # Won, Game over, Finish and the statistics
        self.choice = 0  # rules: the rule set on show
        self.help_page = 0
        self.pending = ASK_RANDOM  # the confirmation: what for, and where B goes back to
        self.pending_number = 0
        self.pending_rules = 0
        self.back = SCREEN_MENU
        self.heap = ""  # About's heap figure, once A has measured it
        self.redraw_tenths = 0  # and its full redraws a second, in tenths
        self.celebration = Celebration(self.page, app.glow)
        self.rows = MenuRows(self)  # the menu's rows and bar
        self.mark_rows = bytearray(len(MARKS))  # the help's: the row of each mark's line

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
        self.rows.turning = 0
        self.celebration.stop()

    def handle(self, action):
        """Do what ``action`` means on the screen on show."""
        self.handler(action)

    def tick(self, now, pressed=False):
        """A frame of the celebration when one is due (none while the screen
        is dimmed: it waits for a press); a row of a menu page turned, while
        one is still to be written, or of the menu's first page, hidden."""
        if not self.app.dimmed and self.celebration.tick(now):
            return  # a frame of the celebration is this turn's work
        if self.current == SCREEN_MENU:
            self.rows.tick()
        elif not pressed:  # a turn with no press in it
            self.rows.prepare()

    def resting(self):
        """Nothing on the screen on show needs the next turn: a menu's page
        turning does; the celebration's frames, 50 ms apart, come on time
        from a loop that sleeps between them."""
        return not (self.rows.turning or self.rows.pending)

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
        battery = self.battery_text()
        battery = "Battery " + battery if battery else b""
        play = words.line("title_words", "continue" if app.table.in_progress() else "play")
        values = (
            found,  # {par}
            battery,  # {battery}
            deal_text(game),  # {deal}
            rules_name(words, game.rules),  # {rules}
            play,  # {play}
        )
        words.show(page, "title", values)

    def _title(self, action):
        if action == START:
            self.menu()
        elif action == A or action == B:
            self.app.show_play()

    # ----------------------------------------------------------------- menu

    def menu(self, line=None):
        """The menu, the bar behind its row named ``line`` (words.txt's
        "menu"), or where it was (the first row, after the cards), the
        game's moves and time in its title; the rows scroll when there are
        more than the page holds."""
        self.open(SCREEN_MENU, self._menu)
        rows = self.rows
        rows.no_hint = False
        rows.choose(rows.row if line is None else row_of(line))

    def _menu(self, action):
        rows = self.rows
        if action == UP or action == DOWN:
            rows.step(action)
        elif action == B or action == START:
            self.app.show_play()
        elif action == A:
            self.do_row(rows.row)
        elif action == SELECT or action == RIGHT:  # Hint and Redo two presses from the cards
            self.do_row(row_of("hint" if action == SELECT else "redo"))

    def do_row(self, row):
        """What menu row ``row`` does (``menu.MENU_ROWS``)."""
        app = self.app
        game = app.table.game
        kind, what = row_entry(row)
        if kind == ROW_CARDS:
            app.show_play()
            if what:
                getattr(app.table, what)()
        elif kind == ROW_HINT:
            if not app.hint():
                self.rows.say_no_hint()
        elif kind == ROW_ASK:
            self.ask(what, SCREEN_MENU)
        elif kind == ROW_SETTING:
            self.turn(what, row)
        elif what == SCREEN_DEAL:  # a screen, opened for the game in play
            self.deal(game.deal_number or MIN_DEAL)
        elif what == SCREEN_HELP:
            self.help(0)
        elif what == SCREEN_STATS:
            self.results.statistics(game.rules)
        else:
            self.about()

    def turn(self, setting, row):
        """The setting ``setting`` (a ``stats.Settings`` attribute) on to its
        next value as the menu offers them, after the last the first, and
        done at once, from its menu row ``row``; the rule set is chosen on
        its own screen."""
        app, rows = self.app, self.rows
        game, settings = app.table.game, app.settings
        if setting == "rules":
            self.rules(game.rules)
            return
        if not rows.can_turn(setting):  # nothing to choose among: the row says so
            app.beep(BUZZ)
            return
        value = getattr(settings, setting)
        if setting == "autoplay":
            value = (value + 1) % len(AUTOPLAY_NAMES)
        elif setting == "brightness":
            value = BRIGHTNESS_LEVELS[(BRIGHTNESS_LEVELS.index(value) + 1) % len(BRIGHTNESS_LEVELS)]
            app.set_backlight(value)
        else:  # on or off
            value = not value
        setattr(settings, setting, value)
        if setting == "four_colours":
            app.view.colour_suits(value)
        app.setting_changed()
        moves = game.history_end
        if setting == "autoplay":  # a card may go home now, or the game end
            app.table.autoplay_now()
            if self.current != SCREEN_MENU:
                return
        if game.history_end == moves:
            rows.show_setting(row)
        else:  # auto-play moved: the title's moves, Undo and Redo changed too
            rows.choose(rows.row)

    # ---------------------------------------------------------------- about

    def about(self):
        """For owners: version, board, heap, NVM, battery and errors caught,
        also printed to the console; A times the actions (``timing``), the
        full-screen redraws a second and the heap, to report."""
        self.open(SCREEN_ABOUT, self._about)
        press = "press " + self.words.key("A")  # the heap and the redraws, until measured
        board, nvm, battery, errors, redraws = self._owner_facts(press)
        values = (
            __version__,  # {version}
            board,  # {board}
            self.heap or press,  # {heap}
            nvm,  # {nvm}
            battery,  # {battery}
            errors,  # {errors}
            redraws,  # {redraw}
        )
        self.words.show(self.page, "about", values)
        self.app.console("about: " + ", ".join(str(value) for value in values))

    def _about(self, action):
        if action == A:  # for owners: time the actions, the redraws, the heap
            # the screens flash by as they are timed: said first, in the footer
            self.page.footer_line(self.words.line("about_words", "measuring"))
            self.app.view.refresh()
            try:
                from british_square import timing

                self.heap = timing.run(self.app)
            except MemoryError:  # the heap in pieces: say so, and play on
                self.app.console("timing: not enough memory")
            unload("british_square.timing")
            self._measure_redraw()
            self.about()
        elif action == B or action == START:
            self.heap = ""  # measured again next time: the heap moves as the game plays
            self.menu("about")

    def _owner_facts(self, unmeasured):
        """About's facts of the machine: the board, the NVM, the battery, the
        errors caught (``Store.caught``) and the full redraws a second
        (``unmeasured`` until ``_measure_redraw``), as About says them."""
        app = self.app
        facts = app.hardware.facts
        board, nvm, millivolts = facts() if facts else ("-", 0, 0)
        tenths = self.redraw_tenths
        redraws = "{}.{}/s full".format(tenths // 10, tenths % 10) if tenths else unmeasured
        nvm = "{} bytes".format(nvm) if nvm else "none"
        errors = app.store.errors_caught if app.store is not None else 0
        return board, nvm, self.battery_text(millivolts) or "none", errors, redraws

    def battery_text(self, millivolts=None):
        """The battery as the title and About screens say it ("" without a
        monitor); read from the board unless ``millivolts`` is given."""
        if millivolts is None:
            millivolts = self.app.battery_mv()
        if not millivolts:
            return ""
        text = "{}.{:02d} V".format(millivolts // 1000, millivolts % 1000 // 10)
        return "low: " + text if self.app.battery_low(millivolts) else text

    def _measure_redraw(self):
        """Full-screen redraws a second over the real display bus, for
        ``_REDRAW_MS`` (the loop waits; the keypad queues presses)."""
        frames = self.app.view.full_redraws(self.app.ticks_ms, _REDRAW_MS)
        self.redraw_tenths = frames * 10000 // _REDRAW_MS

    # ---------------------------------------------- leaving a game in progress

    def ask(self, what, back, number=0, rules=0):
        """Do ``what`` (an ``ASK_*``), first asking "Abandon this game?" when
        the game in progress has moves; B goes back to the screen ``back``."""
        self.pending = what
        self.pending_number = number
        self.pending_rules = rules
        self.back = back
        app = self.app
        table = app.table
        # nothing to lose: no move made, or Game over shown (the game counted
        # and over, as its A, a new deal at once, knows)
        over = table.outcome == OUTCOME_STUCK and app.scorecard.counted
        if not table.in_progress() or over and what != ASK_END:
            self._do_pending()
            return
        self.open(SCREEN_CONFIRM, self._confirm)
        page, game = self.page, app.table.game
        page.footer.color = TEXT_WHITE
        moves = moves_text(game.history_count)
        if what == ASK_RESTART:
            self.words.show(page, "confirm_restart", (moves,))  # {moves}
            return
        text = "confirm_end" if what == ASK_END else "confirm_abandon"
        self.words.show(page, text, (moves, game.score()))  # {moves} {home}

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
                self.menu()

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
        self.words.show(self.page, "rules_" + RULE_NAMES[rules])

    def _rules(self, action):
        if action == LEFT or action == RIGHT:
            self.rules((self.choice + (1 if action == RIGHT else -1)) % RULE_SETS)
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
        board's first start, which any key ends: on to the game chosen."""
        self.open(SCREEN_HELP, self._first_start if first else self._help)
        self.help_page = number
        page, game, words = self.page, self.app.table.game, self.words
        if number == 0:
            keys = "help_keys_union" if SPACE_TAKES_ANY[game.rules] else "help_keys"
            words.show(page, keys, draw=False)
            if first:
                page.footer_line(words.line("title_words", "skip"))
            page.draw()
            return
        if number == 2:  # the machine's own page
            page.show_lines(self.app.hardware.help_page)
            return
        text = "help_marks" if game.columns < DEALT else "help_marks_piles"  # bases of several
        rows = self.mark_rows
        words.show(page, text, lines=MARK_LINES, rows=rows)
        page.glyphs_beside(rows, MARKS)  # each glyph beside the line that says what it means

    def _help(self, action):
        if action == LEFT or action == RIGHT:
            pages = 3 if getattr(self.app.hardware, "help_page", None) else 2
            self.help((self.help_page + (1 if action == RIGHT else pages - 1)) % pages)
        elif action in (A, B, START):
            self.menu("help")

    def _first_start(self, action):
        app = self.app
        app.setting_changed()  # saved now: a record says the first start is past
        # the cards: the player chose "A: play", and the title (every later
        # start's first screen) would only offer it again
        app.show_play()

    def first_start(self):
        """A new board's first start: the choice of a rule set
        (``first_start.RuleChoice``, loaded for it and let go after), then
        the keys' help."""
        from british_square.first_start import RuleChoice

        choice = RuleChoice(self)
        self.open(SCREEN_FIRST, choice.handle)
        choice.show()
