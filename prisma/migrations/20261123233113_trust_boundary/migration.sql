-- AlterTable
ALTER TABLE "smtp_credentials" ADD COLUMN     "smtpLastError" TEXT,
ADD COLUMN     "smtpLastErrorAt" TIMESTAMPTZ(3);

-- CreateTable
CREATE TABLE "delivered_links" (
    "enrollmentId" UUID NOT NULL,
    "accountId" UUID NOT NULL,
    "campaignId" UUID NOT NULL,
    "contactId" UUID NOT NULL,
    "email" TEXT NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "delivered_links_pkey" PRIMARY KEY ("enrollmentId")
);

-- CreateIndex
CREATE INDEX "delivered_links_createdAt_idx" ON "delivered_links"("createdAt");

