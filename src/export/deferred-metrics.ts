import {
  createNoopMeter,
  type BatchObservableCallback,
  type Meter,
  type MeterOptions,
  type MeterProvider,
  type MetricOptions,
  type Observable,
} from '@opentelemetry/api';
import { noticeUser } from '../user-notice';

/** What the register needs of the real provider: its meters, and its exit. */
export interface StartedMeterProvider extends MeterProvider {
  shutdown(): Promise<void>;
  forceFlush(): Promise<void>;
}

/**
 * A MeterProvider that builds the real one (the metrics SDK, its readers and exporters) at the first
 * measurement: a process that makes no HTTP call and no tool call never needs it. Asynchronous
 * instruments and batch callbacks, which the SDK calls from its first collection on, build it at once.
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
    let meter: Meter | undefined;
    let built = false;
    return deferredMeter(() => {
      if (!built) {
        built = true;
        meter = this.provider()?.getMeter(name, version, options);
      }
      return meter;
    });
  }

  shutdown(): Promise<void> {
    return this.real?.shutdown() ?? Promise.resolve();
  }

  forceFlush(): Promise<void> {
    return this.real?.forceFlush() ?? Promise.resolve();
  }
}

type Synchronous = 'createHistogram' | 'createCounter' | 'createUpDownCounter' | 'createGauge';

/** A meter whose synchronous instruments are created in the real one on their first measurement. */
function deferredMeter(real: () => Meter | undefined): Meter {
  const now = () => real() ?? createNoopMeter();
  const synchronous =
    (create: Synchronous, record: 'add' | 'record') => (name: string, options?: MetricOptions) => {
      let instrument: Record<string, ((...args: unknown[]) => void) | undefined> | undefined;
      let created = false;
      return {
        [record]: (...args: unknown[]) => {
          if (!created) {
            created = true;
            instrument = real()?.[create](name, options) as typeof instrument;
          }
          instrument?.[record]?.(...args);
        },
      };
    };
  return {
    createHistogram: synchronous('createHistogram', 'record'),
    createCounter: synchronous('createCounter', 'add'),
    createUpDownCounter: synchronous('createUpDownCounter', 'add'),
    createGauge: synchronous('createGauge', 'record'),
    createObservableGauge: (name: string, options?: MetricOptions) =>
      now().createObservableGauge(name, options),
    createObservableCounter: (name: string, options?: MetricOptions) =>
      now().createObservableCounter(name, options),
    createObservableUpDownCounter: (name: string, options?: MetricOptions) =>
      now().createObservableUpDownCounter(name, options),
    addBatchObservableCallback: (callback: BatchObservableCallback, observables: Observable[]) =>
      now().addBatchObservableCallback(callback, observables),
    removeBatchObservableCallback: (callback: BatchObservableCallback, observables: Observable[]) =>
      now().removeBatchObservableCallback(callback, observables),
  } as unknown as Meter;
}
