import { expect } from 'chai';
import fc from 'fast-check';
import {
  TOOL_ERROR_KINDS,
  classifyToolError,
  classifyToolResult,
  setMaxErrorTypes,
  DEFAULT_MAX_ERROR_TYPES,
  type ToolErrorClassification,
} from '../../src';
import { resetErrorTypes } from '../../src/classify/error-type';
import { classifyMessage, MAX_SCANNED_MESSAGE_LENGTH } from '../../src/classify/message';
import { CRAFTED_FOR_CLASSIFIER } from '../reliability/hostile-values';

function expectValid(c: ToolErrorClassification): void {
  expect(TOOL_ERROR_KINDS).to.include(c.kind);
  expect(c.errorType).to.be.a('string').with.length.within(1, 64);
  expect(c.retryable).to.be.a('boolean');
  expect(c.executed).to.be.a('boolean');
}

/** A Proxy whose every trap throws. */
function throwingProxy(): object {
  const boom = () => {
    throw new Error('trap');
  };
  return new Proxy(
    {},
    { get: boom, has: boom, getPrototypeOf: boom, ownKeys: boom, getOwnPropertyDescriptor: boom },
  );
}

function withThrowingGetters(keys: string[]): Error {
  const err = new Error('x');
  for (const key of keys) {
    Object.defineProperty(err, key, {
      get() {
        throw new Error(`getter ${key}`);
      },
    });
  }
  return err;
}

describe('the classifier on hostile input', () => {
  it('never throws and always answers from the taxonomy, on any value (fast-check)', () => {
    fc.assert(
      fc.property(
        fc.anything({ withBigInt: true, withMap: true, withSet: true, withTypedArray: true }),
        (value) => {
          expectValid(classifyToolError(value));
          const asResult = classifyToolResult(value);
          if (asResult) expectValid(asResult);
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('on error-shaped records with arbitrary fields (fast-check)', () => {
    const errorLike = fc.record(
      {
        name: fc.oneof(fc.string(), fc.constantFrom('TimeoutError', 'AbortError', 'ZodError', 'McpError')),
        message: fc.string(),
        code: fc.oneof(fc.string(), fc.integer(), fc.constantFrom('ECONNREFUSED', 'ETIMEDOUT')),
        status: fc.oneof(fc.integer(), fc.string(), fc.double()),
        statusCode: fc.integer(),
        response: fc.record({ status: fc.integer(), headers: fc.dictionary(fc.string(), fc.string()) }),
        cause: fc.anything(),
        errors: fc.array(fc.anything()),
      },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(errorLike, (value) => expectValid(classifyToolError(value))),
      { numRuns: 3000 },
    );
  });

  it('Proxies whose traps throw', () => {
    expectValid(classifyToolError(throwingProxy()));
    expectValid(classifyToolError(new Error('wrap', { cause: throwingProxy() })));
    expect(classifyToolResult(throwingProxy())).to.equal(undefined);
  });

  it('getters that throw on status, code, message, name and constructor', () => {
    const err = withThrowingGetters([
      'status',
      'statusCode',
      'code',
      'message',
      'name',
      'constructor',
      'cause',
      'response',
    ]);
    expectValid(classifyToolError(err));
  });

  it('cyclic and very deep cause chains', () => {
    const a = new Error('a');
    const b = new Error('b', { cause: a });
    Object.defineProperty(a, 'cause', { value: b });
    expectValid(classifyToolError(a));

    let deep: Error = Object.assign(new Error('bottom'), { status: 503 });
    for (let i = 0; i < 100_000; i++) deep = new Error(`level ${i}`, { cause: deep });
    expectValid(classifyToolError(deep));
  });

  it('a cause found within the walk bound is used', () => {
    let err: Error = Object.assign(new Error('bottom'), { code: 'ECONNRESET' });
    for (let i = 0; i < 5; i++) err = new Error('wrapper', { cause: err });
    expect(classifyToolError(err)).to.include({ kind: 'network' });
  });

  it('10 MB messages and messages crafted against the patterns', function () {
    // A catastrophic backtrack on these inputs takes minutes: the test's timeout catches it. How
    // long each takes is measured by `npm run bench -- hostile`.
    this.timeout(60_000);
    for (const message of CRAFTED_FOR_CLASSIFIER) {
      expectValid(classifyToolError(new Error(message)));
      const byMessage = classifyMessage(message);
      if (byMessage !== undefined) expect(TOOL_ERROR_KINDS).to.include(byMessage.kind);
    }
  });

  it('reads only the head of a long message', () => {
    const late = `${'x'.repeat(MAX_SCANNED_MESSAGE_LENGTH)} rate limit exceeded`;
    expect(classifyMessage(late)).to.equal(undefined);
    expect(classifyMessage(`rate limit exceeded ${'x'.repeat(MAX_SCANNED_MESSAGE_LENGTH)}`)?.kind).to.equal(
      'rate_limit',
    );
  });

  it('Symbols and frozen objects', () => {
    expectValid(classifyToolError(Symbol('boom')));
    expectValid(classifyToolError(Object.freeze(Object.assign(new Error('x'), { status: 500 }))));
    expect(classifyToolError(Object.freeze({ code: 'EPIPE' }))).to.include({ kind: 'network' });
  });
});

describe('error.type cardinality', () => {
  afterEach(() => {
    setMaxErrorTypes(DEFAULT_MAX_ERROR_TYPES);
    resetErrorTypes();
  });

  it('10,000 dynamically named error classes yield at most the cap, then _OTHER', () => {
    resetErrorTypes();
    setMaxErrorTypes(50);
    const seen = new Set<string>();
    for (let i = 0; i < 10_000; i++) {
      const Dynamic = { [`Failure${i}`]: class extends Error {} }[`Failure${i}`];
      seen.add(classifyToolError(new Dynamic('x')).errorType);
    }
    expect(seen.size).to.equal(51);
    expect(seen.has('_OTHER')).to.equal(true);
    // Statuses and our fixed values always pass, even past the cap.
    expect(classifyToolError({ status: 418 }).errorType).to.equal('418');
    expect(classifyToolError(new DOMException('t', 'TimeoutError')).errorType).to.equal('timeout');
  });

  it('sanitises names into label-safe, bounded values', () => {
    const Weird = { ['Bad Name\n<script>'.repeat(10)]: class extends Error {} }[
      'Bad Name\n<script>'.repeat(10)
    ];
    const { errorType } = classifyToolError(new Weird('x'));
    expect(errorType).to.match(/^[A-Za-z0-9_.:$-]{1,64}$/);
  });

  it('rejects a bad cap with a clear message', () => {
    expect(() => setMaxErrorTypes(-1)).to.throw(TypeError, /non-negative integer/);
  });
});
