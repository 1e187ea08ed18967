import { expect } from 'chai';
import { readPackageVersionsOnce } from '../../src/instrumentation/package-versions-once';

/** An instrumentation as far as the base class's version read goes. */
class Reader {
  reads: string[] = [];
  _extractPackageVersion(baseDir: string): string | undefined {
    this.reads.push(baseDir);
    return baseDir.endsWith('/core') ? '1.2.3' : undefined;
  }
}

describe('readPackageVersionsOnce', () => {
  it('reads each folder once, on the instance, and answers later calls alike', () => {
    const reader = new Reader();
    readPackageVersionsOnce(reader);
    const versions = ['/m/core', '/m/core', '/m/other', '/m/core', '/m/other'].map((dir) =>
      reader._extractPackageVersion(dir),
    );
    expect(versions).to.deep.equal(['1.2.3', '1.2.3', undefined, '1.2.3', undefined]);
    // A folder whose version could not be read is not read again either.
    expect(reader.reads).to.deep.equal(['/m/core', '/m/other']);
  });

  it('wraps once when called again (init() runs more than once per instance)', () => {
    const reader = new Reader();
    readPackageVersionsOnce(reader);
    const wrapped = reader._extractPackageVersion;
    readPackageVersionsOnce(reader);
    expect(reader._extractPackageVersion).to.equal(wrapped);
  });

  it('leaves an instrumentation without the method as it is', () => {
    const other = { name: 'x' };
    readPackageVersionsOnce(other);
    expect(other).to.deep.equal({ name: 'x' });
  });
});
