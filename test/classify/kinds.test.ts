import { expect } from 'chai';
import { classifyToolError, TOOL_ERROR_KINDS, TOOL_ERROR_KIND_MEANINGS, isToolErrorKind } from '../../src';
import { kindFromAlias } from '../../src/classify/kind-aliases';

describe('the tool.error_kind meanings table', () => {
  // Pins every row: changing a flag is a breaking change for dashboards and retry policies.
  const expected: Array<[string, boolean, boolean]> = [
    ['unknown_tool', false, false],
    ['invalid_input', false, false],
    ['not_permitted', false, false],
    ['canceled', false, false],
    ['timeout', true, true],
    ['network', true, true],
    ['rate_limit', true, true],
    ['quota', true, false],
    ['auth', true, false],
    ['transient', true, true],
    ['permanent', true, false],
    ['tool_error', true, false],
    ['internal', true, false],
  ];

  it('has exactly the documented kinds, in order', () => {
    expect(TOOL_ERROR_KINDS).to.deep.equal(expected.map(([kind]) => kind));
  });

  for (const [kind, executed, retryable] of expected) {
    it(`${kind}: executed=${executed}, retryable=${retryable}, with an operator action`, () => {
      const row = TOOL_ERROR_KIND_MEANINGS[kind as keyof typeof TOOL_ERROR_KIND_MEANINGS];
      expect(row).to.include({ kind, executed, retryable });
      expect(row.description).to.match(/^[A-Z].{20,110}[.]$/);
      expect(row.description, 'says what to do').to.match(/:/);
      expect(Object.isFrozen(row)).to.equal(true);
    });
  }

  it('recognises kinds and nothing else', () => {
    expect(isToolErrorKind('timeout')).to.equal(true);
    expect(isToolErrorKind('toString')).to.equal(false);
    expect(isToolErrorKind(42)).to.equal(false);
  });
});

describe("other libraries' kind names", () => {
  /** What `classifyToolError` reads from another library's `ToolExecutionError { kind }`. */
  const kindOf = (kind: string) =>
    classifyToolError(Object.assign(new Error('failed'), { name: 'ToolExecutionError', kind })).kind;

  it('reads a seven-kind vocabulary: the same names, and validation as invalid_input', () => {
    const expected: Record<string, string> = {
      transient: 'transient',
      rate_limit: 'rate_limit',
      quota: 'quota',
      auth: 'auth',
      permanent: 'permanent',
      validation: 'invalid_input',
      internal: 'internal',
    };
    for (const [kind, ours] of Object.entries(expected)) expect(kindOf(kind), kind).to.equal(ours);
  });

  it('reads agent kinds and keeps their executed flag', () => {
    const executedThere: Record<string, boolean> = {
      unknown_tool: false,
      invalid_parameters: false,
      not_permitted: false,
      limit_exceeded: false,
      canceled: false,
      timeout: true,
      transport_error: true,
      execution_error: true,
      internal_error: true,
    };
    for (const [kind, executed] of Object.entries(executedThere)) {
      const ours = kindOf(kind);
      expect(isToolErrorKind(ours), kind).to.equal(true);
      expect(TOOL_ERROR_KIND_MEANINGS[ours].executed, kind).to.equal(executed);
    }
    expect(kindOf('invalid_parameters')).to.equal('invalid_input');
    expect(kindOf('limit_exceeded')).to.equal('not_permitted');
    expect(kindOf('transport_error')).to.equal('network');
    expect(kindOf('execution_error')).to.equal('tool_error');
    expect(kindOf('internal_error')).to.equal('internal');
  });

  it('reads result-contract error codes', () => {
    const expected: Record<string, string> = {
      external_service_error: 'transient',
      rate_limited: 'rate_limit',
      timeout: 'timeout',
      not_found: 'permanent',
      invalid_input: 'invalid_input',
      internal_error: 'internal',
    };
    for (const [code, ours] of Object.entries(expected)) expect(kindOf(code), code).to.equal(ours);
    expect(kindFromAlias('rate_limited')).to.equal('rate_limit');
    expect(kindFromAlias('hasOwnProperty')).to.equal(undefined);
  });
});
