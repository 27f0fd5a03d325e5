import type { BridgeTool } from './tool.js';
import { failure, optionalString, text } from './tool.js';

const SESSION = '{ id transport app { name standIn } windows { id title url } }';
const LAUNCH = `mutation Launch($input: LaunchInput!) { launch(input: $input) ${SESSION} }`;
const ATTACH = `mutation Attach($input: AttachInput!) { attach(input: $input) ${SESSION} }`;
const LAUNCH_COMMAND = `mutation LaunchCommand($input: LaunchCommandInput!) { launchCommand(input: $input) ${SESSION} }`;
/** How often a launch still under way is reported to a client that asked for progress. */
const PROGRESS_EVERY_MS = 1_000;

interface OpenedSession {
  id: string;
  transport: string;
  app: { name: string | null; standIn: boolean };
  windows: { id: string; title: string; url: string }[];
}

/** launch (an Electron app's main script), attach (a CDP port or URL), or launchCommand (any command line). */
export const openTool: BridgeTool = {
  name: 'open',
  description:
    'Start a session: launch an Electron app (main), attach to a CDP port/cdpUrl, or run a command that opens one. Answers the session id and its windows.',
  inputSchema: {
    type: 'object',
    properties: {
      main: { type: 'string', description: 'App folder or main script (launch).' },
      executablePath: { type: 'string', description: 'Electron binary (launch); default: resolved.' },
      command: { type: 'string', description: 'Command line to run (launchCommand).' },
      args: { type: 'array', items: { type: 'string' } },
      port: { type: 'integer', description: 'CDP port to attach to.' },
      cdpUrl: { type: 'string' },
    },
  },
  async run(args, { link, progress }) {
    const [document, field, input] = chooseOperation(args);
    let ticks = 0;
    await progress(ticks, `${field}: starting`);
    const timer = setInterval(() => {
      ticks += 1;
      void progress(ticks, `${field}: waiting for the app (${ticks} s)`);
    }, PROGRESS_EVERY_MS);
    const answer = await link.execute(document, { input }).finally(() => clearInterval(timer));
    const session = answer.data?.[field] as OpenedSession | null | undefined;
    if (!session) return failure(answer.errors ?? [{ message: `${field} answered no session.` }]);
    await progress(ticks + 1, `${field}: session ${session.id} is running`);
    const windows = session.windows.map((window) => `  ${window.id} "${window.title}" ${window.url}`);
    const standIn = session.app.standIn ? ' (Electron stand-in)' : '';
    return text(
      [
        `session ${session.id} (${session.transport}) app "${session.app.name ?? ''}"${standIn}`,
        'windows:',
        ...windows,
      ].join('\n'),
    );
  },
};

function chooseOperation(args: Record<string, unknown>): [string, string, Record<string, unknown>] {
  const list = Array.isArray(args.args) ? { args: args.args } : {};
  const command = optionalString(args.command);
  if (command) return [LAUNCH_COMMAND, 'launchCommand', { command, ...list }];
  const cdpUrl = optionalString(args.cdpUrl);
  if (cdpUrl || typeof args.port === 'number')
    return [ATTACH, 'attach', cdpUrl ? { cdpUrl } : { port: args.port }];
  const executablePath = optionalString(args.executablePath);
  return [
    LAUNCH,
    'launch',
    { main: optionalString(args.main), ...(executablePath ? { executablePath } : {}), ...list },
  ];
}
