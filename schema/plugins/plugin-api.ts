import type { Session } from '../../domain/sessions/session.js';
import type { ErrorCodeInfo } from '../../errors/error-code-info.js';
import { ERROR_CODES, type ErrorCode } from '../../errors/registry.js';
import { StagegraphError, type StagegraphErrorOptions } from '../../errors/stagegraph-error.js';
import type { builder } from '../builder.js';
import type { GatewayContext } from '../context.js';
import type { SessionRef } from '../session.js';

/** The gateway's one Pothos builder, with its gates: a plugin's fields are built, gated and audited by it. */
export type StagegraphBuilder = typeof builder;

/** The closed error registry: a plugin raises registered codes, so clients branch on codes they know. */
export interface PluginErrors {
  /** What a code means, whether retrying helps, and its hint. */
  info(code: ErrorCode): ErrorCodeInfo;
  /** An error the server answers with `extensions { code, hint, retryable, nextActions }`. */
  error(code: ErrorCode, message: string, options?: StagegraphErrorOptions): StagegraphError;
}

/** Sessions as the domain keeps them; what a transport can do is reached through its contract only. */
export interface PluginSessions {
  /** The session `id` names, or the only one when `id` is omitted (SESSION_NOT_FOUND, SESSION_AMBIGUOUS). */
  get(context: GatewayContext, id?: string | null): Session;
}

/** What `register` is handed. */
export interface PluginApi {
  /**
   * The plugin's name, and so its namespace: every field it adds to a type it did not create is named
   * `<name>…` or `…<Name>` (`traceStart`, `startTrace`), every type it creates `<Name>…`.
   */
  readonly namespace: string;
  readonly builder: StagegraphBuilder;
  /** Object types of the schema a plugin's fields may return or extend. */
  readonly refs: { readonly Session: typeof SessionRef };
  readonly errors: PluginErrors;
  readonly sessions: PluginSessions;
}

export interface StagegraphPlugin {
  /** One lowercase word (letters and digits): the plugin's namespace. */
  readonly name: string;
  /** Declares the plugin's types and fields on `api.builder`; runs once, before the schema is built. */
  register(api: PluginApi): void;
}

/** What a plugin module exports as its default: `export default definePlugin({ name, register })`. */
export function definePlugin(plugin: StagegraphPlugin): StagegraphPlugin {
  return plugin;
}

export const pluginErrors: PluginErrors = {
  info: (code) => ERROR_CODES[code],
  error: (code, message, options) => new StagegraphError(code, message, options),
};

export const pluginSessions: PluginSessions = {
  get: (context, id) => context.sessions.get(id),
};
