"""Buttons as actions: auto-repeat, the keypad reader and its overflow."""

from keypad_fakes import FakeEvent, FakeKeys

from british_square import controls


def test_repeater_timing():
    repeater = controls.Repeater()
    repeater.press(controls.LEFT, 1000)
    assert repeater.poll(1000 + controls.REPEAT_DELAY_MS - 1) == controls.NONE
    assert repeater.poll(1000 + controls.REPEAT_DELAY_MS) == controls.LEFT
    assert repeater.poll(1000 + controls.REPEAT_DELAY_MS + 1) == controls.NONE
    later = 1000 + controls.REPEAT_DELAY_MS + controls.REPEAT_EVERY_MS
    assert repeater.poll(later) == controls.LEFT
    repeater.release(controls.LEFT)
    assert repeater.poll(later + 10000) == controls.NONE


def test_a_desktops_keys_repeat_faster_than_a_boards_joystick():
    import sys

    from conftest import HW

    sys.path.insert(0, str(HW))
    import desktop

    repeater = controls.Repeater(desktop.KEY_REPEAT_DELAY_MS, desktop.KEY_REPEAT_EVERY_MS)
    repeater.press(controls.RIGHT, 0)
    repeats = [t for t in range(0, 1000, 5) if repeater.poll(t) == controls.RIGHT]
    assert repeats[:3] == [250, 290, 330] and len(repeats) == 19  # a board's: 6 in a second
    assert desktop.KEY_REPEAT_DELAY_MS < controls.REPEAT_DELAY_MS


def test_keypad_actions_map_board_keys_and_repeat_directions():
    # PyBadge key numbers: 1 = A, 7 = Left (PLATFORM.md)
    keys = FakeKeys([(1, True), (1, False), (7, True)])
    actions = controls.KeypadActions(keys, FakeEvent())
    assert actions.poll(0) == controls.A
    assert actions.poll(0) == controls.LEFT  # the release of A gives nothing
    assert actions.poll(controls.REPEAT_DELAY_MS) == controls.LEFT
    assert actions.finished is False


def test_an_overflowed_queue_leaves_no_direction_repeating():
    # Left is pressed; then the game is busy while more presses than the queue
    # holds arrive, and Left's release is among those lost.
    keys = FakeKeys([(7, True)], size=4)
    actions = controls.KeypadActions(keys, FakeEvent())
    assert actions.poll(0) == controls.LEFT
    for _ in range(3):
        keys.events.put(1, True)
        keys.events.put(1, False)
    keys.events.put(7, False)  # lost: the queue is full
    assert keys.events.overflowed
    assert actions.poll(10) == controls.NONE  # the lost events are dropped, not half-read
    assert keys.resets == 1 and not keys.events.overflowed and actions.overflows == 1
    for t in range(0, 5000, 50):  # and Left does not repeat for ever
        assert actions.poll(t) == controls.NONE
    keys.events.put(1, True)  # the keys work as before
    assert actions.poll(5000) == controls.A
