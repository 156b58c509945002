import { ADDRESS_STATUSES, type AddressCheck } from "@outreach/domain";
import { array, boolean, component, object, oneOfValues, string } from "../openapi/json-schema.js";

/** One address's checks (POST /contacts/verify). */
export function serializeAddressCheck(check: AddressCheck) {
  return { email: check.email, status: check.status, syntax: check.syntax, mx: check.mx, disposable: check.disposable, role: check.role, reason: check.reason };
}

export const addressCheckSchema = component(
  "AddressCheck",
  object({
    email: string({ description: "The address as it was sent." }),
    status: oneOfValues([...ADDRESS_STATUSES], "invalid: bad syntax or no mail server; risky: a disposable-mail domain, a role account, or an MX look-up without an answer; valid otherwise."),
    syntax: boolean({ description: "The address passes the rule contact imports apply." }),
    mx: boolean({ description: "An MX record was found for its domain (false for no MX, a domain that does not exist, or no answer)." }),
    disposable: boolean({ description: "Its domain, or a parent of it, is on the maintained list of disposable-mail domains." }),
    role: boolean({ description: "A role account (info@, sales@, no-reply@...), compared ignoring case, dots, dashes, underscores and a +tag." }),
    reason: string({ description: "A short readable explanation of the status." }),
  }),
);

export const addressChecksSchema = array(addressCheckSchema);
