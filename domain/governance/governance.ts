import { AuditLog } from '../audit/audit-log.js';
import { type AuditCheckpoint, type AuditVerification, verifyAudit } from '../audit/verify-audit.js';
import type { SessionRegistry } from '../sessions/session-registry.js';
import { ApprovalBroker } from './approvals/approval-broker.js';
import { MutationRateLimiter, type RateLimitOptions } from './clients/rate-limiter.js';
import type { OwnPages } from './own-pages/own-pages.js';
import { Policy } from './policy/policy.js';
import { PolicyWatcher } from './policy/policy-watcher.js';
import { Redactor } from './redaction/redaction.js';

export interface GovernanceOptions {
  readonly sessions: SessionRegistry;
  /** YAML or JSON, reloaded on change; the built-in policy when absent. */
  readonly policyFile?: string | null;
  readonly auditDir: string;
  /** How long an ASK waits for an approver; the broker's default and clamp apply. */
  readonly approvalTimeoutMs?: number | null;
  readonly rateLimit?: RateLimitOptions;
  readonly log?: (line: string) => void;
}

/**
 * Everything the chokepoint needs, opened together and closed together: the active policy (kept current
 * from its file), the approvals broker, the audit log, redaction and the mutation rate limit.
 */
export class Governance {
  readonly sessions: SessionRegistry;
  readonly broker = new ApprovalBroker();
  /** The built-in patterns and the active policy's own (`redact:`), whichever policy is active when it runs. */
  readonly redactor = new Redactor({ currentPatterns: () => this.policy.redactionPatterns });
  readonly limiter: MutationRateLimiter;
  readonly audit: AuditLog;
  readonly approvalTimeoutMs: number | null;
  #watcher: PolicyWatcher | null;
  #builtIn: Policy;
  #inflight = new Set<Promise<unknown>>();
  #closing: Promise<void> | undefined;

  /** A bad policy file or an audit log that cannot be continued fail here, before anything is served. */
  static async open(options: GovernanceOptions): Promise<Governance> {
    const log = options.log ?? (() => {});
    let broker: ApprovalBroker | undefined;
    const watcher = options.policyFile
      ? await PolicyWatcher.open(options.policyFile, {
          // SESSION and APP approvals were given under the old rules; a new policy may mean them differently.
          onReload: (policy) => {
            broker?.forgetAllGrants();
            log(`policy reloaded from ${policy.origin.path} (sha256 ${policy.origin.sha256})`);
          },
          onError: (error) =>
            log(`policy reload refused, the previous policy stays active: ${error.message}`),
        })
      : null;
    try {
      const audit = await AuditLog.open(options.auditDir, { report: log });
      const torn = audit.recovered;
      if (torn)
        log(
          torn.completed
            ? `audit log: the last record (line ${torn.line} of ${torn.file}) had lost its newline to a crash; completed it`
            : `audit log: line ${torn.line} of ${torn.file} is a write torn by a crash (${torn.bytes} bytes, not a record); kept, ended with a newline, and the chain continues after the last whole record (seq ${audit.lastSeq}); verifyAudit lists it under torn`,
        );
      const governance = new Governance(options, watcher, audit);
      broker = governance.broker;
      return governance;
    } catch (error) {
      watcher?.dispose();
      throw error;
    }
  }

  private constructor(options: GovernanceOptions, watcher: PolicyWatcher | null, audit: AuditLog) {
    this.sessions = options.sessions;
    this.audit = audit;
    this.approvalTimeoutMs = options.approvalTimeoutMs ?? null;
    this.limiter = new MutationRateLimiter(options.rateLimit);
    this.#watcher = watcher;
    this.#builtIn = new Policy();
  }

  /** The gateway's own pages, which no operation reads or acts on: the sessions' fence, shared. */
  get ownPages(): OwnPages {
    return this.sessions.ownPages;
  }

  /** The policy in force now; a reload swaps it, never changing one a running decision holds. */
  get policy(): Policy {
    return this.#watcher?.current ?? this.#builtIn;
  }

  /** Re-reads the policy file at once instead of waiting for the file watcher (tests, SIGHUP-style use). */
  async reloadPolicy(): Promise<void> {
    await this.#watcher?.reload();
  }

  /** Recomputes the chain over everything written so far (queued records are flushed first). */
  async verifyAudit(checkpoint: AuditCheckpoint | null = null): Promise<AuditVerification> {
    await this.audit.flush();
    return verifyAudit(this.audit.dir, checkpoint);
  }

  /** Counts a governed call as running, so closing waits for its audit record. */
  track<T>(work: Promise<T>): Promise<T> {
    this.#inflight.add(work);
    const done = () => this.#inflight.delete(work);
    work.then(done, done);
    return work;
  }

  /**
   * Server shutdown: pending approvals fail (APPROVAL_UNAVAILABLE), the calls still running finish and
   * are recorded, then the log is synced and closed and the policy file is no longer watched.
   */
  close(): Promise<void> {
    this.#closing ??= (async () => {
      this.broker.closeAll();
      await Promise.allSettled([...this.#inflight]);
      await this.audit.close();
      this.#watcher?.dispose();
    })();
    return this.#closing;
  }

  /**
   * SESSION-scope approvals end with their session. Session ids are never reused within a server, so a
   * grant of an ended session can match nothing; this only frees them, and runs when something is asked
   * (rarely) rather than on a session-event subscription every client would see counted.
   */
  forgetEndedSessions(): void {
    for (const session of this.sessions.list()) if (!session.isLive) this.broker.forgetGrants(session.id);
  }
}
