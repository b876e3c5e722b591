"""Key scripts that play chosen moves, for tests, screenshots and tools.

Test support: never on a board, never loaded by the game. ``ScriptWriter``
keeps its own copy of the game and of the cursor, and writes the presses a
player would make: walk the cursor to the card, A, walk to the target, A (B
for a card going home, A on the stock to deal, A on an empty column to fill
it from the stock), and B where the game offers Finish (``finish_certain``):
the script plays its own moves to the end.
"""

import sys
from pathlib import Path

from words_text import body

from british_square.desktop.games import copy_game, legal_moves
from british_square.engine import Game, IllegalMoveError
from british_square.layout import Layout
from british_square.piles import FOUNDATION, STOCK, WASTE, move, move_source, move_target

HW = Path(__file__).resolve().parents[1] / "hw"  # not a package: on the path
if str(HW) not in sys.path:
    sys.path.insert(0, str(HW))
from keyscript import ACTION_NAMES  # noqa: E402


def route(layout, start, goal):
    """The shortest list of direction actions taking the cursor from ``start`` to ``goal``."""
    previous = {start: None}
    frontier = [start]
    while frontier and goal not in previous:
        following = []
        for stop in frontier:
            for direction in range(4):
                other = layout.neighbour(stop, direction)
                if other not in previous:
                    previous[other] = (stop, direction)
                    following.append(other)
        frontier = following
    if goal not in previous:
        raise ValueError("no way from stop {} to stop {}".format(start, goal))
    steps = []
    stop = goal
    while previous[stop] is not None:
        stop, direction = previous[stop]
        steps.append(direction)
    steps.reverse()
    return steps


class ScriptWriter:
    """Builds a key script while playing the same moves on its own game."""

    def __init__(self, game, title=True):
        self.words = ["a"] if title else []  # A leaves the title screen
        self.snapshots = {}  # shot name: the game as it was then
        self.start(game)

    def start(self, game):
        """A new game is on the screen: the cursor is back on the first column."""
        self.game = game
        self.layout = Layout(game.columns)
        self.cursor = 0
        self.finish_offered = False  # as the app: once a game

    def press(self, *actions):
        for action in actions:
            self.words.append(ACTION_NAMES[action] if isinstance(action, int) else action)

    def go(self, stop):
        for direction in route(self.layout, self.cursor, stop):
            self.press(direction)
        self.cursor = stop

    def move(self, m):
        """Press the keys that play the legal move ``m``."""
        game, layout = self.game, self.layout
        if not game.is_legal(m):
            raise IllegalMoveError(m, game.columns)
        source, target = move_source(m), move_target(m)
        if source == STOCK:
            self.go(layout.stock_stop if target == WASTE else target)
            self.press("a")
        elif target == FOUNDATION:
            self.go(layout.pile_stop(source))
            self.press("b")
        else:
            self.go(layout.pile_stop(source))
            self.press("a")
            self.go(layout.pile_stop(target))
            self.press("a")
        game.push(m)
        if not (self.finish_offered or game.is_won()) and finish_certain(game):
            self.finish_offered = True
            self.press("b")  # Finish? B: play them myself

    def undo(self):
        self.press("select")
        self.game.undo()

    def shot(self, name):
        self.words.append("shot:" + name)
        self.snapshots[name] = copy_game(self.game)

    def play_some(self, count):
        """Play ``count`` moves a simple player would choose (see ``simple_move``)."""
        last = None
        for _ in range(count):
            m = simple_move(self.game, last)
            if m is None:
                return
            self.move(m)
            last = m

    def menu(self, item):
        """Open the menu and choose ``item`` (its line in words.txt's "menu")."""
        row = [line.split("{")[0] for line in body("menu")].index(item)
        self.press("start", *(["down"] * row), "a")

    def abandon(self):
        """Answer "Abandon this game?" (asked when the game has moves and is not over)."""
        if self.game.history_end and not self.game.is_won():
            self.press("a")

    def deal(self, number, rules=None):
        """Menu, Deal number, type ``number``, A: the new deal is on the screen."""
        current = self.game.deal_number or 1
        self.menu("Deal number")
        digit = 4
        for position in range(5):
            power = 10 ** (4 - position)
            want = number // power % 10
            have = current // power % 10
            while digit > position:
                self.press("left")
                digit -= 1
            while digit < position:
                self.press("right")
                digit += 1
            self.press(*(["up"] * ((want - have) % 10)))
        self.press("a")
        self.abandon()
        self.start(Game.new_deal(number, self.game.rules if rules is None else rules))

    def rules(self, rules):
        """Menu, Rules, step to ``rules``, A: the same deal under those rules."""
        self.menu("Rules: ")
        self.press(*(["right"] * ((rules - self.game.rules) % 3)))
        self.press("a")
        self.abandon()
        self.start(Game.new_deal(self.game.deal_number, rules))

    def text(self):
        return " ".join(self.words)


def finish_certain(game):
    """Does the game offer Finish after a move here (``Table.finish_certain``):
    the stock out, and sending any playable card home, again and again,
    brings every card home?"""
    if game.stock_count:
        return False
    trial = copy_game(game)
    while True:
        home = [m for m in legal_moves(trial) if move_target(m) == FOUNDATION]
        if not home:
            return trial.is_won()
        trial.push(home[0])


def simple_move(game, last=None):
    """A card home if one can go, else a tableau move that does not just undo
    ``last``, else a deal; ``None`` when nothing is left."""
    moves = legal_moves(game)
    if not moves:
        return None
    back = None if last is None else move(move_target(last), move_source(last))
    for m in moves:
        if move_target(m) == FOUNDATION:
            return m
    for m in moves:
        if move_source(m) != STOCK and m != back:
            return m
    return moves[-1]
