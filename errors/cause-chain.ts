/**
 * An error and the errors it was caused by, outermost first: where a transport wraps a library's failure,
 * the words that tell what happened sit in a cause.
 */
export function causeChain(error: unknown): Error[] {
  const chain: Error[] = [];
  for (let cause = error; cause instanceof Error; cause = cause.cause) chain.push(cause);
  return chain;
}
