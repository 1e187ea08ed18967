import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { isAscii } from 'node:buffer';
import Module from 'node:module';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { Script } from 'node:vm';
import { expect } from 'chai';
import { useRegisterBed } from '../helpers/register-bed';
import { runNode, type NodeRun } from '../helpers/run-node';

/**
 * The register's SDK file loads through a V8 code cache kept after the start, in Node's compile
 * cache folder (src/register/sdk-file.ts), where Node has one (22.8 and later); child processes,
 * each with a compile cache folder of its own.
 */

const ROOT = join(__dirname, '..', '..');
const FIXTURE = join(__dirname, 'fixtures', 'register-files.cjs');
const CACHE_FOLDER = typeof (Module as { getCompileCacheDir?: unknown }).getCompileCacheDir === 'function';

describe('the SDK file, through a code cache kept after the start (child processes)', function () {
  this.timeout(60_000);
  const bed = useRegisterBed({ receiverPerTest: true });
  const folders: string[] = [];
  after(() => folders.forEach((folder) => rmSync(folder, { recursive: true, force: true })));

  function folder(parent: string, prefix: string): string {
    const made = mkdtempSync(join(parent, prefix));
    folders.push(made);
    return made;
  }

  /** The register's files in a folder of their own, which a spec may change. */
  function registerCopy(): string {
    const copy = folder(join(ROOT, '.cache'), 'sdk-file-');
    cpSync(dirname(bed.bundles.cjs), copy, { recursive: true });
    return copy;
  }

  async function start(
    nodeArgs: string[],
    cache: string,
    env: Record<string, string> = {},
  ): Promise<NodeRun> {
    const run = await runNode(nodeArgs, FIXTURE, {
      OTEL_SERVICE_NAME: 'sdk-file',
      OTEL_EXPORTER_OTLP_ENDPOINT: bed.receiver.endpoint,
      NODE_COMPILE_CACHE: cache,
      ...env,
    });
    expect(run.code, run.stderr).to.equal(0);
    // The fixture's report of the register's CommonJS files in the module cache (register-esm.mjs,
    // an ES module, is not among them).
    const entry = nodeArgs.includes('--require') ? ['register.cjs'] : [];
    expect(JSON.parse(run.stdout)).to.deep.equal({
      atStart: ['register-sdk.cjs', ...entry],
      afterExport: ['register-exporters.cjs', 'register-sdk.cjs', ...entry],
    });
    return run;
  }

  /**
   * Both entry points of a copy in one process: the second start says "already started", a text
   * of the SDK file the specs below change.
   */
  async function startBoth(copy: string, cache: string): Promise<NodeRun> {
    const run = await runNode(
      ['--require', join(copy, 'register.cjs'), '--import', join(copy, 'register-esm.mjs')],
      FIXTURE,
      {
        OTEL_SERVICE_NAME: 'sdk-file',
        OTEL_EXPORTER_OTLP_ENDPOINT: bed.receiver.endpoint,
        NODE_COMPILE_CACHE: cache,
      },
    );
    expect(run.code, run.stderr).to.equal(0);
    return run;
  }

  function exportedSpans(): number {
    return bed.receiver.bodies.filter((body) => body.includes('exported-work')).length;
  }

  /** The register's entries in a compile cache folder (Node's own are in the same folder). */
  function entries(cache: string): string[] {
    if (!existsSync(cache)) return [];
    return readdirSync(cache, { recursive: true, encoding: 'utf8' })
      .filter((name) => /(^|\/)otel-tool-errors-[0-9a-f]{8}$/.test(name))
      .map((name) => join(cache, name));
  }

  /** An entry: the length of what names the file, what names it, then V8's code. */
  function entryParts(entry: string): { identity: Buffer; code: Buffer } {
    const stored = readFileSync(entry);
    const length = stored.readUInt32LE(0);
    return { identity: stored.subarray(0, 4 + length), code: stored.subarray(4 + length) };
  }

  it('the build writes the SDK file in ASCII, which the start reads without decoding UTF-8 (every Node line)', () => {
    const source = readFileSync(join(dirname(bed.bundles.cjs), 'register-sdk.cjs'));
    const line = source
      .toString('utf8')
      .split('\n')
      .find((text) => !isAscii(Buffer.from(text)));
    // esbuild escapes strings but keeps some comments (in array and object literals) as written.
    expect(line, 'a comment or text beyond ASCII in the bundle').to.equal(undefined);
  });

  for (const [flag, entry] of [
    ['--require', 'register.cjs'],
    ['--import', 'register-esm.mjs'],
  ] as const) {
    it(`OTEL_SDK_DISABLED=true, ${flag}: the SDK file is not even loaded, and no entry written`, async () => {
      const cache = folder(tmpdir(), 'compile-cache-');
      const app = folder(tmpdir(), 'disabled-app-');
      const script = join(app, 'files.cjs');
      writeFileSync(
        script,
        "console.log(JSON.stringify(Object.keys(require.cache).map((file) => require('node:path').basename(file))));",
      );
      const run = await runNode([flag, join(dirname(bed.bundles.cjs), entry)], script, {
        OTEL_SDK_DISABLED: 'true',
        NODE_COMPILE_CACHE: cache,
      });
      expect([run.code, run.stderr]).to.deep.equal([0, '']);
      expect(JSON.parse(run.stdout)).to.deep.equal(
        flag === '--require' ? ['register.cjs', 'files.cjs'] : ['files.cjs'],
      );
      expect(entries(cache)).to.deep.equal([]);
    });
  }

  if (!CACHE_FOLDER) {
    it(`Node ${process.version} has no compile cache folder: the SDK file is required as any module, and no entry is written`, async () => {
      const cache = folder(tmpdir(), 'compile-cache-');
      await start(['--require', bed.bundles.cjs], cache);
      expect(exportedSpans()).to.equal(1);
      expect(entries(cache)).to.deep.equal([]);
    });
    return;
  }

  for (const [flag, entry] of [
    ['--require', 'register.cjs'],
    ['--import', 'register-esm.mjs'],
  ] as const) {
    it(`${flag}: the first start keeps the code it compiled, and the next starts run from it without writing it again`, async () => {
      const cache = folder(tmpdir(), 'compile-cache-');
      const register = join(dirname(bed.bundles.cjs), entry);
      await start([flag, register], cache);
      const [kept] = entries(cache);
      expect(kept, 'an entry for the SDK file').to.be.a('string');
      // What Node's compile cache would keep: the file's code as compiled before it runs, which for
      // a bundle is its top level; the entry holds every function the start ran too.
      const sdkFile = join(dirname(bed.bundles.cjs), 'register-sdk.cjs');
      const beforeRunning = new Script(Module.wrap(readFileSync(sdkFile, 'utf8'))).createCachedData().length;
      expect(entryParts(kept!).code.length).to.be.greaterThan(2 * beforeRunning);

      const written = statSync(kept!).mtimeMs;
      await start([flag, register], cache);
      await start([flag, register], cache);
      expect(entries(cache)).to.deep.equal([kept]);
      expect(statSync(kept!).mtimeMs, 'written once').to.equal(written);
      expect(exportedSpans()).to.equal(3);
    });
  }

  it('an SDK file changed since, to the same size and modification time: compiled from its source, and the entry replaced', async () => {
    const copy = registerCopy();
    const cache = folder(tmpdir(), 'compile-cache-');
    await start(['--require', join(copy, 'register.cjs')], cache);
    const [kept] = entries(cache);
    const before = entryParts(kept!);

    // V8 checks a code cache against the length of the source only: run from the old code, a start
    // of both entry points would print the old text.
    const sdkFile = join(copy, 'register-sdk.cjs');
    const { atime, mtime } = statSync(sdkFile);
    const source = readFileSync(sdkFile, 'utf8');
    expect(source).to.include('already started in this process');
    writeFileSync(
      sdkFile,
      source.replace('already started in this process', 'ALREADY STARTED IN THIS PROCESS'),
    );
    utimesSync(sdkFile, atime, mtime);
    expect(statSync(sdkFile).size).to.equal(Buffer.byteLength(source));

    const both = await startBoth(copy, cache);
    expect(both.stderr).to.include('ALREADY STARTED IN THIS PROCESS');
    expect(both.stderr).not.to.include('already started in this process');
    const after = entryParts(kept!);
    expect(after.identity.equals(before.identity), 'the entry names the file as it is now').to.equal(false);
  });

  it('an SDK file with text beyond ASCII (esbuild writes ASCII): read as UTF-8', async () => {
    const copy = registerCopy();
    const cache = folder(tmpdir(), 'compile-cache-');
    const sdkFile = join(copy, 'register-sdk.cjs');
    const source = readFileSync(sdkFile, 'utf8');
    expect(isAscii(readFileSync(sdkFile)), 'the build writes ASCII').to.equal(true);
    writeFileSync(sdkFile, source.replace('already started in this process', 'déjà started in this process'));
    const both = await startBoth(copy, cache);
    expect(both.stderr).to.include('déjà started in this process');
  });

  it('an entry whose V8 code is damaged: V8 refuses it, the start compiles from source, says nothing, and replaces it', async () => {
    const cache = folder(tmpdir(), 'compile-cache-');
    await start(['--require', bed.bundles.cjs], cache);
    const [kept] = entries(cache);
    const { identity, code } = entryParts(kept!);
    writeFileSync(kept!, Buffer.concat([identity, Buffer.alloc(code.length)]));

    const run = await start(['--require', bed.bundles.cjs], cache);
    expect(run.stderr).to.equal('');
    expect(exportedSpans()).to.equal(2);
    const replaced = entryParts(kept!);
    expect(replaced.identity.equals(identity)).to.equal(true);
    expect(replaced.code.equals(Buffer.alloc(code.length)), 'V8 code again').to.equal(false);
  });

  it('an entry that cannot be written (its name taken by a folder): the start runs from source, says nothing, and leaves no partial file', async () => {
    const cache = folder(tmpdir(), 'compile-cache-');
    await start(['--require', bed.bundles.cjs], cache);
    const [kept] = entries(cache);
    rmSync(kept!);
    mkdirSync(kept!);
    writeFileSync(join(kept!, 'in-the-way'), '');

    const run = await start(['--require', bed.bundles.cjs], cache);
    expect(run.stderr).to.equal('');
    expect(exportedSpans()).to.equal(2);
    expect(readdirSync(kept!)).to.deep.equal(['in-the-way']);
    expect(
      readdirSync(dirname(kept!)).filter((name) => name.startsWith(`${basename(kept!)}.`)),
    ).to.deep.equal([]);
  });

  it("NODE_DISABLE_COMPILE_CACHE=1 (Node's own switch): no entry is read or written, and the register starts as always", async () => {
    const cache = folder(tmpdir(), 'compile-cache-');
    await start(['--require', bed.bundles.cjs], cache, { NODE_DISABLE_COMPILE_CACHE: '1' });
    expect(exportedSpans()).to.equal(1);
    expect(entries(cache)).to.deep.equal([]);
  });
});
