import { createHash } from "node:crypto";

/** One A/B variant of a sequence step, as stored in sequence_steps.variants. */
export interface StepVariant {
  id: string;
  subject: string;
  bodyHtml: string;
  weight: number;
}

/** The variants of a sequence_steps row (null or anything malformed: the step has none). */
export function parseStepVariants(value: unknown): StepVariant[] | null {
  if (!Array.isArray(value) || value.length === 0) return null;
  const variants = value.filter(
    (v): v is StepVariant =>
      v !== null && typeof v === "object" && typeof v.id === "string" && typeof v.subject === "string" && typeof v.bodyHtml === "string" && Number.isInteger(v.weight) && v.weight > 0,
  );
  return variants.length === value.length ? variants : null;
}

/**
 * The variant an enrollment gets for a step: a point in [0, total weight)
 * derived from a hash of (enrollment, step position), so every computation of
 * it (a retry, a resend, another sender, the preview) gives the same variant,
 * and enrollments spread over the variants in proportion to their weights.
 */
export function pickVariant<V extends { weight: number }>(variants: readonly V[], enrollmentId: string, stepPosition: number): V {
  if (variants.length === 0) throw new Error("a step with variants has at least one");
  const total = variants.reduce((sum, v) => sum + v.weight, 0);
  const hash = createHash("sha256").update(`${enrollmentId.toLowerCase()}:${stepPosition}`).digest();
  // 48 bits of the hash, scaled to the total weight: uniform enough for any weight up to 1000 x 10 variants
  const point = Math.floor((hash.readUIntBE(0, 6) / 2 ** 48) * total);
  let upTo = 0;
  for (const variant of variants) {
    upTo += variant.weight;
    if (point < upTo) return variant;
  }
  return variants[variants.length - 1]!;
}

/** The subject and body an enrollment receives for a step, with the variant's id (null for a step without variants). */
export function stepContentFor(
  step: { subject: string; bodyHtml: string; variants?: unknown },
  enrollmentId: string,
  stepPosition: number,
): { subject: string; bodyHtml: string; variantId: string | null } {
  const variants = parseStepVariants(step.variants ?? null);
  if (!variants) return { subject: step.subject, bodyHtml: step.bodyHtml, variantId: null };
  const variant = pickVariant(variants, enrollmentId, stepPosition);
  return { subject: variant.subject, bodyHtml: variant.bodyHtml, variantId: variant.id };
}
