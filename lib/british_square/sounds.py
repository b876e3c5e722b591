"""The game's sound effects, as waves made once at start-up.

Each wave is a ``bytearray`` of unsigned 8-bit samples at ``RATE`` samples a
second, centred on 128 and kept quiet (at most 20 of the 128 either side: the
handhelds' speakers are loud and close to the ear). Each fades out, so it
ends without a click. The boards play them through ``audioio``
(hw/speaker.py), the desktop window through pygame's mixer; nothing here
touches hardware.

Memory: the three waves take 700 bytes. The win's tune plays the note
wave again at higher sample rates (``TUNE``) rather than keeping a wave of
its own: a rate a quarter higher sounds a major third up (and shorter).
"""

from british_square.cards import const

# The effects, as the game asks for them.
CLICK = const(0)  # a card put on a pile, a deal from the stock, an undo
CHIME = const(1)  # a card sent to its foundation
BUZZ = const(2)  # that did nothing
FANFARE = const(3)  # every card home: the chime's note, as the tune's notes in turn

RATE = const(4000)

# The win: the note at these sample rates in turn (C, E, G, then C an
# octave up of a major arpeggio, as rate ratios 1, 5/4, 3/2, 2).
TUNE = (RATE, RATE * 5 // 4, RATE * 3 // 2, RATE * 2)

# The sample rate each effect's wave plays at (the note an octave up as CHIME).
RATES = (RATE, RATE * 2, RATE)


def effects():
    """The waves of CLICK, CHIME and BUZZ, in that order, to play at
    ``RATES``: square waves that fade to silence, unsigned 8-bit samples.
    FANFARE plays CHIME's at the rates of ``TUNE``."""
    waves = []
    # Half a period in samples, length in samples, loudness; at RATE: a
    # 1 kHz click of 15 ms, a 667 Hz note of 100 ms (an octave up and 50 ms
    # as CHIME), and a low 200 Hz buzz of 60 ms that reads as "no".
    for half_period, length, loudness in ((2, 60, 20), (3, 400, 20), (10, 240, 16)):
        samples = bytearray(length)
        for i in range(length):
            level = loudness * (length - i) // length
            samples[i] = 128 + level if (i // half_period) & 1 else 128 - level
        waves.append(samples)
    return waves
