import { StagegraphError } from '../../errors/stagegraph-error.js';
import type { TransportSession } from '../../transports/contract/transport-contract.js';
import type { TopicHandlers } from '../../transports/contract/transport-events.js';
import type { EventHub } from '../events/event-hub.js';
import { fencedClock, fencedNetwork, fencedStorage } from '../governance/own-pages/own-page-fence.js';
import type { OwnPages } from '../governance/own-pages/own-pages.js';
import { SessionClock } from './clock.js';
import { type DialogTopics, SessionDialogs } from './dialogs.js';
import { type NetworkTopics, SessionNetwork } from './network.js';
import { SessionWebStorage } from './storage.js';

/** The hub topics page state publishes on. */
export type PageStateTopics = NetworkTopics & DialogTopics;

/**
 * Everything behind a session's pixels: network, dialogs, cookies and storage, clock. Each reaches its
 * transport seam only through `seam`, which refuses once the session has ended.
 */
export class SessionPageState {
  readonly network: SessionNetwork;
  readonly dialogs: SessionDialogs;
  readonly storage: SessionWebStorage;
  readonly clock: SessionClock;

  constructor(
    sessionId: string,
    transport: TransportSession,
    hub: EventHub<PageStateTopics>,
    assertLive: () => void,
    /** The gateway's own pages: their origin's storage and requests are cut out of these seams. */
    ownPages?: OwnPages,
  ) {
    const seam = <K extends 'network' | 'storage' | 'clock'>(name: K) => {
      return (): NonNullable<TransportSession[K]> => {
        assertLive();
        const control = transport[name];
        // The schema refuses these fields on transports without the capability; this is the backstop.
        if (!control)
          throw new StagegraphError('CAPABILITY_UNSUPPORTED', `This transport has no ${name} seam.`);
        return control as NonNullable<TransportSession[K]>;
      };
    };
    const network = seam('network');
    const storage = seam('storage');
    this.network = new SessionNetwork(sessionId, hub, () =>
      ownPages ? fencedNetwork(network(), ownPages, sessionId) : network(),
    );
    this.dialogs = new SessionDialogs(sessionId, hub, transport.dialogs);
    this.storage = new SessionWebStorage(sessionId, () =>
      ownPages ? fencedStorage(storage(), ownPages, sessionId) : storage(),
    );
    const clock = seam('clock');
    // Listed afresh before each change: a window may have navigated to a gateway page since the last listing.
    const windows = async () => transport.windows();
    this.clock = new SessionClock(sessionId, () =>
      ownPages ? fencedClock(clock(), ownPages, sessionId, windows) : clock(),
    );
  }

  /** Records what the transport reports; true when the event was one of these. */
  /** The transport topics page state owns. */
  readonly topics: TopicHandlers = {
    network: (event) => this.network.onRecord(event.record),
    dialog: (event) => this.dialogs.onDialog(event.dialog, event.decision),
  };
}
