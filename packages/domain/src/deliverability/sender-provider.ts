import { providerOfSmtpHost } from "../audience/mail-provider.js";

/** A mail provider whose SPF include and DKIM selectors are known. */
export type SenderProvider = "google" | "microsoft";

export interface ProviderRecords {
  name: string;
  /** what the sender domain's SPF record must include for the provider's servers */
  spfInclude: string;
  /** the DKIM selectors the provider signs with */
  dkimSelectors: string[];
}

export const PROVIDER_RECORDS: Record<SenderProvider, ProviderRecords> = {
  google: { name: "Google", spfInclude: "_spf.google.com", dkimSelectors: ["google"] },
  microsoft: { name: "Microsoft 365", spfInclude: "spf.protection.outlook.com", dkimSelectors: ["selector1", "selector2"] },
};

/** The provider of an SMTP host whose records we know (smtp.gmail.com: Google; smtp.office365.com: Microsoft 365), or null. */
export function senderProviderOf(host: string): SenderProvider | null {
  const provider = providerOfSmtpHost(host);
  return provider === "other" ? null : provider;
}
