import { describe, expect, it } from 'vitest';
import { blockName, blocksOf, docBlockFiles, runnerOf } from './helpers/doc-blocks.js';

/**
 * Every fenced block a user reads is run by a test, or says why not: a new block runs by default, and one no
 * runner knows fails here until it is tagged `text` (output) or marked `<!-- not run: reason -->` right before
 * it (docs/contributing.md). The runners: test/docs-examples.e2e.test.ts (graphql, yaml),
 * test/docs-commands.e2e.test.ts (sh, python), test/docs-mcp-configs.e2e.test.ts (json with mcpServers).
 */

describe('every fenced block of the docs has a runner or a reason', () => {
  it('reads README.md, every page of docs/ and each client’s README', () => {
    expect(docBlockFiles()).toEqual(
      expect.arrayContaining([
        'README.md',
        'docs/cli.md',
        'docs/mcp.md',
        'clients/python/README.md',
        'clients/typescript/README.md',
      ]),
    );
  });

  for (const file of docBlockFiles())
    it(file, () => {
      const unrunnable = blocksOf(file).flatMap((block) => {
        const runner = runnerOf(block);
        return typeof runner === 'object' ? [`${blockName(block)}: ${runner.unrunnable}`] : [];
      });
      expect(unrunnable).toEqual([]);
    });
});
