import { once } from 'node:events';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { expect } from 'chai';
import { build } from 'tsup';
import { runNode } from '../helpers/run-node';

/**
 * Every TypeScript example of the README and docs/ runs as written: each block is saved as a
 * module beside the package's build and run with tsx, its exit code and stderr
 * checked, and what it prints compared with what its comments say. The examples call made-up
 * hosts (`api.example.com`); a preload sends those calls to a server on 127.0.0.1 answering as
 * the comments say the API did.
 */

const ROOT = join(__dirname, '..', '..');
const WORK = join(ROOT, '.cache', 'doc-examples');

/** Blocks run elsewhere as written, with where. */
const RUN_ELSEWHERE: ReadonlyArray<{ marker: string; where: string }> = [
  {
    marker: "from '@vercel/otel'",
    where:
      "the Next.js app's instrumentation.ts in npm run test:nextjs (deployment-recipes checks it is that file)",
  },
  { marker: '// otel.mjs: node --import ./otel.mjs app.mjs', where: 'test/register/esm-set-up.test.ts' },
];

/** What a block prints, as its comments state it. */
const PRINTS: ReadonlyArray<{ marker: string; includes: string[] }> = [
  {
    marker: "fetch('https://api.example.com/quote'",
    includes: [
      "errorType: '429'",
      "kind: 'rate_limit'",
      'retryable: true',
      'executed: true',
      'httpStatus: 429',
      'retryAfterMs: 2000',
      "evidence: 'http_status'",
    ],
  },
  {
    marker: 'classifyToolResult({ temperature: 21 })',
    includes: [
      "errorType: '-32602'",
      "kind: 'unknown_tool'",
      'executed: false',
      "kind: 'rate_limit'",
      "errorType: 'tool_error'",
      "kind: 'invalid_input'",
      '\nundefined\n',
    ],
  },
];

/** The library as the package ships it (CommonJS and ESM builds), installed where the examples run. */
async function buildPackage(dir: string): Promise<void> {
  const shared = { config: false, outDir: dir, target: 'node18', silent: true, sourcemap: false } as const;
  const entry = { index: join(ROOT, 'src', 'index.ts') };
  await build({ ...shared, entry, format: ['cjs'], outExtension: () => ({ js: '.cjs' }) });
  await build({ ...shared, entry, format: ['esm'], outExtension: () => ({ js: '.mjs' }) });
  writeFileSync(
    join(dir, 'package.json'),
    JSON.stringify({ name: 'otel-tool-errors', exports: { import: './index.mjs', require: './index.cjs' } }),
  );
}

interface Example {
  page: string;
  code: string;
}

function examples(): Example[] {
  const pages = [
    'README.md',
    ...readdirSync(join(ROOT, 'docs'))
      .filter((name) => name.endsWith('.md'))
      .map((name) => `docs/${name}`),
  ];
  return pages.flatMap((page) =>
    [...readFileSync(join(ROOT, page), 'utf8').matchAll(/```ts\n([\s\S]*?)```/g)].map((match) => ({
      page,
      code: match[1]!,
    })),
  );
}

/** The made-up API: 429 with Retry-After: 2 on /quote, 503 elsewhere. */
async function startExampleApi(): Promise<{ server: Server; origin: string }> {
  const server = createServer((req, res) => {
    if (req.url?.startsWith('/quote')) res.writeHead(429, { 'retry-after': '2' }).end('slow down');
    else res.writeHead(503).end('unavailable');
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

const FETCH_REDIRECT = `
const origin = process.env.EXAMPLE_API_ORIGIN;
const realFetch = globalThis.fetch;
globalThis.fetch = (input, init) =>
  realFetch(String(input).replace(/^https:\\/\\/[a-z.]*example\\.com/, origin), init);
`;

describe('README and docs/ examples, run', function () {
  this.timeout(120_000);
  let api: { server: Server; origin: string };
  before(async () => {
    api = await startExampleApi();
    rmSync(WORK, { recursive: true, force: true });
    mkdirSync(WORK, { recursive: true });
    writeFileSync(join(WORK, 'fetch-redirect.mjs'), FETCH_REDIRECT);
    // A package scope of their own: inside the repository's, `otel-tool-errors` would resolve to
    // the repository itself (a package's self-reference), not to the build installed here.
    writeFileSync(join(WORK, 'package.json'), JSON.stringify({ private: true }));
    await buildPackage(join(WORK, 'node_modules', 'otel-tool-errors'));
  });
  after(() => api.server.close());

  const all = examples();
  it('the pages hold TypeScript examples, each run here or where the list says', () => {
    expect(all.length).to.be.greaterThan(5);
    for (const { marker } of [...RUN_ELSEWHERE, ...PRINTS]) {
      expect(
        all.some(({ code }) => code.includes(marker)),
        marker,
      ).to.equal(true);
    }
  });

  all.forEach(({ page, code }, index) => {
    const elsewhere = RUN_ELSEWHERE.find(({ marker }) => code.includes(marker));
    if (elsewhere) return;
    // A block headed by its path in this repository: a spec (test/) is a mocha file, compiled by
    // readme-examples.test.ts; a module (src/) runs here with its imports resolved from that path.
    const path = /^\/\/ ((?:src|test)\/[\w/.-]+\.ts)\n/.exec(code)?.[1];
    if (path?.startsWith('test/')) return;
    const firstLine = code.split('\n').find((line) => !line.startsWith('import') && line.trim() !== '');
    it(`${page}: example ${index + 1} (${firstLine?.trim().slice(0, 60)}) runs`, async () => {
      // The SDK set-ups are for a CommonJS app, as their page says (its ESM recipe runs elsewhere).
      const file = join(
        WORK,
        `example-${index + 1}.${code.includes('new ToolInstrumentation(') ? 'cts' : 'mts'}`,
      );
      // An adapter example imports its contract as the adapters do.
      writeFileSync(
        file,
        path
          ? code.replace(
              /from '(\.\.?\/[^']+)'/g,
              (_, relative: string) => `from '${resolve(dirname(join(ROOT, path)), relative)}'`,
            )
          : code.replace(
              "from './adapter'",
              `from '${join(ROOT, 'src', 'instrumentation', 'adapters', 'adapter')}'`,
            ),
      );
      const result = await runNode(['--import', 'tsx', '--import', join(WORK, 'fetch-redirect.mjs')], file, {
        EXAMPLE_API_ORIGIN: api.origin,
        OTEL_TRACES_EXPORTER: 'none',
        OTEL_METRICS_EXPORTER: 'none',
      });
      expect(result.code, result.stderr).to.equal(0);
      expect(result.stderr).to.equal('');
      for (const text of PRINTS.find(({ marker }) => code.includes(marker))?.includes ?? []) {
        expect(`\n${result.stdout}`, text).to.include(text);
      }
    });
  });
});
