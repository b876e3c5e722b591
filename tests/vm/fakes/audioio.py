"""Stand-in for CircuitPython's ``audioio`` (the VM and the desktop have none):
``AudioOut`` counts its plays and keeps the last few (sample, rate), and
plays each sample for as many calls of ``playing`` as ``PLAY_POLLS`` says,
so a test can step through a tune. Runs on the VM and on CPython."""

PLAY_POLLS = 2


class AudioOut:
    def __init__(self, pin):
        self.pin = pin
        self.sample = None
        self.played = []  # (sample, its rate) of the last plays, oldest first
        self.plays = 0
        self.polls = 0

    def play(self, sample, loop=False):
        self.sample = sample
        self.plays += 1
        if len(self.played) == 8:  # a long session keeps no more
            self.played.pop(0)
        self.played.append((sample, sample.sample_rate))
        self.polls = PLAY_POLLS

    def stop(self):
        self.polls = 0

    @property
    def playing(self):
        if self.polls:
            self.polls -= 1
            return True
        return False
