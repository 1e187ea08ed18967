/**
 * `RELIABILITY_HEAVY=1` runs the reliability suites with more generated cases and more calls.
 * The default stays well under two minutes on a 2-core machine.
 */
export const heavy = process.env.RELIABILITY_HEAVY === '1';
