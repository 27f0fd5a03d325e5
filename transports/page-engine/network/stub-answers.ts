import type { FinishedRequest } from './record.js';

/**
 * Answers remembered for capture entries that have not finished yet. A request whose entry never comes (its
 * page closed first) would otherwise stay forever; past this many the oldest answers are forgotten.
 */
const MAX_PENDING_ANSWERS = 256;

/**
 * Which stub answered which request, until its capture entry takes the answer. A request answered on the
 * page's raw session is known by its Network request id, so its entry is named exactly. One answered by a
 * Playwright route is known only by method and URL: the next finished entry with the same method and URL
 * takes it, so of several identical requests in flight at once the wrong one may be named (the count of
 * stubbed entries stays right).
 */
export class StubAnswers {
  readonly #answers: { readonly key: string; readonly stubId: string }[] = [];

  byNetworkId(networkId: string, stubId: string): void {
    this.#remember(networkIdKey(networkId), stubId);
  }

  byMethodAndUrl(method: string, url: string, stubId: string): void {
    this.#remember(methodAndUrlKey(method, url), stubId);
  }

  /** The stub that answered this finished request, taken so that it names one entry only. */
  take(request: FinishedRequest): string | null {
    const { cdpRequestId } = request;
    const exact = cdpRequestId === null ? null : this.#take(networkIdKey(cdpRequestId));
    return exact ?? this.#take(methodAndUrlKey(request.method, request.url));
  }

  #remember(key: string, stubId: string): void {
    if (this.#answers.length >= MAX_PENDING_ANSWERS) this.#answers.shift();
    this.#answers.push({ key, stubId });
  }

  #take(key: string): string | null {
    const index = this.#answers.findIndex((answer) => answer.key === key);
    if (index < 0) return null;
    const [answer] = this.#answers.splice(index, 1);
    return answer?.stubId ?? null;
  }
}

function networkIdKey(networkId: string): string {
  return `id ${networkId}`;
}

function methodAndUrlKey(method: string, url: string): string {
  return `url ${method} ${url}`;
}
