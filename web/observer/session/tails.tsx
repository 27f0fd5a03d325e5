import { useEffect, useMemo, useState } from 'preact/hooks';
import type { GatewayClient } from '../gateway-client.js';
import type { Capabilities } from '../sessions/session-summary.js';
import { type TailEntry, type TailSource, TailTable, useTail } from './tail.js';

interface ConsoleDelivery {
  console: {
    droppedBefore: number;
    entry: { seq: number; time: string; type: string; text: string; location: string | null };
  };
}
interface NetworkDelivery {
  network: {
    droppedBefore: number;
    entry: {
      seq: number;
      time: string;
      method: string;
      url: string;
      status: number | null;
      failure: string | null;
      resourceType: string;
    };
  };
}
interface DialogDelivery {
  dialogs: {
    droppedBefore: number;
    entry: { seq: number; time: string; type: string; message: string; action: string };
  };
}
interface NotificationFields {
  seq: number;
  time: string;
  title: string;
  body: string;
  urgency: string;
}
interface NotificationDelivery {
  notifications: { droppedBefore: number; notification: NotificationFields };
}
interface IpcFields {
  seq: number;
  time: string;
  direction: string;
  kind: string;
  channel: string;
  args: string;
}
interface IpcDelivery {
  ipc: { droppedBefore: number; message: IpcFields };
}

const NOTIFICATION_FIELDS = 'seq time title body urgency';
const IPC_FIELDS = 'seq time direction kind channel args';

const notificationEntry = (n: NotificationFields): TailEntry => ({
  key: String(n.seq),
  time: n.time,
  kind: n.urgency,
  text: n.body ? `${n.title}: ${n.body}` : n.title,
});
const ipcEntry = (m: IpcFields): TailEntry => ({
  key: String(m.seq),
  time: m.time,
  kind: `${m.direction} ${m.kind}`,
  text: `${m.channel} ${m.args}`,
});

/**
 * Only gateways started with --allow-eval=main have `Session.ipc`: asked of the schema, so a gateway
 * without it is never sent a document it would refuse.
 */
function useHasIpc(client: GatewayClient): boolean {
  const [has, setHas] = useState(false);
  useEffect(() => {
    client
      .query<{ __type: { fields: { name: string }[] } | null }>(
        'query ObserverIpcPresent { __type(name: "Session") { fields { name } } }',
      )
      .then(
        (data) => setHas(data.__type?.fields.some((field) => field.name === 'ipc') ?? false),
        () => setHas(false),
      );
  }, [client]);
  return has;
}

type TailName = 'console' | 'network' | 'dialogs' | 'notifications' | 'ipc';

