import { errorWithThrowingGetters, throwingProxy } from './tool-behaviours';

/**
 * Values built to break whoever inspects them: what test/reliability/hostile-errors.test.ts throws
 * through the wrapper and records on framework spans, and what `npm run bench -- hostile` times.
 */

export const TEN_MB = 10 * 1024 * 1024;

/** Every read returns a new Proxy like itself: an endless chain of distinct `cause`s. */
function bottomlessProxy(): object {
  const handler: ProxyHandler<object> = { get: () => new Proxy(function () {}, handler) };
  return new Proxy(function () {}, handler);
}

function cyclicCauses(): Error {
  const a = new Error('a');
  const b = new Error('b', { cause: a });
  Object.defineProperty(a, 'cause', { value: b });
  const agg = new AggregateError([a, b], 'both');
  (agg.errors as unknown[]).push(agg);
  return agg;
}

function deepCauses(depth: number): Error {
  let err: Error = Object.assign(new Error('bottom'), { status: 503 });
  for (let i = 0; i < depth; i++) err = new Error(`level ${i}`, { cause: err });
  return err;
}

/** A class whose name is a megabyte long, made at run time. */
function hugeClassInstance(): Error {
  const name = `E${'x'.repeat(1024 * 1024)}`;
  const Named = { [name]: class extends Error {} }[name];
  return new Named('huge class name');
}

/** Getters that answer differently on every read: a status, then an object, then a throw. */
function shapeShifter(): Error {
  let reads = 0;
  const err = new Error('shifty');
  for (const key of ['status', 'code', 'name', 'message']) {
    Object.defineProperty(err, key, {
      get() {
        reads++;
        if (reads % 3 === 0) throw new Error('third read');
        return reads % 3 === 1 ? '500' : { toString: () => 'obj' };
      },
    });
  }
  return err;
}

/** Messages crafted against the classifier's and the redaction's patterns. */
export const CRAFTED_MESSAGES: Record<string, () => string> = {
  '10 MB of one letter': () => 'a'.repeat(TEN_MB),
  '10 MB of newlines': () => '\n'.repeat(TEN_MB),
  'repeated "status "': () => `${'status '.repeat(1_000_000)}x`,
  'repeated "https://"': () => 'https://'.repeat(1_000_000),
  'userinfo without end': () => `https://${'a:'.repeat(1_000_000)}`,
  'query without end': () => `https://h/?${'a=b&'.repeat(1_000_000)}`,
  'repeated "Authorization: "': () => 'Authorization: '.repeat(500_000),
  'repeated "Bearer "': () => 'Bearer '.repeat(1_000_000),
  'repeated "password="': () => 'password='.repeat(1_000_000),
  'escaped quotes after a key': () => `password${'\\'.repeat(1_000_000)}"`,
  'almost a JWT': () => `eyJ${'a.'.repeat(1_000_000)}`,
  'almost an sk- key': () => 'sk-'.repeat(1_000_000),
  'MCP error with endless code': () => `MCP error -3${'2'.repeat(1_000_000)}`,
  'lone surrogates': () => '\ud800'.repeat(1_000_000),
};

/** Everything a tool might throw that could break an inspector. */
export const HOSTILE: Record<string, () => unknown> = {
  'a Proxy whose every trap throws': () => throwingProxy(),
  'a Proxy over an Error whose every trap throws': () => throwingProxy(new Error('proxied')),
  'a Proxy that returns a new Proxy on every read': () => bottomlessProxy(),
  'cyclic causes and a self-containing AggregateError': () => cyclicCauses(),
  'a 100,000-deep cause chain': () => deepCauses(100_000),
  'throwing getters on status, code, message, name, constructor, cause, stack': () =>
    errorWithThrowingGetters(),
  'getters that change type on every read': () => shapeShifter(),
  'a Symbol': () => Symbol('boom'),
  'a Symbol with a 10 MB description': () => Symbol('d'.repeat(TEN_MB)),
  'a frozen Error with a status': () => Object.freeze(Object.assign(new Error('frozen'), { status: 502 })),
  'a null-prototype object': () => Object.assign(Object.create(null), { message: 'np', code: 'ECONNRESET' }),
  'an object whose toString and toPrimitive throw': () => ({
    toString() {
      throw new Error('toString');
    },
    [Symbol.toPrimitive]() {
      throw new Error('toPrimitive');
    },
  }),
  'a 10 MB name and code': () =>
    Object.assign(new Error('big'), { name: 'N'.repeat(TEN_MB), code: 'C'.repeat(TEN_MB) }),
  'a class with a 1 MB name': () => hugeClassInstance(),
  'a 10 MB thrown string': () => 's'.repeat(TEN_MB),
  ...Object.fromEntries(
    Object.entries(CRAFTED_MESSAGES).map(([label, make]) => [
      `an Error with ${label}`,
      () => new Error(make()),
    ]),
  ),
};

/** Messages crafted against the classifier's own patterns (test/classify/hostile-input.test.ts). */
export const CRAFTED_FOR_CLASSIFIER: readonly string[] = [
  'a'.repeat(10 * 1024 * 1024),
  `tool ${'x'.repeat(5_000_000)}`,
  'tool '.repeat(2_000_000),
  `${'status '.repeat(1_000_000)}x`,
  `MCP error -3${'2'.repeat(1_000_000)}`,
  `${'E'.repeat(5_000_000)}`,
  `${'https://'.repeat(500_000)}`,
];
