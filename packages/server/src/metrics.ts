/**
 * Prometheus metrics of one server (`GET /metrics`, prom-client, a registry per server so that several
 * servers in one process count apart): requests by route and status, their latency, characters billed by
 * product, engine errors, what each engine used (requests, characters, tokens: what its provider bills), and
 * gauges read at scrape time (queue depth) that features and the spine add.
 */
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { EngineUsage, TranslationEngine } from './engines/engine.js';
import type { Storage } from './storage/storage.js';

export interface ServerMetrics {
  readonly registry: Registry;
  /** Counts one answered request. `route` is the route's path pattern, never the URL as sent. */
  observeRequest(method: string, route: string, status: number, seconds: number): void;
  /** A gauge read at each scrape, e.g. jobs waiting in a queue. */
  gauge(name: string, help: string, read: () => number | Promise<number>): void;
  /** The storage, counting the characters it reserves (and refunds) by product. */
  countUsage(storage: Storage): Storage;
  /**
   * The engine, counting the errors of its `translate`; what it used (`engine.usage()`, engines that call a
   * provider) is read at each scrape.
   */
  countErrors(engine: TranslationEngine): TranslationEngine;
}

export function createMetrics(): ServerMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'glossa_process_' });
  const requests = new Counter({
    name: 'glossa_http_requests_total',
    help: 'HTTP requests answered, by method, route and status.',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [registry],
  });
  const latency = new Histogram({
    name: 'glossa_http_request_duration_seconds',
    help: 'Time from request to response, by method and route.',
    labelNames: ['method', 'route'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  const characters = new Counter({
    name: 'glossa_characters_billed_total',
    help: 'Characters reserved for billing (translate and write), by product; refunds of failed work are not deducted.',
    labelNames: ['product'] as const,
    registers: [registry],
  });
  const engineErrors = new Counter({
    name: 'glossa_engine_errors_total',
    help: 'Engine calls that failed, by engine.',
    labelNames: ['engine'] as const,
    registers: [registry],
  });
  const metered: TranslationEngine[] = [];
  /** A counter per engine, its value the engine's own running total at scrape time. */
  const engineTotal = (name: string, help: string, read: (usage: EngineUsage) => number) =>
    new Counter({
      name,
      help,
      labelNames: ['engine'] as const,
      registers: [registry],
      collect() {
        this.reset();
        for (const engine of metered) {
          const usage = engine.usage?.();
          if (usage) this.inc({ engine: engine.name }, read(usage));
        }
      },
    });
  engineTotal(
    'glossa_engine_requests_total',
    'Calls made to an engine provider, by engine.',
    (u) => u.requests,
  );
  engineTotal(
    'glossa_engine_characters_total',
    'Source characters sent to an engine provider (what MT providers bill), by engine.',
    (u) => u.characters,
  );
  engineTotal(
    'glossa_engine_input_tokens_total',
    'Input tokens an LLM engine reported, by engine.',
    (u) => u.tokensIn,
  );
  engineTotal(
    'glossa_engine_output_tokens_total',
    'Output tokens an LLM engine reported, by engine.',
    (u) => u.tokensOut,
  );
  return {
    registry,
    observeRequest(method, route, status, seconds) {
      requests.inc({ method, route, status: String(status) });
      latency.observe({ method, route }, seconds);
    },
    gauge(name, help, read) {
      new Gauge({
        name,
        help,
        registers: [registry],
        async collect() {
          this.set(await read());
        },
      });
    },
    countUsage(storage) {
      return {
        ...bindAll(storage),
        async reserveCharacters(reservation) {
          const reserved = await storage.reserveCharacters(reservation);
          if (reserved) characters.inc({ product: reservation.product }, reservation.units);
          return reserved;
        },
        async recordUsage(record) {
          await storage.recordUsage(record);
          // A refund of characters (negative units): prom-client counters only go up, so it is not
          // deducted; the billed total stays an upper bound between refunds.
          if (record.units > 0 && (record.product === 'translate' || record.product === 'write'))
            characters.inc({ product: record.product }, record.units);
        },
        async applyUsageOnce(operationId, record) {
          const applied = await storage.applyUsageOnce(operationId, record);
          if (applied && record.units > 0 && (record.product === 'translate' || record.product === 'write'))
            characters.inc({ product: record.product }, record.units);
          return applied;
        },
      };
    },
    countErrors(engine) {
      if (engine.usage) metered.push(engine);
      const translate: TranslationEngine['translate'] = async (input) => {
        try {
          return await engine.translate(input);
        } catch (error) {
          engineErrors.inc({ engine: engine.name });
          throw error;
        }
      };
      return new Proxy(engine, {
        get: (target, property) => (property === 'translate' ? translate : Reflect.get(target, property)),
      });
    },
  };
}

/** The methods of an object bound to it, as own properties (to spread and override some of them). */
function bindAll<T extends object>(object: T): T {
  const bound: Record<string, unknown> = {};
  let prototype: object | null = object;
  while (prototype && prototype !== Object.prototype) {
    for (const name of Object.getOwnPropertyNames(prototype)) {
      const value = (object as Record<string, unknown>)[name];
      if (name !== 'constructor' && !(name in bound))
        bound[name] = typeof value === 'function' ? value.bind(object) : value;
    }
    prototype = Object.getPrototypeOf(prototype);
  }
  return bound as T;
}
