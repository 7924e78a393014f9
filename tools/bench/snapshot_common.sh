# What eval_snapshot.sh and outputs_snapshot.sh share (sourced by them, after `set -eu`): their
# arguments (bin = MMDKIT_BINARY, out = OUT_DIR, made if missing, before = BEFORE_DIR or empty),
# corpus ($MMDKIT_CORPUS, default /work/shared/corpus) and the model + motion pairs in it (miku,
# wave, mei, greet, pmx, pmx_motion).
bin=$1
out=$2
before=${3:-}
mkdir -p "$out"
corpus=${MMDKIT_CORPUS:-/work/shared/corpus}
miku="$corpus/jomin398__jomin398.github.io/docs/assets/models/mmd/miku_v2/miku_v2.pmd"
wave="$corpus/moeru-ai__three-mmd/examples/vanilla/src/assets/vmds/wavefile_v2.vmd"
mei="$corpus/mmdagent__mmdagent-mirror/MMDAgent_Example/Model/mei/mei.pmd"
greet="$corpus/mmdagent__mmdagent-mirror/MMDAgent_Example/Motion/mei_greeting/mei_greeting.vmd"
pmx="$corpus/miu200521358__mmd_base/test/resources/サンプルモデル.pmx"
pmx_motion="$corpus/miu200521358__mmd_base/tests/resources/サンプルモーション2.vmd"
