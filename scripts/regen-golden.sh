#!/bin/sh
# Regenerates the golden images of `mmdkit render` (tests/render/golden/*.png, compared by
# tests/cli/render_golden_test.cpp with a PSNR bound; docs/RENDER.md "Golden images") on llvmpipe,
# after an intended change of the look. Review the new images (git diff shows them changed) and
# commit them with the change.
# Usage: sh scripts/regen-golden.sh
set -eu
cd "$(dirname "$0")/.."
cmake --preset default >/dev/null
cmake --build --preset default --target mmdkit_cli mmdkit_test_cli -j 2
MMDKIT_REGEN_GOLDEN=1 MMDKIT_RENDER_SOFTWARE=1 ctest --preset default -R '^cli\.RenderGolden\.' --output-on-failure
ls -l tests/render/golden/
