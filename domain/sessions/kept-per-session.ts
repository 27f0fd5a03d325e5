/**
 * State a feature keeps about each session without the Session class knowing of it (figures, OCR reads,
 * repaint watches): made on first use and let go with the session. Returns the getter for it.
 */
export function keptPerSession<T>(create: () => T): (session: object) => T {
  const kept = new WeakMap<object, T>();
  return (session) => {
    let state = kept.get(session);
    if (state === undefined) {
      state = create();
      kept.set(session, state);
    }
    return state;
  };
}
