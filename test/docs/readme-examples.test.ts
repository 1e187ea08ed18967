import { expect } from 'chai';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';

const ROOT = join(__dirname, '..', '..');

/**
 * The TypeScript examples of the README and docs/, each compiled as its own module against the
 * sources. A block whose first line is a path (`// src/tool-span/families/acme.ts`) is a file of
 * this repository to be: it is compiled at that path, so that its relative imports resolve as
 * they will, and a later block may import it.
 */
function readmeExamples(): Array<{ path: string; code: string }> {
  const pages = [
    'README.md',
    ...readdirSync(join(ROOT, 'docs'))
      .filter((name) => name.endsWith('.md'))
      .map((name) => `docs/${name}`),
  ];
  const text = pages.map((page) => readFileSync(join(ROOT, page), 'utf8')).join('\n');
  return [...text.matchAll(/```ts\n([\s\S]*?)```/g)].map((match, i) => {
    const code = match[1]!;
    const path = /^\/\/ ((?:src|test)\/[\w/.-]+\.ts)\n/.exec(code)?.[1];
    return path
      ? { path: join(ROOT, path), code }
      : {
          path: join(ROOT, `readme-example-${i}.ts`),
          // The "Adding a framework" example is an adapter file, importing its contract as adapters do.
          code: code.replace("from './adapter'", "from './src/instrumentation/adapters/adapter'"),
        };
  });
}

describe('README and docs/ examples', () => {
  it('every TypeScript example compiles against the public API', function () {
    this.timeout(120_000);
    const examples = readmeExamples();
    expect(examples.length).to.be.greaterThan(5);
    const files = new Map(examples.map(({ path, code }) => [path, code]));
    const options: ts.CompilerOptions = {
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.ESNext,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'],
      types: ['node', 'mocha'],
      strict: true,
      noEmit: true,
      skipLibCheck: true,
      esModuleInterop: true,
      resolveJsonModule: true,
      // The examples import the package by its name, as a user would.
      paths: { 'otel-tool-errors': [join(ROOT, 'src', 'index.ts')] },
    };
    const host = ts.createCompilerHost(options);
    const readFile = host.readFile.bind(host);
    const fileExists = host.fileExists.bind(host);
    host.readFile = (name) => files.get(name) ?? readFile(name);
    host.fileExists = (name) => files.has(name) || fileExists(name);
    const program = ts.createProgram([...files.keys()], options, host);
    const problems = ts
      .getPreEmitDiagnostics(program)
      .filter((d) => d.file && files.has(d.file.fileName))
      .map(
        (d) =>
          `${d.file!.fileName.slice(ROOT.length + 1)}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`,
      );
    expect(problems).to.deep.equal([]);
  });
});