/** The session's streams, one shown at a time; every one keeps reading while hidden. */
export function Tails(props: { client: GatewayClient; sessionId: string; capabilities: Capabilities }) {
  const { client, sessionId, capabilities } = props;
  const hasIpc = useHasIpc(client) && capabilities.MAIN_EVAL;
  const [shown, setShown] = useState<TailName>('console');
  const s = { s: sessionId };

  const consoleSource = useMemo<TailSource<ConsoleDelivery> | null>(
    () =>
      capabilities.CONSOLE
        ? {
            document: `subscription ObserverConsole($s: ID!) { console(session: $s, replay: true) {
              droppedBefore entry { seq time type text location } } }`,
            variables: s,
            read: ({ console: { entry, droppedBefore } }) => ({
              droppedBefore,
              entry: { key: String(entry.seq), time: entry.time, kind: entry.type, text: entry.text },
            }),
          }
        : null,
    [sessionId, capabilities.CONSOLE],
  );
  const networkSource = useMemo<TailSource<NetworkDelivery> | null>(
    () =>
      capabilities.INTERCEPT
        ? {
            document: `subscription ObserverNetwork($s: ID!) { network(session: $s, replay: true) {
              droppedBefore entry { seq time method url status failure resourceType } } }`,
            variables: s,
            read: ({ network: { entry, droppedBefore } }) => ({
              droppedBefore,
              entry: {
                key: String(entry.seq),
                time: entry.time,
                kind: `${entry.method} ${entry.status ?? entry.failure ?? 'pending'}`,
                text: `${entry.url} (${entry.resourceType})`,
              },
            }),
          }
        : null,
    [sessionId, capabilities.INTERCEPT],
  );
  const dialogSource = useMemo<TailSource<DialogDelivery> | null>(
    () =>
      capabilities.DIALOGS
        ? {
            document: `subscription ObserverDialogs($s: ID!) { dialogs(session: $s, replay: true) {
              droppedBefore entry { seq time type message action } } }`,
            variables: s,
            read: ({ dialogs: { entry, droppedBefore } }) => ({
              droppedBefore,
              entry: {
                key: String(entry.seq),
                time: entry.time,
                kind: `${entry.type} → ${entry.action}`,
                text: entry.message,
              },
            }),
          }
        : null,
    [sessionId, capabilities.DIALOGS],
  );
  const notificationSource = useMemo<TailSource<NotificationDelivery> | null>(
    () =>
      capabilities.NATIVE_UI
        ? {
            document: `subscription ObserverNotifications($s: ID!) { notifications(session: $s) {
              droppedBefore notification { ${NOTIFICATION_FIELDS} } } }`,
            variables: s,
            read: ({ notifications: { notification, droppedBefore } }) => ({
              droppedBefore,
              entry: notificationEntry(notification),
            }),
            // The stream does not replay: what capture kept so far is read first.
            initial: () =>
              client
                .query<{ session: { notifications: { entries: NotificationFields[] } } | null }>(
                  `query ObserverNotificationLog($s: ID!) { session(id: $s) {
                    notifications { entries { ${NOTIFICATION_FIELDS} } } } }`,
                  s,
                )
                .then((data) => (data.session?.notifications.entries ?? []).map(notificationEntry))
                // A session launched without instrumentNative keeps none: the live stream is all there is.
                .catch(() => []),
          }
        : null,
    [sessionId, capabilities.NATIVE_UI],
  );
  const ipcSource = useMemo<TailSource<IpcDelivery> | null>(
    () =>
      hasIpc
        ? {
            document: `subscription ObserverIpc($s: ID!) { ipc(session: $s) { droppedBefore message { ${IPC_FIELDS} } } }`,
            variables: s,
            read: ({ ipc: { message, droppedBefore } }) => ({ droppedBefore, entry: ipcEntry(message) }),
            initial: () =>
              client
                .query<{ session: { ipc: { entries: IpcFields[] } } | null }>(
                  `query ObserverIpcLog($s: ID!) { session(id: $s) { ipc { entries { ${IPC_FIELDS} } } } }`,
                  s,
                )
                .then((data) => (data.session?.ipc.entries ?? []).map(ipcEntry)),
          }
        : null,
    [sessionId, hasIpc],
  );

  const tails = [
    {
      name: 'console',
      title: 'Console',
      kind: 'Type',
      state: useTail(client, consoleSource),
      on: !!consoleSource,
    },
    {
      name: 'network',
      title: 'Network',
      kind: 'Request',
      state: useTail(client, networkSource),
      on: !!networkSource,
    },
    {
      name: 'dialogs',
      title: 'Dialogs',
      kind: 'Dialog',
      state: useTail(client, dialogSource),
      on: !!dialogSource,
    },
    {
      name: 'notifications',
      title: 'Notifications',
      kind: 'Urgency',
      state: useTail(client, notificationSource),
      on: !!notificationSource,
    },
    { name: 'ipc', title: 'IPC', kind: 'Direction', state: useTail(client, ipcSource), on: hasIpc },
  ] as const;
  const available = tails.filter((tail) => tail.on);

  return (
    <section aria-labelledby="tails-heading" class="panel tails">
      <h3 id="tails-heading">Tails</h3>
      {available.length === 0 ? <p>This session's transport offers no streams to tail.</p> : null}
      <fieldset class="tail-picker">
        <legend class="visually-hidden">Stream shown</legend>
        {available.map((tail) => (
          <button
            key={tail.name}
            type="button"
            aria-pressed={shown === tail.name}
            onClick={() => setShown(tail.name)}
          >
            {tail.title} ({tail.state.entries.length})
          </button>
        ))}
      </fieldset>
      {available.map((tail) => (
        <div key={tail.name} hidden={shown !== tail.name}>
          <TailTable id={`tail-${tail.name}`} title={tail.title} kindLabel={tail.kind} state={tail.state} />
        </div>
      ))}
    </section>
  );
}
