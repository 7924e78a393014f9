// Plays a GLB with three.js r171's GLTFLoader + AnimationMixer in Node (no browser, no WebGL) and
// prints, per requested 30-fps frame, the world position of every joint of the first skin (in
// joint order) and the morph target influences of the skinned mesh, as JSON:
//   {targetMorphs: [model morph index per target], frames: [{frame, joints: [[x,y,z], ...], targets: [w, ...],
//    camera: {position, direction} (when the file has a camera)}]}
// Usage: node three_sample.mjs FILE.glb --frames 0,10,20|0-300:10 [--fps 30] [--out f.json]
// Textures are removed before loading (three's TextureLoader needs a DOM); nothing else is changed.
import fs from 'node:fs';
import * as THREE from 'three';
import { GLTFLoader } from 'three/examples/jsm/loaders/GLTFLoader.js';

const args = process.argv.slice(2);
let file = null, framesArg = '0', out = null;
for (let i = 0; i < args.length; ++i) {
  if (args[i] === '--frames') framesArg = args[++i];
  else if (args[i] === '--out') out = args[++i];
  else file = args[i];
}
if (!file) { console.error('usage: node three_sample.mjs FILE.glb --frames LIST [--out f.json]'); process.exit(2); }
const frames = [];
for (const part of framesArg.split(',')) {
  const m = part.match(/^(\d+(?:\.\d+)?)-(\d+(?:\.\d+)?)(?::(\d+(?:\.\d+)?))?$/);
  if (m) { for (let f = +m[1]; f <= +m[2] + 1e-9; f += m[3] ? +m[3] : 1) frames.push(f); } else frames.push(+part);
}

// GLB → JSON + BIN, textures dropped, GLB again.
const b = fs.readFileSync(file);
const jsonLen = b.readUInt32LE(12);
const json = JSON.parse(b.subarray(20, 20 + jsonLen).toString('utf8'));
const bin = b.subarray(20 + jsonLen + 8);
delete json.images; delete json.textures; delete json.samplers;
for (const m of json.materials ?? []) { if (m.pbrMetallicRoughness) delete m.pbrMetallicRoughness.baseColorTexture; }
let text = Buffer.from(JSON.stringify(json), 'utf8');
text = Buffer.concat([text, Buffer.alloc((4 - (text.length % 4)) % 4, 0x20)]);
const header = Buffer.alloc(20);
header.writeUInt32LE(0x46546c67, 0); header.writeUInt32LE(2, 4);
header.writeUInt32LE(20 + text.length + 8 + bin.length, 8);
header.writeUInt32LE(text.length, 12); header.writeUInt32LE(0x4e4f534a, 16);
const binHeader = Buffer.alloc(8);
binHeader.writeUInt32LE(bin.length, 0); binHeader.writeUInt32LE(0x004e4942, 4);
const glb = Buffer.concat([header, text, binHeader, bin]);
const ab = glb.buffer.slice(glb.byteOffset, glb.byteOffset + glb.byteLength);

const gltf = await new Promise((resolve, reject) => new GLTFLoader().parse(ab, '', resolve, reject));
let skinned = null;
gltf.scene.traverse((o) => { if (!skinned && o.isSkinnedMesh) skinned = o; });
if (!skinned) { console.error('no skinned mesh'); process.exit(1); }
const mixer = new THREE.AnimationMixer(gltf.scene);
if (gltf.animations.length > 0) {
  const action = mixer.clipAction(gltf.animations[0]);
  action.setLoop(THREE.LoopOnce, 1);
  action.clampWhenFinished = true;
  action.play();
}
const result = { targetMorphs: json.meshes?.[0]?.extras?.mmd?.targetMorphs ?? [], frames: [] };
const v = new THREE.Vector3();
for (const f of frames) {
  mixer.setTime(f / 30);
  gltf.scene.updateMatrixWorld(true);
  const joints = skinned.skeleton.bones.map((bone) => { bone.getWorldPosition(v); return [v.x, v.y, v.z]; });
  const rec = { frame: f, joints, targets: Array.from(skinned.morphTargetInfluences ?? []) };
  if (gltf.cameras.length > 0) {
    const cam = gltf.cameras[0];
    const d = new THREE.Vector3();
    cam.getWorldPosition(v);
    cam.getWorldDirection(d);  // a camera looks along its local -Z
    rec.camera = { position: [v.x, v.y, v.z], direction: [d.x, d.y, d.z] };
  }
  result.frames.push(rec);
}
const s = JSON.stringify(result);
if (out) fs.writeFileSync(out, s); else process.stdout.write(s + '\n');
