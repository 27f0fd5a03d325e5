import { type ChildProcess, spawn } from 'node:child_process';

/** What the script prints once it runs: Node opens its inspector before it has finished starting up. */
const RUNNING = 'inspectable-node: running';

/**
 * A plain Node process running `script`, with its inspector open on a port of its choosing. Answers once
 * the script runs, not when the inspector first listens: an evaluation sent earlier meets a Node still
 * bootstrapping (seen in CI as "testEnabled is not a function" from its half-initialised debuglog).
 */
export async function inspectableNode(script: string): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(
    process.execPath,
    ['--inspect=127.0.0.1:0', '-e', `${script}\n;process.stderr.write(${JSON.stringify(`${RUNNING}\n`)});`],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  const url = await new Promise<string>((resolve) => {
    let output = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /Debugger listening on (ws:\/\/\S+)/.exec(output);
      if (match?.[1] && output.includes(RUNNING)) resolve(match[1]);
    });
  });
  return { child, url };
}
