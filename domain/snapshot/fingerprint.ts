/**
 * Ancestors that take part in a fingerprint. One is not enough: a "Delete" button sits in a cell whose
 * name is also "Delete", so only the row above tells row 3 from row 7. Three reaches the row through a
 * wrapping cell and group, and stays local enough that a change elsewhere on the page cannot break pairing.
 */
export const FINGERPRINT_ANCESTORS = 3;

/** What a fingerprint reads of a node: its own role and name, and a way up. */
export interface FingerprintSource {
  readonly role: string;
  readonly name: string;
  readonly parentRef: string | null;
  /** Whether an interactive-only read shows it (controlFingerprint reads it of ancestors). */
  readonly interactive?: boolean;
}

/** Cannot occur in a role and is vanishingly rare in a name, so parts never run into each other. */
const SEPARATOR = '\u0000';

/**
 * Identity of a node that survives a re-render (which changes its key): role, name, and the roles and names
 * of its nearest ancestors. Equal fingerprints in one document mean "the same logical element, or a twin".
 */
export function fingerprint(
  node: FingerprintSource,
  lookup: (ref: string) => FingerprintSource | undefined,
): string {
  const parts = [node.role, node.name];
  let parentRef = node.parentRef;
  for (let depth = 0; depth < FINGERPRINT_ANCESTORS && parentRef !== null; depth += 1) {
    const ancestor = lookup(parentRef);
    if (!ancestor) break;
    parts.push(ancestor.role, ancestor.name);
    parentRef = ancestor.parentRef;
  }
  return parts.join(SEPARATOR);
}

/**
 * The fingerprint an interactive-only read can compute: role, name and the nearest ancestors that such a
 * read shows too (controls, and the root), skipping the rows, cells and list items it leaves out. A
 * control re-rendered where only that read sees it pairs with its detached twin by this print, the way a
 * whole read pairs it by `fingerprint`.
 */
export function controlFingerprint(
  node: FingerprintSource,
  lookup: (ref: string) => FingerprintSource | undefined,
): string {
  const parts = [node.role, node.name];
  let parentRef = node.parentRef;
  let taken = 0;
  while (taken < FINGERPRINT_ANCESTORS && parentRef !== null) {
    const ancestor = lookup(parentRef);
    if (!ancestor) break;
    if (ancestor.interactive === true || ancestor.parentRef === null) {
      parts.push(ancestor.role, ancestor.name);
      taken += 1;
    }
    parentRef = ancestor.parentRef;
  }
  return parts.join(SEPARATOR);
}
