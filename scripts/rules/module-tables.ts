import { readFileSync } from 'node:fs';
import Module from 'node:module';
import { dirname } from 'node:path';
import { buildSync } from 'esbuild';

/**
 * The values of a module's top-level constants, exported or not, as the module computes them at
 * load: the classifier keeps most of its tables private, and the rules file must hold exactly
 * those values. The module's source is compiled as it is, with one export line added for the
 * names asked for, so nothing in src/ changes; its own imports resolve as they do for it. A name
 * the module no longer declares fails the build, so a renamed table cannot be skipped silently.
 */
export function moduleTables(file: string, names: readonly string[]): Record<string, unknown> {
  const text = readFileSync(file, 'utf8');
  // Names the module exports already need no second export.
  const unexported = names.filter(
    (name) => !new RegExp(`^export (?:const|let|function) ${name}\\b`, 'm').test(text),
  );
  const source = `${text}\nexport { ${unexported.join(', ')} };\n`;
  const built = buildSync({
    stdin: { contents: source, resolveDir: dirname(file), sourcefile: file, loader: 'ts' },
    bundle: true,
    packages: 'external',
    platform: 'node',
    format: 'cjs',
    write: false,
    logLevel: 'silent',
  });
  const compiled = new Module(file) as Module & { _compile(code: string, filename: string): void };
  compiled.filename = file;
  compiled.paths = (Module as unknown as { _nodeModulePaths(dir: string): string[] })._nodeModulePaths(
    dirname(file),
  );
  compiled._compile(built.outputFiles[0]!.text, file);
  const exports = compiled.exports as Record<string, unknown>;
  for (const name of names) {
    if (!(name in exports)) throw new Error(`${file} has no top-level ${name}`);
  }
  return exports;
}
