-- AlterTable
ALTER TABLE "contact_imports" ADD COLUMN     "disposableCount" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "roleCount" INTEGER NOT NULL DEFAULT 0;

