"""The hardware adapter: everything the game asks of a board, the desktop or the VM.

Each adapter is ``Hardware(options)`` in its module of hw/ (``code.py`` picks
the module), an ``Adapter``, and ``App(hardware, store, game, autoplay)``
reads these from it (docs/architecture.md has the same list):

- ``display``: the 160x128 displayio display, ``auto_refresh`` off (the
  game shows its groups and calls ``refresh()`` once per change).
- ``actions``: ``poll(now)`` returns the next action (``controls.NONE`` when
  there is none, ``controls.QUIT`` to stop), and ``finished`` is true once a
  key script is played out (a board's never is).
- ``ticks_ms()``: the clock in ms, wrapping as ``supervisor.ticks_ms``.
- ``idle(resting)``: after each turn of the loop; ``resting`` is true when
  the turn had no action and nothing timed is under way, so it may sleep.
- ``nvm``: the save's bytes, as ``microcontroller.nvm`` (``store.py``), or
  ``None``: nothing is kept.
- ``font``: the font of every text, or ``None``: ``terminalio.FONT``.
- ``facts()``: the board's name, its NVM bytes and the battery in mV (0: no
  monitor), for the About and title screens; ``None``: nothing to say.
- ``backlight(percent)``, ``sound(effect)`` (``sounds.CLICK`` ...) and
  ``lights(frame, percent)`` (a frame of the NeoPixels' celebration, -1:
  dark), each ``None`` where the machine has none.
- ``started(app)`` and ``finish(app)``: ``code.py`` calls them before and
  after the loop (a board's loop never ends).
- ``status``: what ``code.py`` exits with (the desktop's: the signal that
  stopped the game).

What is absent is ``None`` here, so an adapter names only what it has.
"""


class Adapter:
    """The defaults of every adapter: no save, the built-in font, no facts,
    no backlight, speaker or lights, and a loop that never waits."""

    nvm = None
    font = None
    facts = None
    backlight = None
    sound = None
    lights = None
    status = 0

    def idle(self, resting):
        pass

    def started(self, app):
        pass

    def finish(self, app):
        pass
