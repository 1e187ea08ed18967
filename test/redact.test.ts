import { expect } from 'chai';
import { argumentTexts } from '../src/redact/capture';
import { MAX_EXCEPTION_TEXT_LENGTH, redactStack, redactText } from '../src/redact/text';

describe('redactText', () => {
  it('keeps line breaks, and removes the secrets scrubMessage removes', () => {
    const stack = [
      'Error: GET https://bob:pw1234@api.example.com/v1?key=abc failed with Bearer abcdefghijklmnop',
      '    at lookup (/app/tools/search.js:10:5)',
      '    at async run (/app/agent.js:3:1)',
    ].join('\n');
    expect(redactText(stack)).to.equal(
      [
        'Error: GET https://[REDACTED]@api.example.com/v1 failed with Bearer [REDACTED]',
        '    at lookup (/app/tools/search.js:10:5)',
        '    at async run (/app/agent.js:3:1)',
      ].join('\n'),
    );
  });

  it('truncates to maxLength, 4096 by default', () => {
    expect(redactText('x'.repeat(10_000))).to.have.length(MAX_EXCEPTION_TEXT_LENGTH);
    expect(redactText('x'.repeat(10_000), 100)).to.have.length(100);
    expect(redactText('short', 100)).to.equal('short');
  });

  it('replaces each hidden value wherever it appears', () => {
    expect(redactText('no rows for Lyon (Lyon, FR)', 100, ['Lyon, FR', 'Lyon'])).to.equal(
      'no rows for [REDACTED] ([REDACTED])',
    );
  });

  it('leaves no fragment of a hidden value that straddles the first cut', () => {
    const value = `canary-${'v'.repeat(53)}`;
    // The first cut (4 × maxLength = 400) falls 30 characters into the last copy of `value`;
    // replacing the six whole copies shrinks the rest to 70 characters, so a fragment left at the
    // cut would reach the 100-character output.
    const text = `${value.repeat(6)}${'-'.repeat(10)}${value}`;
    const out = redactText(text, 100, [value]);
    expect(out).to.equal(`${'[REDACTED]'.repeat(6)}${'-'.repeat(10)}`);
  });
});

describe('argumentTexts', () => {
  it('lists string values at any depth, longest first, skipping short strings and keys', () => {
    const args = { query: 'weather in Paris', nested: { deep: ['Paris', 'abc'] }, secretKeyName: 1 };
    expect(argumentTexts(args)).to.deep.equal(['weather in Paris', 'Paris']);
    expect(argumentTexts('plain string')).to.deep.equal(['plain string']);
    // OpenAI Agents hands a tool the model's arguments as JSON text.
    expect(argumentTexts('{"path":"/500","n":3}')).to.deep.equal(['{"path":"/500","n":3}', '/500']);
    expect(argumentTexts('{not json')).to.deep.equal(['{not json']);
    expect(argumentTexts(undefined)).to.deep.equal([]);
  });

  it('is bounded: at most 32 values, 8 levels deep, through cycles', () => {
    const many = Array.from({ length: 1000 }, (_, i) => `value-${i}`);
    expect(argumentTexts(many)).to.have.length(32);
    let deep: unknown = 'too-deep';
    for (let i = 0; i < 20; i++) deep = { next: deep };
    expect(argumentTexts(deep)).to.deep.equal([]);
    const cyclic: Record<string, unknown> = { name: 'loop' };
    cyclic.self = cyclic;
    expect(argumentTexts(cyclic)).to.deep.equal(['loop']);
  });

  it('never runs getters and never throws on hostile Proxies', () => {
    let getterRuns = 0;
    const withGetter = {
      visible: 'data value',
      get hidden() {
        getterRuns++;
        return 'getter value';
      },
    };
    expect(argumentTexts(withGetter)).to.deep.equal(['data value']);
    expect(getterRuns).to.equal(0);
    const boom = () => {
      throw new Error('trap');
    };
    const hostile = new Proxy({}, { ownKeys: boom, getOwnPropertyDescriptor: boom, get: boom });
    expect(argumentTexts({ before: 'kept value', hostile })).to.deep.equal(['kept value']);
    const { proxy, revoke } = Proxy.revocable({}, {});
    revoke();
    expect(argumentTexts([proxy, 'after revoked'])).to.deep.equal(['after revoked']);
  });
});

