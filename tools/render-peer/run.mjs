#!/usr/bin/env node
// Peer comparison of `mmdkit render` (issue 12; not in CI): the same frames of miku_v2.pmd under
// wavefile_v2.vmd with wavefile_camera.vmd, drawn by mmdkit and by babylon-mmd's MMD material
// (MmdStandardMaterial + outline) in headless Chromium, with SSIM per frame.
//
//   cd tools/render-peer && npm ci && node run.mjs [--mmdkit ../../build/default/mmdkit]
//        [--frames 0,300,600] [--size 640x360] [--out ../../build/render-peer] [--corpus DIR]
//
// Writes OUT/ours_F.png, OUT/babylon_F.png, OUT/pair_F.png (ours left, babylon-mmd right) and
// OUT/ssim.tsv; prints a Markdown table (docs/RENDER.md "Peer comparison"). Both sides: no
// physics, no shadows (babylon-mmd's example scene has none), edges on, white background, 4x MSAA
// (mmdkit) / the browser's antialiasing. Chromium runs as cpp.md describes for this machine:
// --headless --no-sandbox --disable-gpu and the background-networking flags; WebGL comes from
// SwiftShader (--use-angle=swiftshader --enable-unsafe-swiftshader).
// SSIM: Wang et al. 2004 on luma (BT.601), 11x11 Gaussian window, sigma 1.5, K1 0.01, K2 0.03.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";
import { PNG } from "pngjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const args = Object.fromEntries(
  process.argv.slice(2).reduce((acc, a, i, all) => (a.startsWith("--") ? [...acc, [a.slice(2), all[i + 1]]] : acc), []));
const mmdkit = path.resolve(args.mmdkit ?? path.join(here, "../../build/default/mmdkit"));
const corpus = path.resolve(args.corpus ?? process.env.MMDKIT_CORPUS ?? "/work/shared/corpus");
const out = path.resolve(args.out ?? path.join(here, "../../build/render-peer"));
const [width, height] = (args.size ?? "640x360").split("x").map(Number);
const frames = (args.frames ?? "0,150,300,600,900,1200,1500,1800,2100,2400,2700").split(",").map(Number);
const rel = {
  model: "jomin398__jomin398.github.io/docs/assets/models/mmd/miku_v2/miku_v2.pmd",
  motion: "moeru-ai__three-mmd/examples/vanilla/src/assets/vmds/wavefile_v2.vmd",
  camera: "moeru-ai__three-mmd/examples/vanilla/src/assets/vmds/wavefile_camera.vmd",
};
fs.mkdirSync(out, { recursive: true });

