-- AlterTable
ALTER TABLE "contact_import_staged_rows" ADD COLUMN     "timezone" TEXT;

