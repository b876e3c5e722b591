"""Stand-in for CircuitPython's ``audiocore``: a ``RawSample`` keeps its buffer
and rate, as the real one checks them (runs on the VM and on CPython)."""


class RawSample:
    def __init__(self, buffer, *, channel_count=1, sample_rate=8000, single_buffer=True):
        if not isinstance(buffer, bytearray):
            raise ValueError("buffer must be a bytearray or array")
        self.buffer = buffer
        self.sample_rate = sample_rate
