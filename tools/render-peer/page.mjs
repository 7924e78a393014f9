// babylon-mmd's MMD look in the browser: miku_v2 + wavefile_v2 + wavefile_camera, drawn on demand.
// Loaded by page.html (served by run.mjs); run.mjs calls window.peerSetup() then
// window.peerFrame(frame) for each frame and reads the PNG data URL it returns.
// Setup follows babylon-mmd's documented example (README "How to use"), with MMD's default light
// direction (-0.5, -1, 0.5); no physics (mmdkit renders with --no-physics too), no shadows.
import { Engine } from "@babylonjs/core/Engines/engine.js";
import { Scene } from "@babylonjs/core/scene.js";
import { Color3, Color4 } from "@babylonjs/core/Maths/math.color.js";
import { Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import { DirectionalLight } from "@babylonjs/core/Lights/directionalLight.js";
import { HemisphericLight } from "@babylonjs/core/Lights/hemisphericLight.js";
import { LoadAssetContainerAsync } from "@babylonjs/core/Loading/sceneLoader.js";
import "@babylonjs/core/Materials/standardMaterial.js";
import "babylon-mmd/esm/Loader/pmdLoader";
import { MmdStandardMaterialBuilder } from "babylon-mmd/esm/Loader/mmdStandardMaterialBuilder";
import "babylon-mmd/esm/Loader/mmdOutlineRenderer";
import "babylon-mmd/esm/Runtime/Animation/mmdRuntimeCameraAnimation";
import "babylon-mmd/esm/Runtime/Animation/mmdRuntimeModelAnimation";
import { SdefInjector } from "babylon-mmd/esm/Loader/sdefInjector";
import { VmdLoader } from "babylon-mmd/esm/Loader/vmdLoader";
import { MmdCamera } from "babylon-mmd/esm/Runtime/mmdCamera";
import { MmdRuntime } from "babylon-mmd/esm/Runtime/mmdRuntime";
import { MmdStandardMaterialProxy } from "babylon-mmd/esm/Runtime/mmdStandardMaterialProxy";

let state = null;

window.peerSetup = async (p) => {
  const canvas = document.getElementById("c");
  canvas.width = p.width;
  canvas.height = p.height;
  const engine = new Engine(canvas, true, { preserveDrawingBuffer: true, stencil: true, antialias: true }, false);
  engine.setHardwareScalingLevel(1);
  SdefInjector.OverrideEngineCreateEffect(engine);
  const scene = new Scene(engine);
  scene.clearColor = new Color4(1, 1, 1, 1);
  scene.ambientColor = new Color3(1, 1, 1);
  const camera = new MmdCamera("mmdCamera", new Vector3(0, 10, 0), scene);
  const hemi = new HemisphericLight("hemi", new Vector3(0, 1, 0), scene);
  hemi.intensity = 0.3;
  hemi.specular = new Color3(0, 0, 0);
  hemi.groundColor = new Color3(1, 1, 1);
  const dir = new DirectionalLight("dir", new Vector3(-0.5, -1, 0.5), scene);
  dir.intensity = 0.7;
  const container = await LoadAssetContainerAsync(p.model, scene, { pluginOptions: { mmdmodel: { loggingEnabled: false, materialBuilder: new MmdStandardMaterialBuilder() } } });
  container.addAllToScene();
  const mesh = container.meshes[0];
  const loader = new VmdLoader(scene);
  loader.loggingEnabled = false;
  const motion = await loader.loadAsync("motion", p.motion);
  const cameraMotion = await loader.loadAsync("camera", p.camera);
  const runtime = new MmdRuntime(scene);
  runtime.loggingEnabled = false;
  runtime.register(scene);
  runtime.addAnimatable(camera);
  camera.setRuntimeAnimation(camera.createRuntimeAnimation(cameraMotion));
  const model = runtime.createMmdModel(mesh, { materialProxyConstructor: MmdStandardMaterialProxy });
  model.setRuntimeAnimation(model.createRuntimeAnimation(motion));
  await scene.whenReadyAsync();
  state = { engine, scene, runtime, canvas };
  return { meshes: container.meshes.length, materials: container.materials.length, textures: container.textures.length };
};

window.peerFrame = async (frame) => {
  const { scene, runtime, canvas } = state;
  await runtime.seekAnimation(frame, true);
  scene.render();
  await scene.whenReadyAsync();
  scene.render();
  return canvas.toDataURL("image/png");
};
