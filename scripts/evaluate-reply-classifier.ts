// pnpm classifier:evaluate: the reply-category rules over the corpus
// (packages/domain/test/fixtures/reply-corpus.jsonl): precision, recall and support per
// category, the return dates read from out-of-office examples, every misclassified
// example; writes bench/results/reply-classifier.json and exits 1 when any category's
// precision or recall is below 0.9 (CATEGORY_SCORE_FLOOR).
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { evaluateCategories, formatEvaluation, readCorpus, shortfalls } from "../packages/domain/src/inbound/evaluate-categories.js";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const evaluation = evaluateCategories(readCorpus(join(root, "packages/domain/test/fixtures/reply-corpus.jsonl")));
console.log(formatEvaluation(evaluation));

const result = {
  generated_at: new Date().toISOString(),
  corpus_size: evaluation.corpusSize,
  per_category: evaluation.perCategory,
  return_date: evaluation.returnDate,
  no_return_date: evaluation.noReturnDate,
  misclassified: evaluation.misclassified.map(({ line, expected, got }) => ({ line, expected, got })),
};
const path = join(root, "bench/results/reply-classifier.json");
mkdirSync(dirname(path), { recursive: true });
writeFileSync(path, JSON.stringify(result, null, 2) + "\n");

const failing = shortfalls(evaluation);
if (failing.length) {
  console.error(`\nbelow 0.9: ${failing.join("; ")}`);
  process.exit(1);
}
