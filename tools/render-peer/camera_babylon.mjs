// babylon-mmd's MmdCamera state under a camera VMD at given frames (tools/render-peer investigation,
// docs/RENDER.md "Peer comparison"). Runs from the peers' folder (it uses their lib/):
//   DIR=$(/work/shared/peers/setup.sh); cp camera_babylon.mjs $DIR/ && node $DIR/camera_babylon.mjs CAMERA.vmd 0,600,2400
import { register } from 'node:module';
import { readArrayBuffer } from './lib/common.mjs';
register('./lib/ext-hooks.mjs', import.meta.url);
console.log = (...a) => console.error(...a);
const [camPath, framesArg] = process.argv.slice(2);
const { NullEngine } = await import('@babylonjs/core/Engines/nullEngine.js');
const { Scene } = await import('@babylonjs/core/scene.js');
const { Vector3 } = await import('@babylonjs/core/Maths/math.vector.js');
const { VmdLoader } = await import('babylon-mmd/esm/Loader/vmdLoader.js');
const { MmdRuntime } = await import('babylon-mmd/esm/Runtime/mmdRuntime.js');
const { MmdCamera } = await import('babylon-mmd/esm/Runtime/mmdCamera.js');
await import('babylon-mmd/esm/Runtime/Animation/mmdRuntimeCameraAnimation.js');
const engine = new NullEngine({ renderWidth: 320, renderHeight: 180 });
const scene = new Scene(engine);
const camera = new MmdCamera('c', new Vector3(0, 10, 0), scene);
const loader = new VmdLoader(scene);
loader.loggingEnabled = false;
const motion = await loader.loadFromBufferAsync('cam', readArrayBuffer(camPath));
const runtime = new MmdRuntime(scene);
runtime.addAnimatable(camera);
camera.setRuntimeAnimation(camera.createRuntimeAnimation(motion));
const out = [];
for (const f of framesArg.split(',').map(Number)) {
  await runtime.seekAnimation(f, true);
  runtime.afterPhysics?.();
  camera.computeWorldMatrix(true);
  out.push({ frame: f, target: camera.target.asArray(), distance: camera.distance, rotation: camera.rotation.asArray(),
             fov: camera.fov, position: camera.position.asArray(), globalPosition: camera.globalPosition.asArray() });
}
process.stdout.write(JSON.stringify(out, null, 1));
