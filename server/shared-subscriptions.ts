import {
  createSourceEventStream,
  type ExecutionArgs,
  type ExecutionResult,
  execute,
  type GraphQLError,
  getOperationAST,
  Kind,
  print,
} from 'graphql';
import type { OperationResult } from 'graphql-ws';
import type { GatewayContext } from '../schema/context.js';
import { SHARED_EXECUTION } from '../schema/shared-execution.js';
import { admitSubscription } from './client-subscriptions.js';
import { compiledEventExecution, type EventExecution } from './compiled-queries.js';

type MaybeResult = ExecutionResult | Promise<ExecutionResult>;
type Step = IteratorResult<ExecutionResult, undefined>;
type MaybeStep = Step | Promise<Step>;

/** Subscribers with the same client, document and variables: one execution per event serves them all. */
interface Group {
  /**
   * Keyed by the event's delivery: one object per event for every subscriber that lost nothing before it.
   * A result is kept only until the other subscribers of the moment have taken it, so a group of one keeps
   * none; one that a subscriber never takes (it lost that event) goes with the event.
   */
  readonly results: WeakMap<object, { readonly result: MaybeResult; awaitedBy: number }>;
  subscribers: number;
}

/** Context of a subscription run without a client (in-process): its own group space. */
const NO_CLIENT = {};

/**
 * Subscriptions whose root field is marked `sharesExecutionPerEvent` (schema/shared-execution.ts) are
 * mapped from their source stream here instead of by the executor: each subscriber keeps its own stream
 * (own filters, own bounded queue, own `droppedBefore`), but a delivery that several subscribers with the
 * same client, document and variables receive — the same object, see domain/bounded/delivery.ts — is
 * executed once and its result sent to each. The executor's per-event path costs a GraphQL execution,
 * an async generator and several promise layers per subscriber per event; here it is one execution per
 * event and one promise per subscriber.
 *
 * Anything else, and a subscription whose setup fails, goes through yoga's enveloped `subscribe`, so
 * setup errors come out exactly as before (the failing subscribe resolver runs once more there; having
 * failed, it subscribed to nothing). A shared subscription that starts skips envelop's subscribe and
 * execute hooks: error masking, which `mask` (yoga's own rule) applies to per-event errors, and the
 * charge to its client's share of subscriptions, which `subscribe` takes here; a plugin added later
 * with such hooks would have to be applied here too.
 */
export class SharedSubscriptions {
  readonly #groups = new WeakMap<object, Map<string, Group>>();
  readonly #mask: (error: GraphQLError) => GraphQLError;

  constructor(mask: (error: GraphQLError) => GraphQLError) {
    this.#mask = mask;
  }

  async subscribe(args: ExecutionArgs, enveloped: (args: ExecutionArgs) => OperationResult) {
    if (!isShared(args)) return enveloped(args);
    // Charged to its client as an enveloped one is (client-subscriptions.ts), before it subscribes.
    const admitted = admitSubscription(args.contextValue as GatewayContext);
    if (typeof admitted !== 'function') return admitted;
    const source = await createSourceEventStream(args).catch((error: unknown) => {
      admitted();
      throw error;
    });
    if (!(Symbol.asyncIterator in source)) {
      admitted();
      return enveloped(args);
    }
    return this.#mapped(source, args, admitted);
  }

  #mapped(
    source: AsyncIterable<unknown>,
    args: ExecutionArgs,
    release: () => void,
  ): AsyncIterableIterator<ExecutionResult> {
    const { group, leave } = this.#join(args, release);
    const events = source[Symbol.asyncIterator]();
    const execution: EventExecution =
      compiledEventExecution(args) ?? ((rootValue) => execute({ ...args, rootValue }));
    const run = (root: unknown) => this.#masked(execution(root, args.contextValue, args.variableValues));
    const resultOf = (root: unknown): MaybeResult => {
      if (typeof root !== 'object' || root === null) return run(root);
      const shared = group.results.get(root);
      if (shared !== undefined) {
        shared.awaitedBy -= 1;
        if (shared.awaitedBy <= 0) group.results.delete(root);
        return shared.result;
      }
      const result = run(root);
      if (group.subscribers > 1) group.results.set(root, { result, awaitedBy: group.subscribers - 1 });
      return result;
    };
    return {
      [Symbol.asyncIterator]() {
        return this;
      },
      // Chained, not async: every promise costs more while Playwright's AsyncLocalStorage keeps promise hooks on.
      next() {
        return events.next().then((step): MaybeStep => {
          if (step.done) {
            leave();
            return { value: undefined, done: true };
          }
          const result = resultOf(step.value);
          return result instanceof Promise
            ? result.then((value) => ({ value, done: false }))
            : { value: result, done: false };
        });
      },
      async return() {
        leave();
        await events.return?.();
        return { value: undefined, done: true };
      },
    };
  }

  #masked(result: MaybeResult): MaybeResult {
    const masked = (settled: ExecutionResult): ExecutionResult =>
      settled.errors ? { ...settled, errors: settled.errors.map(this.#mask) } : settled;
    return result instanceof Promise ? result.then(masked) : masked(result);
  }

  #join(args: ExecutionArgs, release: () => void): { group: Group; leave: () => void } {
    const client = (args.contextValue as { client?: object } | undefined)?.client ?? NO_CLIENT;
    const groups = this.#groups.get(client) ?? new Map<string, Group>();
    this.#groups.set(client, groups);
    const key = JSON.stringify([
      args.operationName ?? null,
      args.variableValues ?? null,
      print(args.document),
    ]);
    const group = groups.get(key) ?? { results: new WeakMap(), subscribers: 0 };
    groups.set(key, group);
    group.subscribers += 1;
    let left = false;
    return {
      group,
      leave: () => {
        if (left) return;
        left = true;
        release();
        group.subscribers -= 1;
        if (group.subscribers === 0) groups.delete(key);
      },
    };
  }
}

/** A subscription operation with a single root field (no fragments) marked `sharesExecutionPerEvent`. */
function isShared(args: ExecutionArgs): boolean {
  const operation = getOperationAST(args.document, args.operationName);
  const [field, ...others] = operation?.selectionSet.selections ?? [];
  if (operation?.operation !== 'subscription' || others.length > 0 || field?.kind !== Kind.FIELD)
    return false;
  const definition = args.schema.getSubscriptionType()?.getFields()[field.name.value];
  return definition?.extensions?.[SHARED_EXECUTION] === true;
}
