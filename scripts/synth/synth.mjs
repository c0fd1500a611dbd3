#!/usr/bin/env node
// Synthesis check for one RTL unit with Yosys 0.55 (the YoWASP WebAssembly build, run in-process
// through its API on an in-memory file set; there is no native yosys binary involved).
//
//   node scripts/synth/synth.mjs --top MODULE [--param Name=Value ...] [--define NAME[=VAL] ...]
//        [--incdir DIR ...] [--json OUT.json] [--log OUT.log] [--flatten] [--verbose] file.sv ...
//
// Flow: read_verilog -sv (-D for --define, -I for --incdir and each source's directory),
// hierarchy -check -top MODULE (-chparam for each --param), proc, (assertions and $display
// removed), synth -top MODULE -noabc -noshare, stat: a netlist of Yosys' generic gates and
// flip-flops whose logic is not optimized. With DLA_SYNTH_OPTIMIZE=1 in the environment
// (scripts/synth-all.sh) the whole `synth` script runs, with resource sharing and ABC's logic
// optimization, for cell counts comparable to a real flow; it takes about a third longer and checks
// nothing more (latches come from proc, before either).
// The check fails when Yosys reports an error or when a latch was inferred (also from
// always_comb, whose attribute is dropped before proc so all latches are listed): either a
// "Latch inferred for signal" message from proc, or a latch/SR cell ($dlatch, $adlatch,
// $dlatchsr, $sr, $_DLATCH_*, $_DLATCHSR_*, $_SR_*) left in the synthesised design.
//
// Prints one summary line (after any Yosys warnings / errors), e.g.
//   synth: counter [W=16] OK: 161 cells, 0 latches, 0 warnings (1.6 s, Yosys 0.55)
// Exit status: 0 ok, 1 latch or Yosys error, 2 bad usage or missing/unreadable input file.

import fs from 'node:fs';
import path from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';

const USAGE = `usage: node scripts/synth/synth.mjs --top MODULE [--param Name=Value ...]
         [--define NAME[=VAL] ...] [--incdir DIR ...] [--json OUT.json] [--log OUT.log]
         [--flatten] [--elaborate] [--verbose] file.sv ...`;

const EXIT_OK = 0;
const EXIT_FAIL = 1;
const EXIT_USAGE = 2;

function usageError(msg) {
  process.stderr.write(`synth: error: ${msg}\n${USAGE}\n`);
  process.exit(EXIT_USAGE);
}

// ---------------------------------------------------------------------------------------------
// Command line
// ---------------------------------------------------------------------------------------------
function parseArgs(argv) {
  const opt = { top: null, params: [], defines: [], incdirs: [], json: null, log: null,
                flatten: false, elaborate: false, verbose: false, files: [] };
  const takesValue = new Set(['--top', '--param', '--define', '--incdir', '--json', '--log']);
  for (let i = 0; i < argv.length; i++) {
    let a = argv[i];
    let val;
    if (a === '-h' || a === '--help') {
      process.stdout.write(`${USAGE}\n`);
      process.exit(EXIT_OK);
    }
    if (a === '--') { opt.files.push(...argv.slice(i + 1)); break; }
    if (a.startsWith('--') && a.includes('=') && takesValue.has(a.slice(0, a.indexOf('=')))) {
      val = a.slice(a.indexOf('=') + 1);
      a = a.slice(0, a.indexOf('='));
    } else if (takesValue.has(a)) {
      if (i + 1 >= argv.length) usageError(`${a} needs a value`);
      val = argv[++i];
    }
    switch (a) {
      case '--top': opt.top = val; break;
      case '--param': {
        const m = /^([A-Za-z_][A-Za-z0-9_$]*)=(.+)$/s.exec(val);
        if (!m) usageError(`--param expects Name=Value, got '${val}'`);
        opt.params.push([m[1], m[2]]);
        break;
      }
      case '--define': {
        if (!/^[A-Za-z_][A-Za-z0-9_]*(=.*)?$/s.test(val)) usageError(`bad --define '${val}'`);
        opt.defines.push(val);
        break;
      }
      case '--incdir': opt.incdirs.push(val); break;
      case '--json': opt.json = val; break;
      case '--log': opt.log = val; break;
      case '--flatten': opt.flatten = true; break;
      case '--elaborate': opt.elaborate = true; break;
      case '--verbose': case '-v': opt.verbose = true; break;
      default:
        if (a.startsWith('-')) usageError(`unknown option '${a}'`);
        opt.files.push(a);
    }
  }
  if (!opt.top) usageError('--top MODULE is required');
  if (!/^[A-Za-z_][A-Za-z0-9_$]*$/.test(opt.top)) usageError(`bad module name '${opt.top}'`);
  if (opt.files.length === 0) usageError('no source files given');
  return opt;
}

