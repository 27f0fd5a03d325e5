import { StagegraphError } from '../../../errors/stagegraph-error.js';
import type { ClientIdentity } from '../clients/client-identity.js';
import type { RevealMode } from '../policy/policy-spec.js';

/**
 * Whether a read shows values in clear. `reveal: true` is refused, never quietly answered redacted: a
 * reader told `[redacted]` without a refusal could take it for the value, and a refusal says who may.
 * Agents (and the tokenless loopback client, which acts as one) may reveal where the policy allows it;
 * approvers and observers watch an app whose secrets are not theirs, so they never may.
 */
export function mayReveal(
  client: ClientIdentity,
  mode: RevealMode,
  asked: boolean | null | undefined,
  what: string,
): boolean {
  if (!asked) return false;
  const actsAsAgent = client.role === 'agent' || client.role === 'anonymous-loopback';
  if (!actsAsAgent)
    throw new StagegraphError(
      'REVEAL_FORBIDDEN',
      `Client ${client.id} holds an ${client.role} token, which reads ${what} redacted: only an agent may reveal them.`,
      { details: { role: client.role, policyReveal: mode } },
    );
  if (mode === 'NONE')
    throw new StagegraphError(
      'REVEAL_FORBIDDEN',
      `The policy in force says \`reveal: NONE\`: nobody reads ${what} in clear, agents included.`,
      { details: { role: client.role, policyReveal: mode } },
    );
  return true;
}

/**
 * Whether `client` reads what it is shown in clear without asking (artifacts, console text): agents and the
 * tokenless loopback client, under a policy whose `reveal` is AGENT; under NONE, no one. Everyone else is
 * shown the policy's redaction.
 */
export function readsInClear(client: ClientIdentity, mode: RevealMode): boolean {
  return (client.role === 'agent' || client.role === 'anonymous-loopback') && mode === 'AGENT';
}
