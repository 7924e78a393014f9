"""The Python module sits on the library alone (issue 29): its extension holds no code of the CLI
(namespace mmdkit::cli), and what it knows of formats comes from the library's registry
(mmdkit/formats/registry.hpp), which the CLI uses too."""
import shutil
import subprocess

import pytest

import mmdkit
from mmdkit import _mmdkit


def test_extension_holds_no_cli_code():
    nm = shutil.which("nm")
    if nm is None:
        pytest.skip("nm (binutils) is not installed")
    out = subprocess.run([nm, "-C", _mmdkit.__file__], capture_output=True, text=True, check=True).stdout
    assert "mmdkit::formats::vmd_ops" in out  # the registry is linked in ...
    assert "mmdkit::cli::" not in out  # ... and nothing of the CLI


def test_sniff_uses_the_registry_names():
    vmd = b"Vocaloid Motion Data 0002" + bytes(55)
    assert _mmdkit.sniff(vmd) == "vmd"
    assert _mmdkit.sniff(b'{"format": "pmx"}') == "pmx-json"
