/**
 * What a transport can really do. A flag is true only where the whole seam works end to end on that
 * transport; the schema refuses a field whose capability the session's transport lacks before any call.
 */
export const CAPABILITIES = [
  'LAUNCH',
  'ATTACH',
  'INJECT',
  'INTERCEPT',
  'CLOCK',
  'MAIN_EVAL',
  'RENDERER_EVAL',
  'INTERACTION',
  'SNAPSHOT',
  'SCREENSHOT',
  'STORAGE',
  'NATIVE_UI',
  'CONSOLE',
  'DIALOGS',
  'WINDOWS',
] as const;

export type Capability = (typeof CAPABILITIES)[number];

export type CapabilityMatrix = Readonly<Record<Capability, boolean>>;

export function capabilityMatrix(granted: readonly Capability[]): CapabilityMatrix {
  const set = new Set(granted);
  return Object.fromEntries(CAPABILITIES.map((capability) => [capability, set.has(capability)])) as Record<
    Capability,
    boolean
  >;
}
