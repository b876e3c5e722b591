"""Stand-in for CircuitPython's ``digitalio``: a pin that keeps its value
(runs on the VM and on CPython)."""


class Direction:
    INPUT = 0
    OUTPUT = 1


class DigitalInOut:
    def __init__(self, pin):
        self.pin = pin
        self.value = False
        self.direction = Direction.INPUT

    def switch_to_output(self, value=False, drive_mode=None):
        self.direction = Direction.OUTPUT
        self.value = value

    def deinit(self):
        pass
