import fc from 'fast-check';

/**
 * What the fuzz may point the gateway at. Fuzzed mutations launch, attach, inject, navigate and upload: every
 * path they name lies in the run's own temporary folder, every URL and host is loopback (and every random
 * part of one is a path on our own loopback server), and every pid is one the gateway must refuse before it
 * signals anything. `valueHints` maps argument and input-field names to these values; generation (see
 * arbitraries.ts) takes a hint before the type's own arbitrary.
 */
export interface FuzzWorld {
  /** The folder every fuzzed path points into. */
  readonly folder: string;
  /** Files made in `folder`: a text file that is no script, a script that exits 3 at once (JS and shell), an
   * empty folder, a small file to upload, and a name that does not exist. */
  readonly files: {
    readonly text: string;
    readonly exitsJs: string;
    readonly exitsSh: string;
    readonly emptyDir: string;
    readonly upload: string;
    readonly missing: string;
  };
  /** The Electron stand-in: a launch with it and one of our files starts and fails on its own. */
  readonly standIn: string;
  /** Our loopback HTTP server: plain pages, 404 for DevTools paths (so no attach can succeed). */
  readonly loopbackPort: number;
  /** A `sleep` of ours: it does not catch SIGUSR1, so inject must refuse it before signalling. */
  readonly idlePid: number;
  /** The gateway's own pid (inject refuses it). */
  readonly gatewayPid: number;
  readonly sessionIds: readonly string[];
  readonly windowIds: readonly string[];
}

type Hint = fc.Arbitrary<unknown>;

/** Argument and input-field names whose values reach the file system, the network or a process. */
export const GUARDED_NAMES = new Set([
  'main',
  'executablePath',
  'cwd',
  'command',
  'paths',
  'filePaths',
  'url',
  'urls',
  'cdpUrl',
  'host',
  'port',
  'ports',
  'pid',
]);

/**
 * Root fields that start, attach to or signal processes: generated rarely, so a run launches a bounded
 * number of (failing) apps, and never from the mutated, mistyped or oversize documents, whose values are
 * not ours to keep inside the temporary folder.
 */
export const PROCESS_FIELDS = new Set([
  'launch',
  'launchCommand',
  'launchDesktop',
  'inject',
  'attach',
  'attachDesktop',
]);

/** A random name that cannot climb out of the folder it is joined to. */
const fileName = fc.string({ maxLength: 12 }).map((name) => name.replace(/[/\\\0]/g, '_'));

/** Small, mostly; sometimes the clamp's edges (a wait of the maximum costs up to 30 s, so it stays rare). */
const duration = fc.oneof(
  { weight: 8, arbitrary: fc.integer({ min: 0, max: 1_500 }) },
  { weight: 1, arbitrary: fc.constantFrom(-1, -2_147_483_648, 2_147_483_647) },
);

/** The argument and input-field names whose values are chosen here, not from their type. */
export function valueHints(world: FuzzWorld): Readonly<Record<string, Hint>> {
  const { files } = world;
  const inFolder = fileName.map((name) => `${world.folder}/${name}`);
  const path = fc.oneof(
    fc.constantFrom(
      files.text,
      files.exitsJs,
      files.exitsSh,
      files.emptyDir,
      files.upload,
      files.missing,
      world.folder,
      '',
    ),
    inFolder,
  );
  const loopback = `http://127.0.0.1:${world.loopbackPort}`;
  const url = fc.oneof(
    fc.constantFrom(
      `${loopback}/`,
      `${loopback}/page.html`,
      'http://127.0.0.1:1/',
      'about:blank',
      'data:text/html,<p>fuzz</p>',
      'javascript:void(0)',
      `file://${files.text}`,
      `ftp://127.0.0.1:${world.loopbackPort}/`,
      'not a url',
      '',
    ),
    fileName.map((name) => `${loopback}/${encodeURIComponent(name)}`),
  );
  const host = fc.constantFrom('127.0.0.1', 'localhost', '::1', '[::1]', 'fuzz.invalid', '', ' ');
  const port = fc.constantFrom(world.loopbackPort, 1, 0, -1, 65_536, 2_147_483_647);
  const someId = (known: readonly string[], missing: string) =>
    fc.oneof(
      { weight: 2, arbitrary: fc.constantFrom(...known, missing) },
      { weight: 1, arbitrary: fc.string() },
    );
  return {
    main: path,
    executablePath: fc.oneof(path, fc.constant(world.standIn)),
    cwd: path,
    command: path,
    paths: path,
    filePaths: path,
    url,
    urls: url,
    cdpUrl: fc.oneof(
      url,
      fc.constantFrom(
        `ws://127.0.0.1:${world.loopbackPort}/devtools/browser/fuzz`,
        'ws://127.0.0.1:1/devtools/page/1',
      ),
    ),
    host,
    port,
    ports: port,
    pid: fc.constantFrom(0, -1, -2_147_483_648, 2_147_483_647, 4_194_305, world.idlePid, world.gatewayPid),
    session: someId(world.sessionIds, 's9999'),
    sessionId: someId(world.sessionIds, 's9999'),
    window: someId(world.windowIds, 'w9999'),
    windowId: someId(world.windowIds, 'w9999'),
    ref: someId(
      Array.from({ length: 40 }, (_, index) => `e${index + 1}`),
      'e99999',
    ),
    timeoutMs: duration,
    graceMs: duration,
    delayMs: duration,
    ms: duration,
  };
}

/**
 * Per-field overrides, `Type.field.argument` or `Input.field`, used as they are (never left out). Stopping,
 * killing or detaching the demo session would end the session part of the run early, so those name other
 * ids (leaving the id out, or sending "", means "the only session"). A launch runs in our folder (a relative
 * `main` or `args` resolves there) and its arguments are switches, never paths the app would load.
 */
export function fieldHints(world: FuzzWorld): Readonly<Record<string, Hint>> {
  const notTheDemo = fc.oneof(fc.constantFrom('s9999', 's0'), fc.string({ minLength: 1 }));
  const cwd = fc.constantFrom(world.folder, world.files.emptyDir);
  const args = fc.array(
    fc.oneof(
      fileName.map((name) => `--fuzz=${name}`),
      fc.constantFrom('--remote-debugging-port=1', '--no-sandbox'),
    ),
    { maxLength: 3 },
  );
  return {
    'Mutation.stop.id': notTheDemo,
    'Mutation.forceKill.id': notTheDemo,
    'Mutation.detach.id': notTheDemo,
    'LaunchInput.cwd': cwd,
    'LaunchCommandInput.cwd': cwd,
    'LaunchDesktopInput.cwd': cwd,
    'LaunchInput.args': args,
    'LaunchCommandInput.args': args,
    'LaunchDesktopInput.args': args,
  };
}
