"""What a new user hit in Python (issue: files the project had never seen): the module's namespace
holds its API only, and an Evaluator's warnings hold every warning the CLI prints for the same
inputs (the unmatched tracks were only in ``unmatched_messages``)."""
from __future__ import annotations

import subprocess

import mmdkit


def test_dir_shows_the_api_only():
    names = dir(mmdkit)
    for helper in ("List", "Optional", "Union", "os", "dataclass", "annotations"):
        assert helper not in names
    assert set(names) == set(mmdkit.__all__) | {"__version__"}
    for name in mmdkit.__all__:  # every advertised name is there
        assert hasattr(mmdkit, name), name


def test_submodules_show_their_api_only():
    for module in (mmdkit.motion, mmdkit.dataset, mmdkit.joints, mmdkit.errors):
        names = dir(module)
        assert set(names) == set(module.__all__), module.__name__
        for helper in ("np", "os", "Any", "Dict", "Optional", "annotations"):
            assert helper not in names, (module.__name__, helper)


def test_evaluator_warnings_include_the_unmatched_tracks(tmp_path):
    from conftest import cli_path
    m, std = tmp_path / "m.pmx", tmp_path / "std.vmd"
    # The standard names: bones and morphs the generated model lacks (as tests/cli/unmatched_cli_test).
    for args in (["pmx", "--vertices", "40", "--morphs", "3", "-o", str(m)],
                 ["vmd", "--bone-keys", "100", "--morph-keys", "32", "--frames", "20", "-o", str(std)]):
        assert subprocess.run([str(cli_path()), "generate", *args], capture_output=True).returncode == 0
    s = subprocess.run([str(cli_path()), "sample", str(m), str(std), "-o", str(tmp_path / "s.json")],
                       capture_output=True, text=True)
    assert s.returncode == 0, s.stderr
    cli_lines = [line[len("mmdkit: warning: "):] for line in s.stderr.splitlines()
                 if line.startswith("mmdkit: warning: ") and "match no" in line]
    assert len(cli_lines) == 2  # bones, then morphs

    ev = mmdkit.Evaluator(str(m), [str(std)], geometry=False)
    unmatched = [w for w in ev.warnings if w["code"] == "unmatched_tracks"]
    assert [w["text"] for w in unmatched] == cli_lines == ev.unmatched_messages
    assert all(w["file"] == str(std) for w in unmatched)
    assert all(w["text"] == f"{w['file']}: {w['message']}" for w in unmatched)
