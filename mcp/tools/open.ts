import { listingHead } from './read.js';
import type { BridgeTool } from './tool.js';
import { describeError, failure, text } from './tool.js';

/** The session and, as `attach { activeWindow { snapshot { outline } } }` answers it, its first listing. */
const SESSION = `{ id transport app { name standIn } windows { id title url } replica { id }
  activeWindow { id title snapshot(interactiveOnly: true) { id truncated outline } } }`;
const LAUNCH = `mutation Launch($input: LaunchInput!, $replica: String) { launch(input: $input, replica: $replica) ${SESSION} }`;
const ATTACH = `mutation Attach($input: AttachInput!, $replica: String) { attach(input: $input, replica: $replica) ${SESSION} }`;
const LAUNCH_COMMAND = `mutation LaunchCommand($input: LaunchCommandInput!, $replica: String) { launchCommand(input: $input, replica: $replica) ${SESSION} }`;
/** How often a launch still under way is reported to a client that asked for progress. */
const PROGRESS_EVERY_MS = 1_000;

interface OpenedSession {
  id: string;
  transport: string;
  app: { name: string | null; standIn: boolean };
  windows: { id: string; title: string; url: string }[];
  replica: { id: string } | null;
  activeWindow: {
    id: string;
    title: string;
    snapshot: { id: string; truncated: boolean; outline: string };
  } | null;
}

/** Each way to open, the key that chooses it, and the keys its GraphQL input takes. */
const OPERATIONS = [
  {
    field: 'launchCommand',
    document: LAUNCH_COMMAND,
    by: ['command'],
    keys: ['command', 'args', 'urlIncludes', 'titleContains'],
  },
  {
    field: 'attach',
    document: ATTACH,
    by: ['port', 'cdpUrl'],
    keys: ['port', 'cdpUrl', 'urlIncludes', 'titleContains'],
  },
  { field: 'launch', document: LAUNCH, by: ['main'], keys: ['main', 'executablePath', 'args'] },
] as const;

/** launch (an Electron app's main script), attach (a CDP port or URL), or launchCommand (any command line). */
export const openTool: BridgeTool = {
  name: 'open',
  description:
    'Start a session: launch an Electron app (main), attach to a CDP port/cdpUrl, or run a command that opens one. Answers the session id, its windows and the interactive outline of the page it opened (as read does).',
  inputSchema: {
    type: 'object',
    properties: {
      main: { type: 'string', description: 'App folder or main script (launch).' },
      executablePath: { type: 'string', description: 'Electron binary (launch); default: resolved.' },
      command: { type: 'string', description: 'Command line to run (launchCommand).' },
      args: { type: 'array', items: { type: 'string' }, description: 'Arguments (launch, command).' },
      port: { type: 'integer', minimum: 1, description: 'CDP port to attach to.' },
      cdpUrl: { type: 'string', description: 'http://host:port or ws://… to attach to.' },
      urlIncludes: {
        type: 'string',
        description: 'Start on the page whose url contains this (attach, command).',
      },
      titleContains: {
        type: 'string',
        description: 'Start on the page whose title contains this (attach, command).',
      },
      replica: {
        type: 'string',
        description: 'Cluster: the replica (see sessions) to start on; default: this one.',
      },
    },
    additionalProperties: false,
  },
  async run(args, { link, progress }) {
    const chosen = chooseOperation(args);
    if (typeof chosen === 'string') return { ...text(`BAD_INPUT: ${chosen}`), isError: true };
    const { document, field, input, replica } = chosen;
    let ticks = 0;
    await progress(ticks, `${field}: starting`);
    const timer = setInterval(() => {
      ticks += 1;
      void progress(ticks, `${field}: waiting for the app (${ticks} s)`);
    }, PROGRESS_EVERY_MS);
    const answer = await link.execute(document, { input, replica }).finally(() => clearInterval(timer));
    const session = answer.data?.[field] as OpenedSession | null | undefined;
    if (!session) return failure(answer.errors ?? [{ message: `${field} answered no session.` }]);
    await progress(ticks + 1, `${field}: session ${session.id} is running`);
    const windows = session.windows.map((window) => `  ${window.id} "${window.title}" ${window.url}`);
    const standIn = session.app.standIn ? ' (Electron stand-in)' : '';
    const where = session.replica ? ` on replica ${session.replica.id}` : '';
    const active = session.activeWindow;
    // The session is open even when its first read failed: say why, and read is the next call.
    const listing = active
      ? [listingHead(active, active.snapshot), active.snapshot.outline]
      : (answer.errors ?? []).map((error) => describeError(error, 'read'));
    return text(
      [
        `session ${session.id} (${session.transport}) app "${session.app.name ?? ''}"${standIn}${where}`,
        'windows:',
        ...windows,
        ...listing,
      ].join('\n'),
    );
  },
};

/**
 * The operation the arguments choose, with its input and the replica to run it on (every way to open
 * takes one); or what is wrong with them.
 */
function chooseOperation(
  args: Record<string, unknown>,
): { document: string; field: string; input: Record<string, unknown>; replica?: string } | string {
  const { replica, ...rest } = args;
  const operation = OPERATIONS.find((candidate) => candidate.by.some((key) => rest[key] !== undefined));
  if (!operation) return 'open needs one of main (launch), command, port or cdpUrl (attach).';
  const keys: readonly string[] = operation.keys;
  const stray = Object.keys(rest).find((key) => !keys.includes(key));
  if (stray)
    return `"${stray}" is not an argument of ${operation.field} (${operation.by.join(' or ')}); it takes ${[...keys, 'replica'].join(', ')}.`;
  return {
    document: operation.document,
    field: operation.field,
    input: rest,
    ...(typeof replica === 'string' ? { replica } : {}),
  };
}
