"""The PyGamer's and PyBadge's speaker: the game's sound effects
(``british_square.sounds``) through ``audioio`` on the DAC.

The waves are made once, here, at start-up; ``play`` hands one to the DAC's
DMA and returns at once, so no effect stalls a frame. The amplifier is on
only while something plays (it draws current even when silent): ``step``,
called each turn of the main loop while ``busy``, turns it off once the DAC
is done, and plays the win's tune a note at a time.
"""

import audiocore
import audioio
import digitalio

from british_square.sounds import CHIME, FANFARE, RATES, TUNE, effects


class Speaker:
    """The speaker on DAC ``pin``, its amplifier switched by ``enable``:
    ``play(effect)`` (``sounds.CLICK`` ... ``FANFARE``); ``busy`` while the
    amplifier is on, and then ``step()`` each turn of the loop."""

    def __init__(self, pin, enable):
        self.enable = digitalio.DigitalInOut(enable)  # the amplifier's
        self.enable.switch_to_output(value=False)
        self.out = audioio.AudioOut(pin)
        waves = effects()
        self.samples = [audiocore.RawSample(w, sample_rate=r) for w, r in zip(waves, RATES)]
        self.note = audiocore.RawSample(waves[CHIME])  # the tune's, its rate set per note
        self.tune = 0  # notes of the tune still to play
        self.busy = False

    def sound(self, effect):
        """Start ``effect`` now, cutting short whatever plays."""
        self.enable.value = True
        self.busy = True
        if effect == FANFARE:
            self.out.stop()
            self.tune = len(TUNE)
            self.step()
        else:
            self.tune = 0
            self.out.play(self.samples[effect])

    def step(self):
        """The tune's next note once the last has ended; the amplifier off
        once everything has."""
        if self.out.playing:
            return
        if self.tune:
            self.note.sample_rate = TUNE[len(TUNE) - self.tune]
            self.tune -= 1
            self.out.play(self.note)
        else:
            self.enable.value = False
            self.busy = False
