import { ExportResultCode, type ExportResult } from '@opentelemetry/core';
import { expect } from 'chai';
import { followingDelivery } from '../../src/export/delivery';

/**
 * The line said while the app runs, in-process: a failed export that carried nothing lost nothing
 * and says nothing (an empty "telemetry lost: ." line once reached users), one that carried spans
 * says how many. The empty case runs first: the line is said once per process.
 */
describe('the loss line said while the app runs', function () {
  this.timeout(10_000);

  /** An exporter whose every export fails, followed as the register follows its own. */
  function failingExporter() {
    const exporter = {
      export(_items: unknown[], done: (result: ExportResult) => void) {
        done({ code: ExportResultCode.FAILED, error: new Error('Request timed out') });
      },
      shutdown: async () => {},
    };
    return followingDelivery(exporter, 'traces', 'http/json', 'http://127.0.0.1:9/v1/traces');
  }

  /** What the register writes to stderr while `exportItems` runs and for the second after it. */
  async function stderrAround(exportItems: () => Promise<unknown>): Promise<string[]> {
    const written: string[] = [];
    const write = process.stderr.write;
    process.stderr.write = ((chunk: string | Uint8Array) => {
      written.push(String(chunk));
      return true;
    }) as typeof process.stderr.write;
    try {
      await exportItems();
      await new Promise((resolve) => setTimeout(resolve, 1_300));
    } finally {
      process.stderr.write = write;
    }
    return written.filter((line) => line.startsWith('otel-tool-errors/register:'));
  }

  it('says nothing when a failed export carried no spans', async () => {
    const exporter = failingExporter();
    const lines = await stderrAround(() => new Promise((resolve) => exporter.export([], resolve)));
    expect(lines).to.deep.equal([]);
  });

  it('says how many spans a failed export carried', async () => {
    const exporter = failingExporter();
    const lines = await stderrAround(() => new Promise((resolve) => exporter.export([{}, {}], resolve)));
    expect(lines).to.have.length(1);
    expect(lines[0]).to.match(
      /telemetry lost: 2 of 2 spans to http:\/\/127\.0\.0\.1:9\/v1\/traces not delivered \(2 timed out\)\./,
    );
  });
});
