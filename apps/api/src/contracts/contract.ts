import type Joi from "joi";
import type { RequestContracts } from "./generated.js";

/** The name of a request contract: a key of the generated RequestContracts. */
export type ContractName = keyof RequestContracts;

declare const validatedType: unique symbol;

/**
 * A request schema paired with the type of the values it validates: the type
 * generated from this very schema (scripts/generate-contract-types.mjs), so
 * the two cannot drift apart. validate(), validateBody(), validateResource()
 * and validateQuery() take only contracts, and return that type.
 */
export type Contract<T> = Joi.ObjectSchema<T> & { readonly [validatedType]: T };

const registered: Array<{ name: ContractName; schema: Joi.ObjectSchema }> = [];

/**
 * Names a request schema: `pnpm contracts` generates the type `name` from it
 * (the values joi returns: defaults applied, strings trimmed) and the schema is
 * typed with it. Call it where the schema is defined, at module level (the
 * generator finds the contracts by importing the app's modules).
 */
export function contract<N extends ContractName>(name: N, schema: Joi.ObjectSchema): Contract<RequestContracts[N]> {
  registered.push({ name, schema });
  return schema as Contract<RequestContracts[N]>;
}

/** Every contract defined by the modules imported so far, in definition order (for the generator). */
export function registeredContracts(): ReadonlyArray<{ name: string; schema: Joi.ObjectSchema }> {
  return registered;
}
