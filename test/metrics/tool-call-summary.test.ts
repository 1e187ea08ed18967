import { expect } from 'chai';
import { ToolCallSummary, getToolCallSummary, setMaxErrorTypes, DEFAULT_MAX_ERROR_TYPES } from '../../src';
import { resetErrorTypes } from '../../src/classify/error-type';

describe('ToolCallSummary', () => {
  afterEach(() => {
    setMaxErrorTypes(DEFAULT_MAX_ERROR_TYPES);
    resetErrorTypes();
  });

  it('counts calls by tool, outcome, error.type and kind, with durations', () => {
    const summary = new ToolCallSummary();
    summary.record({ toolName: 'search', durationSeconds: 0.2 });
    summary.record({ toolName: 'search', durationSeconds: 0.4 });
    summary.record({
      toolName: 'search',
      durationSeconds: 1,
      errorType: '429',
      errorKind: 'rate_limit',
      retryable: true,
    });
    summary.record({
      toolName: 'search',
      durationSeconds: 3,
      errorType: '429',
      errorKind: 'quota',
      retryable: false,
    });
    summary.record({
      toolName: 'api',
      durationSeconds: 0.5,
      errorType: 'ECONNREFUSED',
      errorKind: 'network',
      retryable: true,
    });
    summary.record({
      toolName: 'api',
      durationSeconds: 1.5,
      errorType: 'ECONNREFUSED',
      errorKind: 'network',
      retryable: true,
    });

    const rows = summary.rows();
    expect(rows).to.have.length(4);
    expect(rows[0]).to.deep.include({ toolName: 'search', outcome: 'ok', calls: 2, maxDurationSeconds: 0.4 });
    expect(rows[0]!.totalDurationSeconds).to.be.closeTo(0.6, 1e-9);
    expect(rows[0]).to.not.have.property('errorType');
    expect(rows[1]).to.deep.include({ errorType: '429', errorKind: 'rate_limit', retryable: true, calls: 1 });
    expect(rows[2]).to.deep.include({ errorType: '429', errorKind: 'quota', retryable: false, calls: 1 });
    expect(rows[3]).to.deep.include({
      toolName: 'api',
      outcome: 'error',
      errorType: 'ECONNREFUSED',
      calls: 2,
      totalDurationSeconds: 2,
      maxDurationSeconds: 1.5,
    });
    // The seed registry's "tool:error_type" view.
    expect(summary.errorCounts()).to.deep.equal({ 'search:429': 2, 'api:ECONNREFUSED': 2 });
  });

  it('hands out copies: callers cannot change its counts', () => {
    const summary = new ToolCallSummary();
    summary.record({ toolName: 't', durationSeconds: 1 });
    (summary.rows()[0] as { calls: number }).calls = 99;
    expect(summary.rows()[0]!.calls).to.equal(1);
  });

  it('caps distinct tool names, folding the rest into _OTHER', () => {
    const summary = new ToolCallSummary({ maxToolNames: 2 });
    for (const name of ['a', 'b', 'c', 'd', 'a']) summary.record({ toolName: name, durationSeconds: 0 });
    expect(summary.rows().map((row) => [row.toolName, row.calls])).to.deep.equal([
      ['a', 2],
      ['b', 1],
      ['_OTHER', 2],
    ]);
  });

  it('bounds error.type with the process-wide cap the spans use, and kinds with the taxonomy', () => {
    setMaxErrorTypes(1);
    const summary = new ToolCallSummary();
    summary.record({ toolName: 't', durationSeconds: 0, errorType: 'FirstError', errorKind: 'internal' });
    summary.record({ toolName: 't', durationSeconds: 0, errorType: 'SecondError', errorKind: 'internal' });
    summary.record({ toolName: 't', durationSeconds: 0, errorType: '503', errorKind: 'made_up_kind' });
    summary.record({ toolName: 't', durationSeconds: 0, errorKind: 'timeout' });
    expect(summary.rows().map((row) => [row.errorType, row.errorKind])).to.deep.equal([
      ['FirstError', 'internal'],
      ['_OTHER', 'internal'],
      // HTTP statuses always pass; a kind outside the taxonomy does not.
      ['503', '_OTHER'],
      // A failure whose span had no error.type still counts as one.
      ['_OTHER', 'timeout'],
    ]);
  });

  it('keeps no messages or arguments: a row holds only bounded labels and numbers', () => {
    const summary = new ToolCallSummary();
    summary.record({
      toolName: 't',
      durationSeconds: 1,
      errorType: '401',
      errorKind: 'auth',
      retryable: false,
    });
    expect(Object.keys(summary.rows()[0]!).sort()).to.deep.equal(
      [
        'calls',
        'errorKind',
        'errorType',
        'maxDurationSeconds',
        'outcome',
        'retryable',
        'toolName',
        'totalDurationSeconds',
      ].sort(),
    );
  });

  it('reset() forgets rows and admitted tool names', () => {
    const summary = new ToolCallSummary({ maxToolNames: 1 });
    summary.record({ toolName: 'a', durationSeconds: 0 });
    summary.reset();
    summary.record({ toolName: 'b', durationSeconds: 0 });
    expect(summary.rows().map((row) => row.toolName)).to.deep.equal(['b']);
  });

  it('rejects a cap that is not a positive integer', () => {
    expect(() => new ToolCallSummary({ maxToolNames: 0 })).to.throw(
      TypeError,
      /maxToolNames.*positive integer/,
    );
    expect(() => new ToolCallSummary({ maxToolNames: 1.5 })).to.throw(TypeError);
  });

  it('getToolCallSummary() is one instance per process, shared through a global symbol', () => {
    const summary = getToolCallSummary();
    expect(getToolCallSummary()).to.equal(summary);
    expect(
      (globalThis as Record<symbol, unknown>)[Symbol.for('otel-tool-errors.tool-call-summary')],
    ).to.equal(summary);
  });
});
