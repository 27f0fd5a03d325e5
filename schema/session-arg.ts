import { builder } from './builder.js';

/**
 * The `session` argument of every field that acts on one session, spread into its `args`: the id, which
 * may be left out while exactly one session is live.
 */
export const sessionArg = builder.args((t) => ({
  session: t.id({ required: false, description: 'Optional when exactly one session is live.' }),
}));
