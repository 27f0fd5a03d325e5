import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { type DefinitionNode, Kind, type OperationDefinitionNode, parse } from 'graphql';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** What a `# key: value` comment in a ```graphql block asks of the test that runs it. */
export interface ExampleMarkers {
  /** `# expect-error: CODE` — the example must fail, every error carrying exactly this extensions.code. */
  readonly expectError?: string;
  /**
   * `# expect-partial: CODE CODE…` — a mutation whose answer holds both data and errors (the contract of a
   * multi-step operation): its errors carry exactly these codes in this order, each at a step that `data`
   * holds as null, and every other step has its result.
   */
  readonly expectPartial?: readonly string[];
  /** `# as: approver` — sent with the demo's printed approver token instead of as an anonymous agent. */
  readonly as?: 'approver';
  /** `# skip: reason` — not run, and the reason shows in the test's name. */
  readonly skip?: string;
  /** `# variables: {...}` — JSON; the text `$DEMO_PAGES` in it stands for the origin the demo serves its pages from. */
  readonly variables?: string;
  /** `# expect-event` — a subscription must deliver an event (with data, no errors), not only start. */
  readonly expectEvent?: boolean;
}

/** One operation of one ```graphql block, with everything needed to run it and to name it. */
export interface DocExample {
  /** The Markdown file, relative to the repository root. */
  readonly file: string;
  /** The line of the file where the operation starts (1-based). */
  readonly line: number;
  /** The operation's name, or its first line when it has none. */
  readonly title: string;
  readonly kind: OperationDefinitionNode['operation'];
  /** The operation's own text as the doc shows it, plus the block's fragments. */
  readonly source: string;
  readonly document: OperationDefinitionNode;
  readonly markers: ExampleMarkers;
}

const MARKER = /^\s*#\s*(expect-error|expect-partial|as|skip|variables):\s*(.*?)\s*$/;
const EXPECT_EVENT = /^\s*#\s*expect-event\s*$/;
/** A comment that starts like a marker but is not one (a typo) fails rather than being ignored. */
const MARKER_LIKE = /^\s*#\s*(expect-|as:|skip:|variables:)/;

/** README.md first, then docs/*.md by name: the order a reader meets them, and the order they run in. */
export function docFiles(): string[] {
  const docs = readdirSync(`${ROOT}docs`)
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => `docs/${name}`);
  return ['README.md', ...docs];
}

/** Every operation of every ```graphql block of `file`, in document order. */
export function examplesOf(file: string): DocExample[] {
  const text = readFileSync(`${ROOT}${file}`, 'utf8');
  const examples: DocExample[] = [];
  const fence = /^```graphql[ \t]*\n([\s\S]*?)^```[ \t]*$/gm;
  for (const match of text.matchAll(fence)) {
    const body = match[1]!;
    const bodyLine = lineAt(text, match.index + match[0].indexOf('\n') + 1);
    const markers = markersOf(body, `${file}:${bodyLine}`);
    const document = parse(body);
    const fragments = document.definitions
      .filter((definition) => definition.kind === Kind.FRAGMENT_DEFINITION)
      .map((definition) => sourceOf(body, definition));
    for (const definition of document.definitions) {
      if (definition.kind !== Kind.OPERATION_DEFINITION) continue;
      const own = sourceOf(body, definition);
      examples.push({
        file,
        line: bodyLine + lineAt(body, definition.loc!.start) - 1,
        title: definition.name?.value ?? own.split('\n')[0]!.trim(),
        kind: definition.operation,
        source: [own, ...fragments].join('\n'),
        document: definition,
        markers,
      });
    }
  }
  return examples;
}

