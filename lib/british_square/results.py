"""A game's results on the text page: Won, Game over, Finish (the rest is
certain) and the statistics kept.

``Results`` opens each of these screens on the page of ``screens.Screens``
and takes its keys, from the game it is given, the game's own figures (a
``stats.Scorecard``: its time, its hints, what it bettered) and the
statistics kept; it never looks at the table.
"""

from british_square.controls import LEFT, RIGHT, START, A, B
from british_square.layout import SCREEN_W, WON_BIG_Y
from british_square.par import par
from british_square.piles import RULE_NAMES, RULE_SETS
from british_square.screen_ids import SCREEN_FINISH, SCREEN_OVER, SCREEN_STATS, SCREEN_WON
from british_square.sheet import TEXT_WHITE
from british_square.stats import (
    BEST_TIME,
    FEWEST_MOVES,
    HINTS,
    HOME_BEST,
    HOME_TOTAL,
    PAR_REACHED,
    PLAYED,
    STREAK,
    STREAK_BEST,
    WINS,
)


class Results:
    """Won, Game over, Finish and the statistics, for ``screens`` (a
    ``screens.Screens``: its page and words, ``open`` and ``menu``, its
    celebration) and its session, ``screens.app``: of which it reads the
    statistics (``stats``), the clock (``now``) and the game's
    ``scorecard``, and asks for a new deal, the cards, and Finish."""

    def __init__(self, screens):
        self.screens = screens
        self.scorecard = screens.app.scorecard  # the game in play's, kept for the session
        self.rules = 0  # the statistics: the rule set on show

    # ----------------------------------------------------------- statistics

    def statistics(self, rules):
        """The statistics of a rule set, a table: what each row counts, its
        figure right-aligned beside it; left and right show the others."""
        self.screens.open(SCREEN_STATS, self._statistics)
        self.rules = rules
        words = self.screens.words
        kept = self.screens.app.stats
        count = kept.get
        played = count(rules, PLAYED)
        seconds = count(rules, BEST_TIME)
        each = played or 1  # (the figures are 0 before the first game)
        won = count(rules, WINS)
        tenths = count(rules, HOME_TOTAL) * 10 // each  # cards home a game: 163 is 16.3
        values = (  # the games won and the games at par, each out of those played
            rules_name(words, rules),  # {rules}
            b"%d of %d (%d%%)" % (won, played, won * 100 // each),  # {won}
            count(rules, HOME_BEST),  # {home_best}
            b"%d.%d" % (tenths // 10, tenths % 10),  # {home_average}
            b"%d, %d" % (count(rules, STREAK), count(rules, STREAK_BEST)),  # {streaks}
            count(rules, FEWEST_MOVES) or b"-",  # {fewest_moves}
            clock_text(seconds) if seconds else b"-",  # {fastest}
            b"%d of %d" % (count(rules, PAR_REACHED), played),  # {par_reached}
            count(rules, HINTS),  # {hints}
        )
        words.show(self.screens.page, "stats", values)

    def _statistics(self, action):
        if action == LEFT or action == RIGHT:
            self.statistics((self.rules + (1 if action == RIGHT else -1)) % RULE_SETS)
        elif action in (A, B, START):
            self.screens.menu("stats")

    # ------------------------------------------------------------- the end

    def won(self, game):
        """You won (``game``), and the celebration under it until a key: the
        moves and the time, and the best the game bettered."""
        screens = self.screens
        screens.open(SCREEN_WON, self._end)
        app, page, words, card = screens.app, screens.page, screens.words, self.scorecard
        kept, bettered = app.stats, card.bettered
        page.place_big(0, SCREEN_W // 2, WON_BIG_Y)
        page.footer.color = TEXT_WHITE
        found = par(game.rules, game.deal_number)
        if kept.get(game.rules, WINS) == 1 and bettered:
            said = words.line("end_words", "first")
        elif bettered & (1 << FEWEST_MOVES) and bettered & (1 << BEST_TIME):
            said = words.line("end_words", "moves_time")
        elif bettered & (1 << FEWEST_MOVES):
            said = words.line("end_words", "moves")
        elif bettered & (1 << BEST_TIME):
            said = words.line("end_words", "time")
        elif bettered & (1 << STREAK_BEST):
            said = words.line("end_words", "streak", (kept.get(game.rules, STREAK),))
        elif 0 < found < 104:
            said = words.line("end_words", "par_beaten", (found,))
        else:
            said = words.line("end_words", "won_all")
        values = (
            moves_text(game.history_count),  # {moves}
            clock_text(card.seconds),  # {time}
            said,  # {said}
        )
        words.show(page, "won", values)
        screens.celebration.start(app.now)

    def over(self, game, ended):
        """``game`` is over where it stands, and why (no card can go home,
        or the player ``ended`` it): the cards home against par, the moves,
        the time and the hints, a new best, and A for a new deal."""
        self.screens.open(SCREEN_OVER, self._end)
        words, card = self.screens.words, self.scorecard
        score = game.score()
        found = par(game.rules, game.deal_number)
        if not found:
            said = b"not surveyed"
        elif score >= found:
            said = b"%d, reached!" % found
        else:
            said = b"%d cards home" % found
        why = words.line("end_words", "ended" if ended else "stuck")
        best = card.bettered & (1 << HOME_BEST)  # counted as Game over shows
        best = words.line("end_words", "home", (score,)) if best else b""
        values = (
            why,  # {why}
            score,  # {home}
            said,  # {par}
            moves_text(game.history_count),  # {moves}
            clock_text(card.seconds),  # {time}
            card.hints,  # {hints}
            best,  # {best}
            deal_text(game),  # {deal}
            rules_name(words, game.rules),  # {rules}
        )
        words.show(self.screens.page, "over", values)

    def _end(self, action):
        app = self.screens.app
        if action == A:
            app.new_random_deal()  # the game is over: nothing to lose
        elif action == B:
            app.show_play()
        elif action == START:
            self.screens.menu()

    def offer_finish(self, game):
        """Every card left in ``game`` can go home, whatever the order: A
        plays it out (``App.finish``), B leaves it to the player."""
        self.screens.open(SCREEN_FINISH, self._finish)
        page = self.screens.page
        page.footer.color = TEXT_WHITE
        self.screens.words.show(page, "finish", (game.cards_left(),))  # {cards}

    def _finish(self, action):
        app = self.screens.app
        if action == A:  # back to the cards, to watch the rest go home
            app.finish()
        elif action == B or action == START:
            app.show_play()


# The words below are bytes, as the text page copies them (``words``).


def rules_name(words, rules):
    """The name of rule set ``rules`` as the player reads it."""
    return words.line("rule_names", RULE_NAMES[rules])


def clock_text(seconds):
    """``seconds`` as minutes and seconds: b"4:05", b"75:00"."""
    return b"%d:%02d" % (seconds // 60, seconds % 60)


def moves_text(count):
    """A count of moves as a screen says it: b"1 move", b"12 moves"."""
    return b"1 move" if count == 1 else b"%d moves" % count


def deal_text(game):
    """The deal's number as a screen says it."""
    return b"%d" % game.deal_number if game.deal_number else b"-"  # "-": set up from a position
