"""When the game is saved: at save points, never per move, at most once an
hour after the session's first save (``SavePolicy``). Each save erases the
NVM's one 8 KB block (``store``), rated 10 000 cycles: docs/saves.md has
the rates and the life they give.
"""

from adafruit_ticks import ticks_diff

from british_square.cards import const

PAUSE_S = const(5)  # no move for this long on the play screen is a rest
MIN_INTERVAL_S = const(3600)  # an hour between writes, but the session's first rest saves


class SavePolicy:
    """When a save is due: at save points, never per move, with a minimum interval.

    The app tells it ``changed(now)`` after every move, undo, redo, new deal or
    change of settings, and ``save_point(low_battery)`` when the player leaves the
    play screen, a game ends (won, no more moves, End game), a setting
    changes or the backlight dims, with whether the battery reads low then;
    it asks ``due(now)`` once a turn of its loop and, when it says so, saves
    and calls ``saved(now)``. ``now`` is the app's ``ticks_ms()`` (injected,
    so a test runs a day of play in seconds). A session is one power-on: a
    board may be switched off at any moment, without a word to the game.

    The rule: a save is due when something is unsaved and either a save point
    came since the last change and it is the session's first save, or the
    first after the battery read low at a save point (once a session); or
    ``MIN_INTERVAL_S`` (an hour) has passed since the last save (or start-up)
    and the player is at a save point or has made no move for ``PAUSE_S``.

    Every ``Store.save`` is one erase of the NVM block, whatever caused it
    (these, and on the desktop and the VM the end of ``App.run``, which a
    board never reaches). The SAM D5x/E5x data sheet rates the flash at
    10 000 erase cycles (NVM characteristics, cell endurance): ten years
    allow 10 000 / 3650 = 2.74 writes a day. A session costs one write (its
    first save point) and one per full hour of play after it: at most one an
    hour of continuous play. At two hours of play a day in two one-hour
    sessions: 2 writes a day, 730 a year: 13.7 years. The 0.74 a day left
    over is for the battery: at most one more write a session, only once it
    reads below 3.5 V (the last minutes of a charge): a charge run down every
    other day makes 2.5 writes a day, 11.0 years. One session of two hours
    is 2 writes too; many short ones cost one each (four a day: 6.8 years).

    What a sudden power cut loses is the play since the last save: before
    the session's first save point, that session's play; after it, at most an
    hour of play and then up to the next save point or pause; nothing once a
    save point has saved and nothing changed since. With the battery low, the
    play since the save point that saved on the low reading. So a one-hour
    session switched off at its end loses what came after its first save
    point: the price of 2.74 writes a day.
    """

    def __init__(self, now: int, interval_s: int = MIN_INTERVAL_S, pause_s: int = PAUSE_S):
        self.interval_ms = interval_s * 1000
        self.pause_ms = pause_s * 1000
        self.unsaved = False
        self.at_save_point = False  # a save point since the last change
        self.last_change = now
        self.last_save = now  # or start-up
        self.interval_passed = False  # latched, so a long wait cannot wrap ticks
        self.save_at_point = True  # the session's first save, or the low battery's
        self.low_battery = False  # the low battery has had its save this session

    def changed(self, now: int) -> None:
        """Something worth saving changed (the player plays on: no save point)."""
        self.unsaved = True
        self.at_save_point = False
        self.last_change = now

    def save_point(self, low_battery: bool = False) -> None:
        """A save point: left the play screen, the game ended, a setting
        changed, the backlight dimmed; ``low_battery``: the battery reads low."""
        self.at_save_point = True
        if low_battery and not self.low_battery:
            self.low_battery = True
            self.save_at_point = True

    def due(self, now: int) -> bool:
        """Should the app save now? Cheap and allocation-free: ask every turn."""
        if not self.interval_passed and ticks_diff(now, self.last_save) >= self.interval_ms:
            self.interval_passed = True
        if not self.unsaved:
            return False
        if self.at_save_point and self.save_at_point:
            return True
        if not self.interval_passed:
            return False
        return self.at_save_point or ticks_diff(now, self.last_change) >= self.pause_ms

    def saved(self, now: int) -> None:
        """The app has just saved (or tried to: a failed write waits as long)."""
        self.unsaved = False
        self.at_save_point = False
        self.last_save = now
        self.interval_passed = False
        self.save_at_point = False
