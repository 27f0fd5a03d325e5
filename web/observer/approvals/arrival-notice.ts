import { useEffect } from 'preact/hooks';

const TITLE_BADGE = /^\(\d+\) /;

/**
 * Puts `(N) ` before the document title while N approvals wait. Left as it is when the panel closes: the
 * page's header badge keeps the title up to date from its own stream.
 */
export function useTitleBadge(count: number): void {
  useEffect(() => {
    const base = document.title.replace(TITLE_BADGE, '');
    document.title = count > 0 ? `(${count}) ${base}` : base;
  }, [count]);
}

let audio: AudioContext | undefined;

/**
 * Readies sound: browsers let an AudioContext play only after a user gesture, so this is called from
 * the checkbox that turns sound on.
 */
export function unlockSound(): void {
  audio ??= new AudioContext();
  void audio.resume();
}

/** A short two-tone beep made with WebAudio: no audio file to ship or fetch. */
export function beep(): void {
  if (!audio) return;
  const start = audio.currentTime;
  for (const [offset, frequency] of [
    [0, 880],
    [0.18, 660],
  ] as const) {
    const oscillator = audio.createOscillator();
    const gain = audio.createGain();
    oscillator.type = 'sine';
    oscillator.frequency.value = frequency;
    gain.gain.setValueAtTime(0.0001, start + offset);
    gain.gain.exponentialRampToValueAtTime(0.2, start + offset + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, start + offset + 0.15);
    oscillator.connect(gain).connect(audio.destination);
    oscillator.start(start + offset);
    oscillator.stop(start + offset + 0.16);
  }
}
