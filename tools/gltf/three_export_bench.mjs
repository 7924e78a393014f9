// three.js r171 GLTFExporter on the same mesh as `mmdkit export`: MMDLoader builds the SkinnedMesh
// (geometry, bones, morphs) of a PMD/PMX and its AnimationClip from a VMD (keys at the VMD's
// keyframes, three's own Bezier interpolants), GLTFExporter writes a GLB; prints the median time
// of N runs and the size. Materials are replaced by one MeshStandardMaterial (three's MMD materials
// need DOM images), so no texture is written: the mmdkit figure includes the textures.
// Usage: node three_export_bench.mjs MODEL MOTION.vmd [-n 3] [--out f.glb]
import fs from 'node:fs';
import path from 'node:path';
import * as THREE from 'three';
import { MMDLoader } from 'three/examples/jsm/loaders/MMDLoader.js';
import { MMDParser } from 'three/examples/jsm/libs/mmdparser.module.js';
import { GLTFExporter } from 'three/examples/jsm/exporters/GLTFExporter.js';

// GLTFExporter reads its Blob back with FileReader, which Node lacks.
globalThis.FileReader ??= class {
  readAsArrayBuffer(blob) { blob.arrayBuffer().then((b) => { this.result = b; this.onloadend?.(); }); }
  readAsDataURL(blob) {
    blob.arrayBuffer().then((b) => {
      this.result = `data:${blob.type};base64,` + Buffer.from(b).toString('base64'); this.onloadend?.();
    });
  }
};
const origWarn = console.warn;
console.warn = (...a) => { if (!String(a[0]).includes('deprecated')) origWarn(...a); };

const args = process.argv.slice(2);
let runs = 3, out = null;
const files = [];
for (let i = 0; i < args.length; ++i) {
  if (args[i] === '-n') runs = +args[++i];
  else if (args[i] === '--out') out = args[++i];
  else files.push(args[i]);
}
const [modelPath, motionPath] = files;
if (!modelPath || !motionPath) { console.error('usage: node three_export_bench.mjs MODEL MOTION.vmd [-n N]'); process.exit(2); }
const ab = (p) => { const b = fs.readFileSync(p); return b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength); };
const parser = new MMDParser.Parser();
const loader = new MMDLoader();
loader.meshBuilder.materialBuilder.build = () => [];
const data = path.extname(modelPath).toLowerCase() === '.pmd' ? parser.parsePmd(ab(modelPath), true) : parser.parsePmx(ab(modelPath), true);
const mesh = loader.meshBuilder.build(data, '', undefined, (e) => { throw e; });
mesh.material = new THREE.MeshStandardMaterial();
let clip = loader.animationBuilder.build(parser.parseVmd(ab(motionPath), true), mesh);
// MMDLoader names morph tracks by index (.morphTargetInfluences[3]); GLTFExporter r171 looks the
// index up as a name and throws. Then the export runs again with the bone tracks only.
let failure = null;
try {
  await new GLTFExporter().parseAsync(mesh, { binary: true, animations: [clip] });
} catch (e) {
  failure = String(e.message ?? e);
  clip = new THREE.AnimationClip(clip.name, clip.duration, clip.tracks.filter((t) => !t.name.includes('morphTargetInfluences')));
}
const times = [];
let size = 0;
for (let i = 0; i < runs; ++i) {
  const t0 = performance.now();
  const glb = await new GLTFExporter().parseAsync(mesh, { binary: true, animations: [clip] });
  times.push(performance.now() - t0);
  size = glb.byteLength;
  if (out && i === 0) fs.writeFileSync(out, Buffer.from(glb));
}
times.sort((a, b) => a - b);
console.log(JSON.stringify({ lib: 'three.js r171 GLTFExporter', median_ms: times[Math.floor(times.length / 2)], bytes: size,
                             tracks: clip.tracks.length, with_morph_tracks_error: failure }));
