import { createOutreachSchema, listOutreachesQuery, updateOutreachSchema } from "../../routes/outreaches.js";
import { outreachSchema } from "../../serializers/outreach.js";
import { array } from "../json-schema.js";
import { defineOperations } from "../operation.js";

const id = { id: "The outreach's id." };

/** routes/outreaches.ts: groups of sibling campaigns. */
export const outreachOperations = defineOperations([
  {
    method: "post",
    path: "/outreaches",
    operationId: "createOutreach",
    tag: "Outreaches",
    summary: "Create an outreach",
    description:
      "A group of sibling campaigns (they join it with `outreach_id`). With `unique_contacts`, a contact already enrolled in one of its campaigns is skipped when enrolled in another (`cross_campaign_duplicate`).",
    auth: true,
    idempotent: true,
    body: { schema: createOutreachSchema, wrapper: "outreach" },
    responses: { 201: { description: "The outreach.", schema: outreachSchema } },
  },
  {
    method: "get",
    path: "/outreaches",
    operationId: "listOutreaches",
    tag: "Outreaches",
    summary: "List outreaches",
    auth: true,
    paged: true,
    query: listOutreachesQuery,
    responses: { 200: { description: "A page of outreaches, newest first.", schema: array(outreachSchema) } },
  },
  {
    method: "get",
    path: "/outreaches/:id",
    operationId: "getOutreach",
    tag: "Outreaches",
    summary: "Get an outreach",
    auth: true,
    params: id,
    responses: { 200: { description: "The outreach with its campaigns' ids.", schema: outreachSchema } },
    errors: ["outreach_not_found"],
  },
  {
    method: "patch",
    path: "/outreaches/:id",
    operationId: "updateOutreach",
    tag: "Outreaches",
    summary: "Change an outreach",
    auth: true,
    params: id,
    body: { schema: updateOutreachSchema, wrapper: "outreach" },
    responses: { 200: { description: "The outreach as changed.", schema: outreachSchema } },
    errors: ["outreach_not_found"],
  },
  {
    method: "delete",
    path: "/outreaches/:id",
    operationId: "deleteOutreach",
    tag: "Outreaches",
    summary: "Delete an outreach",
    description: "Its campaigns are detached from it, not deleted.",
    auth: true,
    params: id,
    responses: { 200: { description: "The outreach as it was: campaign_ids names the campaigns detached.", schema: outreachSchema } },
    errors: ["outreach_not_found"],
  },
]);
