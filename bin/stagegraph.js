#!/usr/bin/env node
import { quickAnswer } from '../server/cli-help.js';

const answer = quickAnswer(process.argv.slice(2));
if (answer) {
  process[answer.stream].write(`${answer.text}\n`);
  process.exitCode = answer.code;
} else {
  // The sources are TypeScript run in place through tsx: no build step between a change and a run.
  const { register } = await import('tsx/esm/api');
  register();
  await import('../server/main.ts');
}
