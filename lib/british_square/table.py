"""The cards on show and what a press does to them: the cursor, the held
card, moves, undo and redo, the hint, the dead test, Finish and the flashes.
``Table`` owns the game in play and its state on the cards; the rest of the
session is ``app.App``'s, which it asks for the little listed on the class.
"""

from british_square.cards import NO_CARD, const
from british_square.controls import RIGHT, SELECT, START, A, B, ticks_add, ticks_diff
from british_square.engine import STATUS_LOST, IllegalMoveError
from british_square.hint import NO_HINT, ships_line
from british_square.layout import NO_STOP, Layout
from british_square.piles import FOUNDATION, STOCK, WASTE, move, move_source, move_target
from british_square.scene import PANEL_ENDED, PANEL_NUMBERS, PANEL_STUCK
from british_square.search import DEAD, autoplay_move, home_move, plays_out
from british_square.sheet import NORMAL, REFUSED, SELECTED, TARGET
from british_square.sounds import BUZZ, CHIME, CLICK
from british_square.stats import AUTOPLAY_SAFE

_FLASH_MS = const(180)  # a refused drop shows red this long
_FINISH_MS = const(150)  # Finish sends a card home this often: the player can follow it
PROBE_STEP = const(1)  # the dead test's positions a turn (two: 27 ms on a SAMD51)
# The dead test's stages once the stock is out, a turn each (``probe_dead``):
# is the rest certain (then Finish is offered, the turn after), else the
# engine's verdict and the test's copy of the game, then its steps.
_PROBE_FINISH = const(0)
_PROBE_OFFER = const(1)
_PROBE_START = const(2)
_PROBE_STEPS = const(3)
# A game decided (won, or stuck): counted a turn after, shown the turn after that
_DECIDE_COUNT = const(1)
_DECIDE_SHOW = const(2)
HINT_STEP = const(1)  # the hint's search's positions a turn (two: 18 ms on a SAMD51)

# Where a game stands, as the player sees it (``Table.outcome``).
OUTCOME_PLAYING = const(0)
OUTCOME_WON = const(1)
OUTCOME_STUCK = const(2)  # no move can bring a card home (the player may still move, or undo)
OUTCOME_ENDED = const(3)  # the player chose End game: scored as it stood, no more moves


