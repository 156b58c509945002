import type { Logger } from "@outreach/core";

export interface CapturedLogs {
  /** every entry written at `level` or above since the capture began: message, level and fields */
  entries: Array<Record<string, unknown> & { message: string; level: string }>;
  stop(): void;
}

/**
 * Captures what a logger writes, as structured entries, from `level` up
 * (lowering the logger to it), while its transports keep printing only what
 * they printed before (so a test's output stays quiet).
 */
export function captureLogs(logger: Logger, level = "info"): CapturedLogs {
  const before = logger.level;
  for (const transport of logger.transports) transport.level ??= before;
  logger.level = level;
  const entries: CapturedLogs["entries"] = [];
  // the fields only (winston adds symbol keys: the formatted line, the splat)
  const onData = (info: CapturedLogs["entries"][number]) => entries.push(Object.fromEntries(Object.entries(info)) as CapturedLogs["entries"][number]);
  logger.on("data", onData);
  return {
    entries,
    stop() {
      logger.off("data", onData);
      logger.level = before;
    },
  };
}
