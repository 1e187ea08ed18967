import { median } from './harness';

/**
 * The Mann-Whitney U test (two-sided), as `scipy.stats.mannwhitneyu(x, y)` computes it: whether
 * values of `x` tend to be larger or smaller than values of `y`, from their ranks alone, so it
 * assumes no distribution and one outlier round cannot swing it. The benchmarks use it on per-round
 * ratios, a few dozen values, where an exact p-value is cheap.
 */

export interface MannWhitneyResult {
  /** U of `x`: the number of (x, y) pairs with x > y, ties counting one half. */
  u: number;
  /** Two-sided p-value. */
  p: number;
  /** `exact` without ties; `asymptotic` (normal, tie- and continuity-corrected) with ties. */
  method: 'exact' | 'asymptotic';
}

/** Ranks from 1, ties given their average rank; also the tie correction term Σ(t³ − t). */
function rank(values: number[]): { ranks: number[]; tieTerm: number } {
  const order = values.map((value, index) => ({ value, index })).sort((a, b) => a.value - b.value);
  const ranks = new Array<number>(values.length);
  let tieTerm = 0;
  for (let start = 0; start < order.length;) {
    let end = start;
    while (end + 1 < order.length && order[end + 1]!.value === order[start]!.value) end++;
    const average = (start + end) / 2 + 1;
    for (let i = start; i <= end; i++) ranks[order[i]!.index] = average;
    const t = end - start + 1;
    tieTerm += t * t * t - t;
    start = end + 1;
  }
  return { ranks, tieTerm };
}

/**
 * P(U ≥ u) for samples of sizes m and n without ties, from the number of orderings giving each U:
 * c(u; m, n) = c(u − n; m − 1, n) + c(u; m, n − 1), over all C(m + n, m) orderings.
 */
function exactUpperTail(u: number, m: number, n: number): number {
  // counts[j][k]: orderings of i x-values and j y-values with U = k, built up over i.
  let previous: number[][] = Array.from({ length: n + 1 }, () => [1]);
  for (let i = 1; i <= m; i++) {
    const current: number[][] = [];
    for (let j = 0; j <= n; j++) {
      const row = new Array<number>(i * j + 1).fill(0);
      // The largest value is an x (it beats all j y-values) or a y (it adds nothing).
      const xLast = previous[j]!;
      for (let k = 0; k < xLast.length; k++) row[k + j] += xLast[k]!;
      if (j > 0) {
        const yLast = current[j - 1]!;
        for (let k = 0; k < yLast.length; k++) row[k] += yLast[k]!;
      }
      current.push(row);
    }
    previous = current;
  }
  const counts = previous[n]!;
  let total = 0;
  let tail = 0;
  for (let k = 0; k < counts.length; k++) {
    total += counts[k]!;
    if (k >= u) tail += counts[k]!;
  }
  return tail / total;
}

/** Standard normal survival function, P(Z > z). */
function normalSf(z: number): number {
  return erfc(z / Math.SQRT2) / 2;
}

/** Complementary error function, Numerical Recipes' erfcc (relative error < 1.2e-7). */
function erfc(x: number): number {
  const z = Math.abs(x);
  const t = 1 / (1 + 0.5 * z);
  const r =
    t *
    Math.exp(
      -z * z -
        1.26551223 +
        t *
          (1.00002368 +
            t *
              (0.37409196 +
                t *
                  (0.09678418 +
                    t *
                      (-0.18628806 +
                        t *
                          (0.27886807 +
                            t * (-1.13520398 + t * (1.48851587 + t * (-0.82215223 + t * 0.17087277)))))))),
    );
  return x >= 0 ? r : 2 - r;
}

export function mannWhitneyU(x: number[], y: number[]): MannWhitneyResult {
  const m = x.length;
  const n = y.length;
  if (m === 0 || n === 0) throw new Error('mannWhitneyU needs at least one value on each side');
  const { ranks, tieTerm } = rank([...x, ...y]);
  let rankSumX = 0;
  for (let i = 0; i < m; i++) rankSumX += ranks[i]!;
  const u = rankSumX - (m * (m + 1)) / 2;
  // The larger of U and its mirror m·n − U: the two-sided p-value doubles its upper tail.
  const larger = Math.max(u, m * n - u);
  if (tieTerm === 0) {
    return { u, p: Math.min(1, 2 * exactUpperTail(larger, m, n)), method: 'exact' };
  }
  const mean = (m * n) / 2;
  const total = m + n;
  const sd = Math.sqrt(((m * n) / 12) * (total + 1 - tieTerm / (total * (total - 1))));
  const z = sd === 0 ? 0 : (larger - mean - 0.5) / sd;
  return { u, p: Math.min(1, 2 * normalSf(z)), method: 'asymptotic' };
}

/** The significance level of every verdict the benchmarks print. */
export const SIGNIFICANCE_LEVEL = 0.01;

export interface Verdict {
  /** `ahead`: ours costs significantly less; `behind`: significantly more; `tied`: not significant. */
  verdict: 'ahead' | 'behind' | 'tied';
  p: number;
}

/**
 * Ours against a peer on per-round values where lower is better (ratios to the bare call):
 * significant when the Mann-Whitney p-value is below `SIGNIFICANCE_LEVEL`, and then ahead or
 * behind by which side's median is lower.
 */
export function compareRounds(ours: number[], peer: number[]): Verdict {
  const { p } = mannWhitneyU(ours, peer);
  if (p >= SIGNIFICANCE_LEVEL) return { verdict: 'tied', p };
  return { verdict: median(ours) < median(peer) ? 'ahead' : 'behind', p };
}
