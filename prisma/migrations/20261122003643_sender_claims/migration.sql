-- AlterTable
ALTER TABLE "step_sends" ADD COLUMN     "claimedBy" TEXT;

