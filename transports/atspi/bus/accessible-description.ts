import { ACCESSIBLE_IFACE, type AccessibleRef, type AtspiBus, whenGone } from './atspi-bus.js';

/**
 * One object read by hand, for an object its application's Cache does not list: the Cache's facts about it
 * plus its AccessibleId and its parent's path.
 */
export interface AccessibleDescription {
  readonly name: string;
  readonly description: string;
  /** AT-SPI's role number (ATSPI_ROLE_*). */
  readonly role: number;
  /** AT-SPI's state set, as the two 32-bit words of the wire. */
  readonly states: readonly number[];
  readonly interfaces: readonly string[];
  /** -1 when the object does not say. */
  readonly childCount: number;
  readonly accessibleId: string | undefined;
  /** '' when the object does not say. */
  readonly parentPath: string;
}

/**
 * How an object's Accessible properties are read: `all` in one Properties.GetAll, `each` with one
 * Properties.Get per property. Qt's bridge (Qt 5.15 and 6.4) ends the app on a GetAll — it leaves the bus
 * without replying — so a Qt app's objects are read one property at a time.
 */
export type PropertyReads = 'all' | 'each';
const DESCRIBED_PROPERTIES = ['Name', 'Description', 'ChildCount', 'Parent', 'AccessibleId'] as const;

/** An object's properties, role, states and interfaces: the calls that stand in for its Cache item. */
export async function describeAccessible(
  bus: AtspiBus,
  ref: AccessibleRef,
  reads: PropertyReads,
): Promise<AccessibleDescription> {
  const call = (member: string) => bus.call(ref.busName, ref.path, ACCESSIBLE_IFACE, member);
  const [properties, [role], [states], [interfaces]] = await Promise.all([
    reads === 'all'
      ? bus
          .call(ref.busName, ref.path, 'org.freedesktop.DBus.Properties', 'GetAll', 's', [ACCESSIBLE_IFACE])
          .then(([all]) => all as Record<string, { value: unknown }>)
      : eachProperty(bus, ref),
    call('GetRole'),
    call('GetState'),
    call('GetInterfaces'),
  ]);
  const property = (name: string) => properties[name]?.value;
  const id = property('AccessibleId');
  return {
    name: String(property('Name') ?? ''),
    description: String(property('Description') ?? ''),
    role: Number(role),
    states: states as number[],
    interfaces: interfaces as string[],
    childCount: Number(property('ChildCount') ?? -1),
    accessibleId: typeof id === 'string' ? id : undefined,
    parentPath: String((property('Parent') as [string, string] | undefined)?.[1] ?? ''),
  };
}

/** The described properties with one Get each; a property the object does not have is left out. */
async function eachProperty(bus: AtspiBus, ref: AccessibleRef): Promise<Record<string, { value: unknown }>> {
  const read = await Promise.all(
    DESCRIBED_PROPERTIES.map(async (name) => {
      const value = await bus.property(ref, ACCESSIBLE_IFACE, name).catch(
        // Qt 5.15 and 6.4 answer AccessibleId with UnknownInterface: an object without one.
        name === 'AccessibleId' ? whenGone(undefined) : (error) => Promise.reject(error),
      );
      return [name, { value }] as const;
    }),
  );
  return Object.fromEntries(read.filter(([, { value }]) => value !== undefined));
}
