"""PySolFC-compatible shuffles for deal numbers 1-31999.

PySolFC shuffles game numbers below 32000 with ``LCRandom31`` (the Microsoft
FreeCell generator). Its ``ms_rearrange`` only reorders a 52-card pack, so the
104 cards are shuffled in creation order: deck, suit (CSHD), rank.
"""

MIN_DEAL = 1
MAX_DEAL = 31999


def shuffled_talon(number):
    """Card values of deal ``number`` in PySolFC talon order: the last one is dealt first."""
    if not MIN_DEAL <= number <= MAX_DEAL:
        raise ValueError("deal number {} is not in {}-{}".format(number, MIN_DEAL, MAX_DEAL))
    cards = bytearray(104)
    for i in range(104):
        cards[i] = i % 52
    # PySolFC's step is seed = seed * 214013 + 2531011. Only bits 16-30 of
    # the state reach the output and carries only move up, so the state is
    # kept modulo 2**31, as two halves: on a board a product past 2**30 is a
    # heap-allocated long int, and 103 steps of those were 14 KB of garbage
    # per deal. 214013 = 3 << 16 | 0x43FD, 2531011 = 0x26 << 16 | 0x9EC3.
    high, low = number >> 16, number & 0xFFFF
    for n in range(103, 0, -1):
        middle = low * 0x43  # low * 0x43FD in two parts, each below 2**30
        sum_low = low * 0xFD + 0x9EC3 + ((middle & 0xFF) << 8)
        high = ((sum_low >> 16) + (middle >> 8) + high * 0x43FD + low * 3 + 0x26) & 0x7FFF
        low = sum_low & 0xFFFF
        j = high % (n + 1)
        cards[n], cards[j] = cards[j], cards[n]
    return cards


def random_deal():
    """A deal number picked at random: every game can be replayed and shared."""
    import random

    return random.randint(MIN_DEAL, MAX_DEAL)
