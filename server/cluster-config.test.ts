import { describe, expect, it } from 'vitest';
import { normaliseArgv, parseServeArgs } from './config.js';
import { withoutGatewaySecrets } from './serve-flags.js';

const parse = (...argv: string[]) => parseServeArgs(normaliseArgv(argv), {});
const REDIS = 'redis://127.0.0.1:6379';

describe('serve --cluster', () => {
  it('is off by default: no cluster, so nothing touches Redis', () => {
    expect(parse().cluster).toBeUndefined();
  });

  it('reads the replica, its URL, secret and lease from the flags', () => {
    expect(
      parse(
        '--cluster',
        REDIS,
        '--replica-id',
        'host-a',
        '--advertise-url',
        'http://host-a.lan:4700/graphql',
        '--cluster-secret',
        'shh',
        '--cluster-lease',
        '9000',
        '--cluster-renew',
        '3000',
        '--cluster-stream-bound',
        '500',
      ).cluster,
    ).toEqual({
      redisUrl: REDIS,
      replicaId: 'host-a',
      advertiseUrl: 'http://host-a.lan:4700/graphql',
      secret: 'shh',
      leaseMs: 9000,
      renewMs: 3000,
      streamBound: 500,
    });
  });

  it('reads each from its environment variable, with the issue defaults: renew 2 s, lease 6 s, 10,000 events per stream', () => {
    const config = parseServeArgs([], {
      STAGEGRAPH_CLUSTER: REDIS,
      STAGEGRAPH_REPLICA_ID: 'b',
      STAGEGRAPH_ADVERTISE_URL: 'http://127.0.0.1:4701/graphql',
    });
    expect(config.cluster).toEqual({
      redisUrl: REDIS,
      replicaId: 'b',
      advertiseUrl: 'http://127.0.0.1:4701/graphql',
      secret: null,
      leaseMs: 6000,
      renewMs: 2000,
      streamBound: 10_000,
    });
  });

  it('names the replica after the host when --replica-id is left out', () => {
    expect(parse('--cluster', REDIS).cluster?.replicaId).toMatch(/^[a-z0-9][a-z0-9_-]{0,31}$/);
  });

  it.each([
    [['--replica-id', 'a'], /--replica-id applies only with --cluster/],
    [['--cluster-secret', 'x'], /--cluster-secret applies only with --cluster/],
    [['--cluster', 'http://127.0.0.1:6379'], /takes a URL like redis:/],
    [['--cluster', 'not a url'], /takes a URL/],
    [['--cluster', REDIS, '--replica-id', 'A.B'], /--replica-id takes/],
    [['--cluster', REDIS, '--advertise-url', 'http://10.0.0.5:4700/graphql'], /need --cluster-secret/],
    [['--cluster', REDIS, '--cluster-lease', '500'], /at least 1000/],
    [['--cluster', REDIS, '--cluster-lease', '6000', '--cluster-renew', '4000'], /at most half/],
    [['--cluster', REDIS, '--cluster-renew', '2s'], /whole number of milliseconds/],
    [
      ['--cluster', REDIS, '--cluster-stream-bound', '0'],
      /--cluster-stream-bound takes a whole number of events/,
    ],
    [['--cluster-stream-bound', '10'], /--cluster-stream-bound applies only with --cluster/],
  ])('refuses %j', (argv, message) => {
    expect(() => parse(...argv)).toThrow(message);
  });

  it('keeps the Redis URL (it may hold a password) and the cluster secret from launched apps', () => {
    const environment = withoutGatewaySecrets({
      STAGEGRAPH_CLUSTER: 'redis://:pw@127.0.0.1:6379',
      STAGEGRAPH_CLUSTER_SECRET: 'shh',
      STAGEGRAPH_REPLICA_ID: 'a',
    });
    expect(environment).toEqual({ STAGEGRAPH_REPLICA_ID: 'a' });
  });
});
