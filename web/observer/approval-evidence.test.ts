import { describe, expect, it } from 'vitest';
import { approvalScreenshot, keepingApprovalEvidence } from './approval-evidence.js';
import type { GatewayClient } from './gateway-client.js';

const PNG = { mimeType: 'image/png', base64: 'iVBORw0KGgo=' };

function fakeClient(queried: unknown, streamed: unknown[]): GatewayClient {
  return {
    query: async <T>() => queried as T,
    mutate: async <T>() => ({}) as T,
    subscribe(_document, _variables, sink) {
      for (const data of streamed) sink.next(data as never);
      return () => {};
    },
    fetchArtifact: async () => new Blob(),
    close: () => {},
  };
}

describe('keepingApprovalEvidence', () => {
  it('keeps the screenshots of requests in query results and stream events, passing the data on', async () => {
    const event = { approvalRequests: { state: 'PENDING', request: { id: 'r2', screenshot: PNG } } };
    const client = keepingApprovalEvidence(
      fakeClient(
        {
          pendingApprovals: [
            { id: 'r1', screenshot: PNG },
            { id: 'r0', screenshot: null },
          ],
        },
        [event],
      ),
    );
    const seen: unknown[] = [];
    expect(await client.query('query { pendingApprovals { id } }')).toEqual({
      pendingApprovals: [
        { id: 'r1', screenshot: PNG },
        { id: 'r0', screenshot: null },
      ],
    });
    client.subscribe('subscription { approvalRequests { state } }', {}, { next: (data) => seen.push(data) });
    expect(seen).toEqual([event]);
    expect(approvalScreenshot('r1')).toBe('data:image/png;base64,iVBORw0KGgo=');
    expect(approvalScreenshot('r2')).toBe('data:image/png;base64,iVBORw0KGgo=');
    expect(approvalScreenshot('r0')).toBeUndefined();
  });
});
