import { expect } from 'chai';
import { compareRounds, mannWhitneyU } from '../../bench/mann-whitney';

// Reference values from scipy 1.17.1, `scipy.stats.mannwhitneyu(x, y, method=…)` (two-sided).
describe('mannWhitneyU (the benchmarks’ significance test)', () => {
  it('matches scipy’s documented example, exact without ties', () => {
    const males = [19, 22, 16, 29, 24];
    const females = [20, 11, 17, 12];
    const result = mannWhitneyU(males, females);
    expect(result.method).to.equal('exact');
    expect(result.u).to.equal(17);
    expect(result.p).to.be.closeTo(0.1111111111111111, 1e-12);
  });

  it('counts the orderings by hand for two values a side', () => {
    // 6 orderings of {x1, x2, y1, y2}; U = 0 only when both x come first: P(U ≤ 0) = 1/6, doubled.
    const result = mannWhitneyU([1, 2], [3, 4]);
    expect(result.u).to.equal(0);
    expect(result.p).to.be.closeTo(2 / 6, 1e-12);
  });

  it('gives 2 / C(14, 7) for 7 rounds against 7 that do not overlap', () => {
    const result = mannWhitneyU([0, 1, 2, 3, 4, 5, 6], [10, 11, 12, 13, 14, 15, 16]);
    expect(result.u).to.equal(0);
    expect(result.p).to.be.closeTo(2 / 3432, 1e-15);
    expect(result.p).to.be.closeTo(0.0005827505827505828, 1e-15);
  });

  it('is exact for 15 ratios against 15 that overlap (scipy method="exact")', () => {
    const x = [1.31, 1.28, 1.35, 1.22, 1.4, 1.29, 1.33, 1.27, 1.36, 1.3, 1.25, 1.38, 1.32, 1.26, 1.34];
    const y = [1.45, 1.39, 1.52, 1.41, 1.37, 1.48, 1.44, 1.5, 1.43, 1.47, 1.21, 1.46, 1.42, 1.49, 1.51];
    const result = mannWhitneyU(x, y);
    expect(result.method).to.equal('exact');
    expect(result.u).to.equal(18);
    // The normal approximation would say 9.66e-5 here, nearly five times too large.
    expect(result.p / 2.041033146997193e-5).to.be.closeTo(1, 1e-9);
  });

  it('corrects for ties with the normal approximation, as scipy does', () => {
    const a = [1.0, 1.1, 1.1, 1.2, 1.3, 1.3, 1.3, 1.5];
    const b = [1.1, 1.2, 1.4, 1.4, 1.5, 1.6, 1.6, 1.7, 1.8];
    const result = mannWhitneyU(a, b);
    expect(result.method).to.equal('asymptotic');
    expect(result.u).to.equal(13);
    // erfc's approximation is good to ~1e-7 relative.
    expect(result.p).to.be.closeTo(0.029171520841552126, 1e-7);
    const mirrored = mannWhitneyU(b, a);
    expect(mirrored.u).to.equal(59);
    expect(mirrored.p).to.be.closeTo(result.p, 1e-15);
  });

  it('says nothing is significant for identical samples', () => {
    expect(mannWhitneyU([1, 1, 1], [1, 1, 1]).p).to.equal(1);
    expect(mannWhitneyU([1, 2, 3], [1, 2, 3]).p).to.equal(1);
  });

  it('refuses an empty side', () => {
    expect(() => mannWhitneyU([], [1])).to.throw(/at least one value/);
  });
});

describe('compareRounds (ahead, behind or tied at p < 0.01)', () => {
  const low = [1.1, 1.12, 1.08, 1.15, 1.11, 1.09, 1.13];
  const high = [1.4, 1.38, 1.45, 1.42, 1.39, 1.44, 1.41];

  it('is ahead when ours is significantly lower, behind when higher', () => {
    expect(compareRounds(low, high)).to.deep.equal({ verdict: 'ahead', p: 2 / 3432 });
    expect(compareRounds(high, low)).to.deep.equal({ verdict: 'behind', p: 2 / 3432 });
  });

  it('is tied when the rounds overlap too much to tell', () => {
    // The scipy example again: p 0.111.
    const { verdict, p } = compareRounds([19, 22, 16, 29, 24], [20, 11, 17, 12]);
    expect(verdict).to.equal('tied');
    expect(p).to.be.closeTo(0.1111111111111111, 1e-12);
  });

  it('needs p below 0.01: five rounds a side that never overlap suffice, four do not', () => {
    // 2 / C(10, 5) = 0.0079 < 0.01, four a side: 2 / C(8, 4) = 0.029.
    expect(compareRounds(low.slice(0, 5), high.slice(0, 5)).verdict).to.equal('ahead');
    expect(compareRounds(low.slice(0, 4), high.slice(0, 4)).verdict).to.equal('tied');
  });
});
