import { afterEach, describe, expect, it } from 'vitest';
import { CdpRelay, type CommandSink } from './cdp-relay.js';

let relay: CdpRelay | undefined;
afterEach(async () => {
  await relay?.close();
  relay = undefined;
});

describe('CdpRelay', () => {
  it("fails a window's own command that its debugger refuses as a protocol error naming the method", async () => {
    const sent: Parameters<CommandSink>[0][] = [];
    relay = await CdpRelay.start((command) => sent.push(command), 'Chrome/0.0.0.0');
    const adding = relay.addWindow(7);
    const [command] = sent;
    expect(command).toMatchObject({ contentsId: 7, method: 'Target.getTargetInfo' });
    relay.receive({ kind: 'response', rid: command!.rid, error: 'Debugger is not attached' });
    await expect(adding).rejects.toMatchObject({
      kind: 'protocol',
      method: 'Target.getTargetInfo',
      code: 'PROTOCOL_ERROR',
      message: 'Target.getTargetInfo: Debugger is not attached',
    });
  });
});
