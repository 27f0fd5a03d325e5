import type { ComponentChildren, Ref } from 'preact';

/**
 * A box that scrolls, reachable by keyboard: focusable and named, so its rows can be scrolled with the
 * arrow keys even when they hold nothing focusable.
 */
export function ScrollRegion(props: {
  label: string;
  class?: string;
  scrollerRef?: Ref<HTMLElement>;
  onScroll?: (event: Event & { currentTarget: HTMLElement }) => void;
  children: ComponentChildren;
}) {
  return (
    <section
      class={`table-scroll ${props.class ?? ''}`}
      aria-label={props.label}
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolled region keyboard users must reach
      tabIndex={0}
      ref={props.scrollerRef}
      onScroll={props.onScroll}
    >
      {props.children}
    </section>
  );
}
