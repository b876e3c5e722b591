"""The desktop's speaker: the game's sound effects through pygame's mixer,
the same waves a board plays. Desktop only; ``desktop.Hardware`` opens it.
"""

import os
import sys
import tempfile


def open_mixer(pygame, rate):
    """Open pygame's mixer for unsigned 8-bit mono at ``rate`` (SDL converts
    if need be); False where it cannot (no audio device, no mixer built),
    said in one line. ALSA's library writes its complaints about a missing
    sound card, sixteen lines, straight to file descriptor 2: they are held
    back while the mixer opens, and anything else written there is passed on."""
    held = saved = None
    try:
        sys.stderr.flush()
        held = tempfile.TemporaryFile()
        saved = os.dup(2)
        os.dup2(held.fileno(), 2)
    except (AttributeError, OSError, ValueError):  # no standard error to hold back
        if saved is not None:
            os.close(saved)
        if held is not None:
            held.close()
        held = None
    why = None
    try:
        pygame.mixer.quit()
        pygame.mixer.init(frequency=rate, size=8, channels=1, allowedchanges=0)
    except (pygame.error, NotImplementedError) as error:
        why = str(error) or type(error).__name__
    finally:
        if held is not None:
            os.dup2(saved, 2)
            os.close(saved)
            held.seek(0)
            lines = held.read().decode(errors="replace").splitlines()
            held.close()
            for line in lines:
                if not line.startswith("ALSA lib "):
                    print(line, file=sys.stderr)
    if why is not None:
        print("note: no sound: {}".format(" ".join(why.split())), file=sys.stderr)
    return why is None


class MixerSpeaker:
    """The game's sound effects through pygame's mixer, the same waves a
    board plays (``british_square.sounds``). Silent where no audio device
    opens (``SDL_AUDIODRIVER=dummy`` plays to nowhere); ``played`` keeps
    every effect asked for, in order, for the tests."""

    def __init__(self):
        import pygame

        from british_square.sounds import CHIME, RATE, RATES, TUNE, effects

        self.played = []
        self.sounds = None
        if not open_mixer(pygame, RATE):
            return  # no audio device, or a pygame built without its mixer: silent
        waves = effects()

        def at_rate(wave, rate):  # the wave as played at ``rate`` on a RATE mixer
            return bytes(wave[i * rate // RATE] for i in range(len(wave) * RATE // rate))

        self.sounds = [pygame.mixer.Sound(buffer=at_rate(w, r)) for w, r in zip(waves, RATES)]
        fanfare = b"".join(at_rate(waves[CHIME], rate) for rate in TUNE)
        self.sounds.append(pygame.mixer.Sound(buffer=fanfare))

    def sound(self, effect):
        self.played.append(effect)
        if self.sounds is not None:
            self.sounds[effect].play()
