import { foldText, type InboundFacts } from "./inbound-facts.js";

/**
 * A whole subject or first line that asks to be taken off the list (folded:
 * lower case, accents removed, end punctuation dropped): "unsubscribe",
 * "Unsubscribe me", "please unsubscribe", "remove me from your list", "stop",
 * and the common words in de, fr, es, it, nl, pt.
 */
const REQUEST = new RegExp(
  "^(?:(?:please|pls|plz|kindly|bitte|svp|por favor|per favore|graag|alstublieft)[ ,]+)?" +
    "(?:unsubscribe|unsub|opt[- ]?out|remove|stop|abmelden|austragen|abbestellen|(?:se )?desabonner|desinscri(?:re|ption|bir)|" +
    "(?:dar(?:me)? de )?baja|uitschrijven|afmelden|disiscrivi(?:mi)?|cancellami|descadastrar)" +
    "(?: (?:emailing|e-mailing|mailing|contacting|writing to))?" +
    "(?: me)?" +
    "(?: (?:from|off) (?:(?:this|your|the|all|these) )?(?:list|mailing list|mailinglist|emails?|mails?|mailings?|newsletters?))?" +
    "(?:[ ,]+(?:please|pls|plz|thanks|thank you))?$",
);

/** Reply and forward prefixes of the common clients and languages, and gateway tags. */
const SUBJECT_PREFIX = /^(?:\[[^\]]{0,40}\]\s*|(?:re|aw|sv|vs|antw|antwort|rif|r|fw|fwd|wg|tr|enc|rv|doorst)\s*(?:\[\d+\])?\s*:\s*)/i;

/** The start of quoted text: "On ... wrote:" in the languages of the subjects above, a quoted header block, or a separator. */
const QUOTE_INTRO = /\b(?:wrote|schrieb|a ecrit|escribio|ha scritto|schreef|escreveu)\b.*:\s*$|^(?:wrote|schrieb|a ecrit|escribio|ha scritto|schreef|escreveu)$/;
const QUOTE_SEPARATOR =
  /^(?:-{2,}\s*(?:original message|ursprungliche nachricht|message d'origine|mensaje original|messaggio originale|oorspronkelijk bericht|mensagem original|forwarded message)|_{10,})/;
const QUOTED_HEADER = /^\*?(?:from|von|de|da|van)\s*:\*?\s/;
const QUOTED_HEADER_NEXT = /^\*?(?:sent|date|gesendet|datum|envoye|enviado|inviato|verzonden|data|to|an|a|aan|para|subject|betreff|objet|asunto|oggetto|onderwerp|assunto)\s*:/;
/** A signature or a client's tag line ends what the person wrote. */
const SIGNATURE = /^(?:-- ?$|sent from my |get outlook for |von meinem .* gesendet|envoye de mon |enviado desde mi |inviato da |verzonden (?:vanaf|met) |enviado do meu )/;

/** Text that may follow the request and still say nothing more (a greeting, a name, a thank-you). */
const AFTERWORD_LIMIT = 160;

function isRequest(line: string): boolean {
  return REQUEST.test(
    foldText(line)
      .replace(/[\s.!?,;:)\]]+$/, "")
      .replace(/^[\s(\[]+/, ""),
  );
}

/** Whether the subject, without reply prefixes and tags, is an unsubscribe request (as our List-Unsubscribe mailto sends it). */
export function isUnsubscribeSubject(subject: string): boolean {
  let rest = subject.trim();
  for (let previous = ""; previous !== rest;) {
    previous = rest;
    rest = rest.replace(SUBJECT_PREFIX, "").trim();
  }
  return rest !== "" && isRequest(rest);
}

/** The non-empty lines the sender wrote, before any quoted message or signature. */
export function ownLines(text: string): string[] {
  const lines = text.split("\n").map((line) => line.slice(0, 1000).trim());
  const own: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const folded = foldText(line);
    if (line.startsWith(">") || QUOTE_SEPARATOR.test(folded) || SIGNATURE.test(folded)) break;
    if (QUOTED_HEADER.test(folded) && lines.slice(i + 1, i + 4).some((next) => QUOTED_HEADER_NEXT.test(foldText(next)))) break;
    if (QUOTE_INTRO.test(folded)) {
      // a client may wrap "On <date>, <name> <address>" and put "wrote:" on a line of its own
      if (/^(?:wrote|schrieb|a ecrit|escribio|ha scritto|schreef|escreveu)\s*:?$/.test(folded) && lines[i - 1]) own.pop();
      break;
    }
    if (line) own.push(line);
  }
  return own;
}

/**
 * An unsubscribe request by mail: the subject is one (after "Re:" and the like),
 * or the body starts with one and says nothing substantive after it before the
 * quoted message or signature. The word deep in a longer text or in quoted text
 * does not count. Whether the sender is the contact is the caller's check.
 */
export function isUnsubscribeRequest(facts: Pick<InboundFacts, "subject" | "text">): boolean {
  if (isUnsubscribeSubject(facts.subject)) return true;
  const [first, ...rest] = ownLines(facts.text);
  if (first === undefined || !isRequest(first)) return false;
  return rest.join(" ").length <= AFTERWORD_LIMIT;
}
