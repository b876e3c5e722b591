"""Write the index of ``lib/british_square/words.txt`` into ``start.py``.

A board's start-up takes the index from ``start.SHIPPED_WORDS`` when the
file on its drive has the size and CRC-32 written there, instead of reading
the file all through (``start.open_words``). Run this after changing
``words.txt``; ``tests/test_words.py`` fails until it is run.

    python tools/words_index.py            # rewrite start.SHIPPED_WORDS
    python tools/words_index.py --check    # exit 1 if it is out of date
"""

import binascii
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "lib"))

from british_square import files  # noqa: E402
from british_square.words import ROW_BITS, Words  # noqa: E402

WORDS = ROOT / "lib" / "british_square" / "words.txt"
START = ROOT / "lib" / "british_square" / "start.py"
MARKS = re.compile(r"(# words-index:start\n)(.*?)(# words-index:end\n)", re.S)


def shipped_words(path=WORDS):
    """``start.SHIPPED_WORDS`` for the file at ``path``: its size, its CRC
    and each text's name, start and body lines, in ``files.NEEDED``'s
    order, as the full check (``files.check_words``, which raises if the
    file is damaged) finds them."""
    data = Path(path).read_bytes()
    words = Words(str(path))
    try:
        files.check_words(words)
    finally:
        words.file.close()
    texts = tuple(
        (name, words.texts[name] >> ROW_BITS, words.rows(name)) for name, _ in files.NEEDED
    )
    return len(data), binascii.crc32(data), texts


def source_text(shipped):
    """The Python that defines ``SHIPPED_WORDS`` as ``shipped``."""
    size, crc, texts = shipped
    lines = ["SHIPPED_WORDS = (", "    {},".format(size), "    0x{:08X},".format(crc), "    ("]
    row = "       "
    for name, at, rows in texts:
        item = ' ("{}", {}, {}),'.format(name, at, rows)
        if len(row) + len(item) > 99:
            lines.append(row)
            row = "       "
        row += item
    lines += [row, "    ),", ")"]
    return "\n".join(lines) + "\n"


def main(argv):
    source = START.read_text(encoding="utf-8")
    wanted = MARKS.sub(lambda m: m.group(1) + source_text(shipped_words()) + m.group(3), source)
    if "--check" in argv:
        if wanted != source:
            print("start.SHIPPED_WORDS is not words.txt's: run tools/words_index.py")
            return 1
        return 0
    START.write_text(wanted, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
