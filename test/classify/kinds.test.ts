import { expect } from 'chai';
import {
  ADK_CONTRACT_CODES,
  ENTELIX_KINDS,
  TOOL_ERROR_KINDS,
  TOOL_ERROR_KIND_MEANINGS,
  TS_AGENT_KINDS,
  isToolErrorKind,
  kindFromSeedVocabulary,
} from '../../src';

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

describe('seed vocabularies', () => {
  it("maps entelix's seven kinds", () => {
    expect(ENTELIX_KINDS).to.deep.equal({
      transient: 'transient',
      rate_limit: 'rate_limit',
      quota: 'quota',
      auth: 'auth',
      permanent: 'permanent',
      validation: 'invalid_input',
      internal: 'internal',
    });
  });

  it("maps the TypeScript agent's kinds and keeps their executed flag", () => {
    const executedInSeed: Record<string, boolean> = {
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
    expect(Object.keys(TS_AGENT_KINDS)).to.have.members(Object.keys(executedInSeed));
    for (const [seedKind, executed] of Object.entries(executedInSeed)) {
      expect(TOOL_ERROR_KIND_MEANINGS[TS_AGENT_KINDS[seedKind]].executed, seedKind).to.equal(executed);
    }
  });

  it('maps the ADK contract codes', () => {
    expect(ADK_CONTRACT_CODES).to.deep.equal({
      external_service_error: 'transient',
      rate_limited: 'rate_limit',
      timeout: 'timeout',
      not_found: 'permanent',
      invalid_input: 'invalid_input',
      internal_error: 'internal',
    });
    expect(kindFromSeedVocabulary('rate_limited')).to.equal('rate_limit');
    expect(kindFromSeedVocabulary('hasOwnProperty')).to.equal(undefined);
  });
});
