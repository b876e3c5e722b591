"""The screens besides the cards: title, menu, deal number, rules, help, the
end of a game, and the question before a game in progress is thrown away.

Each draws itself on the text page (``page.TextPage``) and says what its
keys do. Nothing here allocates sprites: the page is made once, at start-up.
"""

from british_square.cards import const
from british_square.controls import DOWN, LEFT, RIGHT, START, UP, A, B, ticks_add, ticks_diff
from british_square.deal import MAX_DEAL, MIN_DEAL
from british_square.engine import UNION
from british_square.layout import (
    ACES_PITCH,
    ACES_X,
    ACES_Y,
    BODY_ROWS,
    DEAL_DIGITS_X,
    DEAL_DIGITS_Y,
    KINGS_BOTTOM,
    KINGS_TOP,
    SCREEN_W,
    TEXT_COLUMNS,
    WON_BIG_Y,
)
from british_square.par import par
from british_square.sheet import (
    CARD_W,
    FIRST_CARD,
    SMALL_DONE,
    SMALL_DOWN,
    SMALL_FREE,
    SMALL_KING,
    SMALL_UP,
    TEXT_GREY,
    TEXT_RED,
    TEXT_WHITE,
)
from british_square.store import (
    BEST_TIME,
    FEWEST_MOVES,
    HINTS,
    HOME_BEST,
    PAR_REACHED,
    PLAYED,
    STREAK,
    STREAK_BEST,
    WINS,
)

_FRAME_MS = const(50)  # the celebration's frame time
_POWERS = (10000, 1000, 100, 10, 1)

# The screens, as ``Screens.current`` names them (SCREEN_NAMES for people).
PLAY = const(0)
TITLE = const(1)
MENU = const(2)
DEAL = const(3)
RULES = const(4)
HELP = const(5)
WON = const(6)
OVER = const(7)
CONFIRM = const(8)
ABOUT = const(9)
STATS = const(10)
SCREEN_NAMES = (
    "play", "title", "menu", "deal", "rules", "help", "won", "over", "confirm", "about", "stats"
)  # fmt: skip

# Texts of words.txt, by their place in it (tests/test_words.py checks the names).
_W_RULE_NAMES = const(0)
_W_TITLE = const(4)
_W_MENU = const(5)
_W_ON_OFF = const(6)
_W_DEAL = const(7)
_W_DEAL_REFUSED = const(8)
_W_RULES_BRITISH = const(9)  # then American and Union
_W_HELP_KEYS = const(12)
_W_HELP_KEYS_UNION = const(13)
_W_HELP_MARKS = const(14)
_W_HELP_MARKS_PILES = const(15)
_W_WON = const(16)
_W_OVER = const(17)
_W_CONFIRM_ABANDON = const(18)
_W_CONFIRM_END = const(19)
_W_ABOUT = const(20)
_W_STATS = const(21)
_W_TITLE_WORDS = const(22)  # play, continue, then the save's notices (store.NOTICE_*)

# Menu rows (the body lines of words.txt's "menu")
_RESUME = const(0)
_NEW = const(1)
_DEAL = const(2)
_RESTART = const(3)
_UNDO = const(4)
_REDO = const(5)
_HINT = const(6)
_RULES = const(7)
_AUTOPLAY = const(8)
_WINNABLE = const(9)
_BRIGHTNESS = const(10)
_SOUND = const(11)
_HELP = const(12)
_STATS = const(13)
_ABOUT = const(14)
_END = const(15)

# What a confirmation is for (``Screens.ask``).
_ASK_NEW = const(0)  # a random deal
_ASK_DEAL = const(1)  # deal ``pending_number``
_ASK_RESTART = const(2)
_ASK_RULES = const(3)  # deal ``pending_number`` under ``pending_rules``
_ASK_END = const(4)


