import { useState } from 'preact/hooks';
import { AppText } from '../app-text.js';
import { ErrorText } from '../error-text.js';
import type { GatewayClient, GatewayError } from '../gateway-client.js';

const VERIFY_QUERY = `query ObserverVerifyAudit {
  verifyAudit { ok records files lastSeq lastHash broken { seq file line reason } }
}`;

interface Verification {
  ok: boolean;
  records: number;
  files: number;
  lastSeq: number;
  lastHash: string;
  broken: { seq: number | null; file: string; line: number; reason: string } | null;
}

type Check =
  | { state: 'idle' }
  | { state: 'running' }
  | { state: 'done'; result: Verification }
  | { state: 'failed'; error: GatewayError };

/** Recomputes the hash chain on the gateway (verifyAudit) and says whether it holds. */
export function VerifyChain(props: { client: GatewayClient }) {
  const [check, setCheck] = useState<Check>({ state: 'idle' });
  return (
    <div class="verify-chain">
      <button
        type="button"
        disabled={check.state === 'running'}
        onClick={() => {
          setCheck({ state: 'running' });
          props.client.query<{ verifyAudit: Verification }>(VERIFY_QUERY).then(
            (data) => setCheck({ state: 'done', result: data.verifyAudit }),
            (error: GatewayError) => setCheck({ state: 'failed', error }),
          );
        }}
      >
        Verify chain
      </button>
      <p role="status" class={`verify-result verify-${check.state}`}>
        <CheckText check={check} />
      </p>
    </div>
  );
}

function CheckText(props: { check: Check }) {
  const { check } = props;
  if (check.state === 'running') return <>Verifying the audit chain…</>;
  if (check.state === 'failed') return <ErrorText error={check.error} />;
  if (check.state !== 'done') return null;
  const { result } = check;
  const files = `${result.files} file${result.files === 1 ? '' : 's'}`;
  if (result.ok)
    return (
      <>
        Chain ok: {result.records} records in {files} hold, up to seq {result.lastSeq} (last hash{' '}
        <code>{result.lastHash.slice(0, 16)}…</code>).
      </>
    );
  const broken = result.broken;
  return (
    <>
      Chain broken
      {broken ? (
        <>
          {` at ${broken.seq === null ? 'a line that is not a record' : `seq ${broken.seq}`} (`}
          <AppText text={broken.file} />
          {`, line ${broken.line}): `}
          <AppText text={broken.reason} />.
        </>
      ) : (
        '.'
      )}{' '}
      {result.records} records verified before it, in {files}.
    </>
  );
}
