"""The screens of a game's results, a base of ``screens.Screens``: Won,
Game over, Finish (the rest is certain) and the statistics kept.

Each draws itself on the text page as the other screens do (``_open``,
``menu`` and the rest are ``Screens``'); what a game bettered comes from
``store.Stats.add_game`` (``App.bettered``).
"""

from british_square.cards import const
from british_square.controls import LEFT, RIGHT, START, A, B
from british_square.layout import SCREEN_W, WON_BIG_Y
from british_square.par import par
from british_square.sheet import TEXT_WHITE
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
from british_square.table import OUTCOME_ENDED

# The screens drawn here, among ``screens.SCREEN_NAMES``.
SCREEN_WON = const(6)
SCREEN_OVER = const(7)
SCREEN_STATS = const(10)
SCREEN_FINISH = const(11)


class Results:
    """Won, Game over, Finish and Statistics (a base of ``screens.Screens``)."""

    # ----------------------------------------------------------- statistics

    def stats(self, rules):
        """The statistics of a rule set, a table: what each row counts, its
        figure right-aligned beside it; left and right show the others."""
        self._open(SCREEN_STATS, self._stats)
        self.choice = rules
        kept = self.app.stats
        count = kept.get
        won = count(rules, WINS)
        seconds = count(rules, BEST_TIME)
        tenths = kept.average_home_tenths(rules)
        values = (
            self.rules_name(rules),
            count(rules, PLAYED),
            b"%d (%d%%)" % (won, kept.percent_won(rules)),
            count(rules, HOME_BEST),
            b"%d.%d" % (tenths // 10, tenths % 10),
            b"%d, %d" % (count(rules, STREAK), count(rules, STREAK_BEST)),
            count(rules, FEWEST_MOVES) or b"-",
            clock_text(seconds) if seconds else b"-",
            b"%d, %d" % (count(rules, PAR_REACHED), count(rules, HINTS)),
        )
        self.words.show(self.page, "stats", values)

    def _stats(self, action):
        if action == LEFT or action == RIGHT:
            self.stats((self.choice + (1 if action == RIGHT else 2)) % 3)
        elif action in (A, B, START):
            self.menu("stats")

    # ------------------------------------------------------------- the end

    def won(self):
        """The celebration (``celebration.Celebration``) under "You won!",
        until a key: the moves and the time, and the best it bettered."""
        self._open(SCREEN_WON, self._end)
        app, page, words = self.app, self.page, self.words
        page.place_big(0, SCREEN_W // 2, WON_BIG_Y)
        page.footer.color = TEXT_WHITE
        bettered = app.bettered
        found = par(app.game.rules, app.game.deal_number)
        if app.stats.get(app.game.rules, WINS) == 1 and bettered:
            said = words.line("end_words", "first")
        elif bettered & (1 << FEWEST_MOVES) and bettered & (1 << BEST_TIME):
            said = words.line("end_words", "moves_time")
        elif bettered & (1 << FEWEST_MOVES):
            said = words.line("end_words", "moves")
        elif bettered & (1 << BEST_TIME):
            said = words.line("end_words", "time")
        elif bettered & (1 << STREAK_BEST):
            said = words.line("end_words", "streak", (app.stats.get(app.game.rules, STREAK),))
        elif 0 < found < 104:
            said = words.line("end_words", "par_beaten", (found,))
        else:
            said = words.line("end_words", "won_all")
        words.show(page, "won", (moves_text(app.game.history_count), clock_text(app.seconds), said))
        self.celebration.start(app.now)

    def over(self):
        """The game is over where it stands, and why (no card can go home,
        or the player ended it): the cards home against par, the moves, the
        time and the hints, a new best, and A for a new deal."""
        self._open(SCREEN_OVER, self._end)
        app, words = self.app, self.words
        game = app.game
        score = game.score()
        found = par(game.rules, game.deal_number)
        if not found:
            said = b"not surveyed"
        elif score >= found:
            said = b"%d, reached!" % found
        else:
            said = b"%d cards home" % found
        why = words.line("end_words", "ended" if app.outcome == OUTCOME_ENDED else "stuck")
        best = app.bettered & (1 << HOME_BEST)  # counted as Game over shows
        best = words.line("end_words", "home", (score,)) if best else b""
        values = (
            why,
            score,
            said,
            moves_text(game.history_count),
            clock_text(app.seconds),
            app.hints_used,
            best,
            deal_text(game),
            self.rules_name(game.rules),
        )
        words.show(self.page, "over", values)

    def finish(self):
        """Every card left can go home, whatever the order: A plays it out
        (``Table.finish``), B leaves it to the player."""
        self._open(SCREEN_FINISH, self._finish)
        self.page.footer.color = TEXT_WHITE
        self.words.show(self.page, "finish", (self.app.game.cards_left(),))

    def _finish(self, action):
        if action == A:
            self.app.finish()
        elif action == B or action == START:
            self.app.show_play()

    def _end(self, action):
        app = self.app
        if action == A:
            app.new_random_deal()  # the game is over: nothing to lose
        elif action == B:
            app.show_play()
        elif action == START:
            self.menu()


# The words below are bytes, as the text page copies them (``words``).


def clock_text(seconds):
    """``seconds`` as minutes and seconds: b"4:05", b"75:00"."""
    return b"%d:%02d" % (seconds // 60, seconds % 60)


def moves_text(count):
    """A count of moves as a screen says it: b"1 move", b"12 moves"."""
    return b"1 move" if count == 1 else b"%d moves" % count


def deal_text(game):
    """The deal's number as a screen says it."""
    return b"%d" % game.deal_number if game.deal_number else b"-"  # "-": set up from a position
