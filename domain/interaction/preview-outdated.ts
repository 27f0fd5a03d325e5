/**
 * Thrown by an operation that checked, in the same call as its act, that the thing it acts on is still the
 * one its preview described, and found it changed: nothing was done. The chokepoint then previews anew
 * and decides again, once; that second preview is read fresh and carries no such check.
 */
export class PreviewOutdated extends Error {
  constructor(what: string) {
    super(`${what} changed after it was previewed; nothing was done`);
    this.name = 'PreviewOutdated';
  }
}
