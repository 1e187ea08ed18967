// The version matrix: runs each adapter's spec (the tests test-matrix/suites.json names) against
// every release test-matrix/versions.json lists, each installed into its own scratch folder
// outside the checkout, so the default `npm test` keeps the checkout's node_modules.
// Usage: npm run test:matrix [-- <suite>[@<version>] ...]
//   no argument: every listed release of every suite; `mastra`: that suite's releases;
//   `mastra@1.3.0`: one release, listed or not (to find where a range starts).
// Installs are cached in $VERSION_MATRIX_CACHE (default $E2E_CACHE_DIR/version-matrix, else
// ~/.cache/otel-tool-errors/version-matrix), one folder per suite and release. One install and one
// mocha run at a time; a run of the whole list then removes the installs of releases no longer
// listed. Every @opentelemetry/api in a scratch install is linked to the checkout's,
// so the framework and the instrumentation share one API. Exits 1 if any run failed.
import { execFileSync, spawnSync } from 'node:child_process';
import {
  existsSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const { suites } = JSON.parse(readFileSync(join(root, 'test-matrix', 'suites.json'), 'utf8'));
const versions = JSON.parse(readFileSync(join(root, 'test-matrix', 'versions.json'), 'utf8')).suites;
const cache =
  process.env.VERSION_MATRIX_CACHE ??
  join(process.env.E2E_CACHE_DIR ?? join(homedir(), '.cache', 'otel-tool-errors'), 'version-matrix');
const api = join(root, 'node_modules', '@opentelemetry', 'api');

/** The runs the arguments ask for: [suite, { version, install }]. */
function selected(args) {
  if (args.length === 0)
    return suites.flatMap((suite) => versions[suite.name].runs.map((run) => [suite, run]));
  return args.flatMap((arg) => {
    const [name, version] = arg.split(/@(?=\d)/);
    const suite = suites.find((s) => s.name === name);
    if (!suite) throw new Error(`no suite ${name} in test-matrix/suites.json`);
    const runs = versions[suite.name].runs;
    if (!version) return runs.map((run) => [suite, run]);
    const listed = runs.find((run) => run.version === version);
    if (listed) return [[suite, listed]];
    const companions = Object.entries(suite.with ?? {});
    if (companions.some(([, how]) => how === 'pinned'))
      throw new Error(`${arg}: not listed, and a package beside it is pinned to listed releases`);
    const install = { [suite.package]: version };
    for (const [name, how] of companions) install[name] = how === 'same' ? version : how;
    return [[suite, { version, install }]];
  });
}

/** The scratch folder with `run.install` in its node_modules, installed once. */
function install(suite, run) {
  const dir = join(cache, suite.name, run.version);
  const manifest = JSON.stringify({ private: true, dependencies: run.install }, null, 2);
  const stamp = join(dir, '.installed');
  if (!existsSync(stamp) || readFileSync(stamp, 'utf8') !== manifest) {
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'package.json'), manifest);
    execFileSync('npm', ['install', '--no-audit', '--no-fund', '--no-package-lock', '--loglevel=error'], {
      cwd: dir,
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    writeFileSync(stamp, manifest);
  }
  linkApi(join(dir, 'node_modules'));
  return dir;
}

/** Replaces every @opentelemetry/api under `nodeModules` with a link to the checkout's. */
function linkApi(nodeModules) {
  if (!existsSync(nodeModules)) return;
  for (const entry of readdirSync(nodeModules)) {
    const path = join(nodeModules, entry);
    if (entry === '@opentelemetry') {
      const copy = join(path, 'api');
      // A link left by another checkout (a cached install reused from another path) may dangle.
      const found = lstatSync(copy, { throwIfNoEntry: false });
      if (
        found &&
        !(found.isSymbolicLink() && existsSync(copy) && realpathSync(copy) === realpathSync(api))
      ) {
        rmSync(copy, { recursive: true, force: true });
        symlinkSync(api, copy, 'dir');
      }
    }
    if (entry.startsWith('@')) {
      for (const scoped of readdirSync(path)) linkApi(join(path, scoped, 'node_modules'));
    } else {
      linkApi(join(path, 'node_modules'));
    }
  }
}

const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** After a run of the whole list: removes the installs of releases no longer listed. */
function prune() {
  if (!existsSync(cache)) return;
  for (const name of readdirSync(cache)) {
    const listed = new Set(versions[name]?.runs.map((run) => run.version) ?? []);
    for (const version of readdirSync(join(cache, name))) {
      if (!listed.has(version)) rmSync(join(cache, name, version), { recursive: true, force: true });
    }
  }
}

const args = process.argv.slice(2);
const results = [];
const started = Date.now();
for (const [suite, run] of selected(args)) {
  const label = `${suite.name} ${suite.package}@${run.version}`;
  console.log(`\n== ${label}`);
  const t0 = Date.now();
  let ok;
  try {
    const dir = install(suite, run);
    const installed = Date.now();
    const { status } = spawnSync(
      process.execPath,
      [
        join(root, 'node_modules', 'mocha', 'bin', 'mocha.js'),
        '--config',
        join(root, 'test-matrix', 'mocharc.cjs'),
        '--grep',
        suite.grep.replaceAll('{version}', escape(run.version)),
        suite.spec,
      ],
      {
        cwd: root,
        stdio: 'inherit',
        env: {
          ...process.env,
          VERSION_MATRIX_DIR: dir,
          VERSION_MATRIX_REDIRECT: (suite.redirect ?? [suite.package]).join(','),
        },
      },
    );
    ok = status === 0;
    results.push({ label, ok, install: (installed - t0) / 1000, test: (Date.now() - installed) / 1000 });
  } catch (err) {
    console.error(`${label}: ${err.message}`);
    results.push({ label, ok: false, install: (Date.now() - t0) / 1000, test: 0 });
  }
}

console.log('\n== version matrix');
for (const { label, ok, install, test } of results) {
  console.log(
    `${ok ? 'pass' : 'FAIL'}  ${label}  (install ${install.toFixed(0)} s, tests ${test.toFixed(0)} s)`,
  );
}
if (args.length === 0) prune();
const failed = results.filter((r) => !r.ok).length;
console.log(
  `${results.length - failed} passed, ${failed} failed, in ${((Date.now() - started) / 60000).toFixed(1)} min`,
);
process.exitCode = failed ? 1 : 0;
