// Runs the Khronos glTF-Validator (npm gltf-validator) on each file given; prints one line per file
// (errors, warnings, infos, hints, and the messages of the first two kinds) and exits 1 when any
// file has an error or a warning, 2 on usage. `--json OUT` writes the full reports.
import fs from 'node:fs';
import path from 'node:path';
import validator from 'gltf-validator';

const args = process.argv.slice(2);
let jsonOut = null;
const files = [];
for (let i = 0; i < args.length; ++i) {
  if (args[i] === '--json') jsonOut = args[++i];
  else files.push(args[i]);
}
if (files.length === 0) {
  console.error('usage: node validate.mjs [--json report.json] FILE.glb|FILE.gltf ...');
  process.exit(2);
}
let bad = 0;
const reports = [];
for (const file of files) {
  const data = new Uint8Array(fs.readFileSync(file));
  const report = await validator.validateBytes(data, {
    uri: path.basename(file),
    maxIssues: 0,
    externalResourceFunction: (uri) => Promise.reject(new Error(`external resource ${uri} not allowed`)),
  });
  const n = report.issues;
  reports.push(report);
  console.log(`${file}: ${n.numErrors} errors, ${n.numWarnings} warnings, ${n.numInfos} infos, ${n.numHints} hints`);
  for (const m of n.messages) {
    if (m.severity <= 1) console.log(`  ${m.severity === 0 ? 'error' : 'warning'} ${m.code} ${m.pointer ?? ''}: ${m.message}`);
  }
  if (n.numErrors > 0 || n.numWarnings > 0) ++bad;
}
if (jsonOut) fs.writeFileSync(jsonOut, JSON.stringify(reports, null, 1));
console.log(`${files.length - bad} passed, ${bad} failed`);
process.exit(bad > 0 ? 1 : 0);
