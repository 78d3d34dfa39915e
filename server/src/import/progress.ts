/** Where an import stands, for the progress bar and the summary. */
export interface ImportCounts {
  lines: number;
  imported: number;
  skipped: number;
  rejected: number;
}

export interface ProgressBar {
  update(counts: ImportCounts, bytesDone: number): void;
  /** Clears the bar's line, so that another line can be written there (a rejection); the next update redraws it. */
  clear(): void;
  /** Draws the final counts (when a bar was drawn) and ends its line. */
  finish(counts: ImportCounts, bytesDone: number): void;
}

const NO_BAR: ProgressBar = { update() {}, clear() {}, finish() {} };

const number = (n: number) => n.toLocaleString("en-US");

/**
 * A one-line progress bar redrawn in place (at most ten times a second) on a terminal: the share of the file read,
 * the counts and the rate of users written. On anything but a terminal (a pipe, a file, CI's log) it draws nothing.
 */
export function progressBar(stream: NodeJS.WritableStream & { isTTY?: boolean; columns?: number }, totalBytes: number, startedAt: number): ProgressBar {
  if (!stream.isTTY) return NO_BAR;
  let lastDraw = 0;
  let drawn = false;
  const draw = (counts: ImportCounts, bytesDone: number) => {
    const seconds = Math.max((Date.now() - startedAt) / 1000, 0.001);
    const share = totalBytes > 0 ? Math.min(1, bytesDone / totalBytes) : 0;
    const text = ` ${Math.floor(share * 100)
      .toString()
      .padStart(3)}%  ${number(counts.lines)} lines: ${number(counts.imported)} imported, ${number(counts.skipped)} skipped, ${number(counts.rejected)} rejected  ${number(Math.round(counts.imported / seconds))} users/s`;
    const width = Math.max(10, Math.min(40, (stream.columns ?? 80) - text.length - 3));
    const filled = Math.round(share * width);
    stream.write(`\r[${"#".repeat(filled)}${"-".repeat(width - filled)}]${text}\u001b[K`);
    drawn = true;
  };
  let started = false;
  return {
    update(counts, bytesDone) {
      started = true;
      const now = Date.now();
      if (now - lastDraw < 100) return;
      lastDraw = now;
      draw(counts, bytesDone);
    },
    clear() {
      if (drawn) stream.write("\r\u001b[K");
      drawn = false;
    },
    finish(counts, bytesDone) {
      if (!started) return;
      draw(counts, bytesDone);
      stream.write("\n");
      drawn = false;
    },
  };
}
