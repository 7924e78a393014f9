"""pytest setup for the Python module: where the corpus is, and skipping without it.

The module is imported from the build tree: scripts/run-tests.sh and ctest put
build/<preset>/python on PYTHONPATH (docs/PYTHON.md).
"""
from __future__ import annotations

import csv
import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def corpus_dir():
    """$MMDKIT_CORPUS, else ../shared/corpus beside the repository; None when absent."""
    d = Path(os.environ.get("MMDKIT_CORPUS", ROOT.parent / "shared" / "corpus"))
    return d if (d / "MANIFEST.tsv").is_file() else None


def corpus_files(*kinds):
    """Paths of the MANIFEST.tsv entries of these kinds (empty without corpus)."""
    d = corpus_dir()
    if d is None:
        return []
    with open(d / "MANIFEST.tsv", newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f, delimiter="\t"))
    return [d / r["local_path"] for r in rows if r["kind"] in kinds]


def corpus_file(local_path):
    d = corpus_dir()
    if d is None:
        pytest.skip("real-file corpus not found (set MMDKIT_CORPUS; default ../shared/corpus)")
    p = d / local_path
    if not p.is_file():
        pytest.skip(f"corpus file {local_path} not found")
    return p


def require_corpus():
    if corpus_dir() is None:
        pytest.skip("real-file corpus not found (set MMDKIT_CORPUS; default ../shared/corpus)")


MIKU = "jomin398__jomin398.github.io/docs/assets/models/mmd/miku_v2/miku_v2.pmd"
WAVEFILE = "moeru-ai__three-mmd/examples/vanilla/src/assets/vmds/wavefile_v2.vmd"
MEI = "mmdagent__mmdagent-mirror/MMDAgent_Example/Model/mei/mei.pmd"


def cli_path():
    """The built mmdkit executable ($MMDKIT_CLI, else build/default/mmdkit)."""
    p = Path(os.environ.get("MMDKIT_CLI", ROOT / "build" / "default" / "mmdkit"))
    if not p.is_file():
        pytest.skip(f"mmdkit executable not found at {p} (set MMDKIT_CLI)")
    return p


@pytest.fixture(scope="module")
def gl():
    """What draws (mmdkit.render.context_info()); the test is skipped without OpenGL."""
    import mmdkit
    try:
        return mmdkit.render.context_info()
    except mmdkit.RenderError as e:
        pytest.skip(f"no OpenGL: {e}")


def pytest_configure(config):
    # distributed 2022.12 with Debian's tornado 6.2 warns about its own event loop use
    config.addinivalue_line("filterwarnings", "ignore:make_current is deprecated:DeprecationWarning")
    config.addinivalue_line("filterwarnings", "ignore:There is no current event loop:DeprecationWarning")
