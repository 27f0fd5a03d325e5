import { describe, expect, it } from 'vitest';
import { normaliseArgv, parseServeArgs } from './config.js';
import { withoutGatewaySecrets } from './serve-flags.js';

const parse = (...argv: string[]) => parseServeArgs(normaliseArgv(argv), {});

describe('serve arguments', () => {
  it('binds loopback on the default port with eval off', () => {
    expect(parse()).toMatchObject({ host: '127.0.0.1', port: 4700, allowEval: 'none', token: undefined });
  });

  it.each([
    [['--allow-eval'], 'both'],
    [['--allow-eval=main'], 'main'],
    [['--allow-eval=renderer'], 'renderer'],
  ])('%j opts into eval scope %s', (argv, scope) => {
    expect(parse(...argv).allowEval).toBe(scope);
  });

  it('loads the plugins named, in order, from the flag or else the variable, and none by default', () => {
    expect(parse().plugins).toEqual([]);
    expect(parse('--plugin', './plugins/trace/index.ts', '--plugin', 'other-plugin').plugins).toEqual([
      './plugins/trace/index.ts',
      'other-plugin',
    ]);
    expect(parseServeArgs([], { STAGEGRAPH_PLUGINS: './a.ts,b' }).plugins).toEqual(['./a.ts', 'b']);
    expect(parseServeArgs(['--plugin', './c.ts'], { STAGEGRAPH_PLUGINS: './a.ts' }).plugins).toEqual([
      './c.ts',
    ]);
  });

  it('refuses a non-loopback bind without a token, and accepts it with one', () => {
    expect(() => parse('--host', '0.0.0.0')).toThrow(/without a token/);
    expect(parse('--host', '0.0.0.0', '--token', 's3cret').host).toBe('0.0.0.0');
    expect(parseServeArgs(['--host', '0.0.0.0'], { STAGEGRAPH_TOKEN: 'env-token' }).token).toBe('env-token');
  });

  it.each([[['--port', 'eighty']], [['--port', '70000']], [['--allow-eval=everything']], [['--frobnicate']]])(
    'rejects %j',
    (argv) => {
      expect(() => parse(...argv)).toThrow();
    },
  );

  it('confines uploads to the working directory unless roots are named, and resolves them', () => {
    expect(parse().uploadRoots).toEqual([process.cwd()]);
    expect(parse('--upload-root', 'a', '--upload-root', '/b').uploadRoots).toEqual([
      `${process.cwd()}/a`,
      '/b',
    ]);
    expect(parse('--artifacts', 'out').artifactsDir).toBe(`${process.cwd()}/out`);
  });

  it('takes governance options: policy file, audit folder, approver tokens, approval timeout, mutation rate', () => {
    expect(parse()).toMatchObject({ auditDir: `${process.cwd()}/.artifacts/audit`, policyFile: undefined });
    // The audit folder follows --artifacts unless named: two gateways given their own artifacts never share a chain.
    expect(parse('--artifacts', 'out').auditDir).toBe(`${process.cwd()}/out/audit`);
    expect(
      parse(
        '--policy',
        'p.yaml',
        '--audit-dir',
        'trail',
        '--approval-timeout',
        '5000',
        '--mutation-rate',
        '3',
      ),
    ).toMatchObject({
      policyFile: `${process.cwd()}/p.yaml`,
      auditDir: `${process.cwd()}/trail`,
      approvalTimeoutMs: 5000,
      mutationsPerSecond: 3,
    });
    expect(parseServeArgs([], { STAGEGRAPH_APPROVER_TOKEN: 'boss' }).approverToken).toBe('boss');
    expect(() => parse('--mutation-rate', '0')).toThrow(/--mutation-rate must be a positive number/);
  });

  it('takes the request limit in bytes from the flag or its variable, and refuses one too small to serve', () => {
    expect(parse().maxRequestBytes).toBeUndefined();
    expect(parse('--max-request-bytes', '4194304').maxRequestBytes).toBe(4_194_304);
    expect(parseServeArgs([], { STAGEGRAPH_MAX_REQUEST_BYTES: '65536' }).maxRequestBytes).toBe(65_536);
    for (const bad of ['1000', '1.5e6', '2MB', '-1024'])
      expect(() => parse(`--max-request-bytes=${bad}`)).toThrow(/--max-request-bytes must be a whole number/);
  });

  it('refuses one token given as both agent and approver', () => {
    expect(() => parse('--token', 'same', '--approver-token', 'same')).toThrow(/both agent and approver/);
  });

  it('reads each option from its environment variable when the flag is absent; the flag wins', () => {
    const environment = {
      STAGEGRAPH_PORT: '4800',
      STAGEGRAPH_DEMO: '1',
      STAGEGRAPH_ALLOW_EVAL: 'main',
      STAGEGRAPH_UPLOAD_ROOTS: '/a,/b',
      ELECTRON_PATH: '/opt/electron',
    };
    expect(parseServeArgs([], environment)).toMatchObject({
      port: 4800,
      demo: true,
      allowEval: 'main',
      uploadRoots: ['/a', '/b'],
      electron: '/opt/electron',
    });
    expect(parseServeArgs(['--port', '0'], environment).port).toBe(0);
    expect(() => parseServeArgs([], { STAGEGRAPH_DEMO: 'maybe' })).toThrow(/STAGEGRAPH_DEMO must be 1 or 0/);
  });
});

describe('cross-site options', () => {
  it('takes allowed origins and hosts, repeated or comma-separated, from flags or the environment', () => {
    expect(parse()).toMatchObject({ allowedOrigins: [], allowedHosts: [] });
    expect(
      parse('--allow-origin', 'http://localhost:3000,https://app.example', '--allowed-host', 'GW.internal'),
    ).toMatchObject({
      allowedOrigins: ['http://localhost:3000', 'https://app.example'],
      allowedHosts: ['gw.internal'],
    });
    expect(parseServeArgs([], { STAGEGRAPH_ALLOW_ORIGINS: 'http://a.example/' }).allowedOrigins).toEqual([
      'http://a.example',
    ]);
  });

  it.each(['localhost:3000', 'http://a.example/path', 'file:///x', 'null'])(
    'refuses the origin %j with BAD_INPUT',
    (origin) => {
      expect(() => parse('--allow-origin', origin)).toThrow(/--allow-origin/);
    },
  );
});

describe('the environment launched apps get', () => {
  it('holds everything of the gateway’s but its tokens', () => {
    const environment = {
      PATH: '/bin',
      STAGEGRAPH_TOKEN: 'a',
      STAGEGRAPH_APPROVER_TOKEN: 'b',
      STAGEGRAPH_PORT: '1',
    };
    expect(withoutGatewaySecrets(environment)).toEqual({ PATH: '/bin', STAGEGRAPH_PORT: '1' });
  });
});