class Screens:
    """The screen on show when it is not the cards, for ``app`` (an ``App``)."""

    def __init__(self, app):
        self.app = app
        self.page = app.view.page
        self.words = app.words
        self.current = PLAY
        self.handler = None
        self.row = 0  # menu: the chosen row, and the first row on show
        self.top = 0
        self.number = 1  # deal number entry: the number and the digit being set
        self.digit = 4
        self.refused = False  # and whether the footer says the number is out of range
        self.choice = 0  # rules: the rule set on show
        self.help_page = 0
        self.no_hint = False  # the last hint asked for found nothing: the menu says so
        self.pending = _ASK_NEW  # the confirmation: what for, and where B goes back to
        self.pending_number = 0
        self.pending_rules = 0
        self.back = MENU
        self.celebrating = False
        self.frame_due = 0
        self.frame = 0  # of the celebration, counted for the lights
        # the celebration: position and speed of each king, x and y; small
        # ints in a list made once, so a frame allocates nothing
        self.bounce = [0] * 16

    def _open(self, screen, handler):
        """Clear the page for ``screen``, whose keys ``handler`` takes."""
        app = self.app
        if not app.on_page:
            app.leave_play()
        app.on_page = True
        self.leave()  # the screen on show goes, and a celebration with it
        self.current = screen
        self.handler = handler
        self.page.clear()
        app.view.show_page()

    def leave(self):
        """The screen on show goes (the cards are back, or another screen opens)."""
        self.current = PLAY
        if self.celebrating:
            self.celebrating = False
            self.app.glow(-1)  # the lights go dark with the kings

    def handle(self, action):
        """Do what ``action`` means on the screen on show."""
        self.handler(action)

    def tick(self, now):
        """A frame of the celebration when one is due."""
        if self.celebrating and ticks_diff(now, self.frame_due) >= 0:
            self.frame_due = ticks_add(now, _FRAME_MS)
            self._animate()

    # ---------------------------------------------------------------- title

    def title(self, notice=0):
        """The game's name, its deal and par, and what A does: play, or
        continue the game kept from last time; ``notice`` (``store.NOTICE_*``)
        says in place of par that a save could not be read whole."""
        self._open(TITLE, self._title)
        app = self.app
        page, game = self.page, app.game
        for row in range(2):
            page.big[row].move(0, 2 + 24 * row, 2)
        for suit in range(4):
            page.show_card(suit, FIRST_CARD + suit * 13, ACES_X + ACES_PITCH * suit, ACES_Y)
        page.footer.set_colour(TEXT_WHITE)
        if notice:  # in place of par
            found = self._word(_W_TITLE_WORDS, 1 + notice)
        else:
            found = par(game.rules, game.deal_number)
            found = "Par: {} cards home".format(found) if found else ""
        battery = app.battery_text()
        battery = "Battery " + battery if battery else ""
        play = self._word(_W_TITLE_WORDS, 1 if app.in_progress() else 0)
        values = (found, battery, _deal_text(game), self.rules_name(game.rules), play)
        self.words.show(page, _W_TITLE, values)

    def _title(self, action):
        if action == START:
            self.menu()
        elif action == A or action == B:
            self.app.show_play()

    # ----------------------------------------------------------------- menu

    def menu(self, row=_RESUME):
        """The menu: a bar behind the chosen row; the rows scroll when there are
        more than the page holds."""
        self._open(MENU, self._menu)
        self.no_hint = False
        self._choose(row)

    def _choose(self, row):
        self.row = row
        if row < self.top:
            self.top = row
        elif row >= self.top + BODY_ROWS:
            self.top = row - BODY_ROWS + 1
        app, page = self.app, self.page
        page.body.clear()
        hint = ": nothing found" if self.no_hint else ""
        values = (
            hint,
            self.rules_name(app.rules),
            self.on_off(app.autoplay),
            self.on_off(app.winnable_only),
            app.brightness,
            self.on_off(app.sound_on),
        )
        self.words.show(page, _W_MENU, values, 3, self.top)
        if self.top:
            page.body.write(0, 24, "^")
        if self.top + BODY_ROWS < self.words.lines(_W_MENU):
            page.body.write(BODY_ROWS - 1, 24, "v")
        page.show_bar(row - self.top)

    def rules_name(self, rules):
        """The name of rule set ``rules`` as the player reads it (a new string)."""
        return self._word(_W_RULE_NAMES, rules)

    def on_off(self, flag):
        return self._word(_W_ON_OFF, flag)

    def _word(self, text, line):
        return self.words.line_text(text, line)

    def _menu(self, action):
        app = self.app
        count = self.words.lines(_W_MENU)
        if action == UP or action == DOWN:
            self._choose((self.row + (1 if action == DOWN else count - 1)) % count)
            return
        if action == B or action == START:
            app.show_play()
            return
        if action != A:
            return
        row = self.row
        game = app.game
        if row == _RESUME:
            app.show_play()
        elif row == _NEW:
            self.ask(_ASK_NEW, MENU)
        elif row == _DEAL:
            self.deal(game.deal_number or MIN_DEAL)
        elif row == _RESTART:
            self.ask(_ASK_RESTART, MENU)
        elif row == _UNDO:
            app.show_play()
            app.undo()
        elif row == _REDO:
            app.show_play()
            app.redo()
        elif row == _HINT:
            self.no_hint = not app.hint()
            if self.no_hint:
                self._choose(row)  # the menu stays, and says so
        elif row == _RULES:
            self.rules(app.rules)
        elif row == _AUTOPLAY:
            app.autoplay = not app.autoplay
            app.setting_changed()
            self._choose(row)
        elif row == _WINNABLE:
            app.winnable_only = not app.winnable_only
            app.setting_changed()
            self._choose(row)
        elif row == _BRIGHTNESS:
            app.next_brightness()
            self._choose(row)
        elif row == _SOUND:
            app.sound_on = not app.sound_on
            app.setting_changed()
            self._choose(row)
        elif row == _HELP:
            self.help(0)
        elif row == _STATS:
            self.stats(app.rules)
        elif row == _ABOUT:
            self.about()
        elif row == _END:
            if app.in_progress():
                self.ask(_ASK_END, MENU)
            else:
                app.end_game()

    # ----------------------------------------------------------- statistics

    def stats(self, rules):
        """The statistics of a rule set, a figure at the end of each row;
        left and right show the others."""
        self._open(STATS, self._stats)
        self.choice = rules
        page, kept = self.page, self.app.stats
        self.words.show(page, _W_STATS, (self.rules_name(rules),))
        count = kept.get
        won = count(rules, WINS)
        seconds = count(rules, BEST_TIME)
        tenths = kept.average_home_tenths(rules)
        figures = (
            count(rules, PLAYED),
            "{} ({}%)".format(won, kept.percent_won(rules)),
            count(rules, HOME_BEST),
            "{}.{}".format(tenths // 10, tenths % 10),
            "{}, {}".format(count(rules, STREAK), count(rules, STREAK_BEST)),
            count(rules, FEWEST_MOVES) or "-",
            "{}:{:02d}".format(seconds // 60, seconds % 60) if seconds else "-",
            "{}, {}".format(count(rules, PAR_REACHED), count(rules, HINTS)),
        )
        for row, figure in enumerate(figures):
            figure = str(figure)
            page.body.write(row, TEXT_COLUMNS - len(figure), figure)

    def _stats(self, action):
        if action == LEFT or action == RIGHT:
            self.stats((self.choice + (1 if action == RIGHT else 2)) % 3)
        elif action in (A, B, START):
            self.menu(_STATS)

    # ---------------------------------------------------------------- about

    def about(self):
        """For owners: version, board, heap, NVM and battery; A measures how
        many full-screen redraws a second the display takes. Also printed to
        the serial console, to report."""
        self._open(ABOUT, self._about)
        values = self.app.about_values()
        self.words.show(self.page, _W_ABOUT, values)
        print("about:", ", ".join(str(value) for value in values))

    def _about(self, action):
        if action == A:
            self.app.measure_redraw()
            self.about()
        elif action == B or action == START:
            self.menu(_ABOUT)

    # ---------------------------------------------- leaving a game in progress

    def ask(self, what, back, number=0, rules=0):
        """Do ``what`` (an ``_ASK_*``), first asking "Abandon this game?" when
        the game in progress has moves; B goes back to the screen ``back``."""
        self.pending = what
        self.pending_number = number
        self.pending_rules = rules
        self.back = back
        app = self.app
        if what != _ASK_END and not app.in_progress():
            self._do_pending()
            return
        self._open(CONFIRM, self._confirm)
        page, game = self.page, app.game
        page.footer.set_colour(TEXT_WHITE)
        text = _W_CONFIRM_END if what == _ASK_END else _W_CONFIRM_ABANDON
        self.words.show(page, text, (game.history_count, game.score()))

    def _do_pending(self):
        app, what = self.app, self.pending
        if what == _ASK_NEW:
            app.new_deal(app.random_deal(app.rules), app.rules)
        elif what == _ASK_DEAL:
            app.new_deal(self.pending_number, app.rules)
        elif what == _ASK_RESTART:
            app.restart()
        elif what == _ASK_RULES:
            app.new_deal(self.pending_number, self.pending_rules)
        else:
            app.end_game()

    def _confirm(self, action):
        if action == A:
            self._do_pending()
        elif action == B or action == START:
            back = self.back
            if back == DEAL:
                self.deal(self.number, self.digit)
            elif back == RULES:
                self.rules(self.choice)
            else:
                self.menu(self.row)

    # ---------------------------------------------------- deal number entry

    def deal(self, number, digit=4):
        """Five large digits, a mark under the one being set (the last at first)."""
        self._open(DEAL, self._deal)
        self.refused = False
        page = self.page
        self.words.show(page, _W_DEAL)
        page.big[0].move(DEAL_DIGITS_X, DEAL_DIGITS_Y, 3)
        page.big[1].write(0, 0, "^")
        self._set_deal(number, digit)

    def _set_deal(self, number, digit):
        self.number, self.digit = number, digit
        page = self.page
        page.big[0].write_number(0, 0, number, 5, True)
        # each digit is 18 pixels wide at scale 3; the mark (12 wide) centred under it
        page.big[1].move(DEAL_DIGITS_X + 18 * digit + 3, DEAL_DIGITS_Y + 38, 2)
        page.dirty = True

    def _deal(self, action):
        number, digit = self.number, self.digit
        page = self.page
        if action == UP or action == DOWN:
            power = _POWERS[digit]
            value = number // power % 10
            if action == UP:
                number += power if value < 9 else -9 * power
            else:
                number -= power if value > 0 else -9 * power
        elif action == LEFT and digit > 0:
            digit -= 1
        elif action == RIGHT and digit < 4:
            digit += 1
        elif action == A:
            if MIN_DEAL <= number <= MAX_DEAL:
                self.ask(_ASK_DEAL, DEAL, number)
            else:  # say what is allowed; deal nothing
                self.refused = True
                page.footer.set_colour(TEXT_RED)
                self.words.show(page, _W_DEAL_REFUSED)
            return
        elif action == B or action == START:
            self.menu(_DEAL)
            return
        if self.refused:  # after a refusal: the keys again
            self.refused = False
            page.footer.set_colour(TEXT_GREY)
            self.words.show(page, _W_DEAL)
        self._set_deal(number, digit)

    # ---------------------------------------------------------------- rules

    def rules(self, rules):
        """What a rule set is like, in plain words; left and right show the others."""
        self._open(RULES, self._rules)
        self.choice = rules
        self.words.show(self.page, _W_RULES_BRITISH + rules)

    def _rules(self, action):
        if action == LEFT or action == RIGHT:
            self.rules((self.choice + (1 if action == RIGHT else 2)) % 3)
        elif action == A:
            app = self.app
            self.ask(
                _ASK_RULES, RULES, app.game.deal_number or app.random_deal(self.choice), self.choice
            )
        elif action == B or action == START:
            self.menu(_RULES)

    # ----------------------------------------------------------------- help

    def help(self, number):
        """Two pages for the rule set in play: the keys, and what the marks mean."""
        self._open(HELP, self._help)
        self.help_page = number
        page, game = self.page, self.app.game
        if number == 0:
            self.words.show(page, _W_HELP_KEYS_UNION if game.rules == UNION else _W_HELP_KEYS)
            return
        piles = game.columns != 4
        self.words.show(page, _W_HELP_MARKS_PILES if piles else _W_HELP_MARKS)
        for row, glyph in enumerate((SMALL_UP, SMALL_DOWN, SMALL_FREE, SMALL_KING, SMALL_DONE)):
            page.glyph(row, glyph)
        if piles:
            page.glyph(5, 9)

    def _help(self, action):
        if action == LEFT or action == RIGHT:
            self.help(1 - self.help_page)
        elif action in (A, B, START):
            self.menu(_HELP)

    # ------------------------------------------------------------- the end

    def won(self):
        """The celebration: four kings bounce under "You won!" until a key."""
        self._open(WON, self._end)
        page = self.page
        page.big[0].move(0, WON_BIG_Y, 2)
        page.footer.set_colour(TEXT_WHITE)
        self.words.show(page, _W_WON)
        b = self.bounce
        for suit in range(4):  # spread out, each with its own speed
            x, y = 8 + 40 * suit, KINGS_TOP + 6 * suit
            b[4 * suit : 4 * suit + 4] = (x, y, 2 - suit if suit != 2 else 1, 1 + suit % 2)
        for suit in range(4):
            page.show_card(suit, FIRST_CARD + suit * 13 + 12, b[4 * suit], b[4 * suit + 1])
        self.celebrating = True
        self.frame_due = self.app.now
        self.frame = 0

    def _animate(self):
        b = self.bounce
        for i in range(8):  # x then y of each king: move, bounce off the band's edges
            k = (i >> 1) * 4 + (i & 1)  # b[k] is a position, b[k ^ 2] its speed
            low, high = (KINGS_TOP, KINGS_BOTTOM) if i & 1 else (0, SCREEN_W - CARD_W)
            value = b[k] + b[k ^ 2]
            if value < low or value > high:
                b[k ^ 2] = -b[k ^ 2]
                value = b[k] + b[k ^ 2]
            b[k] = value
        cards = self.page.cards
        for i in range(4):
            king = cards[i]
            king.x = b[4 * i]
            king.y = b[4 * i + 1]
        self.page.dirty = True
        self.frame += 1
        self.app.glow(self.frame)

    def over(self):
        """The game ended where it stood: its score."""
        self._open(OVER, self._end)
        app = self.app
        game = app.game
        found = par(game.rules, game.deal_number)
        if not found:
            said = "not surveyed"
        elif game.score() >= found:
            said = "{}, reached!".format(found)
        else:
            said = "{} cards home".format(found)
        values = (game.score(), _deal_text(game), self.rules_name(game.rules), said, app.hints_used)
        self.words.show(self.page, _W_OVER, values)

    def _end(self, action):
        app = self.app
        if action == A:
            app.new_deal(app.random_deal(app.rules), app.rules)  # the game is over: nothing to lose
        elif action == B:
            app.show_play()
        elif action == START:
            self.menu()


def _deal_text(game):
    return str(game.deal_number) if game.deal_number else "-"  # "-": set up from a position
