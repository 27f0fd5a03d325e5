/** What a subscriber receives: the event, and how many events it lost just before this one. */
export interface Delivery<T> {
  readonly event: T;
  readonly droppedBefore: number;
}

/** One delivery per event object for every subscriber that lost nothing before it. */
const undropped = new WeakMap<object, Delivery<unknown>>();

/**
 * The delivery of `event`. Every subscriber that lost nothing before an event gets the same (frozen)
 * delivery object, so a delivery's identity says "this event, nothing dropped" and whatever is derived
 * from it (a subscription's execution result) can be computed once and shared. A subscriber that did lose
 * events gets a delivery of its own, carrying its own count. Entries live as long as the event does.
 */
export function deliveryOf<T>(event: T, droppedBefore: number): Delivery<T> {
  if (droppedBefore !== 0 || typeof event !== 'object' || event === null) return { event, droppedBefore };
  let delivery = undropped.get(event) as Delivery<T> | undefined;
  if (delivery === undefined) {
    delivery = Object.freeze({ event, droppedBefore: 0 });
    undropped.set(event, delivery);
  }
  return delivery;
}
