"""A player's session: the loop, the screens, the settings, the saves and
the statistics; the game in play, and what a press does on the cards, are
``table.Table``'s.

Data flows one way: an action (from a board adapter) becomes an engine move,
the move names the piles it touched, the scene redraws those piles, and the
loop sends one ``refresh()`` per change. The main loop allocates nothing per
frame: the legal-move buffer, the dead test's tables, the layout and every
sprite are made once, at start-up.
"""

import gc

from british_square import unload
from british_square.cards import const
from british_square.controls import HINT, NONE, QUIT, ticks_diff
from british_square.deal import random_deal
from british_square.engine import MAX_MOVES, Game
from british_square.hint import Hinter
from british_square.par import par, random_par_deal, random_won_deal
from british_square.save_policy import SavePolicy
from british_square.screen_ids import SCREEN_PLAY
from british_square.screens import Screens
from british_square.sounds import FANFARE
from british_square.stats import AUTOPLAY_ACES, BRIGHTNESS_LEVELS, Scorecard, Settings, Stats
from british_square.table import OUTCOME_ENDED, OUTCOME_WON, Table
from british_square.view import View, load_sheet, sheet_path

# Once the stock is out, the dead test looks at up to DEAD_BUDGET positions
# after each move, table.PROBE_STEP of them per turn of the main loop, on a
# copy of the game: a press never waits for it.
DEAD_BUDGET = const(200)

# The backlight, the most power a handheld draws: dimmed to _DIM_PERCENT a
# minute after the last press; the press that wakes it does nothing else.
_DIM_AFTER_MS = const(60000)
_DIM_PERCENT = const(5)

_LOW_BATTERY_MV = const(3500)  # a LiPo cell this low is nearly empty
_BOARD_HEAP = hasattr(gc, "mem_free")  # a board's collected at rest (docs/memory.md)


