import { type GraphQLInputType, getNamedType, isInputObjectType, isScalarType } from 'graphql';
import { describe, expect, it } from 'vitest';
import type { ArgumentDisclosure } from '../domain/governance/redaction/redaction.js';
import { disclosureOf } from './argument-disclosure.js';
import { buildSchema } from './index.js';

const SCALARS_IN_CLEAR = new Set(['Int', 'Float', 'Boolean', 'ID', 'DateTime']);

/** Every argument part of every mutation that can carry text, as `field.arg.inputField`, with its classification. */
function textParts(): Map<string, ArgumentDisclosure> {
  const schema = buildSchema({ allowEval: 'both' });
  const parts = new Map<string, ArgumentDisclosure>();
  const walk = (type: GraphQLInputType, at: string, disclosure: ArgumentDisclosure, seen: Set<string>) => {
    const named = getNamedType(type);
    if (isScalarType(named)) {
      if (!SCALARS_IN_CLEAR.has(named.name)) parts.set(at, disclosure);
      return;
    }
    if (!isInputObjectType(named) || seen.has(named.name)) return;
    // A locator type shown whole (TargetInput) is listed once, not field by field.
    if (typeof disclosure === 'string') {
      parts.set(`${at} (${named.name})`, disclosure);
      return;
    }
    for (const field of Object.values(named.getFields())) {
      const part = typeof disclosure === 'string' ? disclosure : (disclosure[field.name] ?? 'redact');
      walk(field.type, `${at}.${field.name}`, part, new Set([...seen, named.name]));
    }
  };
  for (const field of Object.values(schema.getMutationType()?.getFields() ?? {})) {
    const disclosure = disclosureOf(field) as Record<string, ArgumentDisclosure>;
    for (const arg of field.args)
      walk(arg.type, `${field.name}.${arg.name}`, disclosure[arg.name] ?? 'redact', new Set());
  }
  return parts;
}

describe('argument disclosure', () => {
  const parts = textParts();

  it('redacts every text argument of every mutation except the reviewed ones that name or locate things', () => {
    const shown = [...parts].filter(([, how]) => how !== 'redact').map(([at, how]) => `${at}: ${how}`);
    // A change here is a change to what the audit trail records in clear: review it as such.
    expect(shown.sort()).toMatchInlineSnapshot(`
      [
        "armIpc.channels: clear",
        "armNotifications.titleContains: clear",
        "attach.input.cdpUrl: clear",
        "attach.input.host: clear",
        "attach.input.titleContains: clear",
        "attach.input.urlIncludes: clear",
        "attach.replica: clear",
        "attachDesktop.input.appName: clear",
        "clear.target (TargetInput): clear",
        "clearCookies.domain: clear",
        "clearCookies.name: clear",
        "clearStorage.origin: clear",
        "click.position (PointInput): clear",
        "click.target (TargetInput): clear",
        "deny.reason: clear",
        "dragTo.target (TargetInput): clear",
        "dragTo.to (TargetInput): clear",
        "evalMain.code: clear",
        "evalRenderer.code: clear",
        "expect.target (TargetInput): clear",
        "fill.target (TargetInput): clear",
        "fill.value: typed",
        "focus.target (TargetInput): clear",
        "hover.target (TargetInput): clear",
        "inject.replica: clear",
        "invokeContextMenuItem.path: clear",
        "invokeIpc.channel: clear",
        "invokeMenuItem.path: clear",
        "launch.input.args: clear",
        "launch.input.cwd: clear",
        "launch.input.env.name: clear",
        "launch.input.executablePath: clear",
        "launch.input.main: clear",
        "launch.replica: clear",
        "launchCommand.input.args: clear",
        "launchCommand.input.command: clear",
        "launchCommand.input.cwd: clear",
        "launchCommand.input.env.name: clear",
        "launchCommand.input.titleContains: clear",
        "launchCommand.input.urlIncludes: clear",
        "launchCommand.replica: clear",
        "launchDesktop.input.args: clear",
        "launchDesktop.input.command: clear",
        "launchDesktop.input.cwd: clear",
        "launchDesktop.input.env.name: clear",
        "launchDesktop.replica: clear",
        "navigate.to.url: clear",
        "press.key: typed",
        "press.target (TargetInput): clear",
        "removeStorageItem.key: clear",
        "removeStorageItem.origin: clear",
        "scroll.target (TargetInput): clear",
        "selectOption.labels: typed",
        "selectOption.target (TargetInput): clear",
        "selectOption.values: typed",
        "setChecked.target (TargetInput): clear",
        "setCookie.cookie.domain: clear",
        "setCookie.cookie.name: clear",
        "setCookie.cookie.path: clear",
        "setCookie.cookie.url: clear",
        "setInputFiles.paths: clear",
        "setInputFiles.target (TargetInput): clear",
        "setNativeDialogPolicy.rules.filePaths: clear",
        "setStorageItem.key: clear",
        "setStorageItem.origin: clear",
        "startNetworkCapture.filter.methods: clear",
        "startNetworkCapture.filter.resourceTypes: clear",
        "startNetworkCapture.filter.urlPatterns: clear",
        "stubNetwork.input.headers.name: clear",
        "stubNetwork.input.methods: clear",
        "stubNetwork.input.pattern: clear",
        "switchWindow.window (WindowSelector): clear",
        "type.target (TargetInput): clear",
        "type.text: typed",
      ]
    `);
  });

  it('never shows the values mutations carry into the app', () => {
    for (const part of [
      'setStorageItem.value',
      'setCookie.cookie.value',
      'stubNetwork.input.body',
      'stubNetwork.input.headers.value',
      'invokeIpc.args',
      'evalMain.arg',
      'evalRenderer.arg',
      'launch.input.env.value',
      'launchCommand.input.env.value',
      'launchDesktop.input.env.value',
      'setDialogPolicy.promptText',
      'expect.equals',
    ])
      expect(parts.get(part), part).toBe('redact');
  });
});
