import type { GetPromptResult, Prompt } from "@modelcontextprotocol/sdk/types.js";

/** Prompts: conversations a user can start from their MCP client's prompt menu. */
export const PROMPTS: Prompt[] = [
  {
    name: "set_up_first_campaign",
    title: "Set up a first campaign",
    description: "Walks the user through a first cold-email campaign: inboxes, steps, contacts, a test send, then the dispatch, confirming before anything is sent.",
    arguments: [
      { name: "goal", description: "What the campaign is for (e.g. 'book demos with CTOs of logistics companies').", required: false },
      { name: "test_email", description: "The user's own address for the test send.", required: false },
    ],
  },
];

function firstCampaignText(goal: string | undefined, testEmail: string | undefined): string {
  return [
    `Help me set up my first email campaign with the outreach tools${goal ? `. Its goal: ${goal}` : ""}.`,
    "",
    "Go step by step and ask me for what you need; never invent a password, an address or a contact.",
    "1. Inboxes: ask which mailbox(es) to send from: SMTP host, port, username, password and from address (and IMAP host/port to detect replies), and a daily limit per inbox (start low, 30 to 50 a day for a new inbox).",
    '2. Steps: draft step 1 and one or two follow-ups with me (subject and body; merge tags such as {{first_name}} or {{company}} with a fallback in quotes, e.g. {{first_name | "there"}}; delay_minutes after the previous step, e.g. 4320 for three days; step 1 has 0). Keep them short and plain.',
    "3. Create the campaign with create_campaign (ask me about a schedule: days, hours and time zone). Show me its id.",
    "4. Contacts: take my list, import it with import_contacts, tell me how many rows were valid and which were not, then enroll_contacts with the import's id.",
    "5. Check: preview_campaign for one of the contacts, and point out merge tags with no value (missing_tags).",
    `6. Test: call test_send without confirm${testEmail ? ` for ${testEmail}` : " for my own address"}, show me the preview, and only after I agree call it again with confirm: true. Ask me to check the email in my inbox.`,
    "7. Dispatch: call dispatch_campaign without confirm, show me the preview (contacts, emails, inboxes, first send time, plan allowance left, step 1 as rendered) and wait for my explicit yes before calling it with confirm: true.",
    "8. Afterwards: get_campaign shows the stats, list_replies the answers.",
  ].join("\n");
}

export function getPrompt(name: string, args: Record<string, string> | undefined): GetPromptResult | null {
  if (name !== "set_up_first_campaign") return null;
  return {
    description: PROMPTS[0]!.description,
    messages: [{ role: "user", content: { type: "text", text: firstCampaignText(args?.goal || undefined, args?.test_email || undefined) } }],
  };
}
