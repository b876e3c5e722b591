"""Stand-in for CircuitPython's ``neopixel_write``: keeps the last bytes sent
and counts the writes (runs on the VM and on CPython)."""

last = bytearray(15)
writes = 0


def neopixel_write(pin, buffer):
    global writes
    for i in range(len(buffer)):  # not a slice: that would allocate one
        last[i] = buffer[i]
    writes += 1
