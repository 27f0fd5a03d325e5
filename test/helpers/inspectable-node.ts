import { type ChildProcess, spawn } from 'node:child_process';

/** A plain Node process running `script`, with its inspector open on a port of its choosing. */
export async function inspectableNode(script: string): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, ['--inspect=127.0.0.1:0', '-e', script], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const url = await new Promise<string>((resolve) => {
    let output = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /Debugger listening on (ws:\/\/\S+)/.exec(output);
      if (match?.[1]) resolve(match[1]);
    });
  });
  return { child, url };
}
