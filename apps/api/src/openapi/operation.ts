import type Joi from "joi";
import type { ErrorCode } from "@outreach/core";
import type { JsonSchema } from "./json-schema.js";

export type HttpMethod = "get" | "post" | "put" | "patch" | "delete" | "head";

/** A success (or redirect) answer of an operation. */
export interface SuccessResponse {
  description: string;
  /** the JSON body's schema; absent for a body that is not JSON or no body */
  schema?: JsonSchema;
  /** defaults to application/json when a schema is given */
  contentType?: string;
  /** extra response headers, by name */
  headers?: Record<string, { description: string; schema?: JsonSchema }>;
}

/**
 * One route of the API as the document describes it. Request schemas are the
 * joi schemas the route validates with; response schemas are the ones declared
 * next to the serializers.
 */
export interface OperationSpec {
  method: HttpMethod;
  /** Express-style path, as mounted: /campaigns/:id */
  path: string;
  operationId: string;
  tag: string;
  summary: string;
  description?: string;
  /** false for routes that take no API key (signup, tracking, health, signed provider calls) */
  auth: boolean;
  /** honours Idempotency-Key */
  idempotent?: boolean;
  /** a list page: limit/starting_after, X-Has-More and Link */
  paged?: boolean;
  /** descriptions of the path parameters, by name (each is a string; ids are UUIDs) */
  params?: Record<string, string>;
  /** the query string (a joi object schema, coerced from text) */
  query?: Joi.ObjectSchema;
  /** the request body */
  body?: {
    schema: Joi.Schema | JsonSchema;
    /** the resource's wrapper key: the body may also be sent as {"<wrapper>": {...}} */
    wrapper?: string;
    required?: boolean;
    contentType?: string;
    description?: string;
  };
  /** success answers by status */
  responses: Record<number, SuccessResponse>;
  /** every error code the operation can answer beyond the ones every route shares */
  errors?: ErrorCode[];
  /**
   * false for routes that answer their failures themselves and never with the
   * JSON envelope (the links in emails: pages and pixels), whose every answer is in `responses`
   */
  envelopeErrors?: boolean;
}

export const defineOperations = (operations: OperationSpec[]): OperationSpec[] => operations;
