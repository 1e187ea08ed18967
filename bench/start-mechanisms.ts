import { execFile } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import type { Plugin } from 'esbuild';
import { median, valueRow, type Row } from './harness';

const execFileAsync = promisify(execFile);

/**
 * Does each start-up mechanism of the register earn its place on a real agent app's
 * start? The register is built once as it ships and once without each mechanism (an esbuild plugin
 * puts a plain version in place of the mechanism's module), into .cache/start-mechanisms/<pid>/; each
 * round runs every build in a rotated order, each in a process of its own, on an app that loads
 * its framework and makes one tool call (bench/start-apps/: AI SDK, LangGraph, MCP; CommonJS under
 * `--require`, ES modules under `--import`), exporting to a local sink that answers 200. A row gives
 * the median over rounds of what the build without the mechanism costs more than the one with all
 * of them, paired by round: CPU ms (the child's `process.cpuUsage()` at exit) and peak RSS MiB.
 * `npm run bench -- start-mechanisms[:<mechanism>,…]`; `START_NODES` lists the node binaries
 * (colon-separated, default: this one), `START_ROUNDS` the rounds (11; one warm-up round more).
 */

const ROOT = resolve(__dirname, '..');
const REGISTER = join(ROOT, 'src', 'register');

/** Each mechanism, and the plain module put in place of its own to build the register without it. */
const MECHANISMS: Record<string, { label: string; plain: Record<string, string> }> = {
  'resolution-memo': {
    label: 'resolution memo (Module._resolveFilename)',
    plain: { [join(REGISTER, 'resolution-memo.ts')]: 'export function rememberModuleResolutions() {}' },
  },
  'sdk-file-code-cache': {
    label: 'SDK file through vm.Script with its V8 code cache',
    plain: {
      [join(REGISTER, 'sdk-file.ts')]: `
        import { createRequire } from 'node:module';
        import { enableCompileCache } from './compile-cache';
        export function loadSdkFile(file) {
          enableCompileCache();
          return { exports: createRequire(file)(file), afterStart: () => undefined };
        }`,
    },
  },
  'compile-cache': {
    label: "the app's compile cache turned on (with the SDK file's code cache, which needs it)",
    plain: {
      [join(REGISTER, 'compile-cache.ts')]: 'export function enableCompileCache() { return undefined; }',
    },
  },
  'package-versions-once': {
    label: 'package versions read once (_extractPackageVersion)',
    plain: {
      [join(ROOT, 'src', 'instrumentation', 'package-versions-once.ts')]:
        'export function readPackageVersionsOnce() {}',
    },
  },
};

const ALL_KEPT = 'all-kept';

const APPS = ['ai-sdk', 'langgraph', 'mcp'];
const FLAGS = ['--require', '--import'] as const;

/** A folder per run, so that runs on two Node lines at once do not rebuild each other's files. */
function variantFolder(variant: string): string {
  return join(ROOT, '.cache', 'start-mechanisms', String(process.pid), variant);
}

/** Puts each plain module in place of the mechanism's own. */
function withoutMechanism(variant: string): Plugin {
  const mechanism = MECHANISMS[variant];
  return {
    name: 'without-mechanism',
    setup(build) {
      if (!mechanism) return;
      for (const [file, contents] of Object.entries(mechanism.plain)) {
        const filter = new RegExp(`^${file.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}$`);
        build.onLoad({ filter }, () => ({ contents, loader: 'ts' }));
      }
    },
  };
}

/** The register's files as tsup.config.ts builds them, into the variant's folder. */
async function buildVariant(variant: string): Promise<void> {
  const { build } = await import('tsup');
  const { REGISTER_SDK, REGISTER_EXPORTERS, REGISTER_ENTRIES } = await import('../tsup.config');
  const plugin = withoutMechanism(variant);
  for (const options of [REGISTER_SDK, REGISTER_EXPORTERS, ...REGISTER_ENTRIES]) {
    await build({
      ...options,
      config: false,
      outDir: variantFolder(variant),
      sourcemap: false,
      silent: true,
      esbuildPlugins: [plugin, ...(options.esbuildPlugins ?? [])],
    });
  }
}

