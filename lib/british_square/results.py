"""The screens of a game's results: Won, Game over, Finish (the rest is
certain) and the statistics kept.

``Screens`` loads this module when one of them opens and lets it go when
the screen goes (``Screens.results``, ``Screens.leave``): play and start-up,
where the heap is fullest, do without its code (docs/memory.md). Each
screen draws itself on the text page as the others do; what a game
bettered comes from ``store.Stats.add_game`` (``App.bettered``).
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
from british_square.words import clock_text, deal_text

# The screens drawn here, among ``screens.SCREEN_NAMES``.
SCREEN_WON = const(6)
SCREEN_OVER = const(7)
SCREEN_STATS = const(10)
SCREEN_FINISH = const(11)


class Results:
    """Won, Game over, Finish and Statistics on ``screens`` (a
    ``screens.Screens``), made when one of them opens."""

    def __init__(self, screens):
        self.screens = screens

    # ----------------------------------------------------------- statistics

    def stats(self, rules):
        """The statistics of a rule set, a table: what each row counts, its
        figure right-aligned beside it; left and right show the others."""
        screens = self.screens
        screens._open(SCREEN_STATS, self._stats)
        screens.choice = rules
        kept = screens.app.stats
        count = kept.get
        won = count(rules, WINS)
        seconds = count(rules, BEST_TIME)
        tenths = kept.average_home_tenths(rules)
        values = (
            screens.rules_name(rules),
            count(rules, PLAYED),
            "{} ({}%)".format(won, kept.percent_won(rules)),
            count(rules, HOME_BEST),
            "{}.{}".format(tenths // 10, tenths % 10),
            "{}, {}".format(count(rules, STREAK), count(rules, STREAK_BEST)),
            count(rules, FEWEST_MOVES) or "-",
            clock_text(seconds) if seconds else "-",
            "{}, {}".format(count(rules, PAR_REACHED), count(rules, HINTS)),
        )
        screens.words.show(screens.page, "stats", values)

    def _stats(self, action):
        screens = self.screens
        if action == LEFT or action == RIGHT:
            self.stats((screens.choice + (1 if action == RIGHT else 2)) % 3)
        elif action in (A, B, START):
            screens.menu("stats")

    # ------------------------------------------------------------- the end

    def won(self):
        """The celebration (``celebration.Celebration``) under "You won!",
        until a key: the moves and the time, and the best it bettered."""
        screens = self.screens
        screens._open(SCREEN_WON, self._end)
        app, page, words = screens.app, screens.page, screens.words
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
            said = words.line("end_words", "streak").format(app.stats.get(app.game.rules, STREAK))
        elif 0 < found < 104:
            said = words.line("end_words", "par_beaten").format(found)
        else:
            said = words.line("end_words", "won_all")
        words.show(page, "won", (app.game.history_count, clock_text(app.seconds), said))
        screens.celebration.start(app.now)

    def over(self):
        """The game is over where it stands, and why (no card can go home,
        or the player ended it): the cards home against par, the moves, the
        time and the hints, a new best, and A for a new deal."""
        screens = self.screens
        screens._open(SCREEN_OVER, self._end)
        app, words = screens.app, screens.words
        game = app.game
        score = game.score()
        found = par(game.rules, game.deal_number)
        if not found:
            said = "not surveyed"
        elif score >= found:
            said = "{}, reached!".format(found)
        else:
            said = "{} cards home".format(found)
        why = words.line("end_words", "ended" if app.outcome == OUTCOME_ENDED else "stuck")
        # a stuck game is counted when it is left; its best is known now
        best = app.bettered & (1 << HOME_BEST) or score > app.stats.get(game.rules, HOME_BEST)
        best = words.line("end_words", "home").format(score) if best else ""
        values = (
            why,
            score,
            said,
            game.history_count,
            clock_text(app.seconds),
            app.hints_used,
            best,
            deal_text(game),
            screens.rules_name(game.rules),
        )
        words.show(screens.page, "over", values)

    def finish(self):
        """Every card left can go home, whatever the order: A plays it out
        (``Table.finish``), B leaves it to the player."""
        screens = self.screens
        screens._open(SCREEN_FINISH, self._finish)
        screens.page.footer.color = TEXT_WHITE
        screens.words.show(screens.page, "finish", (screens.app.game.cards_left(),))

    def _finish(self, action):
        screens = self.screens
        if action == A:
            screens.app.finish()
        elif action == B or action == START:
            screens.app.show_play()

    def _end(self, action):
        screens = self.screens
        app = screens.app
        if action == A:
            app.new_random_deal()  # the game is over: nothing to lose
        elif action == B:
            app.show_play()
        elif action == START:
            screens.menu()
