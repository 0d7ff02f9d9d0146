/** Injected faults (matched in order of injection) and the per-key rate limit. */
import type { Fault } from './types.js';

interface ArmedFault {
  fault: Fault;
  remaining: number;
}

export class FaultQueue {
  private armed: ArmedFault[] = [];

  inject(fault: Fault): void {
    const times = fault.times ?? 1;
    if (!Number.isInteger(times) || times < 1) {
      throw new Error(`Fault "times" must be a whole number >= 1, got ${String(fault.times)}.`);
    }
    this.armed.push({ fault, remaining: times });
  }

  clear(): void {
    this.armed = [];
  }

  /** The first armed fault that matches the request, consumed once; undefined when none. */
  take(method: string, path: string): Fault | undefined {
    const index = this.armed.findIndex(({ fault }) => matches(fault, method, path));
    if (index < 0) return undefined;
    const entry = this.armed[index]!;
    entry.remaining -= 1;
    if (entry.remaining <= 0) this.armed.splice(index, 1);
    return entry.fault;
  }
}

function matches(fault: Fault, method: string, path: string): boolean {
  if (fault.method && fault.method.toUpperCase() !== method.toUpperCase()) return false;
  if (fault.path === undefined) return true;
  if (typeof fault.path === 'string') return fault.path === path;
  fault.path.lastIndex = 0;
  return fault.path.test(path);
}

/** Sliding window: at most `requests` per key within any `windowMs`. */
export class RateLimiter {
  private hits = new Map<string, number[]>();

  constructor(private readonly limit: { requests: number; windowMs: number }) {
    if (!(limit.requests >= 1) || !(limit.windowMs >= 1)) {
      throw new Error('rateLimit needs requests >= 1 and windowMs >= 1.');
    }
  }

  clear(): void {
    this.hits.clear();
  }

  /** Records a request; returns the seconds to wait when over the limit (not recorded). */
  check(key: string, now: number): number | undefined {
    const since = now - this.limit.windowMs;
    const recent = (this.hits.get(key) ?? []).filter((t) => t > since);
    if (recent.length >= this.limit.requests) {
      this.hits.set(key, recent);
      const freeAt = recent[recent.length - this.limit.requests]! + this.limit.windowMs;
      return Math.max(1, Math.ceil((freeAt - now) / 1000));
    }
    recent.push(now);
    this.hits.set(key, recent);
    return undefined;
  }
}
