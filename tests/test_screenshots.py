"""The screenshots in the README and docs/ are what the game shows now:
``tools/screenshots.py`` makes each again, and every one that is not a
moment of something moving is the committed one, pixel for pixel (issue
50.5: the first start said "~15 home" after the survey's figure became
~16). And the tool's own refusals."""

import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

from conftest import ROOT
from refusals import refused

sys.path.insert(0, str(ROOT / "tools"))
import screenshots  # noqa: E402

DOCS = ROOT / "docs"


def pixels(path):
    """(size, RGB bytes) of a PNG: the picture, not its encoding."""
    import pygame

    image = pygame.image.load(str(path))
    return image.get_size(), pygame.image.tobytes(image, "RGB")


def test_every_still_screenshot_is_what_the_game_shows_now(tmp_path):
    made = screenshots.screens(tmp_path)
    assert {"screen-{}.png".format(name) for name, _ in made} == {
        path.name for path in DOCS.glob("screen-*.png")
    }, "every screenshot in docs/ is one the tool makes, and no other"
    still = [(name, args) for name, args in made if not screenshots.moving(args)]

    def shoot(screen):
        name, args = screen
        target = tmp_path / "screen-{}.png".format(name)
        screenshots.shoot(name, args, 3, target)
        return target

    with ThreadPoolExecutor(max_workers=2) as pool:
        shots = list(pool.map(shoot, still))
    stale = [shot.name for shot in shots if pixels(shot) != pixels(DOCS / shot.name)]
    assert not stale, "not what the game shows now: {}; run .venv/bin/python {}".format(
        ", ".join(stale), "tools/screenshots.py"
    )


def test_an_out_folder_that_cannot_be_one_is_one_error_line(tmp_path):
    """Issue 50.10: --out under a file (or a file) was a traceback."""
    (tmp_path / "afile").write_text("mine")
    for out in ("afile/a", "afile"):
        result = subprocess.run(
            [sys.executable, str(ROOT / "tools" / "screenshots.py"), "--out", out],
            capture_output=True,
            text=True,
            cwd=tmp_path,
            timeout=60,
        )
        assert refused(result, "cannot write screenshots into {!r}".format(out)), result
    assert (tmp_path / "afile").read_text() == "mine"
