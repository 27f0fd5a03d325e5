import { isObjectType } from 'graphql';
import { describe, expect, it } from 'vitest';
import { buildSchema } from './index.js';

/** The names an agent could discover: root fields, Session fields and types. */
function surface(allowEval: 'none' | 'main' | 'renderer' | 'both') {
  const schema = buildSchema({ allowEval });
  const fields = (name: string) => {
    const type = schema.getType(name);
    return isObjectType(type) ? Object.keys(type.getFields()) : [];
  };
  return {
    mutations: fields('Mutation'),
    session: fields('Session'),
    subscriptions: fields('Subscription'),
    types: Object.keys(schema.getTypeMap()),
  };
}

describe('the eval scope of a schema', () => {
  it('has neither eval nor IPC without --allow-eval, not even their types', () => {
    const { mutations, session, subscriptions, types } = surface('none');
    for (const name of ['evalMain', 'evalRenderer', 'invokeIpc', 'armIpc', 'stopIpc'])
      expect(mutations).not.toContain(name);
    expect(session).not.toContain('ipc');
    expect(subscriptions).not.toContain('ipc');
    for (const name of ['EvalResult', 'IpcMessage', 'IpcDirection', 'IpcInvocation'])
      expect(types).not.toContain(name);
  });

  it('opens IPC with main eval only, and renderer eval alone keeps IPC out', () => {
    const main = surface('main');
    expect(main.mutations).toEqual(expect.arrayContaining(['evalMain', 'invokeIpc', 'armIpc', 'stopIpc']));
    expect(main.mutations).not.toContain('evalRenderer');
    expect(main.session).toContain('ipc');
    expect(main.subscriptions).toContain('ipc');
    const renderer = surface('renderer');
    expect(renderer.mutations).toContain('evalRenderer');
    for (const name of ['evalMain', 'invokeIpc', 'armIpc']) expect(renderer.mutations).not.toContain(name);
    expect(renderer.session).not.toContain('ipc');
    expect(renderer.types).not.toContain('IpcMessage');
    expect(renderer.types).toContain('EvalResult');
    const both = surface('both');
    expect(both.mutations).toEqual(expect.arrayContaining(['evalMain', 'evalRenderer', 'invokeIpc']));
  });
});
