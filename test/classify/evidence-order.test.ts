import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { context, trace } from '@opentelemetry/api';
import { expect } from 'chai';
import { classifyToolError, EVIDENCE_ORDER } from '../../src';
import { isStrongerEvidence, isStructuredEvidence } from '../../src/classify/evidence';
import { recordToolError, traceToolCall } from '../../src/instrumentation/tool-call/trace-tool-call';
import { createTestTracing, type TestTracing } from '../helpers/tracing';

/** The evidence table of docs/classifier.md, as `EVIDENCE_ORDER` renders it. */
function renderedTable(): string {
  const rows = EVIDENCE_ORDER.map((row, index) => `| ${index + 1} | \`${row.evidence}\` | ${row.source} |`);
  return ['| rank | `evidence` | where it comes from |', '|---|---|---|', ...rows].join('\n');
}

function readmeTable(): string {
  const readme = readFileSync(join(__dirname, '..', '..', 'docs', 'classifier.md'), 'utf8');
  const match = /<!-- evidence-order:start -->\n([\s\S]*?)\n<!-- evidence-order:end -->/.exec(readme);
  expect(match, 'docs/classifier.md marks its evidence table').to.not.equal(null);
  return match![1]!;
}

function timeoutError(): DOMException {
  return new DOMException('The operation was aborted due to timeout', 'TimeoutError');
}

function abortError(cause?: unknown): Error {
  const err = new Error('This operation was aborted', cause === undefined ? undefined : { cause });
  err.name = 'AbortError';
  (err as { code?: string }).code = 'ABORT_ERR';
  return err;
}

/**
 * One sample error for each row the classifier can reach from a thrown error (not `explicit`,
 * whose stated kind completes from the rest of the chain, nor `http_child` and `result`).
 * Each takes an optional cause, so a pair can be built as one chain too.
 */
const SAMPLES: ReadonlyArray<{ evidence: string; make: (cause?: unknown) => Error }> = [
  {
    evidence: 'http_status',
    make: (cause) => Object.assign(new Error('Request failed', { cause }), { status: 503 }),
  },
  {
    evidence: 'code',
    make: (cause) => Object.assign(new Error('read ECONNRESET', { cause }), { code: 'ECONNRESET' }),
  },
  { evidence: 'cancel', make: (cause) => abortError(cause) },
  {
    evidence: 'class',
    make: (cause) => Object.assign(new Error('bad input', { cause }), { name: 'ZodError' }),
  },
  {
    evidence: 'message',
    make: (cause) => new Error('upstream answered HTTP 429 Too Many Requests', { cause }),
  },
  { evidence: 'fallback', make: (cause) => new Error('upstream failed', { cause }) },
];

describe('the evidence order', () => {
  it('is the table docs/classifier.md prints', () => {
    expect(readmeTable()).to.equal(renderedTable());
  });

  it('puts a failed HTTP child span above message patterns and a generic class name, below the error itself', () => {
    for (const structured of ['explicit', 'http_status', 'code', 'cancel', 'class'] as const) {
      expect(isStrongerEvidence(structured, 'http_child'), structured).to.equal(true);
    }
    for (const weaker of ['message', 'result', 'fallback'] as const) {
      expect(isStrongerEvidence('http_child', weaker), weaker).to.equal(true);
    }
  });

  it('is ranked by each row, each rank once, and listed strongest first', () => {
    const ranks = EVIDENCE_ORDER.map((row) => row.rank);
    expect(ranks).to.deep.equal([...ranks].sort((a, b) => a - b));
    expect(new Set(ranks).size).to.equal(ranks.length);
  });

  it("says a source is structured from its row's own flag: those read from the error itself, outranking a failed HTTP child", () => {
    for (const row of EVIDENCE_ORDER) {
      expect(isStructuredEvidence(row.evidence), row.evidence).to.equal(row.structured);
      if (row.structured) expect(row.from, row.evidence).to.include('error');
    }
    const httpChild = EVIDENCE_ORDER.find((row) => row.from.length === 1 && row.from[0] === 'span')!;
    for (const row of EVIDENCE_ORDER.filter((r) => r.structured)) {
      expect(isStrongerEvidence(row.evidence, httpChild.evidence), row.evidence).to.equal(true);
    }
  });

  it('gives every sample the evidence it stands for', () => {
    for (const sample of SAMPLES) {
      expect(classifyToolError(sample.make()).evidence, sample.evidence).to.equal(sample.evidence);
    }
  });

  describe('the classifier and the wrapper agree', () => {
    let tracing: TestTracing;
    before(() => {
      tracing = createTestTracing();
    });
    afterEach(() => tracing.reset());
    after(() => tracing.shutdown());

    /** The wrapper's answer when `noted` is recorded during the call and `thrown` is thrown. */
    function throughWrapper(noted: unknown, thrown: unknown): { type: unknown; kind: unknown } {
      const parent = tracing.tracer.startSpan('agent');
      try {
        context.with(trace.setSpan(context.active(), parent), () =>
          traceToolCall(tracing.tracer, {}, { name: 'tool' }, () => {
            recordToolError(noted);
            throw thrown;
          }),
        );
      } catch (err) {
        expect(err).to.equal(thrown);
      }
      parent.end();
      const span = tracing.span('execute_tool tool');
      tracing.reset();
      return { type: span.attributes['error.type'], kind: span.attributes['tool.error_kind'] };
    }

    it('an AbortError caused by a TimeoutError is a timeout, as one chain or as two errors', () => {
      const chained = classifyToolError(abortError(timeoutError()));
      expect(chained).to.include({ kind: 'timeout', errorType: 'timeout', evidence: 'code' });
      expect(throughWrapper(timeoutError(), abortError())).to.deep.equal({
        type: 'timeout',
        kind: 'timeout',
      });
      expect(throughWrapper(timeoutError(), abortError(timeoutError()))).to.deep.equal({
        type: 'timeout',
        kind: 'timeout',
      });
    });

    it('for every pair of different rows: noted then thrown gives what the chain thrown -> noted gives', () => {
      let pairs = 0;
      for (const noted of SAMPLES) {
        for (const thrown of SAMPLES) {
          if (noted === thrown) continue;
          const chain = classifyToolError(thrown.make(noted.make()));
          const wrapped = throughWrapper(noted.make(), thrown.make());
          expect(wrapped, `${noted.evidence} noted, ${thrown.evidence} thrown`).to.deep.equal({
            type: chain.errorType,
            kind: chain.kind,
          });
          pairs++;
        }
      }
      expect(pairs).to.equal(SAMPLES.length * (SAMPLES.length - 1));
    });
  });
});