// --- static server: this folder (page, node_modules) and the corpus under /corpus/ ---------------
const types = { ".html": "text/html", ".mjs": "text/javascript", ".js": "text/javascript", ".json": "application/json" };
function resolveFile(url) {
  const p = decodeURIComponent(new URL(url, "http://x").pathname);
  const base = p.startsWith("/corpus/") ? path.join(corpus, p.slice(8)) : path.join(here, p);
  // babylon-mmd's ESM imports omit ".js" (Node needs a loader hook for that; the browser a server that adds it).
  for (const c of [base, base + ".js", path.join(base, "index.js")])
    if (fs.existsSync(c) && fs.statSync(c).isFile()) return c;
  return null;
}
const server = http.createServer((req, res) => {
  const f = resolveFile(req.url);
  if (!f) {
    console.error("404", req.url);
    res.writeHead(404).end();
    return;
  }
  res.writeHead(200, { "content-type": types[path.extname(f)] ?? "application/octet-stream" });
  if (f.endsWith(".js") && f.includes(`${path.sep}babylon-mmd${path.sep}`)) {
    // Give babylon-mmd's extension-less specifiers the file they mean, so that each module has one
    // URL (one instance: the scene loader's plugin registry, instanceof checks).
    const dir = path.dirname(f);
    const fix = (spec) => {
      if (path.extname(spec) === ".js" || !(spec.startsWith(".") || spec.startsWith("@babylonjs/core/") || spec.startsWith("babylon-mmd/")))
        return spec;
      const abs = spec.startsWith(".") ? path.join(dir, spec)
        : path.join(here, "node_modules", spec);
      if (fs.existsSync(abs + ".js")) return spec + ".js";
      if (fs.existsSync(path.join(abs, "index.js"))) return spec + "/index.js";
      return spec;
    };
    const src = fs.readFileSync(f, "utf8").replace(/((?:import|export)\s[^'"]*?from\s*|import\s*\(?\s*)(["'])([^"']+)\2/g,
                                                 (_, a, q, spec) => `${a}${q}${fix(spec)}${q}`);
    res.end(src);
    return;
  }
  fs.createReadStream(f).pipe(res);
});
await new Promise((r) => server.listen(0, "127.0.0.1", r));
const origin = `http://127.0.0.1:${server.address().port}`;

// --- babylon-mmd in headless Chromium --------------------------------------------------------------
const userData = fs.mkdtempSync(path.join(out, "chromium-"));
const browser = await chromium.launchPersistentContext(userData, {
  executablePath: "/usr/bin/chromium",
  headless: true,
  viewport: { width, height },
  args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--use-angle=swiftshader", "--enable-unsafe-swiftshader",
         "--ignore-gpu-blocklist"],
});
const page = browser.pages()[0] ?? (await browser.newPage());
page.on("pageerror", (e) => console.error("page error:", e.message));
page.on("console", (m) => { if (m.type() === "error") console.error("page console:", m.text()); });
page.setDefaultTimeout(600000);
await page.goto(`${origin}/page.html`, { waitUntil: "domcontentloaded", timeout: 300000 });
await page.waitForFunction(() => typeof window.peerSetup === "function", null, { timeout: 600000 });
const info = await page.evaluate((p) => window.peerSetup(p), {
  width, height, model: `/corpus/${rel.model}`, motion: `/corpus/${rel.motion}`, camera: `/corpus/${rel.camera}`,
});
console.error("babylon-mmd scene:", JSON.stringify(info));
const decode = (file) => PNG.sync.read(fs.readFileSync(file));
for (const f of frames) {
  const url = await page.evaluate((fr) => window.peerFrame(fr), f);
  fs.writeFileSync(path.join(out, `babylon_${f}.png`), Buffer.from(url.split(",")[1], "base64"));
}
await browser.close();
server.close();
fs.rmSync(userData, { recursive: true, force: true });

// --- mmdkit ------------------------------------------------------------------------------------------
for (const f of frames)
  execFileSync(mmdkit, ["render", path.join(corpus, rel.model), path.join(corpus, rel.motion), "--camera",
                        path.join(corpus, rel.camera), "--frame", String(f), "--size", `${width}x${height}`, "--no-physics",
                        "--no-shadow", "-q", "--force", "-o", path.join(out, `ours_${f}.png`)], { stdio: ["ignore", "ignore", "inherit"] });

// --- SSIM ----------------------------------------------------------------------------------------------
function luma(png) {
  const y = new Float64Array(png.width * png.height);
  for (let i = 0; i < y.length; ++i) {
    const a = png.data[i * 4 + 3] / 255;  // composite on white (the canvas may keep alpha)
    const c = (k) => png.data[i * 4 + k] * a + 255 * (1 - a);
    y[i] = 0.299 * c(0) + 0.587 * c(1) + 0.114 * c(2);
  }
  return y;
}
function blur(src, w, h) {
  const r = 5, sigma = 1.5, k = [];
  let s = 0;
  for (let i = -r; i <= r; ++i) s += (k[i + r] = Math.exp(-(i * i) / (2 * sigma * sigma)));
  for (let i = 0; i < k.length; ++i) k[i] /= s;
  const tmp = new Float64Array(w * h), dst = new Float64Array(w * h);
  for (let y = 0; y < h; ++y)
    for (let x = 0; x < w; ++x) {
      let v = 0;
      for (let i = -r; i <= r; ++i) v += k[i + r] * src[y * w + Math.min(w - 1, Math.max(0, x + i))];
      tmp[y * w + x] = v;
    }
  for (let y = 0; y < h; ++y)
    for (let x = 0; x < w; ++x) {
      let v = 0;
      for (let i = -r; i <= r; ++i) v += k[i + r] * tmp[Math.min(h - 1, Math.max(0, y + i)) * w + x];
      dst[y * w + x] = v;
    }
  return dst;
}
function ssim(a, b, w, h) {
  const C1 = (0.01 * 255) ** 2, C2 = (0.03 * 255) ** 2;
  const mul = (p, q) => p.map((v, i) => v * q[i]);
  const ma = blur(a, w, h), mb = blur(b, w, h);
  const saa = blur(mul(a, a), w, h), sbb = blur(mul(b, b), w, h), sab = blur(mul(a, b), w, h);
  let sum = 0;
  for (let i = 0; i < a.length; ++i) {
    const va = saa[i] - ma[i] * ma[i], vb = sbb[i] - mb[i] * mb[i], cov = sab[i] - ma[i] * mb[i];
    sum += ((2 * ma[i] * mb[i] + C1) * (2 * cov + C2)) / ((ma[i] ** 2 + mb[i] ** 2 + C1) * (va + vb + C2));
  }
  return sum / a.length;
}
const rows = ["frame\tssim"];
console.log("| frame | SSIM (luma) |\n|---|---|");
for (const f of frames) {
  const A = decode(path.join(out, `ours_${f}.png`)), B = decode(path.join(out, `babylon_${f}.png`));
  if (A.width !== B.width || A.height !== B.height) throw new Error(`frame ${f}: sizes differ`);
  const v = ssim(luma(A), luma(B), A.width, A.height);
  rows.push(`${f}\t${v.toFixed(4)}`);
  console.log(`| ${f} | ${v.toFixed(3)} |`);
  const pair = new PNG({ width: A.width * 2, height: A.height });
  for (let y = 0; y < A.height; ++y) {
    A.data.copy(pair.data, y * pair.width * 4, y * A.width * 4, (y + 1) * A.width * 4);
    B.data.copy(pair.data, (y * pair.width + A.width) * 4, y * A.width * 4, (y + 1) * A.width * 4);
  }
  fs.writeFileSync(path.join(out, `pair_${f}.png`), PNG.sync.write(pair));
}
fs.writeFileSync(path.join(out, "ssim.tsv"), rows.join("\n") + "\n");
console.error(`wrote ${out}/ssim.tsv and pair_F.png (mmdkit left, babylon-mmd right)`);
