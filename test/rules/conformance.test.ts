import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Context, type Tracer } from '@opentelemetry/api';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
  type ReadableSpan,
} from '@opentelemetry/sdk-trace-base';
import { expect } from 'chai';
import { classifyToolError, ToolErrorSpanProcessor } from '../../src';

/**
 * The shared conformance corpus (rules/conformance.json), run by the TypeScript package: error
 * shapes through `classifyToolError`, spans through `ToolErrorSpanProcessor` in a real SDK
 * pipeline. The collector processor's Go tests run the same file.
 */

interface SpanCase {
  name: string;
  kind?: 'internal' | 'client' | 'server';
  attributes?: Record<string, string | number | boolean | string[]>;
  status?: { code: 'error' | 'ok' | 'unset'; message?: string };
  events?: Array<{ name: string; attributes?: Record<string, string> }>;
  children?: SpanCase[];
}

interface Corpus {
  errors: Array<{
    name: string;
    error: Record<string, unknown>;
    expect: { errorType: string; kind: string; retryable: boolean; executed: boolean };
    only?: 'collector';
    why?: string;
  }>;
  spans: Array<{
    name: string;
    span: SpanCase;
    expect: {
      attributes?: Record<string, string | boolean>;
      absent?: string[];
      status?: { code: 'error' | 'ok' | 'unset'; message?: string };
      /** The span's events, in order: each listed attribute with this value. */
      events?: Array<{ name: string; attributes: Record<string, string> }>;
    };
    only?: 'collector';
    why?: string;
  }>;
  phrasings: { statuses: number[]; reasons: Record<string, string>; templates: string[]; noise: string[] };
}

const corpus = JSON.parse(readFileSync(join(__dirname, '../../rules/conformance.json'), 'utf8')) as Corpus;

/** A case the collector alone can answer is skipped here, and its title says why. */
function title(c: { name: string; only?: 'collector'; why?: string }): string {
  return c.only === 'collector' ? `${c.name} (skipped in process, collector only: ${c.why})` : c.name;
}

const KINDS = { internal: SpanKind.INTERNAL, client: SpanKind.CLIENT, server: SpanKind.SERVER };
const STATUS = { error: SpanStatusCode.ERROR, ok: SpanStatusCode.OK, unset: SpanStatusCode.UNSET };

/** Starts the span and its children under it; children end in order, then the span. */
function play(tracer: Tracer, node: SpanCase, parent: Context): void {
  const span = tracer.startSpan(
    node.name,
    { kind: KINDS[node.kind ?? 'internal'], attributes: node.attributes },
    parent,
  );
  const context = trace.setSpan(parent, span);
  for (const child of node.children ?? []) play(tracer, child, context);
  for (const event of node.events ?? []) span.addEvent(event.name, event.attributes);
  if (node.status) span.setStatus({ code: STATUS[node.status.code], message: node.status.message });
  span.end();
}

describe('the conformance corpus (rules/conformance.json), in process', () => {
  it('holds cases of both sorts, most of them for both implementations', () => {
    const all = [...corpus.errors, ...corpus.spans];
    expect(corpus.errors.length).to.be.at.least(20);
    expect(corpus.spans.length).to.be.at.least(15);
    expect(all.filter((c) => c.only === undefined).length).to.be.greaterThan((all.length * 2) / 3);
    for (const c of all) if (c.only) expect(c.why, c.name).to.be.a('string');
  });

  describe('classifyToolError', () => {
    for (const c of corpus.errors) {
      it(title(c), function () {
        if (c.only === 'collector') this.skip(); // collector only: the title says why
        const found = classifyToolError({ ...c.error });
        expect({
          errorType: found.errorType,
          kind: found.kind,
          retryable: found.retryable,
          executed: found.executed,
        }).to.deep.equal(c.expect);
      });
    }
  });

  describe('the generated phrasings: every template with every status, alone and with noise after it', () => {
    const { statuses, reasons, templates, noise } = corpus.phrasings;
    it('reads the status of each', () => {
      let cases = 0;
      for (const template of templates) {
        for (const status of statuses) {
          const text = template
            .replaceAll('{status}', String(status))
            .replaceAll('{reason}', reasons[status]!);
          for (const message of [text, ...noise.map((extra) => `${text} ${extra}`)]) {
            expect(classifyToolError({ name: 'Error', message }).httpStatus, message).to.equal(status);
            cases++;
          }
        }
      }
      expect(cases).to.equal(templates.length * statuses.length * (noise.length + 1));
    });

    it('reads no status in the noise alone', () => {
      for (const message of noise) {
        expect(classifyToolError({ name: 'Error', message }).httpStatus, message).to.equal(undefined);
      }
    });
  });

  describe('ToolErrorSpanProcessor', () => {
    let exporter: InMemorySpanExporter;
    let provider: BasicTracerProvider;

    before(() => {
      exporter = new InMemorySpanExporter();
      provider = new BasicTracerProvider({
        spanProcessors: [new ToolErrorSpanProcessor(), new SimpleSpanProcessor(exporter)],
      });
    });
    after(() => provider.shutdown());

    for (const c of corpus.spans) {
      it(title(c), function () {
        if (c.only === 'collector') this.skip(); // collector only: the title says why
        exporter.reset();
        play(provider.getTracer('conformance'), c.span, ROOT_CONTEXT);
        const spans = exporter.getFinishedSpans();
        const root: ReadableSpan = spans[spans.length - 1]!;
        expect(root.name).to.equal(c.span.name);
        for (const [key, value] of Object.entries(c.expect.attributes ?? {})) {
          expect(root.attributes[key], key).to.equal(value);
        }
        for (const key of c.expect.absent ?? []) expect(root.attributes, key).not.to.have.property(key);
        if (c.expect.status) {
          expect(root.status.code, 'status code').to.equal(STATUS[c.expect.status.code]);
          if (c.expect.status.message !== undefined)
            expect(root.status.message).to.equal(c.expect.status.message);
        }
        (c.expect.events ?? []).forEach((want, i) => {
          const event = root.events[i];
          expect(event?.name, `event ${i}`).to.equal(want.name);
          for (const [key, value] of Object.entries(want.attributes))
            expect(event?.attributes?.[key], `event ${i}: ${key}`).to.equal(value);
        });
      });
    }
  });
});
