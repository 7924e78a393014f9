// Compares three_sample.mjs output (glTF space, metres) with `mmdkit sample --morphs` JSON (MMD
// space, MMD units): joint world positions after (x, y, z) → (x, y, −z) × scale, and the weight of
// each morph target against its model morph. Prints the largest differences; exits 1 when a
// position differs by more than --tol metres (default 1e-4) or a weight by more than --wtol (1e-4).
// Usage: node compare_sample.mjs THREE.json SAMPLE.json [--scale 0.08] [--tol 1e-4] [--wtol 1e-4]
import fs from 'node:fs';

const args = process.argv.slice(2);
const files = [];
let scale = 0.08, tol = 1e-4, wtol = 1e-4;
for (let i = 0; i < args.length; ++i) {
  if (args[i] === '--scale') scale = +args[++i];
  else if (args[i] === '--tol') tol = +args[++i];
  else if (args[i] === '--wtol') wtol = +args[++i];
  else files.push(args[i]);
}
if (files.length !== 2) { console.error('usage: node compare_sample.mjs THREE.json SAMPLE.json [--scale S] [--tol T]'); process.exit(2); }
const three = JSON.parse(fs.readFileSync(files[0], 'utf8'));
const mmd = JSON.parse(fs.readFileSync(files[1], 'utf8'));
const byFrame = new Map(mmd.frames.map((f) => [f.frame, f]));
let maxPos = 0, maxW = 0, where = '', whereW = '', joints = 0, weights = 0, maxCam = 0, maxDir = 0, cams = 0;
for (const tf of three.frames) {
  const mf = byFrame.get(tf.frame);
  if (!mf) { console.error(`frame ${tf.frame} missing in ${files[1]}`); process.exit(1); }
  for (const b of mf.bones) {
    const p = tf.joints[b.index];
    const e = Math.hypot(p[0] - b.position[0] * scale, p[1] - b.position[1] * scale, p[2] + b.position[2] * scale);
    ++joints;
    if (!(e <= maxPos)) { maxPos = e; where = `frame ${tf.frame} bone ${b.index} ${b.name}`; }
  }
  if (tf.camera && mf.camera) {
    // MMD: the eye looks along R·(0, 0, 1), towards the target when the distance is negative.
    const c = mf.camera, p = tf.camera.position, d = tf.camera.direction;
    maxCam = Math.max(maxCam, Math.hypot(p[0] - c.position[0] * scale, p[1] - c.position[1] * scale, p[2] + c.position[2] * scale));
    const t = [c.target[0] - c.position[0], c.target[1] - c.position[1], -(c.target[2] - c.position[2])];
    const n = Math.hypot(...t) * (c.distance < 0 ? 1 : -1);
    if (Math.abs(n) > 1e-6) maxDir = Math.max(maxDir, Math.hypot(d[0] - t[0] / n, d[1] - t[1] / n, d[2] - t[2] / n));
    ++cams;
  }
  const morphs = new Map((mf.morphs ?? []).map((m) => [m.index, m.weight]));
  three.targetMorphs.forEach((m, k) => {
    if (!morphs.has(m)) return;
    const e = Math.abs(tf.targets[k] - morphs.get(m));
    ++weights;
    if (!(e <= maxW)) { maxW = e; whereW = `frame ${tf.frame} morph ${m}`; }
  });
}
console.log(`${three.frames.length} frames, ${joints} joint positions: max ${maxPos.toExponential(3)} m (${where}); ` +
            `${weights} morph weights: max ${maxW.toExponential(3)} (${whereW})`);
if (cams > 0) console.log(`${cams} camera poses: position max ${maxCam.toExponential(3)} m, view direction max ${maxDir.toExponential(3)}`);
const ok = maxPos <= tol && maxW <= wtol && joints > 0 && maxCam <= tol && maxDir <= 1e-4;
console.log(ok ? '1 passed, 0 failed' : '0 passed, 1 failed');
process.exit(ok ? 0 : 1);
