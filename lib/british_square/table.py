"""The cards on show and what a press does to them: the cursor, the held
card, moves, undo and redo, the hint, the dead test and the flashes.

``Table`` is the part of ``app.App`` that plays on the cards; the app holds
the state both read (the game, the layout, the scene, the cursor, the held
card, the outcome) and the rest of the session (the loop, the screens, the
settings and the saves).
"""

from british_square.cards import NO_CARD, const
from british_square.controls import RIGHT, SELECT, START, A, B, ticks_add, ticks_diff
from british_square.engine import STATUS_LOST, IllegalMoveError
from british_square.hint import NO_HINT
from british_square.layout import NO_STOP
from british_square.piles import FOUNDATION, STOCK, WASTE, move, move_source, move_target
from british_square.scene import PANEL_STUCK
from british_square.search import DEAD, safe_move
from british_square.sheet import REFUSED, SELECTED, TARGET
from british_square.sounds import BUZZ, CHIME, CLICK, FANFARE
from british_square.store import AUTOPLAY_SAFE

_FLASH_MS = const(180)  # a refused drop shows red this long
_FINISH_MS = const(150)  # Finish sends a card home this often: the player can follow it
# The dead test's positions per turn of the main loop (tests/bench: about
# 1 000 to 2 000 loop units a position with 16 piles: a turn, under 15 ms
# on a SAMD51).
PROBE_STEP = const(2)

# Where a game stands, as the player sees it (``App.outcome``).
OUTCOME_PLAYING = const(0)
OUTCOME_WON = const(1)
OUTCOME_STUCK = const(2)  # no move can bring a card home (the player may still move, or undo)
OUTCOME_ENDED = const(3)  # the player chose End game: scored as it stood, no more moves


