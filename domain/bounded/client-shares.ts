import { StagegraphError } from '../../errors/stagegraph-error.js';

/**
 * What a client is charged under: its token's identity (a string), or a connection (its socket object).
 * A holder may be charged under several keys at once — a graphql-ws subscription counts against its
 * connection and its token — and is refused when any of them is at its share.
 */
export type ClientKey = string | object;

/** Ends one hold; calling it again does nothing. */
export type Release = () => void;

/**
 * Each client's share of a resource the server also bounds as a whole, so no one client can hold all of
 * it and lock every other out. Counts only what is held: a key is forgotten when its last hold ends, so a
 * client that came and went leaves nothing behind.
 */
export class ClientShares {
  readonly #held = new Map<ClientKey, number>();
  readonly #resource: string;
  readonly #share: number;
  readonly #serverLimit: number;

  /** `resource` names what is held in the plural ("subscriptions"); `share` is what one client may hold. */
  constructor(resource: string, share: number, serverLimit: number) {
    this.#resource = resource;
    this.#share = share;
    this.#serverLimit = serverLimit;
  }

  /** What `key` holds now. */
  held(key: ClientKey): number {
    return this.#held.get(key) ?? 0;
  }

  /** Charges one to each of `keys`, or throws CLIENT_LIMIT (when any holds its whole share) and charges nothing. */
  take(keys: readonly ClientKey[]): Release {
    if (keys.some((key) => this.held(key) >= this.#share))
      throw clientLimit(this.#resource, this.#share, this.#serverLimit);
    for (const key of keys) this.#held.set(key, this.held(key) + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      for (const key of keys) {
        const left = this.held(key) - 1;
        if (left > 0) this.#held.set(key, left);
        else this.#held.delete(key);
      }
    };
  }
}

/**
 * CLIENT_LIMIT for a client holding `share` of `resource` already, of the `serverLimit` the server allows
 * in all (for counts kept elsewhere than in ClientShares, such as a screencast's viewers).
 */
export function clientLimit(resource: string, share: number, serverLimit: number): StagegraphError {
  return new StagegraphError(
    'CLIENT_LIMIT',
    `This client holds ${share} ${resource} already: its own share of the ${serverLimit} the server allows in all.`,
    {
      hint: `The limit is yours alone, not the server's: other clients keep their own share. End ${resource} you no longer use, then try again.`,
      details: { resource, share, serverLimit },
    },
  );
}
