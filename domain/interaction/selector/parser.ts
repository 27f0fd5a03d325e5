import { describeToken, syntaxError, type Token, tokenize } from './tokens.js';

/**
 * The query selector language, one for every transport (docs/agents.md, "Query selectors"):
 *
 *   selector    := chain ( "??" chain )*             fallback: a later chain is tried only when the
 *                                                    ones before it match nothing
 *   chain       := step ( ">>" step )*               each step is searched inside the (unique) match
 *                                                    of the step before it
 *   step        := compound ( relation compound )?   the left compound, placed relative to the (unique)
 *                                                    match of the right one, its anchor
 *   compound    := predicate ( ","? predicate )*     predicates AND together
 *   predicate   := key ( "=" | "~=" ) value          value: a bare word or a "quoted" / 'quoted' string
 *                | "ocr:" value                      the same as ocr=value: text read from the pixels
 *   relation    := right-of | left-of | above | below | near
 */

export const PREDICATE_KEYS = [
  'role',
  'name',
  'text',
  'enabled',
  'visible',
  'testId',
  'atspiPath',
  'ocr',
] as const;
export type PredicateKey = (typeof PREDICATE_KEYS)[number];
/** Keys that take `~=` (contains, case-insensitive) as well as `=` (exact). */
const CONTAINS_KEYS: readonly PredicateKey[] = ['name', 'text', 'ocr'];
/** `ocr:"Submit"`: the vision tier's own spelling of `ocr="Submit"`, as the tokenizer reads it. */
const OCR_PREFIX = 'ocr:';
const BOOLEAN_KEYS: readonly PredicateKey[] = ['enabled', 'visible'];

export const RELATIONS = ['right-of', 'left-of', 'above', 'below', 'near'] as const;
export type Relation = (typeof RELATIONS)[number];

export type Predicate =
  | { readonly key: 'role' | 'testId' | 'atspiPath'; readonly value: string }
  | { readonly key: 'name' | 'text'; readonly value: string; readonly contains: boolean }
  /** Text the OCR engine read from the window's pixels (domain/vision/): the vision tier, lowest confidence. */
  | { readonly key: 'ocr'; readonly value: string; readonly contains: boolean }
  | { readonly key: 'enabled' | 'visible'; readonly value: boolean };

export interface Compound {
  readonly predicates: readonly Predicate[];
  /** Where it starts in the source (1-based). */
  readonly column: number;
}

export interface Step {
  readonly subject: Compound;
  readonly relation?: { readonly kind: Relation; readonly anchor: Compound };
}

export interface Chain {
  readonly steps: readonly Step[];
}

export interface Selector {
  readonly source: string;
  /** Tried in order; a later one only when every earlier one matched nothing. */
  readonly alternatives: readonly Chain[];
}

/** Parses a query selector; a mistake is SELECTOR_SYNTAX naming the column and what was expected there. */
export function parseSelector(source: string): Selector {
  const parser = new Parser(source, tokenize(source));
  const alternatives = [parser.chain()];
  while (parser.accept('fallback')) alternatives.push(parser.chain());
  parser.expectEnd();
  return { source, alternatives };
}

class Parser {
  readonly #source: string;
  readonly #tokens: Token[];
  #at = 0;

  constructor(source: string, tokens: Token[]) {
    this.#source = source;
    this.#tokens = tokens;
  }

  accept(type: Token['type']): boolean {
    if (this.#peek().type !== type) return false;
    this.#at += 1;
    return true;
  }

  expectEnd(): void {
    const token = this.#peek();
    if (token.type !== 'end')
      this.#fail(token, 'a predicate, a relation, `>>`, `??` or the end of the query');
  }

  chain(): Chain {
    const steps = [this.#step()];
    while (this.accept('descend')) steps.push(this.#step());
    return { steps };
  }

  #step(): Step {
    const subject = this.#compound();
    const token = this.#peek();
    if (token.type !== 'word' || !isRelation(token.text)) return { subject };
    this.#at += 1;
    return { subject, relation: { kind: token.text, anchor: this.#compound() } };
  }

  #compound(): Compound {
    const column = this.#peek().column;
    const predicates = [this.#predicate()];
    for (;;) {
      const comma = this.accept('comma');
      const token = this.#peek();
      if (!comma && (token.type !== 'word' || isRelation(token.text))) break;
      predicates.push(this.#predicate());
    }
    // An OCR match is a run of words on the screen, not an element: no role, state or name to AND with.
    const ocr = predicates.find((p) => p.key === 'ocr');
    if (ocr && predicates.length > 1) {
      throw syntaxError(
        this.#source,
        column,
        'an `ocr:` predicate alone in its step (combine it with `>>` or a relation instead)',
        'other predicates beside it',
      );
    }
    return { predicates, column };
  }

  #predicate(): Predicate {
    const keyToken = this.#peek();
    if (keyToken.type === 'word' && keyToken.text.startsWith(OCR_PREFIX))
      return this.#ocrShorthand(keyToken.text);
    if (keyToken.type !== 'word' || !isKey(keyToken.text)) {
      this.#fail(keyToken, `a predicate (${PREDICATE_KEYS.join(', ')}) such as role=button`);
    }
    const key = keyToken.text;
    this.#at += 1;
    const operator = this.#peek();
    const contains = operator.type === 'contains';
    if (operator.type !== 'equals' && !(contains && CONTAINS_KEYS.includes(key))) {
      this.#fail(
        operator,
        CONTAINS_KEYS.includes(key) ? `\`=\` or \`~=\` after ${key}` : `\`=\` after ${key}`,
      );
    }
    this.#at += 1;
    const valueToken = this.#peek();
    if (valueToken.type !== 'word' && valueToken.type !== 'string') {
      this.#fail(valueToken, `a value (a word or a quoted string) after ${key}${contains ? '~=' : '='}`);
    }
    this.#at += 1;
    const value = valueToken.text;
    if (BOOLEAN_KEYS.includes(key)) {
      if (value !== 'true' && value !== 'false') this.#fail(valueToken, `true or false after ${key}=`);
      return { key: key as 'enabled' | 'visible', value: value === 'true' };
    }
    if (value === '') this.#fail(valueToken, `a non-empty value after ${key}`);
    if (key === 'name' || key === 'text' || key === 'ocr') return { key, value, contains };
    return { key: key as 'role' | 'testId' | 'atspiPath', value };
  }

  /** `ocr:"Submit"` (a quoted value after the prefix) or `ocr:Submit` (one word): exact, as `ocr=`. */
  #ocrShorthand(word: string): Predicate {
    this.#at += 1;
    let value = word.slice(OCR_PREFIX.length);
    if (value === '') {
      const valueToken = this.#peek();
      if (valueToken.type !== 'word' && valueToken.type !== 'string')
        this.#fail(valueToken, 'a value (a word or a quoted string) after ocr:');
      this.#at += 1;
      value = valueToken.text;
    }
    if (value.trim() === '') this.#fail(this.#tokens[this.#at - 1]!, 'a non-empty value after ocr:');
    return { key: 'ocr', value, contains: false };
  }

  #peek(): Token {
    return this.#tokens[this.#at]!;
  }

  #fail(token: Token, expected: string): never {
    throw syntaxError(this.#source, token.column, expected, describeToken(token));
  }
}

function isKey(text: string): text is PredicateKey {
  return (PREDICATE_KEYS as readonly string[]).includes(text);
}

function isRelation(text: string): text is Relation {
  return (RELATIONS as readonly string[]).includes(text);
}
