"""The game as the player drives it: modes, cursor, held card, menus.

Data flows one way: an action (from a board adapter) becomes an engine move,
the move names the piles it touched, the view redraws those piles, and the
loop sends one ``refresh()`` per change. The main loop allocates nothing per
frame: the legal-move buffer is made once and the view keeps shadow copies
so that unchanged tiles are never touched.
"""

import gc

from british_square.cards import NO_CARD, const
from british_square.controls import NONE, QUIT, RIGHT, SELECT, START, A, B, ticks_add, ticks_diff
from british_square.deal import MAX_DEAL, MIN_DEAL
from british_square.engine import (
    BRITISH,
    DEAD,
    FOUNDATION,
    LOST,
    MAX_MOVES,
    STOCK,
    WASTE,
    Game,
)
from british_square.layout import NO_STOP, Layout
from british_square.sheet import REFUSED, SELECTED, TARGET
from british_square.view import NORMAL, View

FLASH_MS = const(180)  # a refused drop shows red this long
# Once the stock is out, the dead test looks at up to DEAD_BUDGET positions
# after each move, PROBE_STEP of them per turn of the main loop, on a copy
# of the game: a press never waits for it (tests/bench: about 1 000 loop
# to 2 000 loop units a position with 16 piles: a turn, under 15 ms on a SAMD51).
DEAD_BUDGET = const(300)
PROBE_STEP = const(2)

_SCREENS = ("british_square.screens", "british_square.texts")


def random_deal():
    """A deal number picked at random."""
    import random

    return random.randint(MIN_DEAL, MAX_DEAL)


