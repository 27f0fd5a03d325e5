import type { DocumentNode, GraphQLSchema, Source } from 'graphql';
import type { Plugin } from 'graphql-yoga';

/**
 * Documents kept parsed and validated at once. The gateway's own clients send a few dozen distinct
 * documents; an agent that inlines its arguments sends a new one each time, which no cache helps.
 */
export const MAX_CACHED_DOCUMENTS = 500;
/**
 * The cached documents' text in all, in characters. What a cached document holds (its AST, its compiled
 * query) grows with its text, and a document may carry a long string literal: a count alone would let
 * 500 documents of a mebibyte each stay in memory. The common document is a few hundred characters.
 */
export const MAX_CACHED_DOCUMENT_CHARS = 1_000_000;
/** A larger document is not kept: it would push out dozens of ordinary ones. */
export const MAX_CACHED_DOCUMENT_SHARE = 8;

/**
 * A least-recently-used map of document text to its parsed document, bounded by count and by text.
 * Only documents that parsed and validated are kept: an invalid one is answered again as fast as it was
 * the first time (parsing is linear, and the request limits bound its size), and keeping it would give a
 * client that sends ever-different mistakes a say over the server's memory — yoga's own cache kept 1,024
 * parse errors and 1,024 failed validations, each holding its error's captured stack (the parser's and
 * validator's frames and their closures): 70 MB after 10,000 mixed requests.
 */
export class DocumentCache {
  readonly #entries = new Map<string, DocumentNode>();
  readonly #maxEntries: number;
  readonly #maxChars: number;
  #chars = 0;

  constructor(maxEntries = MAX_CACHED_DOCUMENTS, maxChars = MAX_CACHED_DOCUMENT_CHARS) {
    this.#maxEntries = maxEntries;
    this.#maxChars = maxChars;
  }

  get size(): number {
    return this.#entries.size;
  }

  get chars(): number {
    return this.#chars;
  }

  get(text: string): DocumentNode | undefined {
    const document = this.#entries.get(text);
    if (document === undefined) return undefined;
    // Map keeps insertion order: moved to the end, it is the most recently used.
    this.#entries.delete(text);
    this.#entries.set(text, document);
    return document;
  }

  set(text: string, document: DocumentNode): void {
    if (text.length > this.#maxChars / MAX_CACHED_DOCUMENT_SHARE || this.#entries.has(text)) return;
    this.#entries.set(text, document);
    this.#chars += text.length;
    for (const oldest of this.#entries.keys()) {
      if (this.#entries.size <= this.#maxEntries && this.#chars <= this.#maxChars) break;
      this.#entries.delete(oldest);
      this.#chars -= oldest.length;
    }
  }
}

/**
 * Parses and validates each distinct valid document once, over HTTP and graphql-ws alike (both parse and
 * validate through yoga's envelope), in place of yoga's parser and validation cache (turned off where
 * the server is built). The same document object then comes back for the same text, so graphql-jit's
 * compiled queries, kept per document object, are reused as long as their document is cached.
 */
export function useDocumentCache(cache = new DocumentCache()): Plugin {
  /** What each parsed document was parsed from, until it validates (weak: a failed one is forgotten). */
  const textOf = new WeakMap<DocumentNode, string>();
  /** Documents that passed every validation rule against a schema. */
  const validIn = new WeakMap<GraphQLSchema, WeakSet<DocumentNode>>();
  return {
    onParse({ params, setParsedDocument }) {
      const text = textOfSource(params.source);
      const cached = cache.get(text);
      if (cached) {
        setParsedDocument(cached);
        return undefined;
      }
      return ({ result }) => {
        if (result && !(result instanceof Error)) textOf.set(result, text);
      };
    },
    onValidate({ params, setResult }) {
      const { schema, documentAST } = params;
      if (validIn.get(schema)?.has(documentAST)) {
        setResult([]);
        return undefined;
      }
      return ({ valid }) => {
        const text = textOf.get(documentAST);
        if (!valid || text === undefined) return;
        const valids = validIn.get(schema) ?? new WeakSet<DocumentNode>();
        validIn.set(schema, valids);
        valids.add(documentAST);
        cache.set(text, documentAST);
      };
    },
  };
}

function textOfSource(source: string | Source): string {
  return typeof source === 'string' ? source : source.body;
}
