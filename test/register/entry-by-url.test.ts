import { expect } from 'chai';
import {
  asPackageImport,
  asPackageImportAsync,
  packageOf,
  patchedPackageOf,
} from '../../src/register/stand-in-hook';

/**
 * A package's entry imported by its file URL (as vitest imports every package it leaves to Node) is
 * handed to import-in-the-middle as an import by the package's name, which it patches; any other
 * import is handed on as it came.
 */
describe('register: a package entry imported by its file URL', () => {
  const names = new Set(['ai', '@ai-sdk/mcp']);
  const ENTRY = 'file:///app/node_modules/ai/dist/index.mjs';
  /** Node's resolution in a layout with `ai` and `@ai-sdk/mcp`, from any parent. */
  const resolve = (specifier: string, _context: { parentURL?: string }) => {
    const urls: Record<string, string> = {
      ai: ENTRY,
      '@ai-sdk/mcp': 'file:///app/node_modules/@ai-sdk/mcp/dist/index.mjs',
    };
    const url = urls[specifier] ?? (specifier.startsWith('/') ? `file://${specifier}` : specifier);
    return { url };
  };
  const context = {
    parentURL: 'file:///app/node_modules/vite/dist/node/module-runner.js',
    conditions: ['import'],
  };

  it('the entry by file URL or absolute path becomes an import by name, from the package folder', () => {
    const byName = ['ai', { parentURL: 'file:///app/node_modules/ai/package.json', conditions: ['import'] }];
    expect(asPackageImport(ENTRY, context, names, resolve)).to.deep.equal(byName);
    expect(asPackageImport('/app/node_modules/ai/dist/index.mjs', context, names, resolve)).to.deep.equal(
      byName,
    );
    const scoped = asPackageImport(
      'file:///app/node_modules/@ai-sdk/mcp/dist/index.mjs',
      context,
      names,
      resolve,
    );
    expect(scoped).to.deep.equal([
      '@ai-sdk/mcp',
      { parentURL: 'file:///app/node_modules/@ai-sdk/mcp/package.json', conditions: ['import'] },
    ]);
  });

  it('the same, through the asynchronous resolve of the off-thread hook', async () => {
    const asyncResolve = async (specifier: string, given: { parentURL?: string }) =>
      resolve(specifier, given);
    expect(await asPackageImportAsync(ENTRY, context, names, asyncResolve)).to.deep.equal([
      'ai',
      { parentURL: 'file:///app/node_modules/ai/package.json', conditions: ['import'] },
    ]);
  });

  it('any other import is handed on as it came', () => {
    const unchanged = (specifier: string, given = context) =>
      expect(asPackageImport(specifier, given, names, resolve)).to.deep.equal([specifier, given]);
    unchanged('ai'); // by name already
    unchanged('file:///app/node_modules/ai/dist/internal.mjs'); // a file that is not the entry
    unchanged('file:///app/node_modules/zod/index.mjs'); // a package no instrumentation patches
    unchanged('file:///app/src/agent.mjs'); // the app's own file
    unchanged('./local.mjs');
    // import-in-the-middle's wrapper importing the module it wraps: by URL, or it would wrap itself.
    unchanged(ENTRY, { parentURL: `${ENTRY}?iitm=true`, conditions: ['import'] });
    const failing = () => {
      throw new Error('Cannot find package');
    };
    expect(asPackageImport(ENTRY, context, names, failing)).to.deep.equal([ENTRY, context]);
  });

  it('names the package of a path inside node_modules, Windows paths too', () => {
    expect(patchedPackageOf('C:\\app\\node_modules\\ai\\dist\\index.mjs', names)).to.equal('ai');
    expect(patchedPackageOf('file:///app/node_modules/x/node_modules/ai/dist/index.mjs', names)).to.equal(
      'ai',
    );
    expect(patchedPackageOf('file:///app/node_modules/other/dist/index.mjs', names)).to.equal(undefined);
    expect(patchedPackageOf('ai', names)).to.equal(undefined);
  });

  it('names the package a require or an import names, by name or by a path inside node_modules', () => {
    expect(['node:http', 'http', '@ai-sdk/mcp/dist/index.js', 'ai/rsc'].map(packageOf)).to.deep.equal([
      'http',
      'http',
      '@ai-sdk/mcp',
      'ai',
    ]);
    expect(packageOf('../node_modules/@scope/pkg/lib/index.js')).to.equal('@scope/pkg');
    expect(packageOf('D:\\app\\node_modules\\@scope\\pkg\\index.js')).to.equal('@scope/pkg');
    expect(packageOf('./lib/index.js')).to.equal(undefined);
    expect(packageOf('/app/src/agent.js')).to.equal(undefined);
  });
});
