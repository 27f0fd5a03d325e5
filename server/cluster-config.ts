import { hostname } from 'node:os';
import { LEASE_DEFAULT_MS, RENEW_DEFAULT_MS } from '../domain/cluster/replica-lease.js';
import { StagegraphError } from '../errors/stagegraph-error.js';
import { isLoopbackHost } from '../transports/process/loopback.js';

/** `serve --cluster …`: what makes this gateway one replica of a cluster. */
export interface ClusterConfig {
  /** The Redis the replicas share, redis://[:password@]host:port[/db]. */
  readonly redisUrl: string;
  readonly replicaId: string;
  /** Null: the URL the gateway serves at, once it listens. */
  readonly advertiseUrl: string | null;
  /** Null only when the advertised URL is loopback: nothing off this machine can call it. */
  readonly secret: string | null;
  readonly leaseMs: number;
  readonly renewMs: number;
  /** Events each session's stream keeps per topic for subscribers on other replicas and for resuming. */
  readonly streamBound: number;
}

interface ClusterValues {
  readonly cluster?: string | undefined;
  readonly 'replica-id'?: string | undefined;
  readonly 'advertise-url'?: string | undefined;
  readonly 'cluster-secret'?: string | undefined;
  readonly 'cluster-lease'?: string | undefined;
  readonly 'cluster-renew'?: string | undefined;
  readonly 'cluster-stream-bound'?: string | undefined;
}

/** A replica id names session ids (`<replica>-s1`) and artifact folders: short, lowercase, no dots or slashes. */
const REPLICA_ID = /^[a-z0-9][a-z0-9_-]{0,31}$/;
/** Events kept per session stream unless --cluster-stream-bound says otherwise: minutes of a chatty app. */
export const STREAM_BOUND_DEFAULT = 10_000;
/** Below this a lease cannot outlive one slow event-loop turn on a loaded machine. */
const MIN_LEASE_MS = 1_000;

/** The cluster settings of `serve`, or undefined without --cluster; any mistake is a BAD_INPUT naming the flag. */
export function parseClusterConfig(values: ClusterValues): ClusterConfig | undefined {
  if (values.cluster === undefined) {
    const stray = (
      [
        'replica-id',
        'advertise-url',
        'cluster-secret',
        'cluster-lease',
        'cluster-renew',
        'cluster-stream-bound',
      ] as const
    ).find((name) => values[name] !== undefined);
    if (stray)
      throw new StagegraphError('BAD_INPUT', `--${stray} applies only with --cluster <redis://host:port>.`);
    return undefined;
  }
  const redisUrl = parseUrl(
    values.cluster,
    '--cluster',
    ['redis:', 'rediss:'],
    'redis://127.0.0.1:6379',
  ).href;
  const replicaId = values['replica-id'] ?? defaultReplicaId();
  if (!REPLICA_ID.test(replicaId))
    throw new StagegraphError(
      'BAD_INPUT',
      `--replica-id takes 1 to 32 lowercase letters, digits, '-' or '_', starting with a letter or digit; got "${replicaId}".`,
    );
  const advertiseUrl =
    values['advertise-url'] === undefined
      ? null
      : parseUrl(
          values['advertise-url'],
          '--advertise-url',
          ['http:', 'https:'],
          'http://host-a:4700/graphql',
        ).href;
  const secret = values['cluster-secret'] ?? null;
  if (secret === '') throw new StagegraphError('BAD_INPUT', '--cluster-secret cannot be empty.');
  if (
    advertiseUrl !== null &&
    !isLoopbackHost(new URL(advertiseUrl).hostname.replace(/^\[|\]$/g, '')) &&
    !secret
  )
    throw new StagegraphError(
      'BAD_INPUT',
      `--advertise-url ${advertiseUrl} is reachable from other hosts, so the replicas' calls to each other need --cluster-secret.`,
      { hint: 'Pass the same --cluster-secret (or STAGEGRAPH_CLUSTER_SECRET) to every replica.' },
    );
  const leaseMs = wholeNumber(values['cluster-lease'], '--cluster-lease', 'milliseconds') ?? LEASE_DEFAULT_MS;
  const renewMs = wholeNumber(values['cluster-renew'], '--cluster-renew', 'milliseconds') ?? RENEW_DEFAULT_MS;
  if (leaseMs < MIN_LEASE_MS)
    throw new StagegraphError(
      'BAD_INPUT',
      `--cluster-lease must be at least ${MIN_LEASE_MS} ms, got ${leaseMs}.`,
    );
  if (renewMs * 2 > leaseMs)
    throw new StagegraphError(
      'BAD_INPUT',
      `--cluster-renew (${renewMs} ms) must be at most half of --cluster-lease (${leaseMs} ms): one late renewal must not cost the lease.`,
    );
  const streamBound =
    wholeNumber(values['cluster-stream-bound'], '--cluster-stream-bound', 'events') ?? STREAM_BOUND_DEFAULT;
  return { redisUrl, replicaId, advertiseUrl, secret, leaseMs, renewMs, streamBound };
}

/** A URL of one of `protocols`, or a BAD_INPUT naming the flag with an example of what it takes. */
function parseUrl(raw: string, flag: string, protocols: readonly string[], example: string): URL {
  let url: URL | undefined;
  try {
    url = new URL(raw);
  } catch {
    // Refused below, with the same words as a wrong scheme.
  }
  if (!url || !protocols.includes(url.protocol))
    throw new StagegraphError('BAD_INPUT', `${flag} takes a URL like ${example}, got "${raw}".`);
  return url;
}

/** A whole number above 0 (of `unit`), or a BAD_INPUT naming the flag. */
function wholeNumber(raw: string | undefined, flag: string, unit: string): number | undefined {
  if (raw === undefined) return undefined;
  const value = /^\d{1,9}$/.test(raw) ? Number(raw) : Number.NaN;
  if (!(value > 0))
    throw new StagegraphError('BAD_INPUT', `${flag} takes a whole number of ${unit}, got "${raw}".`);
  return value;
}

/** The host name, folded into a valid replica id. */
function defaultReplicaId(): string {
  const folded = hostname()
    .toLowerCase()
    .replace(/[^a-z0-9_-]+/g, '-')
    .replace(/^[^a-z0-9]+/, '')
    .slice(0, 32);
  return folded === '' ? 'replica' : folded;
}
