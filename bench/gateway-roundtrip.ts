// Round trip of a trivial query through the running gateway, over HTTP and over graphql-ws, against
// in-process `execute` of the same document on the same schema (the reference): what the wire costs.
import { execute, parse } from 'graphql';
import { buildSchema } from '../schema/index.js';
import { TransportsDocument } from '../test/generated/graphql.js';
import { startGateway, wsClient, wsRequest } from '../test/helpers/gateway.js';
import { HEADER, row, time } from './stats.js';

const N = Number(process.env.BENCH_N ?? 2_000);
const QUERY = '{ transports { id } }';

const gateway = await startGateway();
const schema = buildSchema();
const document = parse(QUERY);
const contextValue = { sessions: gateway.gateway.sessions, hub: undefined as never };

const inProcess = await time(N, async () => execute({ schema, document, contextValue }));
const overHttp = await time(N, async () => {
  const response = await fetch(gateway.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query: QUERY }),
  });
  await response.json();
});
const client = wsClient(gateway.wsUrl);
const overWs = await time(N, () => wsRequest(client, TransportsDocument));
await client.dispose();
await gateway.stop();

console.log(`## Gateway round trip: \`${QUERY}\` (node ${process.version})\n\n${HEADER}`);
console.log(row('in-process execute', inProcess));
console.log(row('HTTP POST (keep-alive fetch)', overHttp, inProcess));
console.log(row('graphql-ws', overWs, inProcess));
