import { expect } from 'chai';
import { noticeUser } from '../src/user-notice';

/** The notice channel (user-notice.ts): what reaches stderr and `diag`, under each OTEL_LOG_LEVEL. */
describe('the notice: one line on stderr when the package cannot do its job', () => {
  let written: string[];
  let warned: string[];
  let level: string | undefined;
  const diag = { warn: (message: string) => void warned.push(message) } as never;
  const write = process.stderr.write;
  /** Each test's notices are new ones: a notice is said once per process. */
  let test = 0;
  const text = (what: string) => `${what} (${test})`;

  beforeEach(() => {
    test += 1;
    written = [];
    warned = [];
    level = process.env.OTEL_LOG_LEVEL;
    process.stderr.write = ((chunk: string) => written.push(chunk)) as never;
  });
  afterEach(() => {
    process.stderr.write = write;
    if (level === undefined) delete process.env.OTEL_LOG_LEVEL;
    else process.env.OTEL_LOG_LEVEL = level;
  });

  it("the register's: on stderr at any level, with the error behind it; silenced by none", () => {
    process.env.OTEL_LOG_LEVEL = 'info';
    noticeUser(text('could not start'), { error: new Error('boom') });
    expect(written).to.have.length(1);
    expect(written[0]).to.match(/^otel-tool-errors\/register: could not start \(\d+\) Error: boom/);
    process.env.OTEL_LOG_LEVEL = ' NONE ';
    noticeUser(text('exporter not started'));
    expect(written).to.have.length(1);
  });

  it("the instrumentation's: through diag, and on stderr only while no level is set", () => {
    delete process.env.OTEL_LOG_LEVEL;
    noticeUser(text('acme 0.9.0 is outside'), { diag });
    process.env.OTEL_LOG_LEVEL = 'warn';
    noticeUser(text('acme 3.0.0 has no run'), { diag });
    expect(written).to.deep.equal([`otel-tool-errors: ${text('acme 0.9.0 is outside')}\n`]);
    expect(warned).to.deep.equal([text('acme 0.9.0 is outside'), text('acme 3.0.0 has no run')]);
  });

  it('is said once per process for its key', () => {
    delete process.env.OTEL_LOG_LEVEL;
    noticeUser(text('lost'));
    noticeUser(text('lost'));
    noticeUser(text('outside, first copy'), { once: text('outside'), diag });
    noticeUser(text('outside, second copy'), { once: text('outside'), diag });
    expect(written).to.deep.equal([
      `otel-tool-errors/register: ${text('lost')}\n`,
      `otel-tool-errors: ${text('outside, first copy')}\n`,
    ]);
  });
});
