import { AppError, EgressRefusedError, type EgressGuard } from "@outreach/core";

export interface HostField {
  /** the request field, as validation messages name it, e.g. "campaign.smtp_credentials[0].smtp_host" */
  field: string;
  host: string;
}

/**
 * The save-time half of the egress guard: a host that is, or resolves to, an
 * internal address is refused with 422 validation_failed naming the field. A
 * name that does not resolve yet is accepted (DNS may be set up after the
 * credential); the guard checks again at every connect.
 */
export async function checkEgressHosts(guard: EgressGuard, hosts: HostField[]): Promise<void> {
  const errors: Array<{ field: string; message: string }> = [];
  await Promise.all(
    hosts.map(async ({ field, host }) => {
      try {
        await guard.resolve(host);
      } catch (err) {
        if (!(err instanceof EgressRefusedError)) throw err;
        if (err.kind === "internal") errors.push({ field, message: `${field} ${err.reason}` });
      }
    }),
  );
  if (errors.length === 0) return;
  errors.sort((a, b) => a.field.localeCompare(b.field));
  throw new AppError("validation_failed", errors.map((e) => e.message).join(", "), { errors });
}
