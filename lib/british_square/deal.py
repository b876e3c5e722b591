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
    # Only bits 16-30 of the state reach the output and carries only move up,
    # so PySolFC's 33-bit state can be kept modulo 2**31.
    seed = number
    for n in range(103, 0, -1):
        seed = (seed * 214013 + 2531011) & 0x7FFFFFFF
        j = (seed >> 16) % (n + 1)
        cards[n], cards[j] = cards[j], cards[n]
    return cards


def random_deal():
    """A deal number picked at random: every game can be replayed and shared."""
    import random

    return random.randint(MIN_DEAL, MAX_DEAL)
