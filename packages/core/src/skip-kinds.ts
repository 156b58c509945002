/** Why an enrollment or one of its steps was not sent (enrollment_skips.kind). */
export const SKIP_KINDS = ["mx_invalid", "cross_campaign_duplicate", "blocklisted", "condition_not_met", "disposable", "role_account"] as const;
export type SkipKindName = (typeof SKIP_KINDS)[number];
