import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { expect } from 'chai';
import ts from 'typescript';

/**
 * The layers of src/, from the bottom: what each folder may import. A folder not listed here is
 * one of the entry points (index, register), which may import anything.
 */
const ALLOWED: Record<string, readonly string[]> = {
  classify: ['classify'],
  redact: ['classify', 'redact', 'semconv'],
  'tool-span': ['classify', 'redact', 'semconv', 'tool-span', 'logger', 'package.json'],
  processor: ['classify', 'redact', 'semconv', 'tool-span', 'logger', 'user-notice', 'processor'],
  metrics: ['classify', 'semconv', 'tool-span', 'logger', 'metrics'],
  export: ['user-notice', 'export'],
  instrumentation: [
    'classify',
    'redact',
    'semconv',
    'tool-span',
    'logger',
    'user-notice',
    'errors',
    'instrumentation',
  ],
};
const MAX_LINES = 350;

/**
 * Where frameworks are named: each span family and each adapter in its own module, and the two
 * lists of them. Everything else reads the declarations.
 */
const FRAMEWORK_HOMES = ['tool-span/families/', 'instrumentation/adapters/'];
/** The frameworks with a span family or an adapter, as their code names them. */
const FRAMEWORK_NAME =
  /genkit|strands|voltagent|anthropic|openinference|openllmetry|traceloop|sentry|dd-?trace|mastra|ai-?sdk|langchain|langgraph|llamaindex|google-adk|@google\/adk|gcp\.vertex|openai-agents|@openai\/agents|claude-agent|modelcontextprotocol/i;

/** The identifiers and string or template texts of a file's code, comments left out. */
function codeTokens(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const tokens: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isIdentifier(node) || ts.isStringLiteralLike(node) || ts.isTemplateLiteralToken(node))
      tokens.push(node.text);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return tokens;
}
const SRC = resolve(__dirname, '../../src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return path.endsWith('.ts') && !path.endsWith('.d.ts') ? [path] : [];
  });
}

/** Every relative import of `file`, type-only ones included, resolved to a file. */
function importsOf(file: string, files: Set<string>): string[] {
  const text = readFileSync(file, 'utf8');
  const specifiers = [
    ...text.matchAll(/(?:import|export)\s[^'";]*?from\s+'(\.[^']+)'|import\(\s*'(\.[^']+)'\s*\)/g),
  ];
  return specifiers.map((match) => {
    const base = resolve(dirname(file), match[1] ?? match[2]!);
    return [`${base}.ts`, join(base, 'index.ts'), base].find((candidate) => files.has(candidate)) ?? base;
  });
}

/** The top folder (or file name) a path lies in under src/. */
function layerOf(path: string): string {
  return relative(SRC, path).split('/')[0]!.replace(/\.ts$/, '');
}

describe('the layers of src/', () => {
  const files = sourceFiles(SRC);
  const known = new Set(files);
  const graph = new Map(files.map((file) => [file, importsOf(file, known)]));

  it('has no import cycle, type-only imports included', () => {
    const cycles: string[] = [];
    const state = new Map<string, 'visiting' | 'done'>();
    const visit = (file: string, path: string[]): void => {
      if (state.get(file) === 'done') return;
      if (state.get(file) === 'visiting') {
        cycles.push([...path.slice(path.indexOf(file)), file].map((f) => relative(SRC, f)).join(' -> '));
        return;
      }
      state.set(file, 'visiting');
      for (const next of graph.get(file) ?? []) if (known.has(next)) visit(next, [...path, file]);
      state.set(file, 'done');
    };
    for (const file of files) visit(file, []);
    expect(cycles).to.deep.equal([]);
  });

  it('imports only downwards: the classifier knows nothing of spans, the processor nothing of the instrumentation', () => {
    const violations: string[] = [];
    for (const [file, imports] of graph) {
      const allowed = ALLOWED[layerOf(file)];
      if (!allowed) continue;
      for (const target of imports) {
        const layer = target.endsWith('package.json') ? 'package.json' : layerOf(target);
        if (!allowed.includes(layer))
          violations.push(`${relative(SRC, file)} imports ${relative(SRC, target)}`);
      }
    }
    expect(violations).to.deep.equal([]);
  });

  it(`keeps every file at ${MAX_LINES} lines or fewer`, () => {
    const long = files
      .map((file) => ({
        file: relative(SRC, file),
        lines: readFileSync(file, 'utf8').trimEnd().split('\n').length,
      }))
      .filter(({ lines }) => lines > MAX_LINES);
    expect(long).to.deep.equal([]);
  });

  it('names frameworks only in their own span-family or adapter module and the lists of them', () => {
    const named = files
      .filter((file) => !FRAMEWORK_HOMES.some((home) => relative(SRC, file).startsWith(home)))
      .flatMap((file) =>
        codeTokens(file)
          .filter((token) => FRAMEWORK_NAME.test(token))
          .map((token) => `${relative(SRC, file)}: ${token}`),
      );
    expect(named).to.deep.equal([]);
  });

  it('keeps each span family alone in its module: it imports only the family contract and semconv', () => {
    const crossing = files
      .filter((file) => relative(SRC, file).startsWith('tool-span/families/'))
      .filter((file) => !/\/(family|list)\.ts$/.test(file))
      .flatMap((file) =>
        graph
          .get(file)!
          .filter((target) => !/families\/family\.ts$|semconv\.ts$/.test(target))
          .map((target) => `${relative(SRC, file)} imports ${relative(SRC, target)}`),
      );
    expect(crossing).to.deep.equal([]);
  });
});
