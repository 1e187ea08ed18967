import { ERROR_TYPE_VALUE_OTHER } from '../semconv';

/**
 * Admits distinct strings until a cap, then answers `_OTHER`: keeps metric attribute sets and the
 * in-process summary bounded whatever names a framework or a model invents.
 */
export class BoundedValues {
  private readonly seen = new Set<string>();

  constructor(
    private readonly max: number,
    label: string,
  ) {
    if (!Number.isInteger(max) || max < 1) {
      throw new TypeError(`${label}: expected a positive integer, got ${String(max)}`);
    }
  }

  admit(value: string): string {
    if (this.seen.has(value) || value === ERROR_TYPE_VALUE_OTHER) return value;
    if (this.seen.size >= this.max) return ERROR_TYPE_VALUE_OTHER;
    this.seen.add(value);
    return value;
  }

  clear(): void {
    this.seen.clear();
  }
}