function markersOf(body: string, where: string): ExampleMarkers {
  const markers: Record<string, string | boolean | string[]> = {};
  for (const line of body.split('\n')) {
    if (EXPECT_EVENT.test(line)) {
      markers.expectEvent = true;
      continue;
    }
    const match = MARKER.exec(line);
    if (!match) {
      if (MARKER_LIKE.test(line))
        throw new Error(`${where}: "${line.trim()}" looks like a marker but is not one`);
      continue;
    }
    const [, key, value] = match;
    if (!value) throw new Error(`${where}: the marker "${key}" needs a value`);
    else if (key === 'expect-error') markers.expectError = value.split(/\s/)[0]!;
    else if (key === 'expect-partial') markers.expectPartial = value.split(/\s+/);
    else if (key === 'as') {
      if (value !== 'approver') throw new Error(`${where}: "# as:" knows only "approver", got "${value}"`);
      markers.as = value;
    } else if (key === 'variables') {
      JSON.parse(value);
      markers.variables = value;
    } else markers[key!] = value;
  }
  return markers as ExampleMarkers;
}

function sourceOf(body: string, definition: DefinitionNode): string {
  return body.slice(definition.loc!.start, definition.loc!.end);
}

function lineAt(text: string, offset: number): number {
  return text.slice(0, offset).split('\n').length;
}

/** How a subscription example went: it started (and perhaps delivered), or it failed. */
export interface SubscriptionProbe {
  readonly status: number;
  /** True once the server streamed past the subscription's setup without an error. */
  readonly started: boolean;
  /** The first event's payload, if one came before the probe stopped. */
  readonly first?: {
    data?: unknown;
    errors?: readonly { message: string; extensions?: { code?: string } }[];
  };
  /** The stream ended before it started or delivered anything. */
  readonly ended?: boolean;
}

/**
 * Subscribes over SSE, as GraphiQL does, and stops at the first sign of how it went. Yoga answers only
 * after the subscription's setup has run, then streams a `:` ping at once and more pings at an interval
 * (300 ms under NODE_ENV=test, which the gateway child inherits from vitest; 12 s otherwise): a setup
 * that failed is sent as the first event, before any later ping, on the same ordered stream. So a
 * second ping with no event before it means the subscription is live. With `untilEvent`, pings are not
 * enough: it waits for the first event.
 */
export async function probeSubscription(
  url: string,
  query: string,
  variables: Record<string, unknown> | undefined,
  headers: Record<string, string>,
  untilEvent: boolean,
): Promise<SubscriptionProbe> {
  const controller = new AbortController();
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream', ...headers },
      body: JSON.stringify({ query, variables }),
      signal: controller.signal,
    });
    if (!response.ok || !response.headers.get('content-type')?.startsWith('text/event-stream')) {
      const text = await response.text();
      let first: SubscriptionProbe['first'];
      try {
        first = JSON.parse(text);
      } catch {
        first = { errors: [{ message: `HTTP ${response.status}: ${text.slice(0, 500)}` }] };
      }
      return { status: response.status, started: false, first };
    }
    const decoder = new TextDecoder();
    let buffer = '';
    let pings = 0;
    for await (const chunk of response.body!) {
      buffer += decoder.decode(chunk as Uint8Array, { stream: true });
      for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
        const frame = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const lines = frame.split('\n').filter((line) => line !== '');
        if (lines.every((line) => line.startsWith(':'))) {
          pings += 1;
          if (pings >= 2 && !untilEvent) return { status: response.status, started: true };
          continue;
        }
        const event = /^event: (.*)$/m.exec(frame)?.[1];
        const data = /^data: (.*)$/m.exec(frame)?.[1];
        if (event === 'complete') return { status: response.status, started: false, ended: true };
        if (data) {
          const first = JSON.parse(data) as SubscriptionProbe['first'];
          return { status: response.status, started: !first?.errors, first };
        }
      }
    }
    return { status: response.status, started: false, ended: true };
  } finally {
    controller.abort();
  }
}

/** Resolves with the first match of `pattern` in what `output` returns, waiting as long as it takes. */
export async function printed(output: () => string, pattern: RegExp): Promise<RegExpExecArray> {
  for (;;) {
    const match = pattern.exec(output());
    if (match) return match;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
