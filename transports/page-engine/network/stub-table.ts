import { StagegraphError } from '../../../errors/stagegraph-error.js';
import type { StubInfo, StubSpec } from '../../contract/renderer-control.js';
import type { RequestIdentity } from './record.js';
import type { StubAnswers } from './stub-answers.js';
import { urlGlob } from './url-glob.js';

/**
 * Stubs one context keeps, spent ones included. Each holds its body and its pattern's expression (up to a
 * request's size each, a mebibyte by default) and every paused request is matched against the active ones;
 * a page is stubbed with a handful. Without a bound, stubs added in a loop and never removed — or spent and
 * never removed, which stay listed with their hits — grew the gateway for as long as the session lived.
 */
export const MAX_STUBS = 100;

interface LiveStub {
  info: StubInfo;
  readonly matches: RegExp;
}

/** The stub that takes a request, and whether that used up its last answer. */
export interface Claim {
  readonly stub: StubInfo;
  readonly spent: boolean;
}

/**
 * The stubs of one context and which one answers a request: the newest active stub whose pattern and
 * methods match, as Playwright's routes chose before (the last route added is tried first). Counting a
 * hit and retiring a stub after `times` happen in the same synchronous step as the choice, so of several
 * requests in flight at once only the first `times` are answered and the rest fall through.
 */
export class StubTable {
  readonly #stubs = new Map<string, LiveStub>();

  /** Adds a stub, first forgetting the oldest spent one when the table is full; refuses past MAX_STUBS active. */
  add(id: string, spec: StubSpec): StubInfo {
    if (this.#stubs.size >= MAX_STUBS) {
      const spent = [...this.#stubs.values()].find((stub) => !stub.info.active);
      if (!spent)
        throw new StagegraphError(
          'STUB_LIMIT',
          `This session holds ${MAX_STUBS} active stubs, the most it keeps.`,
          {
            details: { limit: MAX_STUBS },
          },
        );
      this.#stubs.delete(spent.info.id);
    }
    const info: StubInfo = { ...spec, id, hits: 0, active: true };
    this.#stubs.set(id, { info, matches: urlGlob(spec.pattern) });
    return info;
  }

  /** Removes the stub, inactive from then on; undefined for an unknown id. */
  remove(id: string): StubInfo | undefined {
    const stub = this.#stubs.get(id);
    if (!stub) return undefined;
    this.#stubs.delete(id);
    stub.info = { ...stub.info, active: false };
    return stub.info;
  }

  list(): StubInfo[] {
    return [...this.#stubs.values()].map((stub) => stub.info);
  }

  /** The stubs still answering. */
  active(): StubInfo[] {
    return this.list().filter((stub) => stub.active);
  }

  /** Counts a hit on the stub that answers this request, if any does. */
  claim(method: string, url: string): Claim | undefined {
    for (const stub of [...this.#stubs.values()].reverse()) {
      const { info } = stub;
      const methodMatches = info.methods.length === 0 || info.methods.includes(method);
      if (!info.active || !methodMatches || !stub.matches.test(url)) continue;
      const hits = info.hits + 1;
      const spent = info.times !== null && hits >= info.times;
      stub.info = { ...info, hits, active: !spent };
      return { stub: stub.info, spent };
    }
    return undefined;
  }
}

/** The three ways a paused request can be answered, on whichever protocol paused it. */
export interface PausedRequest {
  fail(): Promise<void>;
  proceed(): Promise<void>;
  fulfill(status: number, headers: Readonly<Record<string, string>>, body: string): Promise<void>;
}

/** Answers a request as the stub says, after its delay. The page may have closed meanwhile: nobody to answer. */
export async function answerAsStub(stub: StubInfo, request: PausedRequest): Promise<void> {
  if (stub.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, stub.delayMs));
  const answered = stub.abort
    ? request.fail()
    : stub.status === null && stub.body === null
      ? request.proceed()
      : request.fulfill(stub.status ?? 200, stub.headers, stub.body ?? '');
  await answered.catch(() => undefined);
}

/** What the pages' answerers ask of the stubs' owner. */
export interface StubAnswering {
  claim(method: string, url: string): Claim | undefined;
  /** A stub answered its last request: the pages may stop pausing its requests. */
  spent(): void;
  readonly answers: StubAnswers;
  /** Whether a capture will record this request, so that who answered it is worth remembering. */
  captured(request: RequestIdentity): boolean;
}