class App:
    """One player session on one display, driven by actions."""

    def __init__(self, display, actions, ticks_ms, game=None, autoplay=False):
        self.view = View(display)
        self.actions = actions
        self.ticks_ms = ticks_ms
        self.now = ticks_ms()
        self.moves = bytearray(2 * MAX_MOVES)
        self.autoplay = autoplay
        self.layout = None
        self.flash_stop = NO_STOP
        self.flash_look = NORMAL
        self.flash_until = 0
        self.screens = None  # the other screens, while one shows (see screens.py)
        self.dead_probe = None  # the dead test under way (search.dead_search)
        self.start_game(game or Game.new_deal(random_deal(), BRITISH))
        self.rules = self.game.rules
        self.other_screens().title()

    # ----------------------------------------------------------------- loop

    def run(self, idle=None):
        """Handle actions until the adapter says it is finished (or the window closes)."""
        view = self.view
        actions = self.actions
        view.refresh()  # the first screen, before any key
        while True:
            now = self.ticks_ms()
            self.now = now
            action = actions.poll(now)
            if action == QUIT:
                break
            if action != NONE:
                self.handle(action)
            elif actions.finished:
                break
            self.tick(now)
            if view.dirty:
                view.refresh()
            if idle:
                idle()

    def handle(self, action):
        """Do what ``action`` means on the screen on show."""
        if self.flash_stop != NO_STOP:
            self.end_flash()
        if self.screens is not None:
            self.screens.handle(action)
        else:
            self.play_action(action)

    def tick(self, now):
        """Timed changes: the end of a flash, a frame of the celebration."""
        if self.flash_stop != NO_STOP and ticks_diff(now, self.flash_until) >= 0:
            self.end_flash()
        if self.screens is not None:
            self.screens.tick(now)
        elif self.dead_probe is not None:
            self.probe_dead()

    # ---------------------------------------------------------------- games

    def start_game(self, game):
        """Make ``game`` the one played, from its start (a new deal, a restart, other rules)."""
        self.game = game
        self.dead_probe = None
        self.held = NO_STOP
        self.cursor = 0
        self.end_shown = False
        if self.layout is None or self.layout.columns != game.columns:
            self.layout = Layout(game.columns)
            self.view.drop_play()
        if self.view.play is not None:
            self.view.clear_looks()
            self.view.show_game(game)
            self.view.show_cursor(self.cursor)

    def new_deal(self, number, rules):
        """Deal ``number`` (kept within the deal numbers) under ``rules`` and show it."""
        self.rules = rules
        self.start_game(Game.new_deal(min(max(number, MIN_DEAL), MAX_DEAL), rules))
        self.show_play()

    def other_screens(self):
        """The screens besides the cards, loaded to show one of them."""
        if self.screens is None:
            from british_square.screens import Screens

            self.screens = Screens(self)
        return self.screens

    def show_play(self):
        """Back to the cards: the other screens' code goes, the scene is made again."""
        if self.screens is not None:
            self.screens = None
            self.view.show_screen(None)
            _unload(_SCREENS)
        view = self.view
        if view.play is None:
            gc.collect()
            view.build_play(self.layout)
            view.show_game(self.game)
            view.show_cursor(self.cursor)
        view.show_play()
        self.check_end()

    # ----------------------------------------------------------------- play

    def play_action(self, action):
        if action <= RIGHT:
            self.cursor = self.layout.neighbour(self.cursor, action)
            self.view.show_cursor(self.cursor)
        elif action == A:
            self.press_a()
        elif action == B:
            self.press_b()
        elif action == SELECT:
            self.cancel()
            self.undo()
        elif action == START:
            self.cancel()
            self.other_screens().menu()

    def press_a(self):
        """Pick up, put down, deal, or fill a space from the stock."""
        game, layout, stop = self.game, self.layout, self.cursor
        pile = layout.stop_pile(stop)
        if self.held != NO_STOP:
            if stop == self.held:
                self.cancel()
                return
            source = layout.stop_pile(self.held)
            if pile == FOUNDATION and game.top(source) // 13 != stop - layout.foundation_stop:
                self.refuse(stop)  # the held card's own foundation only, as highlighted
                return
            self.try_move(source << 8 | pile, stop)
        elif pile == STOCK:
            self.try_move(STOCK << 8 | WASTE, stop)
        elif pile == FOUNDATION:
            self.refuse(stop)
        elif pile < STOCK and not game.height[pile]:
            self.try_move(STOCK << 8 | pile, stop)
        else:
            self.pick_up(stop)

    def press_b(self):
        """Cancel a held card, or send the card under the cursor home."""
        if self.held != NO_STOP:
            self.cancel()
            return
        pile = self.layout.stop_pile(self.cursor)
        if pile == STOCK or pile == FOUNDATION:
            self.refuse(self.cursor)
        else:
            self.try_move(pile << 8 | FOUNDATION, self.cursor)

    def pick_up(self, stop):
        """Hold the playable card of ``stop`` and light up where it may go."""
        game, layout, view = self.game, self.layout, self.view
        source = layout.stop_pile(stop)
        card = game.top(source)
        if card == NO_CARD:
            self.refuse(stop)
            return
        buffer = self.moves
        count = game.legal_moves(buffer)
        found = False
        for i in range(count):
            if buffer[2 * i] == source:
                view.set_look(layout.pile_stop(buffer[2 * i + 1], card // 13), TARGET)
                found = True
        if not found:
            self.refuse(stop)
            return
        self.held = stop
        view.set_look(stop, SELECTED)

    def cancel(self):
        """Put the held card back (it never left its pile)."""
        if self.held != NO_STOP:
            self.held = NO_STOP
            self.view.clear_looks()

    def try_move(self, m, stop):
        if self.game.is_legal(m):
            self.play(m)
        else:
            self.refuse(stop)

    def play(self, m):
        """Play the legal move ``m`` and show its effects."""
        self.cancel()
        self.game.push(m)
        self.changed(m)
        if self.autoplay:
            self.auto_play()
        self.check_end()

    def changed(self, m):
        """Redraw the two piles a move (or its undo) touched, the numbers and the cursor."""
        view, game = self.view, self.game
        self.dead_probe = None  # it was about the position before
        view.show_pile(game, m >> 8)
        view.show_pile(game, m & 0xFF)
        view.show_numbers(game)
        view.show_cursor(self.cursor)

    def undo(self):
        m = self.game.undo()
        if m is None:
            self.refuse(self.cursor)
            return
        self.end_shown = False
        self.changed(m)

    def redo(self):
        m = self.game.redo()
        if m is not None:
            self.changed(m)
            self.check_end()

    def auto_play(self):
        """Send safe cards home: only aces that start or finish a foundation.

        Nothing can ever be built on an ace that a foundation could not take
        as well, so moving one home never costs a move; other cards might
        still be wanted in the tableau, so they are left to the player.
        """
        game = self.game
        moved = True
        while moved:
            moved = False
            for source in range(game.columns + 1):
                if source == game.columns:
                    source = WASTE
                card = game.top(source)
                if card != NO_CARD and card % 13 == 0 and game.foundations[card // 13] in (0, 25):
                    m = source << 8 | FOUNDATION
                    game.push(m)
                    self.changed(m)
                    moved = True

    def check_end(self):
        """Won, or no more moves: the engine's LOST now, or its dead test once the
        stock is out, over the next turns of the loop (``probe_dead``). Each is
        announced once; an undo lets it be found again."""
        game = self.game
        if self.end_shown:
            return
        if game.is_won():
            self.end_shown = True
            self.other_screens().won()
        elif not game.stock_count:
            if game.status(self.moves) == LOST:
                self.end_shown = True
                self.other_screens().no_moves()
            elif self.dead_probe is None:
                from british_square.search import dead_search  # loaded once the stock is out

                # the search only reads its buffer between steps: it may share ours
                self.dead_probe = dead_search(game.copy(), DEAD_BUDGET, self.moves, PROBE_STEP)

    def probe_dead(self):
        """One step of the dead test; "no more moves" when it proves the game dead."""
        verdict = next(self.dead_probe)
        if verdict is None:
            return
        self.dead_probe = None
        if verdict == DEAD and not self.end_shown:
            self.end_shown = True
            self.other_screens().no_moves()

    # -------------------------------------------------------------- flashes

    def refuse(self, stop):
        """Flash ``stop`` red for a moment: that did nothing."""
        view = self.view
        self.flash_stop = stop
        self.flash_look = view.looks[stop]
        self.flash_until = ticks_add(self.now, FLASH_MS)
        view.set_look(stop, REFUSED)

    def end_flash(self):
        self.view.set_look(self.flash_stop, self.flash_look)
        self.flash_stop = NO_STOP


def _unload(names):
    """Forget modules so that their code leaves the heap (imported again when needed)."""
    import sys

    package = sys.modules.get("british_square")
    for name in names:
        if name in sys.modules:
            del sys.modules[name]
            short = name.rpartition(".")[2]
            if package is not None and hasattr(package, short):
                delattr(package, short)