interface Report {
  cpuMs: number;
  maxRssMiB: number;
}

async function runApp(
  node: string,
  flag: (typeof FLAGS)[number],
  app: string,
  variant: string,
  sink: string,
) {
  const folder = variantFolder(variant);
  const register = flag === '--require' ? join(folder, 'register.cjs') : join(folder, 'register-esm.mjs');
  const file = join(__dirname, 'start-apps', `${app}-tool.${flag === '--require' ? 'cjs' : 'mjs'}`);
  const { stdout } = await execFileAsync(node, [flag, register, file], {
    env: { ...process.env, OTEL_EXPORTER_OTLP_ENDPOINT: sink, NODE_OPTIONS: '' },
  });
  const line = stdout.split('\n').find((text) => text.startsWith('start-report '));
  if (!line) throw new Error(`${app} under ${variant} printed no report: ${stdout}`);
  return JSON.parse(line.slice('start-report '.length)) as Report;
}

/** An OTLP endpoint that takes every export. */
async function sink(): Promise<Server> {
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => response.writeHead(200, { 'content-type': 'application/x-protobuf' }).end());
  });
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
  return server;
}

export async function run(only?: string): Promise<Row[]> {
  const mechanisms = only ? only.split(',') : Object.keys(MECHANISMS);
  const unknown = mechanisms.filter((name) => !(name in MECHANISMS));
  if (unknown.length > 0) throw new Error(`unknown mechanism(s) ${unknown.join(', ')}`);
  const variants = [ALL_KEPT, ...mechanisms];
  for (const variant of variants) await buildVariant(variant);
  const nodes = (process.env.START_NODES ?? process.execPath).split(':');
  const rounds = Number(process.env.START_ROUNDS ?? 11);
  const server = await sink();
  const address = server.address() as { port: number };
  const endpoint = `http://127.0.0.1:${address.port}`;
  const rows: Row[] = [];
  try {
    for (const node of nodes) {
      const { stdout: version } = await execFileAsync(node, ['--version']);
      for (const flag of FLAGS) {
        for (const app of APPS) {
          const reports = new Map<string, Report[]>(variants.map((variant) => [variant, []]));
          // Round 0 warms the compile cache folders and the page cache; it is not counted.
          for (let round = 0; round <= rounds; round++) {
            const turn = round % variants.length;
            for (const variant of [...variants.slice(turn), ...variants.slice(0, turn)]) {
              const report = await runApp(node, flag, app, variant, endpoint);
              if (round > 0) reports.get(variant)!.push(report);
            }
          }
          const kept = reports.get(ALL_KEPT)!;
          rows.push(
            valueRow({
              case: `start: ${app}, ${flag}, Node ${version.trim()}`,
              variant: ALL_KEPT,
              value: `${median(kept.map((r) => r.cpuMs)).toFixed(1)} ms CPU, ${median(kept.map((r) => r.maxRssMiB)).toFixed(1)} MiB`,
              spread: `${rounds} rounds`,
            }),
          );
          for (const mechanism of mechanisms) {
            const without = reports.get(mechanism)!;
            const cpu = median(without.map((r, i) => r.cpuMs - kept[i]!.cpuMs));
            const rss = median(without.map((r, i) => r.maxRssMiB - kept[i]!.maxRssMiB));
            rows.push(
              valueRow({
                case: `start: ${app}, ${flag}, Node ${version.trim()}`,
                variant: `without ${MECHANISMS[mechanism]!.label}`,
                value: `${median(without.map((r) => r.cpuMs)).toFixed(1)} ms CPU`,
                spread: `saves ${cpu.toFixed(1)} ms, ${rss.toFixed(2)} MiB (median paired difference)`,
                target: 'saves ≥ 5 ms or ≥ 2 MiB',
                verdict: cpu >= 5 || rss >= 2 ? 'earns' : 'does not earn',
              }),
            );
            console.error(
              `${version.trim()} ${flag} ${app} ${mechanism}: ${cpu.toFixed(1)} ms, ${rss.toFixed(2)} MiB`,
            );
          }
        }
      }
    }
  } finally {
    server.close();
  }
  return rows;
}