class Table:
    """The game in play on ``scene`` (a ``scene.PlayScene``), for ``session``;
    ``hinter`` (a ``hint.Hinter``) runs the dead test and the hint, and
    ``move_buffer`` is the moves' scratch (both made before the sprites).
    Of its session (an ``app.App``) the table asks only: ``now``, the
    turn's ticks; ``settings``, for auto-play; ``beep(effect)``;
    ``note_change()``, a move worth keeping; ``shows_end()``, would it show
    the game's end now; ``decided(show)``, the game won or found stuck
    (``outcome``): counted (``show`` false), then shown, a turn apart;
    ``offer_finish()``, the rest is certain; ``show_menu()``, Start."""

    def __init__(self, session, scene, hinter, move_buffer):
        self.session = session
        self.scene = scene
        self.hinter = hinter
        self.move_buffer = move_buffer
        self.game = None  # the game in play (``start``)
        self.layout = Layout(4)  # arranged for each game's columns
        self.cursor = 0  # the stop under the cursor
        self.held = NO_STOP  # the stop whose card is picked up
        self.lit = False  # a hint lit the stock: a deal (the next move puts it out)
        self.flash_stop = NO_STOP  # a refused stop shown red until ``flash_until``
        self.flash_look = NORMAL  # and the look it goes back to
        self.flash_until = 0
        self.outcome = OUTCOME_PLAYING
        self.probing = False  # the dead test is under way
        self.probe_stage = _PROBE_START  # at this stage (``probe_dead``)
        self.probe_waits = False  # from the turn after the press that began it
        self.hint_waits = False  # the hint's search looks from the turn after the press
        self.deciding = 0  # the game decided: what the session does next (``_DECIDE_*``)
        self.decide_waits = False  # from the turn after the one that decided it
        self.panel_due = False  # the panel's notice is still to write (``show_panel``)
        self.line_due = False  # the history changed: is it still a shipped line? (``tick``)
        self.finishing = False  # Finish is sending the cards home, one by one
        self.autoplaying = False  # sending cards home, one a turn (``autoplay_step``)
        self.autoplay_waits = False  # the move's own turn: it alone is shown
        self.hinting = False  # the hint's search looks, a few positions a turn
        self.finish_offered = False  # this game: Finish was offered (once)
        self.finish_due = 0

    def start(self, game):
        """Play ``game`` from where it stands, shown afresh: nothing held or lit."""
        self.game = game
        self.probing = self.autoplaying = self.hinting = False
        self.finishing = self.finish_offered = False
        self.held = NO_STOP
        self.lit = False
        self.flash_stop = NO_STOP
        self.cursor = 0
        layout, scene = self.layout, self.scene
        if layout is not scene.layout or layout.columns != game.columns:
            layout.arrange(game.columns)
            scene.set_layout(layout)
        else:
            scene.clear_looks()
        self.outcome = OUTCOME_PLAYING
        self.check_end()
        scene.show_winnable(False)  # until the line's check (``tick``) has looked
        self.line_due = ships_line(game)
        scene.show_game(game, self.panel())
        scene.show_cursor(self.cursor)

    def drop_game(self):
        """Let the game and the dead test's copy go (never two on the heap together)."""
        self.game = self.hinter.game = None
        self.probing = False

    def end(self):
        """End the game where it stands (End game): its score is the cards home now."""
        self.outcome = OUTCOME_ENDED
        self.probing = self.autoplaying = False
        self.panel_due = True  # Game over shows first: the panel waits (``show_panel``)

    def show_panel(self):
        """The panel's notice, written while the cards are hidden (a turn of its
        own, 11 ms on a SAMD51, after Game over shows) or as they come back."""
        self.panel_due = False
        self.scene.show_numbers(self.game, self.panel())

    def in_progress(self):
        """Would leaving this game throw away moves the player made? (asked before
        a new deal, a restart or other rules)."""
        return self.game.history_end > 0 and self.outcome in (OUTCOME_PLAYING, OUTCOME_STUCK)

    def panel(self):
        """What the panel says: its numbers, or a notice instead (``scene.PANEL_*``)."""
        if self.outcome == OUTCOME_STUCK:
            return PANEL_STUCK
        return PANEL_ENDED if self.outcome == OUTCOME_ENDED else PANEL_NUMBERS

    def resting(self):
        """Nothing timed is under way on the cards (a flash, the dead test,
        Finish, auto-play)."""
        return self.flash_stop == NO_STOP and not (
            self.probing or self.finishing or self.autoplaying or self.hinting or self.deciding
        )

    def tick(self, now, pressed=False):
        """The end of a flash, a card home by auto-play, a step of the dead
        test or of Finish, when due; or, after a move, the line's check in a
        turn of its own (not a press's, ``pressed``, nor while auto-play or
        the hint's search goes on, or the game's end is told; a step of the
        dead test or of Finish waits a turn for it): True when it ran."""
        if self.line_due and not (pressed or self.autoplaying or self.hinting or self.deciding):
            # does the game still follow its deal's shipped winning line? The
            # panel's numbers are green while it does: it can still be won
            self.line_due = False
            self.scene.show_winnable(self.hinter.line_next(self.game) >= 0)
            return True
        if self.flash_stop != NO_STOP and ticks_diff(now, self.flash_until) >= 0:
            self.end_flash()
        if self.autoplaying:
            if self.autoplay_waits:
                self.autoplay_waits = False
            else:
                self.autoplay_step()
        if self.hinting and self.hint_waits:
            self.hint_waits = False  # the press's turn shows the cards alone
        elif self.hinting:
            found = self.hinter.step_hint(HINT_STEP)
            if found is not None:
                self.show_hint(found)
        if self.probing:
            if self.probe_waits:
                self.probe_waits = False
            else:
                self.probe_dead()
        if self.deciding:
            self.decide_step()
        if self.finishing:
            self.finish_step(now)
        return False

    def act(self, action):
        """Do what the button ``action`` means on the cards (Start: the menu)."""
        self.end_flash()
        if action == START:
            self.session.show_menu()
            return
        self.stop_hint()
        if action <= RIGHT:
            self.cursor = self.layout.neighbour(self.cursor, action)
            self.scene.show_cursor(self.cursor)
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
        """Ask for a hint: False, and nothing changes, when there is none (no
        legal move, or the game is over); else True, and the hint shows at once,
        or once its search has looked, a few positions a turn (``tick``)."""
        if self.outcome == OUTCOME_ENDED or self.outcome == OUTCOME_WON:
            return False
        self.probing = False  # the hint borrows the dead test's table
        found = self.hinter.begin(self.game)
        if found == NO_HINT:
            self.check_end()  # and the dead test starts again where it was needed
            return False
        self.cancel()
        if found is None:
            self.hinting = self.hint_waits = True
        else:
            self.show_hint(found)
        return True

    def stop_hint(self):
        """A press, or a change of the game, while the hint's search looks: it stops."""
        if self.hinting:
            self.hinting = False
            self.check_end()

    def show_hint(self, m):
        """The hint ``m``: its card picked up and its place lit under the cursor
        (A plays it, B puts it back); for a deal the stock lit, for a fill the space."""
        game, layout = self.game, self.layout
        self.hinting = False
        self.check_end()  # the dead test starts again where it was needed
        source, target = move_source(m), move_target(m)
        if source == STOCK:
            self.cursor = layout.stock_stop if target == WASTE else layout.pile_stop(target, 0)
            self.lit = True
        else:
            suit = game.top(source) // 13
            self.held = layout.pile_stop(source, suit)
            self.cursor = layout.pile_stop(target, suit)
            self.scene.set_look(self.held, SELECTED)
        self.scene.set_look(self.cursor, TARGET)
        self.scene.show_cursor(self.cursor)

    def cancel(self):
        """Put the held card back (it never left its pile), and a hint's lit stock out."""
        if self.held != NO_STOP or self.lit:
            self.held = NO_STOP
            self.lit = False
            self.scene.clear_looks()

    def try_move(self, m, stop):
        """Play ``m`` if the engine allows it, else flash ``stop``: that did nothing."""
        try:
            self.make_move(m)
        except IllegalMoveError:
            self.refuse(stop)

    def make_move(self, m):
        """Play ``m`` (``IllegalMoveError`` if it is not legal here) and show its effects."""
        self.game.play(m)
        self.session.beep(CHIME if move_target(m) == FOUNDATION else CLICK)
        self.cancel()
        self.changed(m)
        if self.session.settings.autoplay:
            self.autoplaying = self.autoplay_waits = True  # the game looked at once it is done
        else:
            self.check_end(True)

    def autoplay_now(self):
        """Auto-play switched on: what it takes goes home, a card a turn, as after a move."""
        if self.session.settings.autoplay and self.outcome == OUTCOME_PLAYING:
            self.autoplaying = True

    def changed(self, m):
        """Redraw the two piles a move (or its undo) touched, the numbers and the cursor."""
        scene, game = self.scene, self.game
        self.probing = self.hinting = False  # they were about the position before
        self.line_due = ships_line(game)
        self.session.note_change()
        scene.show_pile(game, move_source(m))
        scene.show_pile(game, move_target(m))
        scene.show_numbers(game, self.panel())
        scene.show_cursor(self.cursor)

    def undo(self):
        self.autoplaying = False  # what the player takes back stays back
        m = self.game.undo()
        if m is None:
            self.refuse(self.cursor)
            return
        if self.outcome == OUTCOME_STUCK:
            self.outcome = OUTCOME_PLAYING  # perhaps no longer: looked at again below
        self.session.beep(CLICK)
        self.changed(m)
        self.check_end()

    def redo(self):
        self.autoplaying = False
        m = self.game.redo()
        if m is not None:
            self.session.beep(CLICK)
            self.changed(m)
            self.check_end()

    def finish_certain(self):
        """Is the rest certain: the stock out, and ``search.plays_out`` on the dead test's copy?"""
        if self.game.stock_count:
            return False  # a deal is a choice
        self.hinter.start(self.game)
        return plays_out(self.hinter.game)

    def start_finish(self, now):
        """Play the rest out: a card home every ``_FINISH_MS`` from ``now``
        (``finish_step``), until the game is won or a press stops it."""
        self.finishing = True
        self.finish_due = ticks_add(now, _FINISH_MS)  # the press's turn shows the cards alone

    def stop_finish(self):  # (a press does): was it under way?
        finishing, self.finishing = self.finishing, False
        return finishing

    def finish_step(self, now):
        """The next card home, when it is due."""
        if ticks_diff(now, self.finish_due) < 0:
            return
        self.finish_due = ticks_add(now, _FINISH_MS)
        m = home_move(self.game)
        if m < 0:  # the player undid or moved before it began: nothing to send
            self.finishing = False
            return
        self.make_move(m)
        if self.outcome != OUTCOME_PLAYING:
            self.finishing = False

    def autoplay_step(self):
        """Send home the next card auto-play takes (``search.autoplay_move``,
        where why it cannot cost a card home is argued); when it takes none,
        it is done: the game is looked at as after a move."""
        settings = self.session.settings
        m = autoplay_move(self.game, self.move_buffer, settings.autoplay == AUTOPLAY_SAFE)
        if m < 0:
            self.autoplaying = False
            self.check_end(True)
            return
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
                self.decide()
            return
        self.outcome = OUTCOME_PLAYING
        if not game.stock_count:
            if game.status(self.move_buffer) == STATUS_LOST:  # no move at all: at once
                self.set_stuck()
                return
            # a stage a turn from the next (each most of a frame on a SAMD51):
            # after a move, Finish first, once a game (B: the player plays on)
            self.probing = True
            finish = moved and not (self.finishing or self.finish_offered)
            self.probe_stage = _PROBE_FINISH if finish else _PROBE_START
            self.probe_waits = True

    def probe_dead(self):
        """A stage of the dead test (``_PROBE_*``): Finish offered if the
        rest is certain; else the test's copy of the game, then a step; "no
        more moves" when it proves the game dead."""
        stage = self.probe_stage
        if stage == _PROBE_FINISH:
            self.probe_stage = _PROBE_OFFER if self.finish_certain() else _PROBE_START
            return
        if stage == _PROBE_OFFER:
            self.finish_offered = True
            self.probing = False
            self.session.offer_finish()
            return
        if stage == _PROBE_START:
            self.probe_stage = _PROBE_STEPS
            self.hinter.start(self.game)
            return
        verdict = self.hinter.step(PROBE_STEP)
        if verdict is None:
            return
        self.probing = False
        if verdict == DEAD:
            self.set_stuck()

    def set_stuck(self):
        """No card can go home any more: the panel says so, and the session
        says what follows (``decided``)."""
        self.outcome = OUTCOME_STUCK
        self.panel_due = True  # Game over shows first: the panel waits (``show_panel``)
        self.decide()

    def decide(self):
        """The game is won or stuck: if the session shows the end now (not
        for a game dealt stuck under another screen: the panel says that), it
        counts it the next turn and shows it the turn after (on a SAMD51 each
        is most of a frame, or of a change of screen)."""
        if not self.session.shows_end():
            return
        self.deciding = _DECIDE_COUNT
        self.decide_waits = True

    def decide_step(self):
        """The session told, a step a turn, while the game stays decided (an
        undo of a stuck game before Game over shows takes it back)."""
        if self.decide_waits:
            self.decide_waits = False
            return
        if self.outcome != OUTCOME_WON and self.outcome != OUTCOME_STUCK:
            self.deciding = 0
            return
        show = self.deciding == _DECIDE_SHOW
        self.deciding = 0 if show else _DECIDE_SHOW
        self.session.decided(show)

    @property
    def settling(self):
        """Is what a press did still coming, a turn at a time: the game's
        end told, the line's check, or the dead test's first stages (Finish
        offered, its verdict)? (Its steps after may take a second.)"""
        return self.deciding or self.line_due or (self.probing and self.probe_stage != _PROBE_STEPS)

    # -------------------------------------------------------------- flashes

    def refuse(self, stop):
        """Flash ``stop`` red for a moment: that did nothing."""
        self.end_flash()
        self.session.beep(BUZZ)
        scene = self.scene
        self.flash_stop = stop
        self.flash_look = scene.looks[stop]
        self.flash_until = ticks_add(self.session.now, _FLASH_MS)
        scene.set_look(stop, REFUSED)

    def end_flash(self):
        """The flash (``refuse``) ends: the stop looks as it did."""
        if self.flash_stop != NO_STOP:
            self.scene.set_look(self.flash_stop, self.flash_look)
            self.flash_stop = NO_STOP
