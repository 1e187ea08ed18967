import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import Module from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { expect } from 'chai';
import { rememberModuleResolutions } from '../../src/register/resolution-memo';

type Resolve = (request: string, parent?: object, isMain?: boolean, options?: object) => string;
const loader = Module as unknown as {
  _resolveFilename: Resolve;
  _nodeModulePaths: (folder: string) => string[];
};

// Resolved before any spec remembers: the test file's own folder is a folder the specs resolve from.
const CHAI = require.resolve('chai');
const specModules = new WeakSet<object>();

/** A module of `folder` as far as resolving its requests goes. */
function moduleIn(folder: string, filename = join(folder, 'app.cjs')): object {
  const made = { id: filename, path: folder, filename, paths: loader._nodeModulePaths(folder) };
  specModules.add(made);
  return made;
}

/**
 * The resolver beneath is the process's own, counted: each spec puts the counter in, remembers resolutions
 * above it, and puts Node's resolver back.
 */
describe('rememberModuleResolutions', () => {
  const nodeResolve = loader._resolveFilename;
  let reached: [string, unknown][];
  const here = moduleIn(__dirname);

  beforeEach(() => {
    reached = [];
    loader._resolveFilename = function (...args: Parameters<Resolve>) {
      // Only this spec's resolutions: chai's own lazy requires pass here too.
      if (args[1] && specModules.has(args[1])) reached.push([args[0], this]);
      return Reflect.apply(nodeResolve, this, args) as string;
    };
    rememberModuleResolutions();
  });
  afterEach(() => (loader._resolveFilename = nodeResolve));

  it("resolves a folder's request once and answers the same filename after", () => {
    const first = loader._resolveFilename('chai', here, false);
    const again = [0, 1, 2].map(() => loader._resolveFilename('chai', here, undefined));
    expect(first).to.equal(CHAI);
    expect(again).to.deep.equal([first, first, first]);
    expect(reached).to.have.length(1);
  });

  it('keys by the requiring folder and by the paths a require.resolve names; a failure is not remembered', () => {
    const fixtures = moduleIn(join(__dirname, 'fixtures'));
    for (let i = 0; i < 2; i++) {
      expect(loader._resolveFilename('./fixtures/agent.cjs', here)).to.equal(
        join(__dirname, 'fixtures/agent.cjs'),
      );
      expect(() => loader._resolveFilename('./fixtures/agent.cjs', fixtures)).to.throw(/Cannot find module/);
    }
    const root = dirname(dirname(__dirname));
    for (let i = 0; i < 2; i++) {
      expect(loader._resolveFilename('./package.json', here, false, { paths: [root] })).to.equal(
        join(root, 'package.json'),
      );
    }
    expect(() => loader._resolveFilename('./package.json', here, false, { paths: [__dirname] })).to.throw(
      /Cannot find module/,
    );
    expect(reached.map(([request]) => request)).to.deep.equal([
      './fixtures/agent.cjs',
      './fixtures/agent.cjs',
      './fixtures/agent.cjs',
      './package.json',
      './package.json',
    ]);
  });

  it('keys by the export conditions Node passes where module hooks are registered', () => {
    const conditions = (...names: string[]) => ({ paths: undefined, conditions: new Set(names) });
    for (const options of [
      conditions('require', 'node'),
      conditions('require', 'node'),
      conditions('require', 'node', 'custom'),
      undefined,
    ]) {
      expect(loader._resolveFilename('chai', here, false, options)).to.equal(CHAI);
    }
    // No conditions at all: Node 22 and later find no entry of chai's exports for it, Node 20
    // passes no conditions to its resolver. Either way not the answer remembered for none given.
    let none: unknown;
    try {
      none = loader._resolveFilename('chai', here, false, conditions());
    } catch (err) {
      none = (err as { code?: string }).code;
    }
    expect(none).to.be.oneOf([CHAI, 'ERR_PACKAGE_PATH_NOT_EXPORTED']);
    // The same names in a new set are the same resolution; other names, none given (Node's
    // default conditions) and an empty set are not.
    expect(reached).to.have.length(4);
  });

  describe('with another chai installed elsewhere', () => {
    let folder: string;
    let ownChai: string;
    before(() => {
      folder = mkdtempSync(join(tmpdir(), 'resolution-memo-'));
      mkdirSync(join(folder, 'node_modules', 'chai'), { recursive: true });
      writeFileSync(join(folder, 'node_modules', 'chai', 'package.json'), '{"name":"chai","main":"own.js"}');
      ownChai = join(folder, 'node_modules', 'chai', 'own.js');
      writeFileSync(ownChai, '');
    });
    after(() => rmSync(folder, { recursive: true, force: true }));

    it('answers as Node does for a relative `paths` entry after the working folder changed', () => {
      const workingFolder = process.cwd();
      try {
        process.chdir(dirname(dirname(__dirname)));
        expect(loader._resolveFilename('chai', here, false, { paths: ['.'] })).to.equal(CHAI);
        process.chdir(folder);
        expect(loader._resolveFilename('chai', here, false, { paths: ['.'] })).to.equal(ownChai);
      } finally {
        process.chdir(workingFolder);
      }
    });

    it("answers as Node does once a module's lookup folders changed after a first resolution", () => {
      const requiring = moduleIn(__dirname) as { paths: string[] };
      expect(loader._resolveFilename('chai', requiring)).to.equal(CHAI);
      requiring.paths.unshift(join(folder, 'node_modules'));
      expect(loader._resolveFilename('chai', requiring)).to.equal(ownChai);
      // Another module of the folder, with the folder's own lookup folders, is still remembered.
      expect(loader._resolveFilename('chai', moduleIn(__dirname))).to.equal(CHAI);
      expect(reached).to.have.length(2);
    });
  });

  it('passes through the entry point, a module with no folder of its own, and options it does not know', () => {
    const evalModule = { ...moduleIn(process.cwd(), join(process.cwd(), '[eval]')), path: '.' };
    specModules.add(evalModule);
    const calls: [string, object | undefined, boolean | undefined, object | undefined][] = [
      ['chai', here, true, undefined],
      ['chai', evalModule, false, undefined],
      ['chai', here, false, { paths: [__dirname], other: 1 }],
    ];
    for (const [request, parent, isMain, options] of [...calls, ...calls]) {
      expect(loader._resolveFilename(request, parent, isMain, options)).to.equal(CHAI);
    }
    expect(reached).to.have.length(calls.length * 2);
  });

  it('puts itself in front once, however often the register starts', () => {
    const remembering = loader._resolveFilename;
    rememberModuleResolutions();
    expect(loader._resolveFilename).to.equal(remembering);
    loader._resolveFilename('chai', here);
    loader._resolveFilename('chai', here);
    expect(reached).to.have.length(1);
  });

  it('calls the resolver beneath with the same `this`, and throws what it throws', () => {
    const other = {};
    loader._resolveFilename.call(other, 'chai', here);
    expect(() => loader._resolveFilename('./no-such-file', here)).to.throw(
      /Cannot find module '\.\/no-such-file'/,
    );
    expect(reached).to.deep.equal([
      ['chai', other],
      ['./no-such-file', Module],
    ]);
  });
});
