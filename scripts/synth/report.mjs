#!/usr/bin/env node
// Collects the synthesis summaries written by the synth:<name> tests (<build>/synth/*.json, see
// cmake/DlaRtlChecks.cmake and synth.mjs --json) into a markdown table on stdout, for the docs.
//   node scripts/synth/report.mjs [BUILD_DIR | BUILD_DIR/synth | file.json ...]   (default: build)
// Failed runs stay in the table with status `error` or `latch`. Exit status: 0 table printed,
// 2 no summaries found or one is unreadable.

import fs from 'node:fs';
import path from 'node:path';
import process from 'node:process';

const args = process.argv.slice(2);
if (args.includes('-h') || args.includes('--help')) {
  process.stdout.write('usage: node scripts/synth/report.mjs [BUILD_DIR | BUILD_DIR/synth | file.json ...]\n');
  process.exit(0);
}

function jsonFilesOf(arg) {
  let st;
  try { st = fs.statSync(arg); } catch {
    process.stderr.write(`report: error: '${arg}' does not exist\n`);
    process.exit(2);
  }
  if (st.isFile()) return [arg];
  const dir = fs.existsSync(path.join(arg, 'synth')) && fs.statSync(path.join(arg, 'synth')).isDirectory()
    ? path.join(arg, 'synth') : arg;
  return fs.readdirSync(dir).filter((f) => f.endsWith('.json')).sort().map((f) => path.join(dir, f));
}

const files = (args.length ? args : ['build']).flatMap(jsonFilesOf);
if (files.length === 0) {
  process.stderr.write(`report: error: no synthesis summaries (*.json) in ${args.join(' ') || 'build'}; ` +
                       'run `ctest -L synth` in the build directory first\n');
  process.exit(2);
}

const esc = (s) => String(s).replace(/\|/g, '\\|');
const rows = [];
const yosysVersions = new Set();
for (const f of files) {
  let j;
  try { j = JSON.parse(fs.readFileSync(f, 'utf8')); } catch (e) {
    process.stderr.write(`report: error: cannot read ${f}: ${e.message}\n`);
    process.exit(2);
  }
  const params = Object.entries(j.params || {}).map(([k, v]) => `${k}=${v}`).join(' ') || '(defaults)';
  const status = j.ok ? 'ok' : ((j.errors || []).length ? 'error' : 'latch');
  if (j.yosys) yosysVersions.add(j.yosys);
  rows.push(`| ${esc(path.basename(f, '.json'))} | ${esc(j.top ?? '?')} | ${esc(params)} | ` +
            `${j.cells ?? '?'} | ${j.latches ?? '?'} | ${status} |`);
}

const yosys = [...yosysVersions];
process.stdout.write([
  '| unit | top | params | cells | latches | status |',
  '| --- | --- | --- | ---: | ---: | --- |',
  ...rows,
].join('\n') + '\n');
process.stdout.write(`\nCells: Yosys ${yosys.join(', ') || '?'} generic \`synth\` (internal gate library), ` +
                     'all leaf cells of the hierarchy.\n');
process.exit(0);
