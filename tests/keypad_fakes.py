"""Stand-ins for CircuitPython's ``keypad`` as the game's key reader uses it
(``controls.KeypadActions``): an event, and keys whose queue overflows."""


class FakeEvent:
    key_number = 0
    pressed = False


class FakeQueue:
    """``keypad.EventQueue`` as the game uses it, overflowing past ``size``."""

    def __init__(self, size=64):
        self.events = []
        self.size = size
        self.overflowed = False

    def put(self, key, pressed):
        if len(self.events) == self.size:
            self.overflowed = True
        else:
            self.events.append((key, pressed))

    def get_into(self, event):
        if not self.events:
            return False
        event.key_number, event.pressed = self.events.pop(0)
        return True

    def clear(self):
        self.events.clear()
        self.overflowed = False


class FakeKeys:
    def __init__(self, events=(), size=64):
        self.events = FakeQueue(size)
        self.resets = 0
        for key, pressed in events:
            self.events.put(key, pressed)

    def reset(self):
        self.resets += 1
