/**
 * `node bench/profile/start-up.cjs <a.cpuprofile> [<b.cpuprofile> ...]`: where a start's CPU time
 * goes, averaged over the profiles given (take several: one start is a few hundred samples). Each
 * sample counts for the innermost module being initialised: a bundled module by its path (the
 * register's files are esbuild bundles, whose module wrappers carry it), a CommonJS file by its
 * package; outside any module's initialisation, for the innermost frame of the register's files,
 * mapped through their source maps to the source file (`run …`), or to the top level of one of them
 * (loading the file it requires: reading it, compiling it or deserialising its cached code). Make the profiles with
 *
 *   node --cpu-prof --cpu-prof-interval 50 --require ./dist/register.cjs -e 0
 *
 * after one start without `--cpu-prof` (Node 22 and later fill their compile cache on it).
 * `FILES=1` names files instead of packages and folders.
 */
const { readFileSync, existsSync } = require('node:fs');
const { TraceMap, originalPositionFor } = require('@jridgewell/trace-mapping');

const maps = new Map();
function sourceMap(url) {
  if (!maps.has(url)) {
    const path = url.startsWith('file://') ? new URL(url).pathname : url;
    maps.set(url, existsSync(`${path}.map`) ? new TraceMap(readFileSync(`${path}.map`, 'utf8')) : null);
  }
  return maps.get(url);
}

/** A package, or a folder (a file with FILES=1) of this repository's src/. */
function group(source) {
  const pkg = /.*node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(source)?.[1];
  if (pkg) return pkg;
  const own = /(?:^|\/)src\/(.*)$/.exec(source)?.[1];
  if (own === undefined) return source;
  return `src/${process.env.FILES ? own : own.split('/').slice(0, 2).join('/')}`;
}

const OURS = /register(-[a-z]+)?\.(c|m)js$/;

function mapped(frame) {
  const map = sourceMap(frame.url);
  if (!map) return frame.url;
  return (
    originalPositionFor(map, { line: frame.lineNumber + 1, column: frame.columnNumber }).source ?? frame.url
  );
}

/** What one sample's stack (innermost first) counts for. */
function partOf(stack) {
  const { functionName } = stack[0];
  if (functionName === '(garbage collector)') return 'GC';
  if (functionName === '(program)' || functionName === '(idle)') return functionName;
  let ours;
  for (const frame of stack) {
    // esbuild's module wrappers: `__esm({ "node_modules/…/x.js"() {…} })`, the same for __commonJS.
    if (frame.functionName.includes('/') && /\.(c|m)?(j|t)s$/.test(frame.functionName))
      return `init ${group(frame.functionName)}`;
    // A CommonJS file's own wrapper: the anonymous function at its first line.
    if (frame.functionName === '' && frame.lineNumber === 0 && frame.url && !frame.url.startsWith('node:')) {
      if (!OURS.test(frame.url)) return `init ${group(frame.url)}`;
    }
    if (!ours && OURS.test(frame.url)) ours = frame;
  }
  if (!ours) return 'Node (no module of the register or a package on the stack)';
  // An entry's or the bundle's top level: loading (reading, compiling or deserialising) the files it requires.
  if (ours.functionName === '' && ours.lineNumber === 0) return `top level of ${ours.url.split('/').pop()}`;
  return `run ${group(mapped(ours))}`;
}

const files = process.argv.slice(2);
const totals = new Map();
let total = 0;
for (const file of files) {
  const profile = JSON.parse(readFileSync(file, 'utf8'));
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const parts = new Map();
  profile.samples.forEach((id, i) => {
    if (!parts.has(id)) {
      const stack = [];
      for (let node = byId.get(id); node; node = byId.get(parent.get(node.id))) stack.push(node.callFrame);
      parts.set(id, partOf(stack));
    }
    const ms = profile.timeDeltas[i] / 1000 / files.length;
    total += ms;
    totals.set(parts.get(id), (totals.get(parts.get(id)) ?? 0) + ms);
  });
}
console.log(`${total.toFixed(1)} ms profiled (mean of ${files.length})`);
for (const [part, ms] of [...totals].sort((a, b) => b[1] - a[1]).slice(0, +(process.env.TOP ?? 40)))
  console.log(`${ms.toFixed(1).padStart(6)}  ${part}`);
