-- contact_import_staged_rows is UNLOGGED: staged rows live for one upload request (validated
-- rows written in chunks, then imported); after a crash the table is simply empty, which is
-- what an interrupted upload should leave, and no WAL is written for them. schema.prisma
-- declares its columns; it cannot say UNLOGGED.
--
-- Used by: apps/api/src/services/stage-contact-rows.ts (writes and clears the rows),
--   apps/api/src/services/import-contacts.ts (reads them)
-- Last changed by migration: 20261124053317_contact_import_staging
ALTER TABLE "contact_import_staged_rows" SET UNLOGGED;