class Table:
    """What a press does on the cards (a base of ``app.App``)."""

    def play_action(self, action):
        if action <= RIGHT:
            self.cursor = self.layout.neighbour(self.cursor, action)
            self.scene.show_cursor(self.cursor)
        elif action == START:
            self.screens.menu()
        elif self.outcome == OUTCOME_ENDED or self.outcome == OUTCOME_WON:
            self.refuse(self.cursor)  # the game is over: look, but nothing moves
        elif action == A:
            self.press_a()
        elif action == B:
            self.press_b()
        elif action == SELECT:
            self.cancel()
            self.undo()

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
            self.try_move(move(source, pile), stop)
        elif pile == STOCK:
            self.try_move(move(STOCK, WASTE), stop)
        elif pile == FOUNDATION:
            self.refuse(stop)
        elif pile < STOCK and not game.column_height(pile):
            self.try_move(move(STOCK, pile), stop)
        else:
            self.pick_up(stop)

    def press_b(self):
        """Cancel a held card (or a hint's lit stock), or send the card under the cursor home."""
        if self.held != NO_STOP or self.lit:
            self.cancel()
            return
        pile = self.layout.stop_pile(self.cursor)
        if pile == STOCK or pile == FOUNDATION:
            self.refuse(self.cursor)
        else:
            self.try_move(move(pile, FOUNDATION), self.cursor)

    def pick_up(self, stop):
        """Hold the playable card of ``stop`` and light up where it may go."""
        game, layout, scene = self.game, self.layout, self.scene
        source = layout.stop_pile(stop)
        card = game.top(source)
        if card == NO_CARD:
            self.refuse(stop)
            return
        buffer = self.move_buffer
        count = game.legal_moves(buffer)
        found = False
        for i in range(count):
            if buffer[2 * i] == source:
                scene.set_look(layout.pile_stop(buffer[2 * i + 1], card // 13), TARGET)
                found = True
        if not found:
            self.refuse(stop)
            return
        self.held = stop
        scene.set_look(stop, SELECTED)

    def hint(self):
        """A hint: back on the cards, the card the search suggests moving is
        picked up and the place it should go is lit with the cursor on it, so
        A plays it and B puts it back; for a deal the stock is lit, under the
        cursor. False, and nothing changes, when the search found nothing useful."""
        game, layout = self.game, self.layout
        if self.outcome == OUTCOME_ENDED or self.outcome == OUTCOME_WON:
            return False
        self.probing = False  # the hint borrows the dead test's table
        m = self.dead_test.suggest(game)
        self.check_end()  # and the dead test starts again where it was needed
        if m == NO_HINT:
            return False
        self.hints_used += 1
        self.show_play()
        self.cancel()
        source, target = move_source(m), move_target(m)
        if source == STOCK:  # a deal: the stock lit, A on it deals
            self.cursor = layout.stock_stop
            self.lit = True
        else:
            suit = game.top(source) // 13
            self.held = layout.pile_stop(source, suit)
            self.cursor = layout.pile_stop(target, suit)
            self.scene.set_look(self.held, SELECTED)
        self.scene.set_look(self.cursor, TARGET)
        self.scene.show_cursor(self.cursor)
        return True

    def cancel(self):
        """Put the held card back (it never left its pile), and a hint's lit stock out."""
        if self.held != NO_STOP or self.lit:
            self.held = NO_STOP
            self.lit = False
            self.scene.clear_looks()

    def try_move(self, m, stop):
        """Play ``m`` if the engine allows it, else flash ``stop``: that did nothing."""
        try:
            self.play(m)
        except IllegalMoveError:
            self.refuse(stop)

    def play(self, m):
        """Play ``m`` (``IllegalMoveError`` if it is not legal here) and show its effects."""
        self.game.play(m)
        self.beep(CHIME if move_target(m) == FOUNDATION else CLICK)
        self.cancel()
        self.changed(m)
        if self.settings.autoplay:
            self.auto_play()
        self.check_end(True)

    def autoplay_now(self):
        """Auto-play was switched on: what it takes goes home at once, as after a move."""
        if self.settings.autoplay and self.outcome == OUTCOME_PLAYING:
            count = self.game.history_count
            self.auto_play()
            if self.game.history_count != count:
                self.check_end(True)

    def changed(self, m):
        """Redraw the two piles a move (or its undo) touched, the numbers and the cursor."""
        scene, game = self.scene, self.game
        self.probing = False  # it was about the position before
        self.note_change()
        scene.show_pile(game, move_source(m))
        scene.show_pile(game, move_target(m))
        scene.show_numbers(game, self.panel())
        scene.show_cursor(self.cursor)

    def undo(self):
        m = self.game.undo()
        if m is None:
            self.refuse(self.cursor)
            return
        if self.outcome == OUTCOME_STUCK:
            self.outcome = OUTCOME_PLAYING  # perhaps no longer: looked at again below
        self.beep(CLICK)
        self.changed(m)
        self.check_end()

    def redo(self):
        m = self.game.redo()
        if m is not None:
            self.beep(CLICK)
            self.changed(m)
            self.check_end()

    def home_move(self, game):
        """A move sending a playable card of ``game`` home (a column's first,
        then the waste's), or ``NO_HINT`` when none can go."""
        for source in range(game.columns + 1):
            if source == game.columns:
                source = WASTE
            m = move(source, FOUNDATION)
            if game.is_legal(m):
                return m
        return NO_HINT

    def finish_certain(self):
        """Is the rest certain: the stock out, and every card left able to go
        home, one playable card after another? Then no choice is left that
        can go wrong. Tried on the dead test's copy of the game (the dead
        test starts again after it); at most 104 moves, none allocating."""
        game = self.game
        if game.stock_count:
            return False  # a deal is a choice
        test = self.dead_test
        test.start(game)
        probe = test.game
        m = self.home_move(probe)
        while m != NO_HINT:
            probe.apply(m)
            m = self.home_move(probe)
        return probe.is_won()

    def finish(self):
        """Play the rest out: a card home every ``_FINISH_MS`` (``finish_step``),
        until the game is won or a press stops it."""
        self.show_play()
        self.finishing = True
        self.finish_due = self.now

    def finish_step(self, now):
        """The next card home, when it is due."""
        if ticks_diff(now, self.finish_due) < 0:
            return
        self.finish_due = ticks_add(now, _FINISH_MS)
        m = self.home_move(self.game)
        if m == NO_HINT:  # the player undid or moved before it began: nothing to send
            self.finishing = False
            return
        self.play(m)
        if self.outcome != OUTCOME_PLAYING:
            self.finishing = False

    def auto_play(self):
        """Send home what auto-play takes (``store.AUTOPLAY_*``), as long as
        something goes: aces that start or finish a foundation, and with safe
        cards every card no other card can still need (``search.safe_move``,
        the solver's rule, proved there). Neither choice can cost a card home:
        nothing can be built on an ace that its foundation could not take as
        well. Other cards might still be wanted in the tableau, and stay."""
        game = self.game
        safe = self.settings.autoplay == AUTOPLAY_SAFE
        buffer = self.move_buffer
        moved = True
        while moved:
            moved = False
            for source in range(game.columns + 1):
                if source == game.columns:
                    source = WASTE
                card = game.top(source)
                if card != NO_CARD and card % 13 == 0 and game.foundations[card // 13] in (0, 25):
                    self.auto_move(move(source, FOUNDATION))
                    moved = True
            if safe and not moved:
                m = safe_move(game, buffer, game.legal_moves(buffer))
                if m >= 0:
                    self.auto_move(m)
                    moved = True

    def auto_move(self, m):
        """Play auto-play's move ``m`` (legal, found from the position) and show it."""
        self.game.push(m)
        self.changed(m)

    def check_end(self, moved=False):
        """Won, or no more moves: the engine's LOST now, or its dead test once the
        stock is out, over the next turns of the loop (``probe_dead``). After
        a move (``moved``) that leaves the rest certain, Finish is offered."""
        game = self.game
        if self.outcome == OUTCOME_ENDED or self.outcome == OUTCOME_STUCK:
            return  # a dead position stays dead whatever is moved: only undo leaves it
        if game.is_won():
            if self.outcome != OUTCOME_WON:
                self.outcome = OUTCOME_WON
                self.finishing = False
                self.count_game()
                self.rest()
                self.beep(FANFARE)
                self.screens.won()
            return
        self.outcome = OUTCOME_PLAYING
        if moved and not (self.finishing or self.finish_offered) and self.finish_certain():
            self.finish_offered = True  # once a game: B says the player plays it out
            self.probing = False
            self.rest()
            self.screens.finish()
            return
        if not game.stock_count:
            if game.status(self.move_buffer) == STATUS_LOST:
                self.set_stuck()
            else:
                self.dead_test.start(game)
                self.probing = True

    def probe_dead(self):
        """One step of the dead test; "no more moves" when it proves the game dead."""
        verdict = self.dead_test.step(PROBE_STEP)
        if verdict is None:
            return
        self.probing = False
        if verdict == DEAD:
            self.set_stuck()

    def set_stuck(self):
        """No card can go home any more: the panel says so, and when it came
        of a move on the cards, the game is counted and Game over says why
        (B: back to the cards, where the player may still move them or undo)."""
        self.outcome = OUTCOME_STUCK
        self.scene.show_numbers(self.game, PANEL_STUCK)
        if not self.on_page:
            self.count_game()  # what Game over says is in the statistics now
            self.rest()
            self.screens.over()

    # -------------------------------------------------------------- flashes

    def refuse(self, stop):
        """Flash ``stop`` red for a moment: that did nothing."""
        self.end_flash()
        self.beep(BUZZ)
        scene = self.scene
        self.flash_stop = stop
        self.flash_look = scene.looks[stop]
        self.flash_until = ticks_add(self.now, _FLASH_MS)
        scene.set_look(stop, REFUSED)

    def end_flash(self):
        if self.flash_stop != NO_STOP:
            self.scene.set_look(self.flash_stop, self.flash_look)
            self.flash_stop = NO_STOP