class App:
    """One player session on one machine, driven by its actions: the table
    (``table``: the game in play on the cards) and the screens (``screens``)
    are its parts, each told what it needs.

    ``hardware`` is the machine's adapter: its display, actions, clock,
    font, backlight, speaker, lights and key names (docs/architecture.md,
    "The hardware adapter", says what each is).
    ``store`` (a ``store.Store``, or ``None``: nothing is kept) holds the
    save, the statistics and the settings; ``game`` is played instead of
    the saved game or a new deal; ``autoplay`` turns auto-play on.

    A game file on the drive that is damaged (``words.txt``, ``cards.bmp``)
    ends the program at once: one line says which, on the screen and the
    console, and ``SystemExit`` (status 2) ends ``code.py`` cleanly, a board
    then waiting at its prompt."""

    def __init__(self, hardware, store=None, game=None, autoplay=False):
        # The save and the files first, before any sprite: the code that reads
        # them is let go once it has run, and collected at once, so that the
        # sprites and labels made next fill its room rather than split the
        # heap around it (a board collects only when an allocation fails).
        self.hardware = hardware
        self.store = store
        # the serial console: a board's print, or the adapter's (the desktop's standard error)
        self.console = getattr(hardware, "console", None) or print
        from british_square import start  # run once, and let go

        saved = None
        if store is not None:
            saved = start.load_save(self, store)
            gc.collect()
        self.words = start.open_files(self, hardware)
        del start
        unload("british_square.start")
        gc.collect()
        # The sprite sheet first, its 7.5 KB in one piece while the heap is
        sheet_bitmap = load_sheet(sheet_path())
        # One scratch buffer for the legal moves, the dead test and the hint:
        # each fills it within one call and keeps nothing there between two.
        move_buffer = bytearray(2 * MAX_MOVES)
        # the dead test, and the hint between two of its runs: one table for
        # both, its blocks found before the sprites and labels cut the heap up
        hinter = (getattr(hardware, "hinter", None) or Hinter)(DEAD_BUDGET, move_buffer)
        self.copy_of = hinter.copy_of  # the copy of the game a save walks back on
        self.view = View(hardware.display, self.words, hardware.font, sheet_bitmap)
        self.ticks_ms = hardware.ticks_ms
        self.now = self.ticks_ms()
        # the player's choices: the store's, kept with every save
        self.settings = Settings() if store is None else store.settings
        self.stats = Stats() if store is None else store.stats
        self.policy = None  # made below, once the game is set up: nothing unsaved yet
        self.scorecard = Scorecard()  # the game in play's time, hints, counted, bettered
        self.dimmed = False
        self.last_press = self.now
        self.last_tick = self.now
        self.pressed = False  # the turn under way had a press (``handle``)
        self.garbage = False  # a change of screen's, collected in the next quiet turn
        self.table = Table(self, self.view.scene, hinter, move_buffer)
        self.screens = Screens(self)
        self.take_settings(autoplay)
        resumed = game is None and saved is not None and self.start_saved(saved, autoplay)
        if not resumed:
            rules = self.settings.rules
            self.start_game(game or Game.new_deal(self.random_deal(rules), rules))
        if store is not None:
            self.policy = SavePolicy(self.now)
        # A new board's first start (no record in its NVM, nothing unreadable
        # there, no game named by options): the choice of a game, and how to
        # play, once, before the game; leaving them saves, and a board with
        # a record is past them.
        if store is not None and game is None and not store.sequence and not store.notice:
            self.screens.first_start()
        else:
            self.screens.title(0 if store is None else store.notice)

    # ----------------------------------------------------------------- loop

    def run(self):
        """Handle actions until the adapter says it is finished (or the window
        closes). After each turn the adapter's ``idle(resting)`` may wait: with
        no action and nothing timed under way, until the next press is due."""
        view, actions, idle = self.view, self.hardware.actions, self.hardware.idle
        view.refresh()  # the first screen, before any key
        while True:
            now = self.ticks_ms()
            self.now = now
            action = actions.poll(now)
            if action == QUIT:
                break
            if action != NONE:
                self.handle(action)
            elif actions.finished and self.settled():
                break
            self.tick(now)
            if view.dirty:
                view.refresh()
            idle(action == NONE and self.resting())
        # the window closed or the script ended (a board never gets here)
        if self.policy is not None and self.policy.unsaved:
            self.save()

    def handle(self, action):
        """Do what ``action`` means on the screen on show (when the screen is
        dimmed, wake it and nothing else: the player could not see what the
        press would do)."""
        self.last_press = self.now
        self.pressed = True  # this turn has a press: ``tick`` adds no work of its own
        if self.store is not None:
            self.store.cancel()  # begun again once all is quiet (a hint takes the copy it walks on)
        if self.dimmed:
            self.dimmed = False
            self.set_backlight(self.settings.brightness)
            return
        if self.table.stop_finish():  # the press does nothing else: the player plays on
            return
        if action >= HINT:  # a desktop's direct key: a menu row's, on any screen
            from british_square.shortcuts import shortcut

            shortcut(self.screens, action)
        elif self.screens.current == SCREEN_PLAY:
            self.table.act(action)
        else:
            self.screens.handle(action)

    def settled(self):
        """Is all a press did on the screen? (A menu's page, and on the cards
        auto-play's cards home, a hint and the cursor after a move, come a
        turn at a time after it; a key script ends once they have.)"""
        table = self.table
        if self.screens.current != SCREEN_PLAY:  # (the table's work waits for the cards)
            busy = self.screens.rows.turning
        else:
            busy = table.autoplaying or table.hinting or table.settling or self.view.dirty
        return not (busy or self.collecting())

    def resting(self):
        """Nothing timed is under way (a flash, the dead test, Finish, a menu's
        page or its first page written hidden, a save): the loop may sleep."""
        return self.quiet() and not (self.store is not None and self.store.saving)

    def collecting(self):  # will the next turn with no press collect the heap's garbage?
        return self.garbage and self.resting()

    def quiet(self):
        """Nothing timed is under way but perhaps a save, which waits for this."""
        if self.screens.current != SCREEN_PLAY:
            return self.screens.resting() and not self.table.panel_due
        table, view = self.table, self.view
        return table.resting() and not (table.line_due or self.screens.rows.pending or view.dirty)

    def tick(self, now):
        """Timed changes: the backlight dimming, the heap's garbage collected,
        the end of a flash, a step of the dead test or of Finish, a frame of
        the celebration. Each belongs to one screen and stops when it goes."""
        elapsed = ticks_diff(now, self.last_tick)
        self.last_tick = now
        pressed, self.pressed = self.pressed, False
        if not self.dimmed and ticks_diff(now, self.last_press) >= _DIM_AFTER_MS:
            self.dimmed = True
            self.set_backlight(min(_DIM_PERCENT, self.settings.brightness))
            self.glow(-1)  # the lights go dark, and a celebration waits for a press
            self.save_point()  # the player has put it down
        if not pressed and self.collecting():
            gc.collect()  # the turn's work: the next press finds room
            self.garbage = False
            return
        # a save goes a share a turn (``save_step``), in turns with no press
        # and nothing else: begun once all else is done, given up at a press;
        # not while the dead test or a hint's search waits for the cards to
        # come back, on the copy a save may walk back on
        saved = False
        if self.policy is not None and not pressed:
            table = self.table
            saved = self.store.saving or (
                self.policy.due(now) and self.quiet() and not (table.probing or table.hinting)
            )
            if saved:
                self.save_step()
        if self.screens.current != SCREEN_PLAY:
            if saved:
                return
            if self.table.panel_due and not pressed:  # a turn with nothing else in it
                self.table.show_panel()
                return
            self.screens.tick(now, pressed)
            return
        outcome = self.table.outcome
        if not self.dimmed and outcome != OUTCOME_ENDED and outcome != OUTCOME_WON:
            # play time: the cards on show, lit (a turn counts a second at most)
            card = self.scorecard
            card.play_ms += min(elapsed, 1000)
            if card.play_ms >= 1000:
                card.play_ms -= 1000
                card.seconds += 1
        if saved or self.table.tick(now, pressed):
            return  # (the table's line check was this turn's work)
        # a turn with nothing else in it (the table's last step may have
        # changed the screen: Won, Game over)
        if not (pressed or self.view.dirty) and self.table.resting():
            self.screens.rows.prepare()

    def set_backlight(self, percent):
        """The backlight at ``percent``, where the machine has one."""
        backlight = self.hardware.backlight
        if backlight is not None:
            backlight(percent)

    def beep(self, effect):
        """Sound ``effect`` (``sounds.CLICK`` ...) unless the Sound setting is off."""
        sound = self.hardware.sound
        if self.settings.sound and sound is not None:
            sound(effect)

    def glow(self, frame):
        """A frame of the lights' celebration (dark for -1, or while the
        screen is dimmed), at the Brightness setting."""
        lights = self.hardware.lights
        if lights is not None:
            lights(frame, 0 if self.dimmed else self.settings.brightness)

    def setting_changed(self):
        """A setting changed: worth keeping, and a save point."""
        self.note_change()
        self.save_point()

    # ---------------------------------------------------------- for owners

    def battery_mv(self):
        """The battery's millivolts as the board reads them (0: no monitor)."""
        facts = self.hardware.facts
        return facts()[2] if facts else 0

    def battery_low(self, millivolts):
        return 0 < millivolts < _LOW_BATTERY_MV

    # ------------------------------------------------- saves and statistics

    def take_settings(self, autoplay, shown=100):
        """Play by the store's settings (an --autoplay option turns auto-play
        on; a brightness not among the menu's levels is the first), the
        backlight set from ``shown`` percent (a display starts at full)."""
        if self.store is not None:
            self.settings = self.store.settings
        settings = self.settings
        if autoplay and not settings.autoplay:
            settings.autoplay = AUTOPLAY_ACES
        if settings.brightness not in BRIGHTNESS_LEVELS:
            settings.brightness = BRIGHTNESS_LEVELS[0]
        if settings.brightness != shown:
            self.set_backlight(settings.brightness)
        self.view.colour_suits(settings.four_colours)

    def start_saved(self, saved, autoplay):
        """Start the game the store kept; False, and nothing of the record
        kept, when that raises (a record can never stop the board)."""
        store = self.store
        try:
            self.start_game(saved)
        except Exception as error:  # MemoryError too
            store.caught("starting the save", error, self.console)
            self.table.drop_game()
            shown = self.settings.brightness
            store.forget()
            self.stats = store.stats
            self.take_settings(autoplay, shown)
            return False
        card = self.scorecard
        card.seconds = store.seconds
        card.hints = store.hints
        card.counted = store.counted
        return True

    def save(self):
        """Keep the settings, the statistics and the game in progress (none
        once over, or before its first move) in the store, now."""
        self.save_step(True)

    def save_step(self, whole=False):
        """A share of a save (``Store.begin``, then a ``Store.step`` a turn),
        or with ``whole`` all of one, now."""
        store, table = self.store, self.table
        try:
            if whole or not store.saving:
                game = table.game if table.in_progress() else None
                card = self.scorecard
                store.begin(game, card.seconds, card.hints, card.counted, self.copy_of)
            while not store.step():
                if not whole:
                    return  # the next share in the next turn
        except (OSError, RuntimeError) as error:  # the NVM refused the write: play goes on
            store.cancel()
            store.caught("saving", error, self.console)
        self.policy.saved(self.now)

    def note_change(self):
        """Something worth keeping changed: a move, a game, a setting (a
        save under way is given up: it is of what was)."""
        if self.policy is not None:
            self.store.cancel()
            self.policy.changed(self.now)

    def save_point(self):
        """A save point (another screen, the end of a game, a setting, the
        backlight dimmed): a save may be due (``save_policy.SavePolicy``), at once
        when the battery reads low."""
        if self.policy is not None:
            self.policy.save_point(self.battery_low(self.battery_mv()))

    def count_game(self):
        """Count the game in the statistics, once: when it is won, ended or
        over (Game over shows), or when another takes its place after a move
        was made. A game played on after Game over (undo) stays counted as
        it was then."""
        game, card = self.table.game, self.scorecard
        if card.counted or not game.history_end:
            return
        card.counted = True
        score = game.score()
        found = par(game.rules, game.deal_number)
        card.bettered = self.stats.add_game(
            game.rules,
            score,
            self.table.outcome == OUTCOME_WON,
            game.history_count,
            card.seconds,
            found and score >= found,
            card.hints,
        )

    # ---------------------------------------------------------------- games

    def start_game(self, game, restart=False):
        """Make ``game`` the one played: a new game (a deal, other rules, the
        saved one), or with ``restart`` this one again from its start."""
        if not restart:
            played = self.table.game
            if played is not None and played is not game:
                self.count_game()  # left after a move: played, and not won
            self.scorecard.clear()
        self.note_change()
        self.settings.rules = game.rules
        self.table.start(game)
        par(game.rules, game.deal_number)  # read now, kept: the game's screens say it

    def random_deal(self, rules):
        """A deal number for a new game: one with par under ``rules`` (so
        the game has a target; any deal where none has), and with "winnable
        deals only" one the solver won (where it won any)."""
        number = random_won_deal(rules) if self.settings.winnable_only else 0
        return number or random_par_deal(rules) or random_deal()

    def new_random_deal(self):
        """A new deal under the rules in play (``random_deal``)."""
        rules = self.table.game.rules
        self.new_deal(self.random_deal(rules), rules)

    def new_deal(self, number, rules):
        """Deal ``number`` (1-31999) under ``rules`` and show it."""
        self.count_game()  # the game left
        # The game and the dead test's copy of it are kept for a deal of the
        # same rules, dealt again in place rather than made again mid-game in
        # a heap in pieces; for other rules the old one is let go before the
        # new one is made, so that the two are never on the heap together.
        game = self.table.game
        if game.rules == rules:
            game.deal(number)
        else:
            self.table.drop_game()
            gc.collect()
            game = Game.new_deal(number, rules)
        self.start_game(game)
        self.show_play()

    def restart(self):
        """Back to the start of this game (a deal, or a position it began from):
        every move taken back, and left to redo."""
        game = self.table.game
        while game.undo() is not None:
            pass
        self.start_game(game, restart=True)
        self.show_play()

    def end_game(self):
        """End the game where it stands: its score is the cards home now."""
        self.table.end()
        self.count_game()
        self.save_point()
        self.screens.results.over(self.table.game, True)

    def show_page(self):
        """Show the text page, for a screen of ``screens``: if the cards were
        on show, a flash or a held card ends here."""
        if self.screens.current == SCREEN_PLAY:  # (``Screens.open`` then sets the screen)
            self.table.end_flash()
            self.table.cancel()
            self.save_point()
        self.garbage = _BOARD_HEAP
        self.view.show_page()

    def show_menu(self):
        """The menu, from the cards (their Start)."""
        self.screens.menu()

    def show_play(self):
        """Back to the cards."""
        self.screens.leave()
        self.screens.rows.put_away()
        if self.table.panel_due:
            self.table.show_panel()
        self.garbage = _BOARD_HEAP
        self.view.show_play()

    def hint(self):
        """A hint, shown on the cards (``Table.hint``) and counted: False if none."""
        if not self.table.hint():
            return False
        self.scorecard.hints += 1
        self.show_play()
        return True

    # ------------------------------------------------- told by the table

    def shows_end(self):
        """Would a game won or stuck now be shown so? (Stuck while another
        screen is on show, a game dealt stuck or auto-play switched on from
        the menu, only the panel says so.)"""
        return self.screens.current == SCREEN_PLAY or self.table.outcome == OUTCOME_WON

    def decided(self, show):
        """The table found the game won or stuck (``Table.outcome``), a turn
        ago (``shows_end``): it is counted (``show`` false), and a turn later
        Won or Game over shows (the two in one turn were 120 ms on a SAMD51).
        Game over's B goes back to the cards, where the player may still
        move or undo."""
        game = self.table.game
        if not show:
            self.count_game()  # what the screen says is in the statistics now
            self.save_point()
        elif self.table.outcome == OUTCOME_WON:
            self.beep(FANFARE)
            self.screens.results.won(game)
        else:
            self.screens.results.over(game, False)

    def offer_finish(self):
        """The table found the rest certain: Finish is offered."""
        self.save_point()
        self.screens.results.offer_finish(self.table.game)

    def finish(self):
        """Finish chosen: back to the cards, to watch the rest go home."""
        self.show_play()
        self.table.start_finish(self.now)
