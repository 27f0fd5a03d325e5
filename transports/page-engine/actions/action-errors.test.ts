import { errors } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { actionError } from './action-errors.js';

/** A Playwright timeout as it reads, colour and all, with these call log lines. */
const timeout = (...lines: string[]) =>
  new errors.TimeoutError(
    `locator.click: Timeout 500ms exceeded.\nCall log:\n${lines.map((line) => `\u001b[2m  - ${line}\u001b[22m`).join('\n')}\n`,
  );
const fail = (error: unknown) => actionError(error, 'click', 'the button', 500);

describe('action errors', () => {
  it('a timeout after the input reached the page is ACTION_UNCONFIRMED, not retryable, naming the phase', () => {
    const unconfirmed = fail(
      timeout(
        'attempting click action',
        '  waiting for element to be visible, enabled and stable',
        '  element is visible, enabled and stable',
        '  scrolling into view if needed',
        '  done scrolling',
        '  performing click action',
      ),
    );
    expect(unconfirmed).toMatchObject({
      code: 'ACTION_UNCONFIRMED',
      retryable: false,
      details: { phase: 'performing click action' },
    });
    expect(
      fail(
        timeout(
          'attempting click action',
          'click action done',
          'waiting for scheduled navigations to finish',
        ),
      ),
    ).toMatchObject({
      code: 'ACTION_UNCONFIRMED',
      details: { phase: 'waiting for scheduled navigations to finish' },
    });
  });

  it('a timeout before anything was sent is retryable, with the reason an earlier attempt gave', () => {
    const disabled = fail(
      timeout(
        'attempting click action',
        '  waiting for element to be visible, enabled and stable',
        '  element is not enabled',
        'retrying click action',
        '  waiting 500ms',
      ),
    );
    expect(disabled).toMatchObject({ code: 'ELEMENT_DISABLED', retryable: true });
    const plain = fail(
      timeout('attempting click action', '  waiting for element to be visible, enabled and stable'),
    );
    expect(plain).toMatchObject({
      code: 'ACTION_TIMEOUT',
      retryable: true,
      details: { phase: 'waiting for element to be visible, enabled and stable' },
    });
  });

  it('a click a cover took is not the target clicked: the next attempt decides', () => {
    const covered = fail(
      timeout(
        'attempting click action',
        '  performing click action',
        '  <div class="overlay">Cookie banner</div> intercepts pointer events',
        'retrying click action',
        '  waiting 20ms',
      ),
    );
    expect(covered).toMatchObject({ code: 'ELEMENT_OBSCURED', retryable: true });
  });

  it('a drag whose button went down is unconfirmed even without a call log', () => {
    const drag = actionError(timeout('attempting hover action'), 'dragTo', 'the card', 500, {
      dispatched: true,
    });
    expect(drag).toMatchObject({
      code: 'ACTION_UNCONFIRMED',
      details: { phase: 'holding the mouse button down' },
    });
  });

  it('transport failures keep their kind instead of becoming a timeout', () => {
    const closed = new Error('locator.click: Target page, context or browser has been closed');
    closed.name = 'TargetClosedError';
    expect(fail(closed)).toMatchObject({ code: 'SESSION_NOT_RUNNING', kind: 'closed' });
    expect(fail(new Error('locator.click: Target crashed'))).toMatchObject({
      code: 'RENDERER_CRASHED',
      kind: 'crashed',
    });
    expect(fail(new Error('locator.click: Protocol error (DOM.resolveNode): No node found'))).toMatchObject({
      code: 'PROTOCOL_ERROR',
      kind: 'protocol',
    });
    expect(fail(new Error('keyboard.press: Unknown key: "Hyper"'))).toMatchObject({ code: 'BAD_INPUT' });
  });
});
