/// <reference lib="dom" />

/** An offset of a document's viewport within the top viewport, in CSS pixels. */
export interface Frame {
  readonly x: number;
  readonly y: number;
}

/**
 * In-page: boxes in top-viewport coordinates, through same-origin iframes. A self-contained factory: its
 * source is shipped into the page whole.
 */
export function createGeometry() {
  function bboxOf(rect: DOMRect, frame: Frame): number[] | null {
    if (rect.width === 0 && rect.height === 0) return null;
    return [
      Math.round(rect.left + frame.x),
      Math.round(rect.top + frame.y),
      Math.round(rect.width),
      Math.round(rect.height),
    ];
  }

  /** Where an iframe's viewport starts, in the coordinates of the viewport that holds the iframe. */
  function contentOrigin(iframe: HTMLIFrameElement, frame: Frame): Frame {
    const rect = iframe.getBoundingClientRect();
    const style = getComputedStyle(iframe);
    return {
      x: frame.x + rect.left + iframe.clientLeft + Number.parseFloat(style.paddingLeft),
      y: frame.y + rect.top + iframe.clientTop + Number.parseFloat(style.paddingTop),
    };
  }

  /** The offset of a (possibly nested) same-origin iframe document within the top viewport. */
  function originOf(doc: Document): Frame {
    const iframe = doc.defaultView?.frameElement as HTMLIFrameElement | null | undefined;
    if (!iframe || doc === document) return { x: 0, y: 0 };
    return contentOrigin(iframe, originOf(iframe.ownerDocument));
  }

  return { bboxOf, contentOrigin, originOf };
}

export type Geometry = ReturnType<typeof createGeometry>;
