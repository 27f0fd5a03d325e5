/**
 * Drives the demo's fixture app through the typed client, as an agent written in TypeScript would:
 *
 *     npm start                                                    # the demo gateway; its app is session s1
 *     npx tsx clients/typescript/example.ts --url http://127.0.0.1:4700/graphql
 *
 * Reads the sessions and the active window's outline, fills the name and saves a draft as ONE multi-step
 * mutation with an expectation, watches the console line a click logs, shows a failure's typed fields, and
 * prints a summary. Exits 1 on any failure. It saves a draft rather than clicking "Submit": "submit" is a
 * destructive word to the default policy, so the demo asks an approver first, and this example runs
 * unattended.
 */
import { parseArgs } from 'node:util';
import {
  ClickDocument,
  ConsoleEventsDocument,
  createStagegraphClient,
  OutlineDocument,
  SessionsDocument,
  StagegraphClientError,
} from './src/index.js';

const { values } = parseArgs({
  options: {
    url: { type: 'string', default: 'http://127.0.0.1:4700/graphql' },
    token: { type: 'string' },
    name: { type: 'string', default: 'Ada' },
  },
});
const client = createStagegraphClient({
  url: values.url,
  token: values.token ?? process.env.STAGEGRAPH_TOKEN,
});

try {
  const { sessions } = await client.request(SessionsDocument);
  const session = sessions.find((listed) => listed.status === 'RUNNING');
  if (!session) throw new Error('no RUNNING session: start the demo with `npm start`');
  const read = await client.request(OutlineDocument, { session: session.id, interactiveOnly: true });
  const outline = read.session?.activeWindow?.snapshot.outline ?? '';

  const saved = await client.act(session.id, [
    { fill: { target: { testId: 'name' }, value: values.name } },
    { click: { target: { role: 'button', name: 'Save draft' } } },
    { expect: { kind: 'TEXT', target: { testId: 'status' }, equals: 'Clicked: save-draft' } },
  ]);
  if (!saved.ok) throw saved.failure?.error ?? new Error('a step failed');

  // `replay` hands over a line logged before the subscription was in place, so the click may go first.
  await client.request(ClickDocument, { session: session.id, target: { testId: 'log' } });
  let logged = '';
  for await (const event of client.subscribe(ConsoleEventsDocument, {
    session: session.id,
    textContains: 'fixture: button clicked',
    replay: true,
  })) {
    logged = event.console.entry.text;
    break;
  }

  const missed = await client
    .expect({
      session: session.id,
      kind: 'TEXT',
      target: { testId: 'status' },
      equals: 'nope',
      timeoutMs: 500,
    })
    .then(
      () => null,
      (error: unknown) => error,
    );
  if (!(missed instanceof StagegraphClientError)) throw new Error('the failing expectation did not fail');

  console.log('stagegraph typescript example: OK');
  console.log(
    `session:  ${session.id} ${session.status}, ${outline.split('\n').length} interactive outline lines`,
  );
  console.log(
    `steps:    ${saved.steps.map((step) => `${step.kind} ${step.ok ? 'ok' : 'failed'}`).join(', ')}`,
  );
  console.log(`console:  "${logged}"`);
  console.log(
    `failure:  ${missed.code} (retryable: ${missed.retryable}), ${missed.nextActions.length} next actions`,
  );
} catch (error) {
  if (error instanceof StagegraphClientError)
    console.error(error.code, error.message, error.hint, error.nextActions);
  else console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
} finally {
  await client.close();
}
