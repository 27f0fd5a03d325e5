/// <reference lib="dom" />

/**
 * In-page: the value and checkedness of the document's form controls, which change as properties without
 * mutation records. The incremental model compares them on every read with what the last read saw (live
 * lists of the controls cost nothing to keep). A self-contained factory: its source is shipped into the page
 * whole.
 */
export function createControlStates() {
  let seen = new WeakMap<Element, string | number>();
  const lists = [
    document.getElementsByTagName('input'),
    document.getElementsByTagName('select'),
    document.getElementsByTagName('textarea'),
  ];

  /**
   * What a read compares for one control. A single select's is a number (its option count and selected
   * index, each below 2^26, packed exactly into a double): a page of thousands of selects is scanned on
   * every read, and building a string for each was most of an unchanged read's time in the page.
   */
  function stateOf(element: Element): string | number {
    if (element.tagName === 'SELECT') {
      const select = element as HTMLSelectElement;
      if (!select.multiple) return select.length * 67_108_864 + select.selectedIndex + 1;
      let picked = '';
      for (const option of select.options) picked += option.selected ? '1' : '0';
      return picked;
    }
    const input = element as HTMLInputElement;
    return `${input.value}\u0000${input.checked}\u0000${input.indeterminate}`;
  }

  /**
   * Controls whose state differs from the last scan's; every control's state is kept for the next. A
   * control the last scan did not see is new to the document: its arrival is a mutation record's to report.
   */
  function changed(): Element[] {
    const out: Element[] = [];
    for (const list of lists) {
      for (let i = 0; i < list.length; i += 1) {
        const control = list[i] as Element;
        const now = stateOf(control);
        const before = seen.get(control);
        if (before === now) continue;
        seen.set(control, now);
        if (before !== undefined) out.push(control);
      }
    }
    return out;
  }

  /** Forgets what earlier scans saw and takes every control's state as it is now. */
  function reset(): void {
    seen = new WeakMap();
    changed();
  }

  return { changed, reset };
}

export type ControlStates = ReturnType<typeof createControlStates>;
