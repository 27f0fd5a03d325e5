import { shownText } from './shown-text.js';

/**
 * One string from outside the page (an app's window title, an element's name, a console line, a
 * request's URL, a message) as the page shows it in an element: isolated in a `<bdi>`, so its direction
 * cannot carry into the page's own text around it, and with its invisible controls shown as marks
 * (shown-text.ts). `lines`: a multi-line block (an outline, a log) for a `<pre>`, each line taking its
 * own direction (the `.app-lines` rule) rather than the first strong character's of the whole block.
 */
export function AppText(props: { text: string | null | undefined; lines?: boolean }) {
  const text = shownText(props.text);
  if (props.lines) return <span class="app-lines">{text}</span>;
  return <bdi class="app-text">{text}</bdi>;
}
