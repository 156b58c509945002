import { readFileSync } from "node:fs";
import { isReplyCategory, REPLY_CATEGORIES, type ReplyCategory } from "@outreach/core";
import { categorizeReply } from "./categorize-reply.js";
import { findReturnDate } from "./return-date.js";

/** One line of the reply corpus (packages/domain/test/fixtures/reply-corpus.jsonl). */
export interface CorpusExample {
  category: ReplyCategory;
  lang: string;
  subject: string;
  text: string;
  auto_reply: boolean;
  /** the day the message arrived ("YYYY-MM-DD"), which years of return dates are resolved against */
  received_at: string;
  /** the day the sender is back ("YYYY-MM-DD"), for out-of-office examples that name one */
  return_date?: string;
}

export interface CategoryScore {
  precision: number;
  recall: number;
  support: number;
}

export interface Misclassified {
  line: number;
  expected: ReplyCategory;
  got: ReplyCategory;
  lang: string;
  subject: string;
  text: string;
}

export interface WrongReturnDate {
  line: number;
  expected: string | null;
  got: string | null;
  subject: string;
  text: string;
}

export interface CategoryEvaluation {
  corpusSize: number;
  perCategory: Record<ReplyCategory, CategoryScore>;
  /** out-of-office examples with a return date: how many were read right */
  returnDate: { correct: number; total: number };
  /** out-of-office examples without one: how many were left without a date (none made up) */
  noReturnDate: { correct: number; total: number };
  misclassified: Misclassified[];
  wrongReturnDates: WrongReturnDate[];
}

/** Below this precision or recall for any category, the rules are not good enough to act on. */
export const CATEGORY_SCORE_FLOOR = 0.9;

export function readCorpus(path: string): CorpusExample[] {
  const examples: CorpusExample[] = [];
  readFileSync(path, "utf8")
    .split("\n")
    .forEach((line, index) => {
      if (!line.trim()) return;
      const example = JSON.parse(line) as CorpusExample;
      if (!isReplyCategory(example.category)) throw new Error(`${path}:${index + 1}: unknown category ${String(example.category)}`);
      examples.push(example);
    });
  return examples;
}

const isoDay = (date: { year: number; month: number; day: number } | null): string | null =>
  date === null ? null : `${date.year}-${String(date.month).padStart(2, "0")}-${String(date.day).padStart(2, "0")}`;

const ratio = (part: number, whole: number): number => (whole === 0 ? 0 : Math.round((part / whole) * 1000) / 1000);

/** The rules (categorizeReply, findReturnDate) run over every example: precision, recall and support per category, and the return dates read. */
export function evaluateCategories(examples: readonly CorpusExample[]): CategoryEvaluation {
  const truePositives = new Map<ReplyCategory, number>();
  const predicted = new Map<ReplyCategory, number>();
  const support = new Map<ReplyCategory, number>();
  const misclassified: Misclassified[] = [];
  const wrongReturnDates: WrongReturnDate[] = [];
  const returnDate = { correct: 0, total: 0 };
  const noReturnDate = { correct: 0, total: 0 };
  examples.forEach((example, index) => {
    const got = categorizeReply({ subject: example.subject, text: example.text, autoReply: example.auto_reply });
    support.set(example.category, (support.get(example.category) ?? 0) + 1);
    predicted.set(got, (predicted.get(got) ?? 0) + 1);
    if (got === example.category) truePositives.set(got, (truePositives.get(got) ?? 0) + 1);
    else misclassified.push({ line: index + 1, expected: example.category, got, lang: example.lang, subject: example.subject, text: example.text });
    if (example.category !== "out_of_office") return;
    const expected = example.return_date ?? null;
    const read = isoDay(findReturnDate({ subject: example.subject, text: example.text }, new Date(`${example.received_at}T12:00:00Z`)));
    const tally = expected === null ? noReturnDate : returnDate;
    tally.total++;
    if (read === expected) tally.correct++;
    else wrongReturnDates.push({ line: index + 1, expected, got: read, subject: example.subject, text: example.text });
  });
  const perCategory = {} as Record<ReplyCategory, CategoryScore>;
  for (const category of REPLY_CATEGORIES) {
    const hits = truePositives.get(category) ?? 0;
    perCategory[category] = { precision: ratio(hits, predicted.get(category) ?? 0), recall: ratio(hits, support.get(category) ?? 0), support: support.get(category) ?? 0 };
  }
  return { corpusSize: examples.length, perCategory, returnDate, noReturnDate, misclassified, wrongReturnDates };
}

/** The categories whose precision or recall is below CATEGORY_SCORE_FLOOR, as "category: precision 0.85". */
export function shortfalls(evaluation: CategoryEvaluation): string[] {
  const found: string[] = [];
  for (const category of REPLY_CATEGORIES) {
    const score = evaluation.perCategory[category];
    if (score.precision < CATEGORY_SCORE_FLOOR) found.push(`${category}: precision ${score.precision}`);
    if (score.recall < CATEGORY_SCORE_FLOOR) found.push(`${category}: recall ${score.recall}`);
  }
  return found;
}

const oneLine = (value: string, limit = 100): string => {
  const flat = value.replace(/\s+/g, " ").trim();
  return flat.length > limit ? `${flat.slice(0, limit - 1)}…` : flat;
};

/** The evaluation as a table and lists, for a terminal. */
export function formatEvaluation(evaluation: CategoryEvaluation): string {
  const lines = [`reply corpus: ${evaluation.corpusSize} examples`, "", `${"category".padEnd(22)}${"precision".padStart(10)}${"recall".padStart(10)}${"support".padStart(10)}`];
  for (const category of REPLY_CATEGORIES) {
    const score = evaluation.perCategory[category];
    lines.push(`${category.padEnd(22)}${score.precision.toFixed(3).padStart(10)}${score.recall.toFixed(3).padStart(10)}${String(score.support).padStart(10)}`);
  }
  lines.push(
    "",
    `return dates: ${evaluation.returnDate.correct}/${evaluation.returnDate.total} read right; ${evaluation.noReturnDate.correct}/${evaluation.noReturnDate.total} without one left without one`,
  );
  if (evaluation.misclassified.length) {
    lines.push("", `misclassified (${evaluation.misclassified.length}):`);
    for (const m of evaluation.misclassified) lines.push(`  line ${m.line} [${m.lang}] expected ${m.expected}, got ${m.got}: ${oneLine(`${m.subject} | ${m.text}`)}`);
  }
  if (evaluation.wrongReturnDates.length) {
    lines.push("", `wrong return dates (${evaluation.wrongReturnDates.length}):`);
    for (const w of evaluation.wrongReturnDates) lines.push(`  line ${w.line} expected ${w.expected ?? "none"}, got ${w.got ?? "none"}: ${oneLine(`${w.subject} | ${w.text}`)}`);
  }
  return lines.join("\n");
}
