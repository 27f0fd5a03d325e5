import { accessSync, constants, existsSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { StagegraphError } from '../../errors/stagegraph-error.js';

export type ExecutableSource = 'executablePath' | 'configured' | 'ELECTRON_PATH' | 'app-package';

export interface ResolvedExecutable {
  readonly path: string;
  readonly source: ExecutableSource;
}

export interface ExecutableRequest {
  readonly main?: string;
  readonly executablePath?: string;
  /** From `stagegraph serve --electron`. */
  readonly configuredElectron?: string;
  readonly environment: NodeJS.ProcessEnv;
}

const LAUNCH_NEXT_ACTIONS = ['query { transports { id capabilities { LAUNCH } } }'];

/**
 * The app's entry as Electron's default app takes it, or LAUNCH_FAILED saying why it cannot be one, before
 * anything is spawned. Electron resolves the path it is given as Node resolves a module (default_app/main.ts,
 * `Module._resolveFilename`): a script, or a folder whose package.json names its main or that holds an
 * index.js — so an app folder is a legitimate entry and an empty one is not. The entry must be a regular,
 * readable file: a FIFO or a device would be read by the app for ever. Whether its text is a script is the
 * app's to say: Electron compiles any extension as JavaScript, so a non-script fails in the app, which
 * reports it, and the launch answers LAUNCH_FAILED with its words.
 */
export function resolveMain(main: string, cwd: string): string {
  const absolute = resolve(cwd, main);
  const refuse = (why: string, hint: string) =>
    new StagegraphError('LAUNCH_FAILED', `The app entry "${main}" ${why}`, {
      hint,
      nextActions: LAUNCH_NEXT_ACTIONS,
      details: { main, resolved: absolute },
    });
  if (!existsSync(absolute)) {
    throw refuse(
      `does not exist (resolved to ${absolute}).`,
      'Pass `main` as an existing entry script or app folder; relative paths resolve against `cwd` or the server directory.',
    );
  }
  let entry: string;
  try {
    entry = createRequire(join(absolute, 'noop.js')).resolve(absolute);
  } catch (error) {
    throw refuse(
      `is not an app Electron can load: ${firstLine(error)}.`,
      'An app folder needs a package.json whose `main` names an existing script, or an index.js; or pass the entry script itself.',
    );
  }
  if (!statSync(entry).isFile()) {
    throw refuse(
      `resolves to ${entry}, which is not a regular file.`,
      'Pass the entry script (or app folder) of an Electron app.',
    );
  }
  try {
    accessSync(entry, constants.R_OK);
  } catch {
    throw refuse(
      `resolves to ${entry}, which cannot be read.`,
      'Make the entry script readable by the server.',
    );
  }
  return absolute;
}

function firstLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0]?.replace(/\.$/, '') ?? '';
}

/**
 * Resolution order: an explicit executablePath, then `--electron`, then ELECTRON_PATH, then the
 * `electron` package installed beside the app (read the way its index.js reads it, without running it).
 */
export function resolveExecutable(request: ExecutableRequest): ResolvedExecutable {
  const candidates: [ExecutableSource, string | undefined][] = [
    ['executablePath', request.executablePath],
    ['configured', request.configuredElectron],
    ['ELECTRON_PATH', request.environment.ELECTRON_PATH],
  ];
  for (const [source, path] of candidates) {
    if (!path) continue;
    if (!isExecutableFile(path)) {
      throw new StagegraphError(
        'LAUNCH_FAILED',
        `The executable from ${source} (${path}) is not an executable file.`,
        {
          nextActions: LAUNCH_NEXT_ACTIONS,
          details: { source, path },
        },
      );
    }
    return { path: resolve(path), source };
  }
  const fromPackage = request.main ? electronOfApp(request.main) : undefined;
  if (fromPackage) return { path: fromPackage, source: 'app-package' };
  throw new StagegraphError('LAUNCH_FAILED', 'No Electron executable could be resolved for this launch.', {
    hint:
      'Set ELECTRON_PATH, start the server with --electron /path/to/electron, pass `executablePath`, or install ' +
      'the `electron` package (with its binary) beside the app. Tests use fixtures/electron-standin/electron.',
    nextActions: LAUNCH_NEXT_ACTIONS,
  });
}

function isExecutableFile(path: string): boolean {
  try {
    const stat = statSync(path);
    return stat.isFile() && (stat.mode & 0o111) !== 0;
  } catch {
    return false;
  }
}

/** Mirrors electron/index.js: `path.txt` names the binary under `dist/`; absent when the download was skipped. */
function electronOfApp(main: string): string | undefined {
  const appDir = statSync(main).isDirectory() ? main : dirname(main);
  let packageJson: string;
  try {
    packageJson = createRequire(join(appDir, 'noop.js')).resolve('electron/package.json');
  } catch {
    return undefined;
  }
  const pathFile = join(dirname(packageJson), 'path.txt');
  if (!existsSync(pathFile)) return undefined;
  const binary = join(dirname(packageJson), 'dist', readFileSync(pathFile, 'utf8').trim());
  return isExecutableFile(binary) ? binary : undefined;
}
