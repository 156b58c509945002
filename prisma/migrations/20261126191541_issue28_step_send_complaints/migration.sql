-- AlterTable
ALTER TABLE "step_sends" ADD COLUMN     "complainedAt" TIMESTAMPTZ(3);

