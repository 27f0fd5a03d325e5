import { useEffect, useState } from 'preact/hooks';
import { AppText } from '../app-text.js';

/** The current time, refreshed every second until `until` has passed. */
function useSecondsUntil(until: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (now >= until) return;
    const timer = setTimeout(() => setNow(Date.now()), Math.min(1_000, until - now));
    return () => clearTimeout(timer);
  }, [now, until]);
  return Math.max(0, Math.ceil((until - now) / 1_000));
}

function formatSeconds(seconds: number): string {
  const minutes = Math.floor(seconds / 60);
  const rest = seconds % 60;
  return minutes > 0 ? `${minutes} min ${String(rest).padStart(2, '0')} s` : `${rest} s`;
}

/**
 * Time left to answer. The ticking text is a timer (not announced every second); expiry is announced once
 * through a polite live region.
 */
export function Countdown(props: { expiresAt: string; label: string }) {
  const seconds = useSecondsUntil(Date.parse(props.expiresAt));
  const expired = seconds === 0;
  return (
    <p class="approval-countdown">
      <span role="timer">{expired ? 'Expired' : `Expires in ${formatSeconds(seconds)}`}</span>
      <span class="visually-hidden" aria-live="polite">
        {expired ? (
          <>
            The approval for <AppText text={props.label} /> has expired.
          </>
        ) : null}
      </span>
    </p>
  );
}
