#!/usr/bin/env node
import { CLIENT_COMMANDS, quickAnswer } from '../server/cli-help.js';

const [command = '', ...rest] = process.argv.slice(2);
const answer = quickAnswer(process.argv.slice(2));
if (answer) {
  process[answer.stream].write(`${answer.text}\n`);
  process.exitCode = answer.code;
} else if (Object.hasOwn(CLIENT_COMMANDS, command)) {
  const client = CLIENT_COMMANDS[command];
  process.exitCode = await (await import(client.module))[client.run](rest);
} else {
  // The sources are TypeScript run in place through tsx: no build step between a change and a run.
  const { register } = await import('tsx/esm/api');
  register();
  await import('../server/main.ts');
}
