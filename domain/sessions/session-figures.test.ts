import { describe, expect, it } from 'vitest';
import type { RunLog } from './run-log.js';
import { countApproval, figuresOf, noteFigures } from './session-figures.js';

describe('session figures', () => {
  it('counts an ask with its answer, and one with none as asked only', () => {
    const session = {};
    countApproval(session, 'APPROVED');
    countApproval(session, 'DENIED');
    countApproval(session, null);
    expect(figuresOf(session)).toMatchObject({ approvalsAsked: 3, approvalsGranted: 1, approvalsDenied: 1 });
  });

  it('writes every count, the OCR ones too, as one run-log line', () => {
    const lines: string[] = [];
    const session = { runLog: { stagegraph: (line: string) => lines.push(line) } as unknown as RunLog };
    figuresOf(session).snapshots = 1;
    figuresOf(session).actions = 2;
    figuresOf(session).ocrFallbacks = 1;
    countApproval(session, 'DENIED');
    noteFigures(session);
    expect(lines).toEqual([
      'figures: 1 snapshots, 2 actions, 0 OCR reads (0 cached, 0 with no screenshot), 1 OCR fallbacks, approvals 1 asked, 0 granted, 1 denied',
    ]);
  });
});
