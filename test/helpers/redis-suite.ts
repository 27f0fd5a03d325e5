import { describe, it } from 'vitest';
import { HAS_REDIS } from './redis-server.js';

/**
 * A suite that needs Debian's redis-server: run where it is installed, and elsewhere reported skipped by
 * its own name, with the command that installs it.
 */
export function describeWithRedis(title: string, suite: () => void): void {
  if (HAS_REDIS) describe(title, suite);
  else
    describe.skip(`${title} (redis-server is not installed: apt-get install redis-server)`, () => {
      it('needs a redis-server', () => {});
    });
}
