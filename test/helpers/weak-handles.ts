import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/**
 * Objects a test hands to the package and then holds only by `WeakRef`, to tell which of them the
 * package still keeps alive. Nothing here reads the process's heap totals or counts: only whether
 * these objects were collected.
 *
 * A `WeakRef` made during a job keeps its target alive until that job ends: make the handles in
 * one turn of the event loop and take the objects in a later one, so that a check inside a loop of
 * microtasks sees what the package holds, not what the `WeakRef`s themselves hold.
 */
export class WeakHandles<T extends object> {
  private readonly strong: (T | undefined)[];
  private readonly weak: WeakRef<T>[];
  private next = 0;

  constructor(objects: T[]) {
    this.strong = [...objects];
    this.weak = objects.map((object) => new WeakRef(object));
  }

  /** The next object; the handles keep only a weak reference to it from now on. */
  take(): T {
    const index = this.next++;
    const object = this.strong[index];
    if (object === undefined) throw new Error(`only ${this.strong.length} objects to hand out`);
    this.strong[index] = undefined;
    return object;
  }

  /** How many of the objects handed out are still alive after a full garbage collection. */
  aliveAfterGc(): number {
    collectGarbage();
    let alive = 0;
    for (let index = 0; index < this.next; index++) if (this.weak[index]!.deref() !== undefined) alive++;
    return alive;
  }
}

let gc: (() => void) | undefined;

/** A full, synchronous garbage collection (V8's `gc`, exposed for this process if it was not). */
export function collectGarbage(): void {
  if (gc === undefined) {
    const exposed = (globalThis as { gc?: () => void }).gc;
    if (typeof exposed === 'function') gc = exposed;
    else {
      setFlagsFromString('--expose-gc');
      gc = runInNewContext('gc') as () => void;
    }
  }
  gc();
}
