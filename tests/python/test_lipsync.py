"""mmdkit.motion.lipsync (issue 31): a UST made here keys the generated model's vowel morphs at the
frames computed from its ticks; the per-frame weights come back as NumPy; samples of silence give
a closed mouth; audio from espeak-ng (skipped when absent) through the FFmpeg decoder."""
from __future__ import annotations

import shutil
import subprocess

import numpy as np
import pytest

import mmdkit
from conftest import cli_path

UST = ("[#SETTING]\nTempo=120\n[#0000]\nLength=480\nLyric=あ\n[#0001]\nLength=480\nLyric=お\n"
       "[#0002]\nLength=480\nLyric=R\n")


def model(tmp_path):
    p = tmp_path / "m.pmx"
    subprocess.run([str(cli_path()), "generate", "pmx", "-o", str(p), "--shape", "figure"], check=True,
                   capture_output=True)
    return p


def test_score_keys_and_weights(tmp_path):
    m = model(tmp_path)
    ust = tmp_path / "s.ust"
    ust.write_text(UST, encoding="utf-8")
    motion, weights, rep = mmdkit.motion.lipsync(ust, m, lead_ms=100, report=True)
    assert rep["source"] == "score" and rep["notes"] == 3
    assert weights.dtype == np.float32 and weights.shape[1] == 6
    # お at 0.5 s, 100 ms early: frame 15 - 3 = 12, full weight; あ full at frame 0.
    assert weights[12, 4] == 1.0 and weights[12, 0] == 0.0 and weights[0, 0] == 1.0
    out = tmp_path / "lips.vmd"
    mmdkit.write(motion, out)
    assert out.stat().st_size > 0


def test_silent_samples_closed(tmp_path):
    m = model(tmp_path)
    motion, weights, rep = mmdkit.motion.lipsync(np.zeros(32000, np.float32), m, sample_rate=16000, report=True)
    assert rep["silent"]
    assert weights.shape == (61, 6)
    assert np.all(weights[:, :5] == 0) and np.all(weights[:, 5] == 1)


def test_model_without_vowels_is_an_error(tmp_path):
    m = model(tmp_path)
    with pytest.raises(mmdkit.Error):
        mmdkit.motion.lipsync(np.zeros(1600, np.float32), m, sample_rate=16000, map={"a": "no such morph"})


@pytest.mark.skipif(shutil.which("espeak-ng") is None, reason="espeak-ng (Debian package) makes the test speech")
def test_audio_file(tmp_path):
    m = model(tmp_path)
    wav = tmp_path / "a.wav"
    subprocess.run(["espeak-ng", "-v", "ja", "-w", str(wav), "あーあー"], check=True)
    motion, weights, rep = mmdkit.motion.lipsync(wav, m, report=True)
    assert rep["source"] == "audio" and not rep["silent"]
    # The strongest shape over the open frames is あ.
    open_rows = weights[weights[:, :5].sum(axis=1) > 0.3, :5]
    assert len(open_rows) > 5
    assert np.bincount(open_rows.argmax(axis=1), minlength=5).argmax() == 0


def test_noise_is_called_poor(tmp_path):
    m = model(tmp_path)
    rng = np.random.default_rng(3)
    _, weights, rep = mmdkit.motion.lipsync(rng.normal(0, 0.1, 48000).astype(np.float32), m, sample_rate=16000,
                                            report=True)
    assert not rep["silent"] and rep["poor"] and rep["voice_energy_fraction"] < 0.35
    assert weights.shape == (91, 6)
