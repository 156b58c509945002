-- CreateTable
-- UNLOGGED: staged rows live for one request; after a crash the table is simply
-- empty, which is what an interrupted upload should leave (no WAL written for them).
CREATE UNLOGGED TABLE "contact_import_staged_rows" (
    "uploadId" UUID NOT NULL,
    "email" TEXT NOT NULL,
    "ord" INTEGER NOT NULL,
    "firstName" TEXT,
    "lastName" TEXT,
    "company" TEXT,

    CONSTRAINT "contact_import_staged_rows_pkey" PRIMARY KEY ("uploadId","email","ord")
);
