import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';

/**
 * docs/deployment.md says its recipes are the ones the suite runs: the Next.js `instrumentation.ts`
 * is the tested app's file, and each `NODE_OPTIONS` value it gives is one the deployment spec runs.
 */
const ROOT = join(__dirname, '..', '..');
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');
const doc = read('docs/deployment.md');

describe('docs/deployment.md', () => {
  it("shows the Next.js app's instrumentation.ts exactly as tested", () => {
    const block = /```ts\n([\s\S]*?)```/.exec(doc)?.[1];
    expect(block).to.equal(read('test-compat/nextjs/instrumentation.ts'));
  });

  it('gives only NODE_OPTIONS values the deployment spec runs', () => {
    const spec = read('test/register/deployments.test.ts');
    const values = [...doc.matchAll(/NODE_OPTIONS="([^"]+)"/g)].map((match) => match[1]!);
    expect(values).to.have.length.greaterThan(2);
    for (const value of values) expect(spec, value).to.contain(`NODE_OPTIONS: '${value}'`);
  });
});
