"""``code.py --help``: the options and the key-script words. A module of its
own, loaded only for ``--help``, so that a desktop or VM run holds none of
its text (under the VM every string the options module holds is heap)."""

USAGE = """usage: code.py [options]
  --rules british|american|union  the rule set (default british)
  --deal N          deal number N, 1-31999 (default: one at random)
  --position TEXT   start from a position (see docs/desktop.md: Text formats)
  --autoplay        send aces home by themselves
  --keys SCRIPT     play a key script, e.g. "right a*3 wait:500 shot:one": the
                    words up down left right a b select start (u d l r sel),
                    the desktop's direct keys hint redo new restart and the
                    digits 0 1 2 3 4 5 6 7 8 9, KEY*N (N presses), wait:MS (the
                    game runs on), shot:NAME (a screenshot), quit (ends it)
  --keys-file FILE  the key script from a file
  --shot PATH       screenshots: a .png for the last screen, or a folder
  --scale N         the window's and screenshots' scale, 1-16 (desktop; the
                    window's default 4, + and - change it as you play)
  --headless        no window (desktop): play the key script, save shots
  --save FILE       keep the game, statistics and settings in FILE (desktop):
                    a new file or one this game wrote, nothing else; a window
                    keeps them in the user's data folder by default
  --help            this text"""
