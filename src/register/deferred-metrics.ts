import {
  createNoopMeter,
  type BatchObservableCallback,
  type Counter,
  type Gauge,
  type Histogram,
  type Meter,
  type MeterOptions,
  type MeterProvider,
  type MetricOptions,
  type Observable,
  type UpDownCounter,
} from '@opentelemetry/api';
import { noticeUser } from '../user-notice';

/** What the register needs of the real provider: its meters, and its exit. */
export interface StartedMeterProvider extends MeterProvider {
  shutdown(): Promise<void>;
  forceFlush(): Promise<void>;
}

/**
 * A MeterProvider that builds the real one (the metrics SDK, its readers and exporters) when the
 * first measurement is recorded, not at start: the HTTP instrumentations and the tool metrics
 * create their instruments when the register starts, but a process that makes no HTTP call and no
 * tool call never needs the metrics SDK. Asynchronous instruments and batch callbacks, which the
 * SDK must call from its first collection on, build it at once.
 */
export class DeferredMeterProvider implements StartedMeterProvider {
  private real: StartedMeterProvider | undefined;
  private failed = false;

  constructor(private readonly build: () => StartedMeterProvider) {}

  /** The real provider, built once; if building it fails, one stderr line and no metrics. */
  provider(): MeterProvider | undefined {
    if (this.real || this.failed) return this.real;
    try {
      this.real = this.build();
    } catch (err) {
      this.failed = true;
      noticeUser('could not start metrics; the app runs without them.', { error: err });
    }
    return this.real;
  }

  getMeter(name: string, version?: string, options?: MeterOptions): Meter {
    if (this.real) return this.real.getMeter(name, version, options);
    return new DeferredMeter(() => this.provider()?.getMeter(name, version, options));
  }

  shutdown(): Promise<void> {
    return this.real?.shutdown() ?? Promise.resolve();
  }

  forceFlush(): Promise<void> {
    return this.real?.forceFlush() ?? Promise.resolve();
  }
}

type Recording = 'add' | 'record';

/** A synchronous instrument that is created in the real meter on its first measurement. */
function onFirstMeasurement<T>(method: Recording, create: () => T | undefined): T {
  let real: T | undefined;
  let created = false;
  const instrument = {
    [method]: (...args: unknown[]) => {
      if (!created) {
        created = true;
        real = create();
      }
      (real as Record<Recording, ((...a: unknown[]) => void) | undefined> | undefined)?.[method]?.(...args);
    },
  };
  return instrument as T;
}

class DeferredMeter implements Meter {
  private real: Meter | undefined;
  private built = false;

  constructor(private readonly build: () => Meter | undefined) {}

  private meter(): Meter | undefined {
    if (!this.built) {
      this.built = true;
      this.real = this.build();
    }
    return this.real;
  }

  createHistogram(name: string, options?: MetricOptions): Histogram {
    return onFirstMeasurement('record', () => this.meter()?.createHistogram(name, options));
  }

  createCounter(name: string, options?: MetricOptions): Counter {
    return onFirstMeasurement('add', () => this.meter()?.createCounter(name, options));
  }

  createUpDownCounter(name: string, options?: MetricOptions): UpDownCounter {
    return onFirstMeasurement('add', () => this.meter()?.createUpDownCounter(name, options));
  }

  createGauge(name: string, options?: MetricOptions): Gauge {
    return onFirstMeasurement('record', () => this.meter()?.createGauge(name, options));
  }

  createObservableGauge(name: string, options?: MetricOptions) {
    return this.meterNow().createObservableGauge(name, options);
  }

  createObservableCounter(name: string, options?: MetricOptions) {
    return this.meterNow().createObservableCounter(name, options);
  }

  createObservableUpDownCounter(name: string, options?: MetricOptions) {
    return this.meterNow().createObservableUpDownCounter(name, options);
  }

  addBatchObservableCallback(callback: BatchObservableCallback, observables: Observable[]): void {
    this.meterNow().addBatchObservableCallback(callback, observables);
  }

  removeBatchObservableCallback(callback: BatchObservableCallback, observables: Observable[]): void {
    this.meterNow().removeBatchObservableCallback(callback, observables);
  }

  /** The real meter, or the api's no-op one if the SDK could not be built. */
  private meterNow(): Meter {
    return this.meter() ?? createNoopMeter();
  }
}
