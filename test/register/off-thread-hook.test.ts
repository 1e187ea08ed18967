import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { expect } from 'chai';

/**
 * The loader hook `--import` registers where Node runs module hooks only off-thread
 * (src/register/off-thread-hook.ts), called here as Node's loader thread calls it, with a hook that
 * records what it is handed in place of import-in-the-middle's (whose wrapping the register's
 * specs check end to end, in child processes).
 */

type OffThreadHook = typeof import('../../src/register/off-thread-hook');
interface Record {
  evaluated: number;
  initialized: unknown[];
  resolved: string[];
  loaded: string[];
}

const HOOK_FILE = require.resolve('../../src/register/off-thread-hook');
const RECORDING_HOOK = pathToFileURL(join(__dirname, 'fixtures', 'first-need', 'recording-hook.mjs')).href;
const holder = globalThis as { recordingHook?: Record };

/** Node's own resolution, as the loader thread passes it on: a few specifiers of an app. */
async function nextResolve(specifier: string) {
  const urls: { [specifier: string]: string } = {
    './local.mjs': 'file:///app/local.mjs',
    './later.mjs': 'file:///app/later.mjs',
    'node:fs': 'node:fs',
    'node:http': 'node:http',
    ai: 'file:///app/node_modules/ai/dist/index.mjs',
  };
  await Promise.resolve();
  return { url: urls[specifier]! };
}

async function nextLoad(url: string) {
  await Promise.resolve();
  return { format: 'module', source: `// ${url}` };
}

describe('the off-thread loader hook', () => {
  let hook: OffThreadHook;
  let fresh = 0;

  beforeEach(() => {
    delete require.cache[HOOK_FILE];
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- a fresh copy, as each loader thread has
    hook = require(HOOK_FILE) as OffThreadHook;
    delete holder.recordingHook;
    fresh += 1;
    hook.initialize({
      include: ['http', /\/node_modules\/ai\//],
      hookUrl: `${RECORDING_HOOK}?case=${fresh}`,
    });
  });

  it('passes every import on, and loads nothing, until one resolves to a module the include list names', async () => {
    expect(await hook.resolve('./local.mjs', {}, nextResolve)).to.deep.equal({
      url: 'file:///app/local.mjs',
    });
    expect(await hook.resolve('node:fs', {}, nextResolve)).to.deep.equal({ url: 'node:fs' });
    expect(await hook.load('file:///app/local.mjs', {}, nextLoad)).to.deep.equal({
      format: 'module',
      source: '// file:///app/local.mjs',
    });
    expect(holder.recordingHook).to.equal(undefined);
  });

  it("then loads import-in-the-middle's hook once, however many imports ask at a time, and hands it those and every later one", async () => {
    await hook.resolve('./local.mjs', {}, nextResolve);
    const [http, ai] = await Promise.all([
      hook.resolve('node:http', {}, nextResolve),
      hook.resolve('ai', {}, nextResolve),
    ]);
    expect([http.url, ai.url]).to.deep.equal([
      'node:http?wrapped',
      'file:///app/node_modules/ai/dist/index.mjs?wrapped',
    ]);
    expect((await hook.resolve('./later.mjs', {}, nextResolve)).url).to.equal(
      'file:///app/later.mjs?wrapped',
    );
    await hook.load('node:http?wrapped', {}, nextLoad);
    const record = holder.recordingHook!;
    expect(record.evaluated).to.equal(1);
    expect(record.initialized).to.deep.equal([{ include: ['http', /\/node_modules\/ai\//] }]);
    expect(record.resolved).to.have.members(['node:http', 'ai', './later.mjs']);
    expect(record.resolved).to.have.length(3);
    expect(record.loaded).to.deep.equal(['node:http?wrapped']);
  });
});
