import type { LoadState } from '../transports/contract/window-driver.js';
import { builder } from './builder.js';

const LOAD_STATES = {
  COMMIT: {
    description:
      'The response arrived and the new document replaced the old one; nothing of it may have rendered yet.',
  },
  DOMCONTENTLOADED: {
    description: 'The document is parsed (DOMContentLoaded): its markup is there, images may not be.',
  },
  LOAD: { description: 'The load event fired: the document and its images, styles and scripts are in.' },
  NETWORKIDLE: {
    description:
      "LOAD, then no network request for 500 ms (Playwright's networkidle): what a page fetches after loading is in too. Never reached by a page that polls.",
  },
} as const satisfies Record<LoadState, { description: string }>;

/** How far a document must have loaded before an operation goes on; Playwright's waitUntil states. */
export const LoadStateEnum = builder.enumType('LoadState', {
  description:
    "How far a window's document has loaded, in the order a load reaches them (Playwright's waitUntil).",
  values: LOAD_STATES,
});
