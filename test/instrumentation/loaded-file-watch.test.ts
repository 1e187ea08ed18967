import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import Module, { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InstrumentationBase, InstrumentationNodeModuleDefinition } from '@opentelemetry/instrumentation';
import { expect } from 'chai';
import { watchLoadedFile } from '../../src/instrumentation/loaded-file-watch';
import { ToolInstrumentation } from '../../src/instrumentation/tool-instrumentation';

/** An instrumentation of one package by name, as most are. */
class PackageInstrumentation extends InstrumentationBase {
  constructor() {
    super('package-instrumentation', '1.0.0', {});
  }

  protected init() {
    return [new InstrumentationNodeModuleDefinition('some-package', ['*'])];
  }
}

const resolver = Module as unknown as { _resolveFilename: (...args: unknown[]) => string };

/** A folder of CommonJS files: `index.js` requires `part0.js` … `part{n-1}.js`, each exporting a class. */
function writeModules(parts: number): { dir: string; index: string; part: (i: number) => string } {
  const dir = mkdtempSync(join(tmpdir(), 'loaded-file-watch-'));
  const part = (i: number) => join(dir, `part${i}.js`);
  for (let i = 0; i < parts; i++) {
    writeFileSync(part(i), `class Part { run() { return ${i}; } }\nmodule.exports = { Part };\n`);
  }
  const requires = Array.from({ length: parts }, (_, i) => `require('./part${i}.js');`).join('\n');
  writeFileSync(join(dir, 'index.js'), `${requires}\nmodule.exports = require('./part0.js');\n`);
  return { dir, index: join(dir, 'index.js'), part };
}

/** Loads `index` afresh and counts the module resolutions it took. */
function resolutionsToLoad(index: string): number {
  const localRequire = createRequire(index);
  for (const key of Object.keys(localRequire.cache)) {
    if (key.startsWith(join(index, '..'))) delete localRequire.cache[key];
  }
  const original = resolver._resolveFilename;
  let count = 0;
  resolver._resolveFilename = function (this: unknown, ...args: unknown[]) {
    count++;
    return Reflect.apply(original, this, args);
  };
  try {
    localRequire(index);
  } finally {
    resolver._resolveFilename = original;
  }
  return count;
}

/** A watch that puts a `patched` mark on the class it finds and takes it off again. */
function marking(calls: string[]) {
  return {
    patch: (exports: unknown) => {
      calls.push('patch');
      (exports as { Part: { prototype: { patched?: boolean } } }).Part.prototype.patched = true;
    },
    unpatch: (exports: unknown) => {
      calls.push('unpatch');
      delete (exports as { Part: { prototype: { patched?: boolean } } }).Part.prototype.patched;
    },
  };
}

describe('loaded-file watch: CommonJS files patched by absolute path', () => {
  const modules = writeModules(20);
  const localRequire = createRequire(modules.index);
  after(() => rmSync(modules.dir, { recursive: true, force: true }));
  afterEach(() => delete localRequire.cache[modules.part(1)]);

  it('patches the file when require first returns it, and unpatches it on stop', () => {
    const calls: string[] = [];
    const watch = watchLoadedFile(modules.part(1), marking(calls));
    watch.start();
    expect(calls).to.deep.equal([]);
    const { Part } = localRequire(modules.part(1)) as { Part: { prototype: { patched?: boolean } } };
    expect(Part.prototype.patched).to.equal(true);
    localRequire(modules.part(1));
    expect(calls).to.deep.equal(['patch']);
    watch.stop();
    expect(Part.prototype.patched).to.equal(undefined);
    expect(calls).to.deep.equal(['patch', 'unpatch']);
  });

  it('patches a file loaded before the watch started at once, and a file loaded again afresh', () => {
    const calls: string[] = [];
    const first = localRequire(modules.part(1)) as { Part: { prototype: { patched?: boolean } } };
    const watch = watchLoadedFile(modules.part(1), marking(calls));
    watch.start();
    expect(first.Part.prototype.patched).to.equal(true);
    delete localRequire.cache[modules.part(1)];
    const second = localRequire(modules.part(1)) as { Part: { prototype: { patched?: boolean } } };
    expect(second.Part).to.not.equal(first.Part);
    expect(second.Part.prototype.patched).to.equal(true);
    watch.stop();
    expect(second.Part.prototype.patched).to.equal(undefined);
    expect(calls).to.deep.equal(['patch', 'patch', 'unpatch']);
  });

  it("a patch that throws leaves the app's require and its exports as they were", () => {
    const watch = watchLoadedFile(modules.part(1), {
      patch: () => {
        throw new Error('patch failed');
      },
      unpatch: () => undefined,
    });
    watch.start();
    try {
      const { Part } = localRequire(modules.part(1)) as { Part: new () => { run(): number } };
      expect(new Part().run()).to.equal(1);
    } finally {
      watch.stop();
    }
  });

  it('a ToolInstrumentation adds no more to each require than any other instrumentation (the MCP 1.x CJS build is installed here)', () => {
    // OpenTelemetry gives each instrumentation its own require hook under mocha (one hook for the
    // process otherwise): what any instrumentation adds is the reference.
    const fromHere = createRequire(join(process.cwd(), 'index.js'));
    expect(fromHere.resolve('@modelcontextprotocol/sdk/client/index.js')).to.match(
      /dist\/cjs\/client\/index\.js$/,
    );
    const instrumentations: Array<{ disable(): void }> = [];
    try {
      const before = resolutionsToLoad(modules.index);
      instrumentations.push(...Array.from({ length: 5 }, () => new PackageInstrumentation()));
      const withOthers = resolutionsToLoad(modules.index);
      instrumentations.push(...Array.from({ length: 5 }, () => new ToolInstrumentation()));
      const withOurs = resolutionsToLoad(modules.index);
      expect(before).to.be.greaterThan(20);
      expect(withOurs - withOthers).to.equal(withOthers - before);
    } finally {
      for (const instrumentation of instrumentations) instrumentation.disable();
    }
  });
});
