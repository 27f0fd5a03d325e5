/**
 * Modes of everything the gateway keeps on disk: run logs, an app's output, screenshots, traces, evidence
 * and the audit trail hold what an app showed and sent, so only the user the gateway runs as may read them;
 * anyone else on the machine is a reader governance never vetted (issue 32). The umask can only narrow them.
 */
export const OWNER_ONLY_FOLDER = 0o700;
export const OWNER_ONLY_FILE = 0o600;
