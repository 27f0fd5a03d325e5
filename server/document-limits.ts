import { Lexer, Source, type Token, TokenKind } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { StagegraphError } from '../errors/stagegraph-error.js';
import { toGraphQLError } from './error-format.js';
import { MAX_DOCUMENT_TOKENS, MAX_NESTING } from './request-limits.js';

const OPENING = new Set<string>([TokenKind.BRACE_L, TokenKind.BRACKET_L, TokenKind.PAREN_L]);
const CLOSING = new Set<string>([TokenKind.BRACE_R, TokenKind.BRACKET_R, TokenKind.PAREN_R]);

/**
 * Refuses a document over MAX_DOCUMENT_TOKENS tokens or nesting deeper than MAX_NESTING, in one pass of
 * graphql's own lexer before the parser (which recurses once per level) sees it. A lexical error ends
 * the pass quietly: the parser then reports it with its location.
 */
export function checkDocument(source: string | Source): void {
  const lexer = new Lexer(typeof source === 'string' ? new Source(source) : source);
  let tokens = 0;
  let depth = 0;
  let token: Token;
  try {
    token = lexer.advance();
  } catch {
    return;
  }
  while (token.kind !== TokenKind.EOF) {
    tokens += 1;
    if (tokens > MAX_DOCUMENT_TOKENS)
      throw new StagegraphError(
        'REQUEST_TOO_LARGE',
        `The document has more than ${MAX_DOCUMENT_TOKENS} tokens; split the operation.`,
      );
    if (OPENING.has(token.kind) && ++depth > MAX_NESTING) throw tooDeep('document');
    if (CLOSING.has(token.kind)) depth -= 1;
    try {
      token = lexer.advance();
    } catch {
      return;
    }
  }
}

/** Refuses variables nested deeper than MAX_NESTING (the variables object is the first level), without recursing. */
export function checkVariables(variables: unknown): void {
  const pending: { value: unknown; depth: number }[] = [{ value: variables, depth: 1 }];
  for (let next = pending.pop(); next; next = pending.pop()) {
    if (next.value === null || typeof next.value !== 'object') continue;
    if (next.depth > MAX_NESTING) throw tooDeep('variables');
    for (const value of Object.values(next.value)) pending.push({ value, depth: next.depth + 1 });
  }
}

function tooDeep(what: 'document' | 'variables'): StagegraphError {
  const subject = what === 'document' ? 'The document nests' : 'The variables nest';
  return new StagegraphError('REQUEST_TOO_LARGE', `${subject} deeper than ${MAX_NESTING} levels.`);
}

/**
 * Holds every document and its variables to the limits above, over HTTP, SSE, graphql-ws and /mcp (all
 * parse and execute through yoga's envelope). A refusal is the operation's only error: nothing ran.
 */
export function useDocumentLimits(): Plugin {
  return {
    onParse({ parseFn, setParseFn }) {
      setParseFn((source, options) => {
        checkDocument(source);
        return parseFn(source, options);
      });
    },
    onExecute({ args, setResultAndStopExecution }) {
      const refusal = variablesRefusal(args.variableValues);
      if (refusal) setResultAndStopExecution({ errors: [toGraphQLError(refusal)] });
    },
    onSubscribe({ args, setResultAndStopExecution }) {
      const refusal = variablesRefusal(args.variableValues);
      if (refusal) setResultAndStopExecution({ errors: [toGraphQLError(refusal)] });
    },
  };
}

/** Stopping execution skips the later hooks, maskError's among them: the refusal leaves in our wire form. */
function variablesRefusal(variables: unknown): StagegraphError | undefined {
  try {
    checkVariables(variables);
    return undefined;
  } catch (error) {
    if (error instanceof StagegraphError) return error;
    throw error;
  }
}
