-- blocklist_entries_kind_check: a blocklist entry blocks one address or a whole domain.
-- schema.prisma has no CHECK.
--
-- Used by: apps/api/src/services/add-blocklist-entries.ts (writes entries),
--   packages/domain/src/audience/blocklist.ts (matches them)
-- Last changed by migration: 20261124102930_issue15_sequence_features
ALTER TABLE "blocklist_entries" ADD CONSTRAINT "blocklist_entries_kind_check" CHECK ("kind" IN ('email', 'domain'));