describe('redactStack', () => {
  const frames = ['    at lookup (/app/tools/search.js:10:5)', '    at async run (/app/agent.js:3:1)'];

  it('redacts the message line fully and keeps plain frames as they are', () => {
    const stack = [
      'Error: failed with Bearer abcdefghijklmnop and sk-abcdefghijklmnopqrstuv',
      ...frames,
    ].join('\n');
    expect(redactStack(stack)).to.equal(
      ['Error: failed with Bearer [REDACTED] and [REDACTED]', ...frames].join('\n'),
    );
  });

  it('gives a stack with a URL in a frame the full treatment, as redactText would', () => {
    const stack = [
      'Error: boom',
      '    at fetch (https://cdn.example.com/app.js?token=abcdefghijkl:1:2)',
      ...frames,
    ].join('\n');
    expect(redactStack(stack)).to.equal(redactText(stack));
    expect(redactStack(stack)).to.not.include('abcdefghijkl');
  });

  it('hides argument values in frames too', () => {
    const stack = ['Error: no rows for Lyon', '    at query (/app/Lyon.js:1:1)'].join('\n');
    expect(redactStack(stack, undefined, ['Lyon'])).to.not.include('Lyon');
  });

  it("scrubs a Java stack's message and Caused by: lines, and keeps its frames as they are", () => {
    const javaFrames = [
      '\tat com.example.agent.TokenService.refresh(TokenService.java:42)',
      '\tat app//org.springframework.web.client.DefaultRestClient.exchange(DefaultRestClient.java:1) ~[spring-web.jar:6.2]',
      '\t... 12 more',
    ];
    const stack = [
      'org.springframework.ai.tool.execution.ToolExecutionException: I/O error on GET request for "http://127.0.0.1:1/rates?api_key=s3cr3t": null',
      ...javaFrames,
      'Caused by: org.springframework.web.client.ResourceAccessException: I/O error on GET request for "https://bot:hunter2@api.example.com/rates": null',
      ...javaFrames,
      'Caused by: java.net.ConnectException',
      ...javaFrames,
    ].join('\n');
    expect(redactStack(stack)).to.equal(
      [
        'org.springframework.ai.tool.execution.ToolExecutionException: I/O error on GET request for "http://127.0.0.1:1/rates": null',
        ...javaFrames,
        'Caused by: org.springframework.web.client.ResourceAccessException: I/O error on GET request for "https://[REDACTED]@api.example.com/rates": null',
        ...javaFrames,
        'Caused by: java.net.ConnectException',
        ...javaFrames,
      ].join('\n'),
    );
  });

  it("scrubs a Go panic's message and keeps its goroutine, function and location lines", () => {
    const goFrames = [
      'goroutine 1 [running]:',
      'main.fetchToken({0xc0001a2000, 0x2a})',
      '\t/app/token.go:42 +0x1d',
      'net/http.(*Client).Do(0xc0001a2000, 0xc0001b4000)',
      '\t/usr/local/go/src/net/http/client.go:590 +0x5e',
      'created by main.main in goroutine 1',
      '\t/app/main.go:17 +0x85',
    ];
    const stack = [
      'panic: Get "http://127.0.0.1:8080/x?api_key=s3cr3t": context deadline exceeded',
      '',
      ...goFrames,
    ].join('\n');
    expect(redactStack(stack)).to.equal(
      ['panic: Get "http://127.0.0.1:8080/x": context deadline exceeded', '', ...goFrames].join('\n'),
    );
  });

  it('scrubs a line that only looks like a frame: one with a URL, one with arguments that are no words of memory', () => {
    for (const [line, secret] of [
      ['\tat fetch(https://api.example.com/x?token=abcdefghijkl)', 'abcdefghijkl'],
      ['login(ghp_Zk2Vb7Nq9Xw4Lm8Rt6Yp3Cd1Fg5Hj0Ks2Aq)', 'ghp_Zk2Vb7Nq9Xw4Lm8Rt6Yp3Cd1Fg5Hj0Ks2Aq'],
      ['\tat login(Login.java:3) Bearer abcdefghijklmnop', 'abcdefghijklmnop'],
    ]) {
      const stack = `Error: failed\ngoroutine 1 [running]:\n${line}`;
      expect(redactStack(stack), line).to.equal(redactText(stack));
      expect(redactStack(stack), line).not.to.include(secret);
    }
  });
});
