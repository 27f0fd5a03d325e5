import { spawn } from 'node:child_process';
import { StagegraphError } from '../../errors/stagegraph-error.js';

/** Debian's `tesseract` (package tesseract-ocr); its English data is tesseract-ocr-eng. */
export const TESSERACT_COMMAND = 'tesseract';
/**
 * A 1280×800 window holds a few thousand words at most; TSV spends ~60 bytes on one. Past this the image
 * is noise (a photo, a texture) and the rest is dropped rather than buffered.
 */
export const MAX_TSV_BYTES = 2 * 1024 * 1024;
const STDERR_TAIL_CHARS = 2_000;

export interface TesseractRun {
  /** The TSV tesseract wrote, cut at a line end when it passed MAX_TSV_BYTES. */
  readonly tsv: string;
  readonly truncated: boolean;
}

export interface TesseractOptions {
  readonly timeoutMs: number;
  /** The executable; the PATH's `tesseract` unless a test points elsewhere. */
  readonly command?: string;
  readonly maxBytes?: number;
}

/**
 * Reads an image (PNG, PGM) with tesseract's TSV output: the image on stdin, the TSV on stdout, no shell and
 * no temporary file. Sparse-text segmentation (`--psm 11`) suits windows, whose words are labels scattered
 * over the surface rather than paragraphs; one thread per engine, since its own threads barely shorten a
 * read (1.06 → 1.04 s on a 1280×800 window) while one engine per band of the image halves it.
 * The process is killed at the deadline (OCR_TIMEOUT) or when its output outgrows the bound.
 */
export function runTesseract(image: Buffer, options: TesseractOptions): Promise<TesseractRun> {
  const maxBytes = options.maxBytes ?? MAX_TSV_BYTES;
  const command = options.command ?? TESSERACT_COMMAND;
  return new Promise((resolve, reject) => {
    const child = spawn(command, ['stdin', 'stdout', '-l', 'eng', '--psm', '11', 'tsv'], {
      stdio: ['pipe', 'pipe', 'pipe'],
      env: { ...process.env, OMP_THREAD_LIMIT: '1' },
    });
    const chunks: Buffer[] = [];
    let size = 0;
    let truncated = false;
    let stderr = '';
    let settled = false;
    const finish = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      outcome();
    };
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      finish(() =>
        reject(
          new StagegraphError('OCR_TIMEOUT', `OCR did not finish within ${options.timeoutMs} ms.`, {
            details: { timeoutMs: options.timeoutMs },
          }),
        ),
      );
    }, options.timeoutMs);
    child.stdout.on('data', (chunk: Buffer) => {
      if (truncated) return;
      chunks.push(chunk);
      size += chunk.length;
      if (size <= maxBytes) return;
      truncated = true;
      child.kill('SIGKILL');
      const text = Buffer.concat(chunks).subarray(0, maxBytes).toString('utf8');
      finish(() => resolve({ tsv: text.slice(0, text.lastIndexOf('\n') + 1), truncated: true }));
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString('utf8')).slice(-STDERR_TAIL_CHARS);
    });
    // The engine may exit (a missing language) before it read the whole image: its exit says why.
    child.stdin.on('error', () => {});
    child.on('error', (error: NodeJS.ErrnoException) =>
      finish(() =>
        reject(unavailable(`${command} could not be started (${error.code ?? error.message})`, '')),
      ),
    );
    child.on('close', (code, signal) => {
      if (code === 0) finish(() => resolve({ tsv: Buffer.concat(chunks).toString('utf8'), truncated }));
      else finish(() => reject(unavailable(`${command} exited with ${code ?? signal}`, stderr)));
    });
    child.stdin.end(image);
  });
}

function unavailable(why: string, stderrTail: string): StagegraphError {
  return new StagegraphError('OCR_UNAVAILABLE', `OCR is unavailable: ${why}.`, {
    details: { stderrTail: stderrTail.trim() },
  });
}
