"""Long C++ calls release the GIL (issue 14: "GIL released while it works").

A worker thread runs the call; the main thread counts loop turns until the worker is done. With
the GIL held for the whole call, the main thread runs at most one switch interval (after the call
returns and before the worker sets `done`); with the GIL released it runs for the whole call. The
same count for a C call that holds the GIL (bytes repetition: a long memcpy) is the yardstick: a
call that releases the GIL gives many times more turns (10x is asserted; an idle machine gives
hundreds of times more). No clock is read, nothing is timed.
"""
from __future__ import annotations

import sys
import threading

import numpy as np
import pytest

import mmdkit
from conftest import MIKU, WAVEFILE, corpus_file

RATIO = 10


def turns_while(call):
    started, done = threading.Event(), threading.Event()
    box = {}

    def work():
        started.set()
        box["result"] = call()
        done.set()

    t = threading.Thread(target=work)
    t.start()
    started.wait()
    turns = 0
    while not done.is_set():
        turns += 1
    t.join()
    return turns, box["result"]


@pytest.fixture(scope="module")
def held_turns():
    """Turns while a C call that holds the GIL runs (switch interval 1 ms for every test here)."""
    old = sys.getswitchinterval()
    sys.setswitchinterval(0.001)
    try:
        yield max(turns_while(lambda: len(b"ab" * 200_000_000))[0], 1)
    finally:
        sys.setswitchinterval(old)


def test_evaluator_sample_releases_the_gil(held_turns):
    ev = mmdkit.Evaluator(corpus_file(MIKU), [corpus_file(WAVEFILE)])
    frames = np.arange(0.0, 2810.0, 0.25)            # 11,240 frames, four times: about a second
    turns, s = turns_while(lambda: [ev.sample(frames) for _ in range(4)][-1])
    assert s.matrices.shape[0] == len(frames)
    assert turns > RATIO * held_turns, (turns, held_turns)


def test_motion_reduce_releases_the_gil(held_turns):
    m = mmdkit.read(corpus_file(WAVEFILE))
    turns, r = turns_while(lambda: mmdkit.motion.reduce(m, tol_units=0.001, tol_deg=0.01))
    assert isinstance(r, mmdkit.Motion)
    assert turns > RATIO * held_turns, (turns, held_turns)