// ---------------------------------------------------------------------------------------------
// In-memory file tree: every file sits at its real absolute path, so Yosys messages name the
// real file and `include "x.svh"` resolves against the same directories as on disk.
// ---------------------------------------------------------------------------------------------
const HEADER_EXT = new Set(['.sv', '.svh', '.v', '.vh', '.h', '.inc', '.vinc']);

function addFile(tree, absPath, data) {
  const parts = absPath.split('/').filter(Boolean);
  let node = tree;
  for (const p of parts.slice(0, -1)) {
    if (typeof node[p] !== 'object' || node[p] instanceof Uint8Array) node[p] = {};
    node = node[p];
  }
  node[parts[parts.length - 1]] = data;
}

function addDirHeaders(tree, dir, seen, vpath) {
  if (seen.has(dir)) return;
  seen.add(dir);
  let entries;
  try { entries = fs.readdirSync(dir, { withFileTypes: true }); } catch { return; }
  for (const e of entries) {
    if (!e.isFile() || !HEADER_EXT.has(path.extname(e.name).toLowerCase())) continue;
    const p = path.join(dir, e.name);
    try { addFile(tree, vpath(p), fs.readFileSync(p)); } catch { /* unreadable: yosys reports if used */ }
  }
}

function yosysQuote(s) {
  if (/["\s;#]/.test(s) && !s.includes('"')) return `"${s}"`;
  if (s.includes('"') && /[\s;#]/.test(s)) usageError(`cannot pass '${s}' to Yosys (quotes and spaces)`);
  return s;
}

// ---------------------------------------------------------------------------------------------
// Log analysis
// ---------------------------------------------------------------------------------------------
// Coarse ($dlatch, $adlatch, $dlatchsr, $sr) and fine-grained ($_DLATCH_P_, $_DLATCH_PN0_,
// $_DLATCHSR_PPP_, $_SR_PN_, ...) latch and set/reset-latch cells.
const LATCH_CELL = /^\$(?:(?:dlatch|adlatch|dlatchsr|sr)$|_(?:DLATCH|DLATCHSR|SR)_)/;

function isLatchCell(type) { return LATCH_CELL.test(type); }

function analyseLog(log) {
  const lines = log.split(/\r?\n/);
  const errors = [];
  const warnings = [];
  const latchSignals = [];
  for (const l of lines) {
    const m = /Latch inferred for signal `([^']+)' from (?:always_comb )?process/.exec(l);
    if (m) latchSignals.push(m[1].replace(/\\/g, ''));
    else if (/ERROR:/.test(l)) errors.push(l.trim());
    else if (/^Warning:/.test(l.trim())) warnings.push(l.trim());
  }
  return { errors, warnings: [...new Set(warnings)], latchSignals };
}

function summariseStat(statText, top) {
  const stat = JSON.parse(statText);
  // `design` holds the hierarchy totals (leaf cells of submodules counted once per instance).
  let d = stat.design;
  if (!d) {
    const mods = stat.modules || {};
    d = mods[`\\${top}`] || Object.values(mods)[0] || { num_cells: 0, num_cells_by_type: {} };
  }
  // $scopeinfo cells (left by flatten to record the hierarchy) are not logic: not counted.
  const byType = Object.fromEntries(Object.entries(d.num_cells_by_type || {})
    .filter(([type]) => type !== '$scopeinfo'));
  const scopeinfo = (d.num_cells_by_type || {}).$scopeinfo || 0;
  // Without hierarchy totals, fall back to adding up every module's own cells.
  const typeCounts = stat.design ? Object.entries(byType)
    : Object.values(stat.modules || {}).flatMap((m) => Object.entries(m.num_cells_by_type || {}));
  const latchCells = {};
  for (const [type, n] of typeCounts) {
    if (isLatchCell(type)) latchCells[type] = (latchCells[type] || 0) + n;
  }
  const latches = Object.values(latchCells).reduce((a, b) => a + b, 0);
  return { cells: (d.num_cells ?? 0) - scopeinfo, cellTypes: byType, latches, latchCells };
}

// ---------------------------------------------------------------------------------------------
// Main
// ---------------------------------------------------------------------------------------------
async function main() {
  const opt = parseArgs(process.argv.slice(2));

  // Inputs first: a missing file is a usage error (exit 2) that names the file.
  const tree = {};
  const seenDirs = new Set();
  const srcAbs = [];
  // Yosys' own data sits at /share and our script at /__synth_out of the virtual file system;
  // sources living under those paths on disk are moved under /host.
  const reserved = (p) => /^\/(share|__synth_out)(\/|$)/.test(p);
  const hostPrefix = [...opt.files, ...opt.incdirs].some((f) => reserved(path.resolve(f))) ? '/host' : '';
  const vpath = (abs) => hostPrefix + abs;
  for (const f of opt.files) {
    const abs = path.resolve(f);
    let data;
    try {
      if (!fs.statSync(abs).isFile()) throw new Error('not a regular file');
      data = fs.readFileSync(abs);
    } catch (e) {
      process.stderr.write(`synth: error: cannot read source file '${f}': ${e.code === 'ENOENT' ? 'no such file' : e.message}\n`);
      process.exit(EXIT_USAGE);
    }
    srcAbs.push(vpath(abs));
    addDirHeaders(tree, path.dirname(abs), seenDirs, vpath);
    addFile(tree, vpath(abs), data);
  }
  const incAbs = [];
  for (const d of opt.incdirs) {
    const abs = path.resolve(d);
    let ok = false;
    try { ok = fs.statSync(abs).isDirectory(); } catch { ok = false; }
    if (!ok) {
      process.stderr.write(`synth: error: include directory '${d}' does not exist\n`);
      process.exit(EXIT_USAGE);
    }
    incAbs.push(vpath(abs));
    addDirHeaders(tree, abs, seenDirs, vpath);
  }
  // Check the output locations up front too, so a bad path does not cost a whole synth run.
  for (const out of [opt.json, opt.log]) {
    if (!out) continue;
    try { fs.mkdirSync(path.dirname(path.resolve(out)), { recursive: true }); } catch (e) {
      process.stderr.write(`synth: error: cannot create directory for '${out}': ${e.message}\n`);
      process.exit(EXIT_USAGE);
    }
  }

  let yosys;
  try {
    yosys = await import('@yowasp/yosys');
  } catch (e) {
    const here = path.dirname(fileURLToPath(import.meta.url));
    process.stderr.write(`synth: error: cannot load @yowasp/yosys (${e.message}).\n` +
                         `synth: run ${path.join(here, 'install.sh')} first.\n`);
    process.exit(EXIT_USAGE);
  }

  const optimize = process.env.DLA_SYNTH_OPTIMIZE === '1';
  const OUT_DIR = '__synth_out';
  tree[OUT_DIR] = {};
  const incFlags = [...new Set([...incAbs, ...srcAbs.map((p) => path.dirname(p))])]
    .map((d) => `-I${yosysQuote(d)}`);
  const defFlags = opt.defines.map((d) => `-D${yosysQuote(d)}`);
  const chparams = opt.params.map(([n, v]) => `-chparam ${n} ${yosysQuote(v)}`);
  const script = [
    `read_verilog -sv ${[...defFlags, ...incFlags].join(' ')} ${srcAbs.map(yosysQuote).join(' ')}`,
    `hierarchy -check -top ${opt.top} ${chparams.join(' ')}`.trimEnd(),
    // Yosys makes a latch in always_comb a hard error at the first one; dropping the attribute
    // turns those into ordinary "Latch inferred" messages, so one run lists every latch.
    'setattr -unset always_comb',
    'proc',
    // Immediate assertions ($check) and $display ($print) are not hardware: keep them out of
    // the cell count (Yosys defines SYNTHESIS, so `ifndef SYNTHESIS code is skipped anyway).
    'chformal -remove',
    'delete t:$print',
    // --elaborate stops after proc: the Yosys front end, the hierarchy and latch detection (both
    // happen in proc), in seconds instead of minutes; the cell count is then of coarse cells.
    ...(opt.elaborate ? [] : [`synth -top ${opt.top}${opt.flatten ? ' -flatten' : ''}${optimize ? '' : ' -noabc -noshare'}`]),
    `tee -q -o /${OUT_DIR}/stat.json stat -json`,
    'stat',
  ].join('\n') + '\n';
  tree[OUT_DIR]['synth.ys'] = script;

  let log = '';
  const dec = new TextDecoder();
  const sink = (bytes) => {
    if (!bytes) return;
    const s = dec.decode(bytes, { stream: true });
    log += s;
    if (opt.verbose) process.stdout.write(s);
  };

  const t0 = process.hrtime.bigint();
  let outFiles = null;
  let crashed = null;
  let exitCode = 0;
  try {
    outFiles = await yosys.runYosys(['-s', `/${OUT_DIR}/synth.ys`], tree,
                                    { stdout: sink, stderr: sink, decodeASCII: true });
  } catch (e) {
    if (e instanceof yosys.Exit || (e && typeof e.code === 'number' && e.files)) {
      exitCode = e.code;
      outFiles = e.files;
    } else {
      crashed = e;
    }
  }
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
  if (opt.log) fs.writeFileSync(opt.log, log);

  const { errors, warnings, latchSignals } = analyseLog(log);
  let stat = { cells: null, cellTypes: {}, latches: 0, latchCells: {} };
  const statText = outFiles && outFiles[OUT_DIR] && outFiles[OUT_DIR]['stat.json'];
  if (statText) {
    try { stat = summariseStat(typeof statText === 'string' ? statText : dec.decode(statText), opt.top); }
    catch (e) { errors.push(`cannot parse Yosys stat output: ${e.message}`); }
  } else if (!crashed && exitCode === 0) {
    errors.push('Yosys produced no statistics');
  }
  if (crashed) errors.push(`Yosys crashed: ${crashed.stack || crashed}`);
  if (exitCode !== 0 && errors.length === 0) errors.push(`Yosys exited with status ${exitCode}`);

  const latches = Math.max(stat.latches, latchSignals.length);
  const ok = errors.length === 0 && latches === 0;

  const paramObj = Object.fromEntries(opt.params);
  if (opt.json) {
    const summary = {
      top: opt.top,
      params: paramObj,
      cells: stat.cells,
      latches,
      ok,
      latch_signals: latchSignals,
      latch_cells: stat.latchCells,
      errors,
      warnings: warnings.length,
      cell_types: stat.cellTypes,
      sources: opt.files,
      defines: opt.defines,
      flatten: opt.flatten,
      elaborate_only: opt.elaborate,
      optimized: !opt.elaborate && optimize,
      yosys: yosys.version,
      seconds: Math.round(seconds * 10) / 10,
    };
    fs.writeFileSync(opt.json, JSON.stringify(summary, null, 2) + '\n');
  }

  if (!opt.verbose) {
    const MAX = 20;
    for (const w of warnings.slice(0, MAX)) process.stdout.write(`synth: yosys ${w}\n`);
    if (warnings.length > MAX) process.stdout.write(`synth: ... ${warnings.length - MAX} more warnings (use --log FILE)\n`);
    for (const e of errors) process.stdout.write(`synth: yosys ${e}\n`);
    if (errors.length && !crashed) {
      // The lines before the error usually say where Yosys was; show a short tail.
      const tail = log.trimEnd().split(/\r?\n/).slice(-15);
      process.stdout.write(`synth: --- last lines of the Yosys log ---\n${tail.join('\n')}\n`);
    }
  }
  for (const s of latchSignals) process.stdout.write(`synth: latch inferred for signal ${s}\n`);
  for (const [t, n] of Object.entries(stat.latchCells)) process.stdout.write(`synth: latch cell ${t} x${n}\n`);

  const ptxt = opt.params.length ? ` [${opt.params.map(([n, v]) => `${n}=${v}`).join(' ')}]` : '';
  const status = ok ? 'OK' : (errors.length ? 'FAIL (error)' : 'FAIL (latch)');
  process.stdout.write(`synth: ${opt.top}${ptxt} ${status}: ${stat.cells ?? '?'} cells, ${latches} latches, ` +
                       `${warnings.length} warnings (${seconds.toFixed(1)} s, Yosys ${String(yosys.version).replace(/\.\d+$/, '')})\n`);
  process.exit(ok ? EXIT_OK : EXIT_FAIL);
}

main().catch((e) => {
  process.stderr.write(`synth: internal error: ${e.stack || e}\n`);
  process.exit(EXIT_FAIL);
});
