-- CreateEnum
CREATE TYPE "DeliveryOutcome" AS ENUM ('accepted', 'unknown');

-- AlterTable
ALTER TABLE "step_sends" ADD COLUMN     "outcome" "DeliveryOutcome";

